/**
 * The memo of create field sets (managed-fields-memo.ts) against the diff it stands for
 * (managed-fields-diff.ts diffFields of a create): byte-identical FieldsV1 for every object, the
 * remembered tree itself for an object of the same shape, a new tree when anything the field set
 * depends on differs (names, key values of keyed lists, set elements, absent values, what the
 * request sent of server-set fields).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KObject } from '../api/types';
import { diffFields, type DiffOptions } from './managed-fields-diff';
import { CreateFieldsMemo, MEMO_CANDIDATES } from './managed-fields-memo';
import { managedFieldsForUpdate, serverSetOnCreate } from './patch-managed-fields';

type Obj = Record<string, unknown>;
const json = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

/** A Pod as a ReplicaSet's template gives it, after defaults and ServiceAccount admission. */
function pod(o: {
  name?: string;
  container?: string;
  ports?: number[];
  env?: [string, string][];
  image?: string;
  token?: string;
  uid?: string;
  finalizers?: string[];
  restartPolicy?: string | undefined;
  labels?: Record<string, string>;
}): KObject {
  const token = o.token ?? 'kube-api-access-abcde';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: 'web-7d4b9c-',
      name: o.name ?? 'web-7d4b9c-x1y2z',
      namespace: 'default',
      labels: o.labels ?? { app: 'web', 'pod-template-hash': '7d4b9c' },
      ...(o.finalizers ? { finalizers: o.finalizers } : {}),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-7d4b9c',
          uid: o.uid ?? 'rs-uid-1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      volumes: [
        { name: token, projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }] } },
      ],
      containers: [
        {
          name: o.container ?? 'app',
          image: o.image ?? 'nginx:1.27',
          ...(o.ports ? { ports: o.ports.map((p) => ({ containerPort: p, protocol: 'TCP' })) } : {}),
          ...(o.env ? { env: o.env.map(([name, value]) => ({ name, value })) } : {}),
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
          volumeMounts: [{ name: token, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
          terminationMessagePath: '/dev/termination-log',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'restartPolicy' in o ? o.restartPolicy : 'Always',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      priority: 0,
    },
    status: { phase: 'Pending', qosClass: 'Burstable' },
  };
}

/** What the ReplicaSet controller sent: no volumes, no service account, no tolerations. */
function podInput(p: KObject): KObject {
  const c = (p.spec.containers as Obj[])[0];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: p.metadata.generateName,
      labels: p.metadata.labels,
      ownerReferences: p.metadata.ownerReferences,
    } as KObject['metadata'],
    spec: {
      containers: [{ name: c.name, image: c.image, ports: c.ports, env: c.env, resources: c.resources }],
      restartPolicy: p.spec.restartPolicy,
    },
  };
}

/** A core/v1 Event as client/record.ts writes it. */
function event(o: { obj?: string; reason?: string; host?: string | undefined; fieldPath?: string; count?: number }): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${o.obj ?? 'web-1'}.18a1b2c3d4e5f600`, namespace: 'default' },
    involvedObject: {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'default',
      name: o.obj ?? 'web-1',
      uid: `uid-${o.obj ?? 'web-1'}`,
      resourceVersion: undefined,
      ...(o.fieldPath ? { fieldPath: o.fieldPath } : {}),
    },
    reason: o.reason ?? 'Pulled',
    message: 'Container image "nginx:1.27" already present on machine',
    source: 'host' in o && o.host === undefined ? { component: 'kubelet' } : { component: 'kubelet', host: o.host ?? 'node-1' },
    firstTimestamp: '2026-01-01T00:00:05Z',
    lastTimestamp: '2026-01-01T00:00:05Z',
    count: o.count ?? 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: o.host ?? 'node-1',
  };
}

/** A Service: ports keyed by port, clusterIP allocated by the server. */
function service(ports: number[], clusterIP = '10.96.0.10'): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { app: 'web' },
      ports: ports.map((port) => ({ port, targetPort: port, protocol: 'TCP' })),
      clusterIP,
      clusterIPs: [clusterIP],
    },
  };
}

/** A Node registering, with status conditions keyed by type. */
function node(name: string, conditions: [string, string][]): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: { podCIDR: '10.244.1.0/24' },
    status: {
      conditions: conditions.map(([type, status]) => ({
        type,
        status,
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        reason: `Kubelet${type}`,
      })),
      addresses: [{ type: 'InternalIP', address: '10.0.0.2' }],
      capacity: { cpu: '8', pods: '110' },
    },
  };
}

const podOpts = (input: KObject): DiffOptions => ({ kind: 'Pod', serverSet: serverSetOnCreate('pods'), input });
const svcOpts = (input: KObject): DiffOptions => ({ kind: 'Service', serverSet: serverSetOnCreate('services'), input });
const svcInput = (s: KObject): KObject => ({ ...s, spec: { selector: s.spec.selector, ports: s.spec.ports } });

/** [name, objects created in turn, their diff options, which ones must get the tree of an earlier one] */
const cases: [string, KObject[], (o: KObject, i: number) => DiffOptions, boolean[]][] = [
  [
    'Pods of one ReplicaSet: other names and token volumes, the same shape',
    [pod({}), pod({ name: 'web-7d4b9c-q', token: 'kube-api-access-zzzzz' }), pod({ image: 'nginx:1.28' })],
    (o) => podOpts(podInput(o)),
    [false, true, true],
  ],
  [
    'container name and port numbers are list-map keys, in their order',
    [
      pod({ ports: [80] }),
      pod({ ports: [80] }),
      pod({ ports: [8080] }),
      pod({ ports: [80, 443] }),
      pod({ ports: [443, 80] }),
      pod({ container: 'web', ports: [80] }),
    ],
    (o) => podOpts(podInput(o)),
    [false, true, false, false, false, false],
  ],
  [
    'env names are keys, env values are not',
    [
      pod({ env: [['A', '1']] }),
      pod({ env: [['A', '2']] }),
      pod({ env: [['B', '1']] }),
      pod({
        env: [
          ['A', '1'],
          ['B', '1'],
        ],
      }),
    ],
    (o) => podOpts(podInput(o)),
    [false, true, false, false],
  ],
  [
    'an ownerReference uid and finalizers (set elements) are part of the shape',
    [pod({}), pod({ uid: 'rs-uid-2' }), pod({ finalizers: ['a.io/x'] }), pod({ finalizers: ['a.io/y'] }), pod({ finalizers: ['a.io/y'] })],
    (o) => podOpts(podInput(o)),
    [false, false, false, false, true],
  ],
  [
    'an absent (undefined) field is not a field; label keys count, label values do not',
    [pod({}), pod({ restartPolicy: undefined }), pod({ labels: { app: 'db', 'pod-template-hash': 'x' } }), pod({ labels: { app: 'web' } })],
    (o) => podOpts(podInput(o)),
    [false, false, true, false],
  ],
  [
    'a server-set field is the creator’s only when it sent it',
    [pod({}), pod({}), pod({})],
    (o, i) => podOpts(i === 1 ? { ...podInput(o), spec: { ...podInput(o).spec, serviceAccountName: 'default' } } : podInput(o)),
    [false, false, true],
  ],
  [
    'kubelet Events: other objects and times, the same shape; with no host, a fieldPath, a count',
    [
      event({}),
      event({ obj: 'web-2', reason: 'Created' }),
      event({ host: undefined }),
      event({ fieldPath: 'spec.containers{app}' }),
      event({ count: 7 }),
    ],
    () => ({ kind: 'Event' }),
    [false, true, false, false, true],
  ],
  [
    'Service ports keyed by port; the allocated clusterIP is nobody’s',
    [service([80]), service([80], '10.96.0.11'), service([443]), service([80, 443])],
    (o) => svcOpts(svcInput(o)),
    [false, true, false, false],
  ],
  [
    'Node status conditions keyed by type (a status write)',
    [
      node('node-1', [['Ready', 'True']]),
      node('node-2', [['Ready', 'False']]),
      node('node-3', [
        ['Ready', 'True'],
        ['MemoryPressure', 'False'],
      ]),
    ],
    () => ({ kind: 'Node', status: true, writerOnly: true }),
    [false, true, false],
  ],
];

describe('the memo of create field sets', () => {
  it.each(cases)('%s', (_name, objects, optsOf, reused) => {
    const memo = new CreateFieldsMemo();
    const earlier: unknown[] = [];
    objects.forEach((o, i) => {
      const opts = optsOf(o, i);
      const got = memo.changedOnCreate(o, opts, 'm', undefined);
      expect(json(got)).toBe(json(diffFields(undefined, o, opts).changed));
      expect([i, earlier.includes(got)]).toEqual([i, reused[i]]);
      earlier.push(got);
    });
  });

  it('keeps several shapes of one manager, most recently used first', () => {
    const memo = new CreateFieldsMemo();
    // each with a field of its own name: distinct shapes
    const shapes = Array.from({ length: MEMO_CANDIDATES + 1 }, (_, i) => ({ ...event({}), [`note${i}`]: 'x' }) as KObject);
    const first = shapes.map((e) => memo.changedOnCreate(e, { kind: 'Event' }, 'kubelet', undefined));
    // newest first: the newest MEMO_CANDIDATES are found again; the oldest was dropped (a new, equal tree)
    const again = shapes
      .map((e, i) => [e, i] as const)
      .reverse()
      .map(([e, i]) => [memo.changedOnCreate(e, { kind: 'Event' }, 'kubelet', undefined), i] as const)
      .sort((x, y) => x[1] - y[1])
      .map(([t]) => t);
    expect(again.map((t, i) => t === first[i])).toEqual([false, ...Array<boolean>(MEMO_CANDIDATES).fill(true)]);
    expect(again.map(json)).toEqual(first.map(json));
  });

  it('managedFieldsForUpdate gives byte-identical entries with and without the memo', () => {
    const writes: [KObject, DiffOptions][] = [
      [pod({ ports: [80], env: [['A', '1']] }), podOpts(podInput(pod({ ports: [80], env: [['A', '1']] })))],
      [pod({ ports: [80], env: [['A', '2']] }), podOpts(podInput(pod({ ports: [80], env: [['A', '2']] })))],
      [event({}), { kind: 'Event' }],
      [event({ obj: 'x' }), { kind: 'Event' }],
      [service([53]), svcOpts(svcInput(service([53])))],
    ];
    const memo = new CreateFieldsMemo();
    for (const [o, d] of writes) {
      const opts = { live: [], serverSet: d.serverSet, input: d.input as KObject | undefined };
      const a = managedFieldsForUpdate(undefined, o, 'kube-controller-manager', 'v1', '2026-01-01T00:00:00Z', undefined, { ...opts, memo });
      const b = managedFieldsForUpdate(undefined, o, 'kube-controller-manager', 'v1', '2026-01-01T00:00:00Z', undefined, {
        ...opts,
        memo: null,
      });
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    }
  });
});

// small domains, so that shapes repeat and the memo's trees are checked against many objects
const word = fc.constantFrom('a', 'b');
const value = fc.oneof(word, fc.integer({ min: 0, max: 2 }), fc.constant(null), fc.constant(undefined), fc.constant({}), fc.constant([]));
const keyed = (key: string) =>
  fc.array(fc.record({ [key]: fc.constantFrom('x', 'y', 80, 443), v: value }, { requiredKeys: [] }), { maxLength: 3 });
const objArb = fc.record(
  {
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Pod'),
    metadata: fc.record(
      {
        name: word,
        generateName: word,
        creationTimestamp: fc.constantFrom(null, '2026-01-01T00:00:00Z'),
        labels: fc.dictionary(fc.constantFrom('app', 'tier'), value, { maxKeys: 2 }),
        finalizers: fc.array(fc.constantFrom('f/a', 'f/b', 1), { maxLength: 3 }),
        ownerReferences: fc.array(fc.record({ uid: fc.constantFrom('u1', 'u2'), kind: word }, { requiredKeys: [] }), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    spec: fc.record(
      {
        containers: fc.array(
          fc.record(
            { name: fc.constantFrom('app', 'side'), ports: keyed('containerPort'), env: keyed('name'), image: value },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
        volumes: keyed('name'),
        serviceAccountName: value,
        tolerations: fc.array(value, { maxLength: 2 }),
        nodeName: value,
      },
      { requiredKeys: [] },
    ),
    status: fc.record({ conditions: keyed('type'), podIPs: keyed('ip'), phase: value, misc: value }, { requiredKeys: [] }),
  },
  { requiredKeys: ['apiVersion', 'kind'] },
) as unknown as fc.Arbitrary<KObject>;

describe('the memo equals the diff (property)', () => {
  const modes: [string, (o: KObject, input: KObject) => DiffOptions][] = [
    ['main resource', () => ({ kind: 'Pod' })],
    ['main resource, server-set fields and what the request sent', (_o, input) => podOpts(input)],
    ['status', () => ({ kind: 'Pod', status: true, writerOnly: true })],
    ['status keeping annotations', () => ({ kind: 'Pod', status: true, statusAnnotations: true })],
  ];
  it.each(modes)('%s', (_name, optsOf) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(objArb, objArb), { minLength: 1, maxLength: 12 }), (writes) => {
        const memo = new CreateFieldsMemo();
        for (const [o, input] of writes) {
          const opts = optsOf(o, input);
          expect(json(memo.changedOnCreate(o, opts, 'm', undefined))).toBe(json(diffFields(undefined, o, opts).changed));
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});
