/**
 * v1.33's SetDefaults_* for the kinds registry/more-defaults.ts covers, one case per kind:
 * the object stored after a create equals upstream's defaulted object (metadata aside).
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Cluster } from '../../cluster';
import { users } from '../../client/clientset';
import { StatusError } from '../../api/errors';

const c = new Cluster();
const user = users.kubectl();

/** Creates `yaml` and returns what was stored, without metadata/apiVersion/kind. */
function stored(yaml: string): Record<string, unknown> {
  const o = parse(yaml);
  const info = c.api.registry.forKind(o.apiVersion, o.kind)!;
  const r = c.api.create(user, info, info.namespaced ? 'default' : '', o);
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = r.object;
  return rest;
}

const POD_SPEC_DEFAULTS = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
};
const CONTAINER_DEFAULTS = {
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  resources: {},
};

describe('SetDefaults_* per kind', () => {
  it.each([
    [
      'ReplicationController: selector, labels and replicas from the template',
      `{apiVersion: v1, kind: ReplicationController, metadata: {name: rc}, spec: {template: {metadata: {labels: {app: rc}}, spec: {containers: [{name: c, image: "nginx:1.27"}]}}}}`,
      {
        spec: {
          replicas: 1,
          selector: { app: 'rc' },
          template: {
            metadata: { labels: { app: 'rc' }, creationTimestamp: null },
            spec: { containers: [{ name: 'c', image: 'nginx:1.27', ...CONTAINER_DEFAULTS }], ...POD_SPEC_DEFAULTS },
          },
        },
        status: {},
      },
    ],
    [
      'Endpoints: port protocol TCP',
      `{apiVersion: v1, kind: Endpoints, metadata: {name: ep}, subsets: [{addresses: [{ip: 10.0.0.2}], ports: [{port: 80}]}]}`,
      { subsets: [{ addresses: [{ ip: '10.0.0.2' }], ports: [{ port: 80, protocol: 'TCP' }] }] },
    ],
    [
      'EndpointSlice: port name "" and protocol TCP',
      `{apiVersion: discovery.k8s.io/v1, kind: EndpointSlice, metadata: {name: es}, addressType: IPv4, endpoints: [{addresses: [10.0.0.1]}], ports: [{port: 80}]}`,
      { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80, name: '', protocol: 'TCP' }] },
    ],
    [
      'LimitRange: Container default from max, defaultRequest from default, then min',
      `{apiVersion: v1, kind: LimitRange, metadata: {name: lr}, spec: {limits: [{type: Container, max: {cpu: "1"}, min: {memory: 64Mi}}, {type: Pod, max: {cpu: "2"}}]}}`,
      {
        spec: {
          limits: [
            {
              type: 'Container',
              max: { cpu: '1' },
              min: { memory: '64Mi' },
              default: { cpu: '1' },
              defaultRequest: { cpu: '1', memory: '64Mi' },
            },
            { type: 'Pod', max: { cpu: '2' } },
          ],
        },
      },
    ],
    [
      'RoleBinding: roleRef and subject apiGroups',
      `{apiVersion: rbac.authorization.k8s.io/v1, kind: RoleBinding, metadata: {name: rb}, roleRef: {kind: Role, name: r}, subjects: [{kind: User, name: alice}, {kind: ServiceAccount, name: sa, namespace: default}, {kind: Group, name: g}]}`,
      {
        roleRef: { kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' },
        subjects: [
          { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' },
          { kind: 'ServiceAccount', name: 'sa', namespace: 'default' },
          { kind: 'Group', name: 'g', apiGroup: 'rbac.authorization.k8s.io' },
        ],
      },
    ],
    [
      'ClusterRoleBinding: roleRef apiGroup',
      `{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, metadata: {name: crb}, roleRef: {kind: ClusterRole, name: view}, subjects: [{kind: Group, name: g}]}`,
      {
        roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' },
        subjects: [{ kind: 'Group', name: 'g', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ],
    [
      'CSIDriver: every spec default',
      `{apiVersion: storage.k8s.io/v1, kind: CSIDriver, metadata: {name: csi.example.com}, spec: {}}`,
      {
        spec: {
          attachRequired: true,
          podInfoOnMount: false,
          storageCapacity: false,
          fsGroupPolicy: 'ReadWriteOnceWithFSType',
          volumeLifecycleModes: ['Persistent'],
          requiresRepublish: false,
          seLinuxMount: false,
        },
      },
    ],
    [
      'ValidatingWebhookConfiguration: webhook, rule and service defaults',
      `{apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingWebhookConfiguration, metadata: {name: vwc}, webhooks: [{name: v.example.com, admissionReviewVersions: [v1], sideEffects: None, clientConfig: {service: {name: s, namespace: default}}, rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]}]}`,
      {
        webhooks: [
          {
            name: 'v.example.com',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            clientConfig: { service: { name: 's', namespace: 'default', port: 443 } },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            namespaceSelector: {},
            objectSelector: {},
            timeoutSeconds: 10,
          },
        ],
      },
    ],
    [
      'MutatingWebhookConfiguration: also reinvocationPolicy Never',
      `{apiVersion: admissionregistration.k8s.io/v1, kind: MutatingWebhookConfiguration, metadata: {name: mwc}, webhooks: [{name: m.example.com, admissionReviewVersions: [v1], sideEffects: None, clientConfig: {url: "https://example.com/m"}}]}`,
      {
        webhooks: [
          {
            name: 'm.example.com',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            clientConfig: { url: 'https://example.com/m' },
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            namespaceSelector: {},
            objectSelector: {},
            timeoutSeconds: 10,
            reinvocationPolicy: 'Never',
          },
        ],
      },
    ],
    [
      'IngressClass: parameters scope Cluster',
      `{apiVersion: networking.k8s.io/v1, kind: IngressClass, metadata: {name: ic}, spec: {controller: example.com/ic, parameters: {kind: P, name: p}}}`,
      { spec: { controller: 'example.com/ic', parameters: { kind: 'P', name: 'p', scope: 'Cluster' } } },
    ],
    [
      'PriorityLevelConfiguration: shares, lendable, queuing',
      `{apiVersion: flowcontrol.apiserver.k8s.io/v1, kind: PriorityLevelConfiguration, metadata: {name: plc}, spec: {type: Limited, limited: {limitResponse: {type: Queue, queuing: {}}}}}`,
      {
        spec: {
          type: 'Limited',
          limited: {
            limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
            nominalConcurrencyShares: 30,
            lendablePercent: 0,
          },
        },
      },
    ],
    [
      'FlowSchema: matchingPrecedence 1000',
      `{apiVersion: flowcontrol.apiserver.k8s.io/v1, kind: FlowSchema, metadata: {name: fs}, spec: {priorityLevelConfiguration: {name: plc}}}`,
      { spec: { priorityLevelConfiguration: { name: 'plc' }, matchingPrecedence: 1000 } },
    ],
    [
      'PodTemplate: the template pod defaults',
      `{apiVersion: v1, kind: PodTemplate, metadata: {name: pt}, template: {spec: {containers: [{name: c, image: "nginx:1.27"}]}}}`,
      {
        template: {
          metadata: { creationTimestamp: null },
          spec: { containers: [{ name: 'c', image: 'nginx:1.27', ...CONTAINER_DEFAULTS }], ...POD_SPEC_DEFAULTS },
        },
      },
    ],
  ])('%s', (_n, yaml, want) => {
    expect(stored(yaml)).toEqual(want);
  });

  it.each([
    [
      'no template and no selector',
      `{apiVersion: v1, kind: ReplicationController, metadata: {name: bad1}, spec: {}}`,
      'ReplicationController "bad1" is invalid: [spec.selector: Required value, spec.template: Required value]',
    ],
    [
      'a selector the template labels do not match',
      `{apiVersion: v1, kind: ReplicationController, metadata: {name: bad2}, spec: {selector: {app: x}, template: {metadata: {labels: {app: y}}, spec: {containers: [{name: c, image: nginx}]}}}}`,
      'ReplicationController "bad2" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`',
    ],
  ])('ReplicationController validation: %s', (_n, yaml, message) => {
    try {
      stored(yaml);
      throw new Error('created');
    } catch (e) {
      expect(e instanceof StatusError && { code: e.code, message: e.message }).toEqual({ code: 422, message });
    }
  });
});
