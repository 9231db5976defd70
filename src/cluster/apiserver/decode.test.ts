import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { StatusError } from '../api/errors';
import { QUANTITY_FORMAT_ERROR } from '../api/quantity';
import { checkDecode, decodeTypeError, goKindKey, goStructFields, parseGoType } from './decode';

type Obj = Record<string, unknown>;
const deploy = (podSpec: unknown, extra: Obj = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: podSpec }, ...extra },
});
const container = (c: Obj): Obj => ({ containers: [{ name: 'c', image: 'nginx', ...c }] });
const svc = (port: Obj): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, ...port }] } });
const P = 'spec.template.spec';
const CT = `Container.${P}.containers`;

/** [case, struct key, object, exact error or undefined when it decodes] */
const CASES: [string, string, Obj, string | undefined][] = [
  [
    'string where a list goes',
    'apps/v1.Deployment',
    deploy({ containers: 'nginx' }),
    `json: cannot unmarshal string into Go struct field PodSpec.${P}.containers of type []v1.Container`,
  ],
  [
    'string as a list element',
    'apps/v1.Deployment',
    deploy({ containers: ['nginx'] }),
    `json: cannot unmarshal string into Go struct field PodSpec.${P}.containers of type v1.Container`,
  ],
  [
    'number for a string',
    'apps/v1.Deployment',
    deploy(container({ image: 1.25 })),
    `json: cannot unmarshal number into Go struct field ${CT}.image of type string`,
  ],
  [
    'bool for an int32',
    'apps/v1.Deployment',
    deploy(container({ ports: [{ containerPort: true }] })),
    `json: cannot unmarshal bool into Go struct field ContainerPort.${P}.containers.ports.containerPort of type int32`,
  ],
  [
    'string for an int32',
    'apps/v1.Deployment',
    deploy(container({}), { replicas: '3' }),
    'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  ],
  [
    'fraction for an int64',
    'apps/v1.Deployment',
    deploy({ ...container({}), terminationGracePeriodSeconds: 1.5 }),
    `json: cannot unmarshal number 1.5 into Go struct field PodSpec.${P}.terminationGracePeriodSeconds of type int64`,
  ],
  [
    'int32 overflow',
    'apps/v1.Deployment',
    deploy(container({}), { replicas: 2 ** 31 }),
    'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32',
  ],
  [
    'object for a string',
    'apps/v1.Deployment',
    deploy(container({ name: { a: 1 } })),
    `json: cannot unmarshal object into Go struct field ${CT}.name of type string`,
  ],
  [
    'array for a map',
    'apps/v1.Deployment',
    deploy({ ...container({}), nodeSelector: ['a'] }),
    `json: cannot unmarshal array into Go struct field PodSpec.${P}.nodeSelector of type map[string]string`,
  ],
  [
    'number as a label value',
    'core/v1.ConfigMap',
    { metadata: { name: 'c', labels: { a: 1 } } },
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
  ],
  [
    'named string type',
    'apps/v1.Deployment',
    deploy(container({ imagePullPolicy: 1 })),
    `json: cannot unmarshal number into Go struct field ${CT}.imagePullPolicy of type v1.PullPolicy`,
  ],
  [
    'string for a struct',
    'apps/v1.Deployment',
    deploy(container({ livenessProbe: 'http' })),
    `json: cannot unmarshal string into Go struct field ${CT}.livenessProbe of type v1.Probe`,
  ],
  [
    'string for a ResourceList',
    'apps/v1.Deployment',
    deploy(container({ resources: { limits: '1' } })),
    `json: cannot unmarshal string into Go struct field ResourceRequirements.${P}.containers.resources.limits of type v1.ResourceList`,
  ],
  [
    'string for metadata',
    'core/v1.ConfigMap',
    { metadata: 'c' },
    'json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
  ],
  [
    'number in ConfigMap data',
    'core/v1.ConfigMap',
    { metadata: { name: 'c' }, data: { port: 80 } },
    'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  ],
  ['non-base64 Secret data', 'core/v1.Secret', { metadata: { name: 's' }, data: { a: 'x!' } }, 'illegal base64 data at input byte 1'],
  [
    'number for Secret data',
    'core/v1.Secret',
    { metadata: { name: 's' }, data: { a: 1 } },
    'json: cannot unmarshal number into Go struct field Secret.data of type []uint8',
  ],
  [
    'null is the zero value',
    'apps/v1.Deployment',
    deploy({ containers: null, nodeSelector: null, terminationGracePeriodSeconds: null }),
    undefined,
  ],
  ['null list elements and map values', 'apps/v1.Deployment', deploy({ containers: [null], nodeSelector: { a: null } }), undefined],
  ['int-or-string: number', 'core/v1.Service', svc({ targetPort: 8080 }), undefined],
  ['int-or-string: string', 'core/v1.Service', svc({ targetPort: 'http' }), undefined],
  [
    'int-or-string: bool',
    'core/v1.Service',
    svc({ targetPort: true }),
    'json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'int-or-string: fraction',
    'core/v1.Service',
    svc({ targetPort: 80.5 }),
    'json: cannot unmarshal number 80.5 into Go struct field ServicePort.spec.ports.targetPort of type int32',
  ],
  [
    'quantity keeps its own message',
    'apps/v1.Deployment',
    deploy(container({ resources: { limits: { cpu: 'lots' } } })),
    QUANTITY_FORMAT_ERROR,
  ],
  ['quantity as a number', 'apps/v1.Deployment', deploy(container({ resources: { requests: { cpu: 0.5, memory: '64Mi' } } })), undefined],
  [
    'quantity error stops decoding and wins over an earlier type error',
    'apps/v1.Deployment',
    deploy(container({ args: 'x', resources: { limits: { cpu: true } } })),
    QUANTITY_FORMAT_ERROR,
  ],
  [
    'first error in sorted key order wins',
    'apps/v1.Deployment',
    deploy(container({ workingDir: 1, args: 2 })),
    `json: cannot unmarshal number into Go struct field ${CT}.args of type []string`,
  ],
  [
    'timestamp of the wrong type',
    'core/v1.ConfigMap',
    { metadata: { name: 'c', creationTimestamp: 5 } },
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
  ],
  ["unknown fields are not this step's business", 'apps/v1.Deployment', deploy(container({ imagePullPolcy: 3 })), undefined],
  ['opaque RawExtension', 'apps/v1.ControllerRevision', { metadata: { name: 'r' }, data: 'anything', revision: 1 }, undefined],
];

describe('decodeTypeError', () => {
  it.each(CASES)('%s', (_n, key, obj, want) => {
    expect(decodeTypeError(key, obj)).toBe(want);
  });
});

describe('the generated Go type table', () => {
  it.each([
    ['apps', 'v1', 'Deployment', 'apps/v1.Deployment'],
    ['', 'v1', 'Pod', 'core/v1.Pod'],
    ['autoscaling', 'v2', 'HorizontalPodAutoscaler', 'autoscaling/v2.HorizontalPodAutoscaler'],
    ['example.com', 'v1', 'Foo', undefined],
  ])('%s/%s %s → %s', (g, v, k, want) => {
    expect(goKindKey(g, v, k)).toBe(want);
  });

  it.each([
    ['core/v1.PodSpec', 'containers', '[]v1.Container'],
    ['core/v1.PodSpec', 'terminationGracePeriodSeconds', 'int64'],
    ['core/v1.PodSpec', 'priority', 'int32'],
    ['core/v1.PodSpec', 'resources', 'v1.ResourceRequirements'],
    ['core/v1.ServicePort', 'targetPort', 'intstr.IntOrString'],
    ['core/v1.ResourceRequirements', 'limits', 'v1.ResourceList'],
    ['meta/v1.ObjectMeta', 'labels', 'map[string]string'],
    ['meta/v1.ObjectMeta', 'uid', 'types.UID'],
    ['autoscaling/v2.HorizontalPodAutoscalerSpec', 'metrics', '[]v2.MetricSpec'],
    ['core/v1.Secret', 'data', 'map[string][]uint8'],
  ])('%s.%s prints as %s', (key, field, goName) => {
    expect(goStructFields(key)?.get(field)?.name).toBe(goName);
  });

  it('parses named types over maps and slices', () => {
    expect(parseGoType('[]v1.Capability=string')).toEqual({
      k: 'slice',
      name: '[]v1.Capability',
      elem: { k: 'string', name: 'v1.Capability' },
    });
  });
});

describe('checkDecode', () => {
  it('wraps the error as transformDecodeError does (kind and version from the body)', () => {
    const err = (() => {
      try {
        checkDecode({ group: 'apps', version: 'v1', kind: 'Deployment' }, deploy({ containers: 'nginx' }));
      } catch (e) {
        return e;
      }
    })() as StatusError;
    expect(err).toBeInstanceOf(StatusError);
    expect(err.status.code).toBe(400);
    expect(err.status.reason).toBe('BadRequest');
    expect(err.message).toBe(
      `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field PodSpec.${P}.containers of type []v1.Container`,
    );
  });
});

describe('through Cluster.apply (kubectl apply -f -)', () => {
  const cases: [string, string, string][] = [
    [
      'containers: nginx',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers: nginx\n',
      'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    ],
    [
      'replicas: "3"',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: "3"\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers: [{name: c, image: nginx}]\n',
      'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      'port: yes (a YAML 1.1 bool)',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: yes\n',
      'Error from server (BadRequest): error when creating "STDIN": Service in version "v1" cannot be handled as a Service: json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.port of type int32',
    ],
  ];
  it.each(cases)('%s', (_n, manifest, want) => {
    const cluster = new Cluster();
    const [r] = cluster.apply(manifest);
    expect(r.action).toBe('error');
    expect(r.message).toBe(want);
    expect(cluster.api.getObject('deployments.apps', 'default', 'web')).toBeUndefined();
    expect(cluster.api.getObject('services', 'default', 's')).toBeUndefined();
  });

  it('an update (PUT) with a wrongly typed field is refused the same way, and the object is unchanged', () => {
    const cluster = new Cluster();
    const base = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "1"\n';
    expect(cluster.apply(base)[0].action).toBe('created');
    const live = cluster.api.getObject('configmaps', 'default', 'c')!;
    const bad = { ...live, data: { a: 1 } } as unknown as typeof live;
    expect(() => cluster.kubectlClient.resource('', 'configmaps').update(bad)).toThrow(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    );
    expect(cluster.api.getObject('configmaps', 'default', 'c')!.data).toEqual({ a: '1' });
  });
});
