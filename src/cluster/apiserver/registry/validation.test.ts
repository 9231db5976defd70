import { describe, expect, it } from 'vitest';
import { freshCluster } from '../../kubectl/apply.fixture';
import { StatusError, kubectlErrorMessage } from '../../api/errors';
import type { KObject } from '../../api/types';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const pod = (spec: object, name = 'p', meta: object = {}): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...meta },
  spec,
});
const ctr = (extra: object = {}) => ({ name: 'c', image: 'nginx:1.27', ...extra });
const tpl = (labels: Record<string, string> | undefined, spec: object = { containers: [ctr()] }) => ({
  metadata: labels ? { labels } : {},
  spec,
});
const hpaB = (behavior: object): KObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'h' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 5, behavior },
});
const deploy = (spec: object, name = 'd'): KObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec });

interface Case {
  name: string;
  group: string;
  resource: string;
  obj: KObject;
  /** what kubectl prints for the error (kubectlErrorMessage) */
  want: string;
  code?: number;
}

const cases: Case[] = [
  {
    name: 'pod name not a DNS subdomain',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr()] }, 'Foo_bar'),
    want: `The Pod "Foo_bar" is invalid: metadata.name: Invalid value: "Foo_bar": ${SUBDOMAIN}`,
  },
  {
    name: 'pod without containers',
    group: '',
    resource: 'pods',
    obj: pod({}),
    want: 'The Pod "p" is invalid: spec.containers: Required value',
  },
  {
    name: 'container without image',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [{ name: 'c' }] }),
    want: 'The Pod "p" is invalid: spec.containers[0].image: Required value',
  },
  {
    name: 'container name not a DNS label',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ name: 'Web_1' })] }),
    want: `The Pod "p" is invalid: spec.containers[0].name: Invalid value: "Web_1": ${LABEL}`,
  },
  {
    name: 'duplicate container names',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr(), ctr()] }),
    want: 'The Pod "p" is invalid: spec.containers[1].name: Duplicate value: "c"',
  },
  {
    name: 'unsupported restartPolicy',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr()], restartPolicy: 'Sometimes' }),
    want: 'The Pod "p" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
  },
  {
    name: 'containerPort out of range',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ ports: [{ containerPort: 70000 }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
  },
  {
    name: 'containerPort missing',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ ports: [{ name: 'http' }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Required value',
  },
  {
    name: 'port protocol',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ ports: [{ containerPort: 80, protocol: 'HTTP' }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
  },
  {
    name: 'volumeMount of a missing volume',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "data"',
  },
  {
    name: 'requests above limits',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1',
  },
  {
    name: 'liveness successThreshold',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ livenessProbe: { exec: { command: ['true'] }, successThreshold: 2 } })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
  },
  {
    name: 'probe without handler',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ readinessProbe: { periodSeconds: 5 } })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].readinessProbe: Required value: must specify a handler type',
  },
  {
    name: 'bad quantity is a 400 at decode',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ resources: { requests: { cpu: 'lots' } } })] }),
    want: 'Error from server (BadRequest): Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
    code: 400,
  },
  {
    name: 'unknown PriorityClass',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr()], priorityClassName: 'gold' }),
    want: 'Error from server (Forbidden): pods "p" is forbidden: no PriorityClass with name gold was found',
    code: 403,
  },
  {
    name: 'missing ServiceAccount',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr()], serviceAccountName: 'robot' }),
    want: 'Error from server (Forbidden): pods "p" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found',
    code: 403,
  },
  {
    name: 'label value',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr()] }, 'p', { labels: { app: 'a b' } }),
    want: "The Pod \"p\" is invalid: metadata.labels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  },
  {
    name: 'annotations over 256 KiB',
    group: '',
    resource: 'configmaps',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', annotations: { a: 'x'.repeat(262144) } } },
    want: 'The ConfigMap "big" is invalid: metadata.annotations: Too long: must have at most 262144 bytes',
  },
  {
    name: 'deployment selector does not match labels',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({ selector: { matchLabels: { app: 'web' } }, template: tpl({ app: 'nginx' }) }),
    want: 'The Deployment "d" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`',
  },
  {
    name: 'deployment without selector',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({ template: tpl({ app: 'nginx' }) }),
    want: 'The Deployment "d" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`',
  },
  {
    name: 'empty selector',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({ selector: {}, template: tpl({ app: 'nginx' }) }),
    want: 'The Deployment "d" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
  },
  {
    name: 'negative replicas',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({ replicas: -1, selector: { matchLabels: { app: 'a' } }, template: tpl({ app: 'a' }) }),
    want: 'The Deployment "d" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  },
  {
    name: 'deployment template restartPolicy Never',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({ selector: { matchLabels: { app: 'a' } }, template: tpl({ app: 'a' }, { containers: [ctr()], restartPolicy: 'Never' }) }),
    want: 'The Deployment "d" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  },
  {
    name: 'maxSurge and maxUnavailable both 0',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({
      selector: { matchLabels: { app: 'a' } },
      template: tpl({ app: 'a' }),
      strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
    }),
    want: 'The Deployment "d" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
  },
  {
    name: 'Recreate with rollingUpdate',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({
      selector: { matchLabels: { app: 'a' } },
      template: tpl({ app: 'a' }),
      strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } },
    }),
    want: 'The Deployment "d" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'',
  },
  {
    name: 'template container without image',
    group: 'apps',
    resource: 'deployments',
    obj: deploy({ selector: { matchLabels: { app: 'a' } }, template: tpl({ app: 'a' }, { containers: [{ name: 'c' }] }) }),
    want: 'The Deployment "d" is invalid: spec.template.spec.containers[0].image: Required value',
  },
  {
    name: 'job restartPolicy Always',
    group: 'batch',
    resource: 'jobs',
    obj: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { containers: [ctr()] } } } },
    want: 'The Job "j" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
  },
  {
    name: 'service name not DNS-1035',
    group: '',
    resource: 'services',
    obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: '1svc' }, spec: { ports: [{ port: 80 }] } },
    want: `The Service "1svc" is invalid: metadata.name: Invalid value: "1svc": ${DNS1035}`,
  },
  {
    name: 'service without ports',
    group: '',
    resource: 'services',
    obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'a' } } },
    want: 'The Service "s" is invalid: spec.ports: Required value',
  },
  {
    name: 'service port 0',
    group: '',
    resource: 'services',
    obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ targetPort: 80 }] } },
    want: 'The Service "s" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
  },
  {
    name: 'two service ports need names',
    group: '',
    resource: 'services',
    obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }, { port: 443 }] } },
    want: 'The Service "s" is invalid: \n* spec.ports[0].name: Required value\n* spec.ports[1].name: Required value',
  },
  {
    name: 'nodePort on ClusterIP',
    group: '',
    resource: 'services',
    obj: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, nodePort: 30080 }] } },
    want: 'The Service "s" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'',
  },
  {
    name: 'namespace name not a DNS label',
    group: '',
    resource: 'namespaces',
    obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'My_NS' } },
    want: `The Namespace "My_NS" is invalid: metadata.name: Invalid value: "My_NS": ${LABEL}`,
  },
  {
    name: 'configmap number value',
    group: '',
    resource: 'configmaps',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { port: 80 } } as KObject,
    want: 'Error from server (BadRequest): ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    code: 400,
  },
  {
    name: 'secret data not base64',
    group: '',
    resource: 'secrets',
    obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { p: 'not base64!' } },
    want: 'Error from server (BadRequest): Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3',
    code: 400,
  },
  {
    name: 'PVC without access modes',
    group: '',
    resource: 'persistentvolumeclaims',
    obj: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { resources: { requests: { storage: '1Gi' } } },
    },
    want: 'The PersistentVolumeClaim "c" is invalid: spec.accessModes: Required value: at least 1 access mode is required',
  },
  {
    name: 'HPA max below min',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, minReplicas: 3, maxReplicas: 2 },
    },
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
  },
  {
    name: 'env configMapKeyRef without name (NameIsDNSSubdomain of "")',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { key: 'k' } } }] })] }),
    want: `The Pod "p" is invalid: spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value: "": ${SUBDOMAIN}`,
  },
  {
    name: 'env secretKeyRef without name',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ env: [{ name: 'A', valueFrom: { secretKeyRef: { key: 'k' } } }] })] }),
    want: `The Pod "p" is invalid: spec.containers[0].env[0].valueFrom.secretKeyRef.name: Invalid value: "": ${SUBDOMAIN}`,
  },
  {
    name: 'env valueFrom beside value: the selector errors, then the value error',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ env: [{ name: 'A', value: 'v', valueFrom: { secretKeyRef: { name: 's' } } }] })] }),
    want: [
      'The Pod "p" is invalid: ',
      '* spec.containers[0].env[0].valueFrom.secretKeyRef.key: Required value',
      '* spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ].join('\n'),
  },
  {
    name: 'envFrom configMapRef without name',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ envFrom: [{ configMapRef: {} }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].envFrom[0].configMapRef.name: Required value',
  },
  {
    name: 'envFrom secretRef with an empty name',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ envFrom: [{ secretRef: { name: '' } }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].envFrom[0].secretRef.name: Required value',
  },
  {
    name: 'envFrom configMapRef name not a DNS subdomain',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ envFrom: [{ configMapRef: { name: 'Bad_Name' } }] })] }),
    want: `The Pod "p" is invalid: spec.containers[0].envFrom[0].configMapRef.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`,
  },
  {
    name: 'envFrom entry without a source (reported on the envFrom list)',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ envFrom: [{ prefix: 'P_' }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
  },
  {
    name: 'envFrom entry with both sources',
    group: '',
    resource: 'pods',
    obj: pod({ containers: [ctr({ envFrom: [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }] })] }),
    want: 'The Pod "p" is invalid: spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time',
  },
  {
    name: 'HPA behavior policy type not Pods or Percent',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleUp: { policies: [{ type: 'Foo', value: 1, periodSeconds: 15 }] } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleUp.policies[0].type: Unsupported value: "Foo": supported values: "Percent", "Pods"',
  },
  {
    name: 'HPA behavior policy value 0',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleUp: { policies: [{ type: 'Pods', value: 0, periodSeconds: 15 }] } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
  },
  {
    name: 'HPA behavior policy periodSeconds 0',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleDown: { policies: [{ type: 'Percent', value: 10, periodSeconds: 0 }] } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 0: must be greater than zero',
  },
  {
    name: 'HPA behavior policy periodSeconds above 1800',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleDown: { policies: [{ type: 'Percent', value: 10, periodSeconds: 1801 }] } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
  },
  {
    name: 'HPA behavior selectPolicy not Max, Min or Disabled',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleDown: { selectPolicy: 'Avg' } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleDown.selectPolicy: Unsupported value: "Avg": supported values: "Disabled", "Max", "Min"',
  },
  {
    name: 'HPA behavior stabilizationWindowSeconds negative',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleUp: { stabilizationWindowSeconds: -1 } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero',
  },
  {
    name: 'HPA behavior stabilizationWindowSeconds above 3600',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleDown: { stabilizationWindowSeconds: 3601 } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
  },
  {
    name: 'HPA behavior empty policies list (not defaulted)',
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    obj: hpaB({ scaleUp: { policies: [] } }),
    want: 'The HorizontalPodAutoscaler "h" is invalid: spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
  },
  {
    name: 'ingress path without pathType',
    group: 'networking.k8s.io',
    resource: 'ingresses',
    obj: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'i' },
      spec: { rules: [{ http: { paths: [{ path: '/', backend: { service: { name: 's', port: { number: 80 } } } }] } }] },
    },
    want: 'The Ingress "i" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
  },
  {
    name: 'CronJob without schedule',
    group: 'batch',
    resource: 'cronjobs',
    obj: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: { jobTemplate: { spec: { template: { spec: { containers: [ctr()], restartPolicy: 'Never' } } } } },
    },
    want: 'The CronJob "c" is invalid: spec.schedule: Required value',
  },
  {
    name: 'StorageClass without provisioner',
    group: 'storage.k8s.io',
    resource: 'storageclasses',
    obj: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' } },
    want: 'The StorageClass "sc" is invalid: provisioner: Required value',
  },
  {
    name: 'node taint without effect',
    group: '',
    resource: 'nodes',
    obj: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: { taints: [{ key: 'k' }] } },
    want: 'The Node "n" is invalid: spec.taints[0].effect: Required value',
  },
];

describe('validation: exact messages as kubectl prints them (pkg/apis/*/validation)', () => {
  it.each(cases)('$name', ({ group, resource, obj, want, code }) => {
    const { kubectl } = freshCluster();
    let err: unknown;
    try {
      kubectl
        .resource(group, resource)
        .create(
          obj.metadata.namespace ?? (resource === 'namespaces' || resource === 'nodes' || resource === 'storageclasses' ? '' : 'default'),
          obj,
        );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    expect(kubectlErrorMessage(err as StatusError)).toBe(want);
    expect((err as StatusError).code).toBe(code ?? 422);
  });
});

describe('update rules', () => {
  it('Deployment selector is immutable', () => {
    const { kubectl } = freshCluster();
    const d = kubectl.resource('apps', 'deployments');
    const cur = d.create('default', deploy({ selector: { matchLabels: { app: 'a' } }, template: tpl({ app: 'a' }) }));
    const next = JSON.parse(JSON.stringify(cur));
    next.spec.selector = { matchLabels: { app: 'b' } };
    next.spec.template.metadata.labels = { app: 'b' };
    expect(() => d.update(next)).toThrow(
      'Deployment.apps "d" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });

  it('Pod spec is immutable but for images', () => {
    const { kubectl } = freshCluster();
    const p = kubectl.resource('', 'pods');
    const cur = p.create('default', pod({ containers: [ctr()] }));
    const img = JSON.parse(JSON.stringify(cur));
    img.spec.containers[0].image = 'nginx:1.28';
    expect(p.update(img).spec.containers[0].image).toBe('nginx:1.28');
    const bad = JSON.parse(JSON.stringify(p.get('default', 'p')));
    bad.spec.containers[0].ports = [{ containerPort: 81 }];
    let err: StatusError | undefined;
    try {
      p.update(bad);
    } catch (e) {
      err = e as StatusError;
    }
    expect(
      kubectlErrorMessage(err!).startsWith(
        'The Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n  core.PodSpec{',
      ),
    ).toBe(true);
  });

  it('Service clusterIP is kept when an update omits it and may not change', () => {
    const { kubectl } = freshCluster();
    const s = kubectl.resource('', 'services');
    const cur = s.create('default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { type: 'NodePort', ports: [{ port: 80 }] },
    });
    const next = JSON.parse(JSON.stringify(cur));
    delete next.spec.clusterIP;
    delete next.spec.clusterIPs;
    delete next.spec.ports[0].nodePort;
    next.metadata.labels = { x: 'y' };
    const out = s.update(next);
    expect(out.spec.clusterIP).toBe(cur.spec.clusterIP);
    expect(out.spec.ports[0].nodePort).toBe(cur.spec.ports[0].nodePort);
    const moved = JSON.parse(JSON.stringify(out));
    moved.spec.clusterIP = '10.96.0.99';
    moved.spec.clusterIPs = ['10.96.0.99'];
    expect(() => s.update(moved)).toThrow('spec.clusterIPs[0]: Invalid value: []string{"10.96.0.99"}: may not change once set');
  });

  it('built-in PriorityClasses resolve without objects; a user class sets priority', () => {
    const { kubectl } = freshCluster();
    const p = kubectl
      .resource('', 'pods')
      .create('kube-system', pod({ containers: [ctr()], priorityClassName: 'system-cluster-critical' }));
    expect(p.spec.priority).toBe(2000000000);
    kubectl.resource('scheduling.k8s.io', 'priorityclasses').create('', {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000,
      preemptionPolicy: 'Never',
    });
    const q = kubectl.resource('', 'pods').create('default', pod({ containers: [ctr()], priorityClassName: 'high' }, 'q'));
    expect([q.spec.priority, q.spec.preemptionPolicy]).toEqual([1000, 'Never']);
  });

  it('user tolerations suppress the matching default ones', () => {
    const { kubectl } = freshCluster();
    const p = kubectl.resource('', 'pods').create('default', pod({ containers: [ctr()], tolerations: [{ operator: 'Exists' }] }));
    expect(p.spec.tolerations).toEqual([{ operator: 'Exists' }]);
    const q = kubectl.resource('', 'pods').create(
      'default',
      pod(
        {
          containers: [ctr()],
          tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
        },
        'q',
      ),
    );
    expect(q.spec.tolerations.map((t: { key: string; tolerationSeconds: number }) => [t.key, t.tolerationSeconds])).toEqual([
      ['node.kubernetes.io/unreachable', 60],
      ['node.kubernetes.io/not-ready', 300],
    ]);
  });
});
