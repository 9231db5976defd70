import { describe, expect, it } from 'vitest';
import type { RelayHop } from '../relay-event';
import {
  DEFAULT_SEQUENCE_VIEW,
  matchesObjectFilter,
  objectOfKey,
  pluralOf,
  reconciliations,
  storeKeyOf,
  storyHops,
  storyTarget,
  windowHops,
  type SequenceView,
} from './window';
import type { SequenceOptions } from './to-mermaid';

let seq = 0;
function hop(from: string, to: string, kind: RelayHop['kind'], summary: string, extra: Partial<RelayHop> = {}): RelayHop {
  seq++;
  return { seq, time: seq, from, to, kind, summary, cause: null, ...extra };
}

const RS = 'peekcart-7d4b9c';
const POD = `${RS}-x2x9z`;
const on = (resource: string, name: string, namespace: string | null = 'default') => ({ resource, name, namespace });

/** An abridged relay: apply, Deployment → ReplicaSet → Pod, the scheduler binding it, a heartbeat. */
function relay(): RelayHop[] {
  return [
    hop('kubectl', 'kube-apiserver', 'request', 'create Deployment default/peekcart', on('deployments', 'peekcart')),
    hop('kube-apiserver', 'deployment-controller', 'watch', 'watch ADDED Deployment default/peekcart', on('deployments', 'peekcart')),
    hop('deployment-controller', 'deployment-controller', 'decision', 'no ReplicaSet …', {
      ...on('deployments', 'peekcart'),
      reconcile: 1,
      note: `new ReplicaSet ${RS} (revision 1) → 3 of 3 replicas`,
    }),
    hop('deployment-controller', 'kube-apiserver', 'request', `create ReplicaSet default/${RS}`, {
      ...on('replicasets', RS),
      reconcile: 1,
    }),
    hop('kube-apiserver', 'replicaset-controller', 'watch', `watch ADDED ReplicaSet default/${RS}`, on('replicasets', RS)),
    hop('replicaset-controller', 'replicaset-controller', 'decision', 'desired 3 ≠ current 0 → create 3 Pods', {
      ...on('replicasets', RS),
      reconcile: 2,
      note: 'desired 3 ≠ current 0 → create 3 Pods',
    }),
    hop('replicaset-controller', 'kube-apiserver', 'request', `create Pod default/${POD}`, { ...on('pods', POD), reconcile: 2 }),
    hop('kube-apiserver', 'etcd', 'request', `create Pod default/${POD}`, { ...on('pods', POD), reconcile: 2, category: 'storage' }),
    hop('kube-apiserver', 'kube-scheduler', 'watch', `watch ADDED Pod default/${POD}`, on('pods', POD)),
    hop('kube-scheduler', 'kube-scheduler', 'decision', 'node-2: score 187', {
      ...on('pods', POD),
      reconcile: 3,
      note: 'filtered 3/4 nodes → node-2 (score 187)',
    }),
    hop('kube-scheduler', 'kube-apiserver', 'request', `bind Pod default/${POD} to node-2`, { ...on('pods/binding', POD), reconcile: 3 }),
    hop('kubelet/node-2', 'kube-apiserver', 'request', 'update Lease kube-node-lease/node-2', {
      ...on('leases', 'node-2', 'kube-node-lease'),
      category: 'heartbeat',
    }),
  ];
}

const ALL: SequenceOptions = { heartbeats: true, admission: true, events: true, window: 1000 };
const view = (v: Partial<SequenceView>): SequenceView => ({ ...DEFAULT_SEQUENCE_VIEW, mode: 'last', ...v });
const summaries = (hs: RelayHop[]) => hs.map((h) => h.summary);

describe('windowHops', () => {
  const hops = relay();
  const cases: { name: string; o?: Partial<SequenceOptions>; v: Partial<SequenceView>; want: string[] }[] = [
    { name: 'last 2 hops', o: { window: 2 }, v: {}, want: [`bind Pod default/${POD} to node-2`, 'update Lease kube-node-lease/node-2'] },
    {
      name: 'last 2 hops with heartbeats folded',
      o: { window: 2, heartbeats: false },
      v: {},
      want: ['node-2: score 187', `bind Pod default/${POD} to node-2`],
    },
    {
      name: 'one reconciliation (by id)',
      v: { mode: 'reconcile', reconcile: 2 },
      want: ['desired 3 ≠ current 0 → create 3 Pods', `create Pod default/${POD}`, `create Pod default/${POD}`],
    },
    { name: 'one reconciliation (the latest)', v: { mode: 'reconcile' }, want: ['node-2: score 187', `bind Pod default/${POD} to node-2`] },
    {
      name: "the Pod's story: its hops and the reconciliations that touched it",
      v: { mode: 'story', story: { resource: 'pods', namespace: 'default', name: POD } },
      want: [
        'desired 3 ≠ current 0 → create 3 Pods',
        `create Pod default/${POD}`,
        `create Pod default/${POD}`,
        `watch ADDED Pod default/${POD}`,
        'node-2: score 187',
        `bind Pod default/${POD} to node-2`,
      ],
    },
    { name: 'story with nothing picked draws nothing', v: { mode: 'story' }, want: [] },
    {
      name: 'story picked by the filter: the first exact namespace/name wins over prefix matches, with its reconciliations',
      v: { mode: 'story', objectFilter: 'default/peekcart' },
      want: [
        'create Deployment default/peekcart',
        'watch ADDED Deployment default/peekcart',
        'no ReplicaSet …',
        `create ReplicaSet default/${RS}`,
      ],
    },
    {
      name: 'story picked by the filter: else the newest matching hop (a name part)',
      v: { mode: 'story', objectFilter: 'x2x9z' },
      want: [
        'desired 3 ≠ current 0 → create 3 Pods',
        `create Pod default/${POD}`,
        `create Pod default/${POD}`,
        `watch ADDED Pod default/${POD}`,
        'node-2: score 187',
        `bind Pod default/${POD} to node-2`,
      ],
    },
    { name: 'story with a filter that matches no hop draws nothing', v: { mode: 'story', objectFilter: 'default/nothing' }, want: [] },
    {
      name: 'component filter: only kube-scheduler hops remain',
      v: { hiddenComponents: ['kubectl', 'kube-apiserver', 'etcd', 'deployment-controller', 'replicaset-controller', 'kubelet/node-2'] },
      want: ['node-2: score 187'],
    },
    {
      name: 'object filter by kind',
      v: { objectFilter: 'Deployment' },
      want: ['create Deployment default/peekcart', 'watch ADDED Deployment default/peekcart', 'no ReplicaSet …'],
    },
    {
      name: 'object filter by namespace/name prefix',
      v: { objectFilter: 'kube-node-lease/node' },
      want: ['update Lease kube-node-lease/node-2'],
    },
    {
      name: 'object filter: every term must match',
      v: { objectFilter: 'replicasets peekcart' },
      want: [`create ReplicaSet default/${RS}`, `watch ADDED ReplicaSet default/${RS}`, 'desired 3 ≠ current 0 → create 3 Pods'],
    },
    {
      name: 'filters combine with the reconciliation window',
      v: { mode: 'reconcile', reconcile: 2, hiddenComponents: ['etcd'] },
      want: ['desired 3 ≠ current 0 → create 3 Pods', `create Pod default/${POD}`],
    },
  ];
  it.each(cases)('$name', ({ o, v, want }) => {
    expect(summaries(windowHops(hops, { ...ALL, ...o }, view(v)))).toEqual(want);
  });
});

describe('reconciliations', () => {
  it('lists each reconciliation once with its controller, object and note', () => {
    expect(reconciliations(relay()).map(({ id, controller, object, note }) => ({ id, controller, object, note }))).toEqual([
      {
        id: 1,
        controller: 'deployment-controller',
        object: 'deployments default/peekcart',
        note: `new ReplicaSet ${RS} (revision 1) → 3 of 3 replicas`,
      },
      { id: 2, controller: 'replicaset-controller', object: `replicasets default/${RS}`, note: 'desired 3 ≠ current 0 → create 3 Pods' },
      { id: 3, controller: 'kube-scheduler', object: `pods default/${POD}`, note: 'filtered 3/4 nodes → node-2 (score 187)' },
    ]);
  });
});

describe('objects and store keys', () => {
  it.each([
    ['Pod', 'pods'],
    ['Ingress', 'ingresses'],
    ['NetworkPolicy', 'networkpolicies'],
    ['Gateway', 'gateways'],
    ['EndpointSlice', 'endpointslices'],
  ])('plural of %s is %s', (kind, plural) => expect(pluralOf(kind)).toBe(plural));

  it.each([
    { name: 'namespaced', o: { resource: 'pods', namespace: 'default', name: POD }, want: `Pod/default/${POD}` },
    { name: 'cluster-scoped', o: { resource: 'nodes', namespace: '', name: 'node-2' }, want: 'Node/node-2' },
    { name: 'not stored', o: { resource: 'pods', namespace: 'default', name: 'gone' }, want: null },
    {
      name: 'same name, other kind',
      o: { resource: 'services', namespace: 'default', name: 'peekcart' },
      want: 'Service/default/peekcart',
    },
  ])('storeKeyOf: $name', ({ o, want }) => {
    expect(storeKeyOf(o, ['Deployment/default/peekcart', 'Service/default/peekcart', `Pod/default/${POD}`, 'Node/node-2'])).toBe(want);
  });

  it('objectOfKey inverts storeKeyOf', () => {
    expect(objectOfKey(`Pod/default/${POD}`)).toEqual({ resource: 'pods', namespace: 'default', name: POD });
    expect(objectOfKey('Node/node-2')).toEqual({ resource: 'nodes', namespace: '', name: 'node-2' });
  });

  it('a story of an object no hop mentions is empty', () => {
    expect(storyHops(relay(), { resource: 'pods', namespace: 'default', name: 'other' })).toEqual([]);
  });

  it('hops without an object never match a non-empty object filter', () => {
    expect(matchesObjectFilter(hop('kube-apiserver', 'kubectl', 'response', '201 Created'), 'pods')).toBe(false);
  });
});

describe('storyTarget', () => {
  const hops = [
    ...relay(),
    hop('endpoints-controller', 'kube-apiserver', 'request', 'create Endpoints default/peekcart', on('endpoints', 'peekcart')),
  ];
  it.each([
    {
      name: 'a picked story wins over the filter',
      v: { story: on('pods', POD) as { resource: string; name: string; namespace: string }, objectFilter: 'default/peekcart' },
      want: on('pods', POD),
    },
    {
      name: 'exact namespace/name: the first object of that name (the Deployment), not the later Endpoints',
      v: { objectFilter: 'default/peekcart' },
      want: on('deployments', 'peekcart'),
    },
    { name: 'a kind and a name part: the newest matching hop', v: { objectFilter: 'replicasets peekcart' }, want: on('replicasets', RS) },
    { name: 'nothing picked, no filter', v: {}, want: null },
    { name: 'a filter no hop matches', v: { objectFilter: 'kube-system/' }, want: null },
  ])('$name', ({ v, want }) => {
    expect(storyTarget(hops, view({ mode: 'story', ...v }))).toEqual(want);
  });
});
