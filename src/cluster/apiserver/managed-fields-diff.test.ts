/**
 * The tree-walking field-set diff (managed-fields-diff.ts) against the path-string reference
 * (patch-managed-fields.ts leafPaths: the field sets as FieldsV1 documents them), and the
 * Update bookkeeping built on it (managedFieldsForUpdate with the stored entries): ownership
 * moves, removals, `time` bumps and structural sharing.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deepEqual, type KObject } from '../api/types';
import { diffFields, subtractFields, unionFields, type FieldsTree } from './managed-fields-diff';
import { fromFieldsV1, leafPaths, managedFieldsForUpdate, serverSetOnCreate, type ManagedFieldsEntry } from './patch-managed-fields';

const SEP = '\u0000';
const sorted = (s: Iterable<string>): string[] => [...s].map((p) => p.split(SEP).join(' ')).sort();

/** Reference: the changed and removed leaf paths, from full path-string field sets. */
function reference(
  old: KObject | undefined,
  next: KObject,
  status: boolean,
  statusAnnotations: boolean,
): { changed: string[]; removed: string[] } {
  const lp = { status, statusAnnotations };
  const before = old ? leafPaths(old, lp) : new Map<string, unknown>();
  const changed: string[] = [];
  for (const [p, v] of leafPaths(next, lp)) {
    if (before.has(p) && deepEqual(before.get(p), v)) continue;
    if (v === null && p.endsWith(`${SEP}f:creationTimestamp`)) continue;
    changed.push(p);
  }
  const all = (o: KObject | undefined): Set<string> =>
    o ? new Set([...leafPaths(o).keys(), ...leafPaths(o, { status: true, statusAnnotations: true }).keys()]) : new Set();
  const now = all(next);
  return { changed: sorted(changed), removed: sorted([...all(old)].filter((p) => !now.has(p))) };
}

const word = fc.constantFrom('web', 'db', 'x');
const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'zone'), word, { maxKeys: 3 });
const container = fc.record(
  {
    name: fc.constantFrom('web', 'side', 'init'),
    image: fc.constantFrom('nginx:1.27', 'redis:7'),
    ports: fc.uniqueArray(fc.record({ containerPort: fc.constantFrom(80, 443), protocol: fc.constantFrom('TCP', 'UDP') }), {
      selector: (p) => p.containerPort,
      maxLength: 2,
    }),
    resources: fc.constantFrom({}, { requests: { cpu: '10m' } }, { requests: { cpu: '20m' } }),
  },
  { requiredKeys: ['name'] },
);
const podArb = fc.record(
  {
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Pod'),
    metadata: fc.record(
      {
        name: fc.constant('p'),
        uid: fc.constantFrom('a', 'b'),
        labels,
        annotations: labels,
        finalizers: fc.uniqueArray(fc.constantFrom('a.io/x', 'b.io/y'), { maxLength: 2 }),
        ownerReferences: fc.uniqueArray(fc.record({ uid: fc.constantFrom('u1', 'u2'), kind: fc.constantFrom('ReplicaSet', 'Job') }), {
          selector: (o) => o.uid,
          maxLength: 2,
        }),
      },
      { requiredKeys: ['name'] },
    ),
    spec: fc.record(
      {
        containers: fc.uniqueArray(container, { selector: (c) => c.name, maxLength: 3 }),
        nodeName: fc.constantFrom('node-1', 'node-2'),
        tolerations: fc.array(fc.record({ key: fc.constantFrom('k1', 'k2') }), { maxLength: 2 }),
        template: fc.record({ metadata: fc.record({ creationTimestamp: fc.constant(null), labels }) }),
      },
      { requiredKeys: [] },
    ),
    status: fc.record(
      {
        phase: fc.constantFrom('Pending', 'Running'),
        conditions: fc.uniqueArray(fc.record({ type: fc.constantFrom('Ready', 'Initialized'), status: fc.constantFrom('True', 'False') }), {
          selector: (c) => c.type,
          maxLength: 2,
        }),
        podIPs: fc.uniqueArray(fc.record({ ip: fc.constantFrom('10.0.0.1', '10.0.0.2') }), { selector: (x) => x.ip, maxLength: 2 }),
        // a value that changes its structure (map ↔ scalar ↔ list)
        misc: fc.constantFrom({}, [], 'x', { a: 1 }, { a: 1, b: [1] }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['apiVersion', 'kind', 'metadata'] },
) as unknown as fc.Arbitrary<KObject>;

describe('diffFields equals the path-string field sets', () => {
  const modes = [
    { name: 'main resource write', status: false, statusAnnotations: false },
    { name: 'status write', status: true, statusAnnotations: false },
    { name: 'status write keeping annotations (Deployments)', status: true, statusAnnotations: true },
  ];
  for (const m of modes) {
    it(`${m.name}: independent versions`, () => {
      fc.assert(
        fc.property(podArb, podArb, (a, b) => {
          const d = diffFields(a, b, { kind: 'Pod', status: m.status, statusAnnotations: m.statusAnnotations });
          expect({ changed: sorted(fromFieldsV1(d.changed)), removed: sorted(fromFieldsV1(d.removed)) }).toEqual(
            reference(a, b, m.status, m.statusAnnotations),
          );
        }),
        { numRuns: 300, seed: 7 },
      );
    });
  }

  it('a create: every writer leaf is changed, nothing removed', () => {
    fc.assert(
      fc.property(podArb, (b) => {
        const d = diffFields(undefined, b, { kind: 'Pod' });
        expect({ changed: sorted(fromFieldsV1(d.changed)), removed: sorted(fromFieldsV1(d.removed)) }).toEqual(
          reference(undefined, b, false, false),
        );
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('writerOnly: a status write sharing everything else gives the same sets', () => {
    fc.assert(
      fc.property(podArb, podArb, (a, other) => {
        const b = { ...a, status: other.status } as KObject;
        if (b.status === undefined) delete b.status;
        const d = diffFields(a, b, { kind: 'Pod', status: true, writerOnly: true });
        expect({ changed: sorted(fromFieldsV1(d.changed)), removed: sorted(fromFieldsV1(d.removed)) }).toEqual(
          reference(a, b, true, false),
        );
      }),
      { numRuns: 200, seed: 13 },
    );
  });

  it('a create does not give the creator what admission set unless it sent it', () => {
    const input = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'web', image: 'nginx' }], serviceAccountName: 'mine' },
    };
    const stored = {
      ...input,
      spec: {
        ...input.spec,
        serviceAccountName: 'mine',
        priority: 0,
        tolerations: [{ key: 'k' }],
        volumes: [{ name: 'kube-api-access-abcde' }],
      },
    };
    const d = diffFields(undefined, stored, { kind: 'Pod', serverSet: serverSetOnCreate('pods'), input });
    expect(sorted(fromFieldsV1(d.changed))).toEqual([
      'f:spec f:containers k:{"name":"web"} .',
      'f:spec f:containers k:{"name":"web"} f:image',
      'f:spec f:containers k:{"name":"web"} f:name',
      'f:spec f:serviceAccountName',
    ]);
  });
});

describe('unionFields / subtractFields share what they do not change', () => {
  const a: FieldsTree = { 'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } }, 'f:spec': { 'f:replicas': {} } };
  const cases: { name: string; run: () => FieldsTree; expected: FieldsTree; same?: boolean }[] = [
    {
      name: 'union with a subset is the same object',
      run: () => unionFields(a, { 'f:spec': { 'f:replicas': {} } }),
      expected: a,
      same: true,
    },
    {
      name: 'union adds a leaf beside the others',
      run: () => unionFields(a, { 'f:spec': { 'f:paused': {} } }),
      expected: { ...a, 'f:spec': { 'f:replicas': {}, 'f:paused': {} } },
    },
    {
      name: 'subtracting a disjoint set is the same object',
      run: () => subtractFields(a, { 'f:status': { 'f:phase': {} } }),
      expected: a,
      same: true,
    },
    {
      name: 'subtracting the last leaf drops the empty parent',
      run: () => subtractFields(a, { 'f:spec': { 'f:replicas': {} } }),
      expected: { 'f:metadata': a['f:metadata'] } as FieldsTree,
    },
    { name: 'a leaf does not subtract a subtree', run: () => subtractFields(a, { 'f:metadata': {} }), expected: a, same: true },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const r = tc.run();
      expect(r).toEqual(tc.expected);
      if (tc.same) expect(r).toBe(a);
    });
  }
  it('a subtree untouched by a change is shared', () => {
    expect(subtractFields(a, { 'f:spec': { 'f:replicas': {} } })['f:metadata']).toBe(a['f:metadata']);
  });
});

describe('managedFieldsForUpdate with the stored entries (upstream managedFieldsUpdater)', () => {
  const T0 = '2026-01-01T00:00:00Z';
  const T1 = '2026-01-01T00:00:10Z';
  const pod = (over: { labels?: Record<string, string>; heartbeat?: string; ready?: string } = {}): KObject =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'default', labels: over.labels ?? { app: 'web', tier: 'front' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: over.ready ?? 'True', lastHeartbeatTime: over.heartbeat ?? T0 }] },
    }) as KObject;
  // kube-controller-manager creates it, the kubelet writes its status
  const created = pod();
  const kcm = managedFieldsForUpdate(undefined, created, 'kube-controller-manager', 'v1', T0, undefined, { live: [] });
  const v1 = { ...created, metadata: { ...created.metadata, managedFields: kcm } } as KObject;
  const live = managedFieldsForUpdate({ ...v1, status: {} } as KObject, v1, 'kubelet', 'v1', T0, 'status', { live: kcm });
  const stored = { ...v1, metadata: { ...v1.metadata, managedFields: live } } as KObject;
  const write = (next: KObject, manager: string, sub?: string): ManagedFieldsEntry[] =>
    managedFieldsForUpdate(stored, next, manager, 'v1', T1, sub, { live });

  it('the stored entries: the creator owns the main resource, the kubelet status', () => {
    expect(live.map((e) => `${e.manager} ${e.subresource ?? ''} ${sorted(fromFieldsV1(e.fieldsV1)).join(', ')}`)).toEqual([
      'kube-controller-manager  f:metadata f:labels f:app, f:metadata f:labels f:tier, f:spec f:containers k:{"name":"web"} ., f:spec f:containers k:{"name":"web"} f:image, f:spec f:containers k:{"name":"web"} f:name',
      'kubelet status f:status f:conditions k:{"type":"Ready"} ., f:status f:conditions k:{"type":"Ready"} f:lastHeartbeatTime, f:status f:conditions k:{"type":"Ready"} f:status, f:status f:conditions k:{"type":"Ready"} f:type, f:status f:phase',
    ]);
  });

  const cases: {
    name: string;
    run: () => ManagedFieldsEntry[];
    expected: { manager: string; time: string; fields: string[] }[];
    sameEntries: number[];
    sameFields?: number[];
  }[] = [
    {
      name: 'a heartbeat (the kubelet rewrites a time it owns): only its entry time moves, its field set is shared',
      run: () => write({ ...stored, status: pod({ heartbeat: T1 }).status } as KObject, 'kubelet', 'status'),
      expected: [
        { manager: 'kube-controller-manager', time: T0, fields: sorted(fromFieldsV1(kcm[0].fieldsV1)) },
        { manager: 'kubelet', time: T1, fields: sorted(fromFieldsV1(live[1].fieldsV1)) },
      ],
      sameEntries: [0],
      sameFields: [1],
    },
    {
      name: 'a write that changes nothing keeps every entry',
      run: () => write({ ...stored, metadata: { ...stored.metadata } } as KObject, 'kubectl'),
      expected: live.map((e) => ({ manager: e.manager, time: T0, fields: sorted(fromFieldsV1(e.fieldsV1)) })),
      sameEntries: [0, 1],
    },
    {
      name: 'kubectl label takes the field it changes from the creator',
      run: () => write({ ...stored, metadata: { ...stored.metadata, labels: { app: 'web', tier: 'back' } } } as KObject, 'kubectl'),
      expected: [
        {
          manager: 'kube-controller-manager',
          time: T0,
          fields: sorted(fromFieldsV1(kcm[0].fieldsV1)).filter((p) => !p.includes('f:tier')),
        },
        { manager: 'kubelet', time: T0, fields: sorted(fromFieldsV1(live[1].fieldsV1)) },
        { manager: 'kubectl', time: T1, fields: ['f:metadata f:labels f:tier'] },
      ],
      sameEntries: [1],
    },
    {
      name: 'a removal alone leaves every manager and bumps no time',
      run: () => write({ ...stored, metadata: { ...stored.metadata, labels: { app: 'web' } } } as KObject, 'kubectl'),
      expected: [
        {
          manager: 'kube-controller-manager',
          time: T0,
          fields: sorted(fromFieldsV1(kcm[0].fieldsV1)).filter((p) => !p.includes('f:tier')),
        },
        { manager: 'kubelet', time: T0, fields: sorted(fromFieldsV1(live[1].fieldsV1)) },
      ],
      sameEntries: [1],
    },
    {
      name: 'another status writer takes one condition field; the kubelet keeps the rest',
      run: () => write({ ...stored, status: pod({ ready: 'False' }).status } as KObject, 'kube-controller-manager', 'status'),
      expected: [
        { manager: 'kube-controller-manager', time: T0, fields: sorted(fromFieldsV1(kcm[0].fieldsV1)) },
        { manager: 'kubelet', time: T0, fields: sorted(fromFieldsV1(live[1].fieldsV1)).filter((p) => !p.endsWith('f:status')) },
        { manager: 'kube-controller-manager', time: T1, fields: ['f:status f:conditions k:{"type":"Ready"} f:status'] },
      ],
      sameEntries: [0],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const r = tc.run();
      expect(r.map((e) => ({ manager: e.manager, time: e.time, fields: sorted(fromFieldsV1(e.fieldsV1)) }))).toEqual(tc.expected);
      for (const i of tc.sameEntries) expect(r[i]).toBe(live[i]);
      for (const i of tc.sameFields ?? []) expect(r[i].fieldsV1).toBe(live[i].fieldsV1);
      expect(r).not.toBe(live);
    });
  }
});
