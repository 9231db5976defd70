import { beforeEach, describe, expect, it } from 'vitest';
import type { ObjectChangeMsg, TickBatch } from '../../worker/protocol';
import { createKubeStore } from './store';
import { EVENTS_CAP, reduceBatch } from './reducers';
import { RELAY_CAP } from './slices/relay';
import type { KObject, RelayHop } from './types';

let store = createKubeStore();
beforeEach(() => {
  store = createKubeStore();
});

function feed(b: Partial<TickBatch>): void {
  store.setState((s) =>
    reduceBatch(s, {
      gen: 0,
      reset: false,
      simMs: 0,
      startMs: 0,
      changes: [],
      events: [],
      hops: [],
      deadlines: [],
      running: true,
      speed: 1,
      profile: 'kubernetes-defaults',
      fault: null,
      applySeq: null,
      ...b,
    }),
  );
}

function obj(kind: string, name: string, extra: Partial<KObject> = {}, ns: string | null = 'default'): KObject {
  return { apiVersion: 'v1', kind, ...extra, metadata: { name, ...(ns ? { namespace: ns } : {}), ...extra.metadata } } as KObject;
}

function change(type: ObjectChangeMsg['type'], o: KObject, status = ''): ObjectChangeMsg {
  const key = o.metadata.namespace ? `${o.kind}/${o.metadata.namespace}/${o.metadata.name}` : `${o.kind}/${o.metadata.name}`;
  return {
    type,
    resource: `${o.kind.toLowerCase()}s`,
    key,
    object: o,
    row: type === 'DELETED' ? null : { kind: o.kind, namespace: o.metadata.namespace ?? null, name: o.metadata.name, status, columns: {} },
  };
}

function hop(seq: number, from: string, to: string, extra: Partial<RelayHop> = {}): RelayHop {
  return { seq, time: seq, from, to, kind: 'request', summary: `hop ${seq}`, cause: null, ...extra };
}

describe('reduceBatch', () => {
  it('a reset batch replaces every object and builds the topology', () => {
    feed({ changes: [change('ADDED', obj('Pod', 'stale'))] });
    const node = obj('Node', 'node-1', {}, null);
    const cp = obj(
      'Node',
      'control-plane',
      { metadata: { name: 'control-plane', labels: { 'node-role.kubernetes.io/control-plane': '' } } },
      null,
    );
    feed({ reset: true, gen: 2, changes: [change('ADDED', node, 'Ready'), change('ADDED', cp, 'Ready')] });
    const s = store.getState();
    expect([...s.objects.keys()]).toEqual(['Node/node-1', 'Node/control-plane']);
    expect(s.topology.nodes.map((n) => [n.name, n.controlPlane])).toEqual([
      ['control-plane', true],
      ['node-1', false],
    ]);
    expect(s.gen).toBe(2);
  });

  it('replaces the objects Map on change and keeps the topology identity when only status changes', () => {
    feed({ changes: [change('ADDED', obj('Pod', 'web', { spec: { nodeName: '' } }), 'Pending')] });
    const s1 = store.getState();
    expect(s1.topology.pods).toEqual([{ key: 'Pod/default/web', node: null, owner: null }]);
    feed({ changes: [change('MODIFIED', obj('Pod', 'web', { spec: { nodeName: '' }, status: { phase: 'Pending' } }), 'Pending')] });
    const s2 = store.getState();
    expect(s2.objects).not.toBe(s1.objects);
    expect(s2.topology).toBe(s1.topology);
    feed({ changes: [change('MODIFIED', obj('Pod', 'web', { spec: { nodeName: 'node-2' } }), 'ContainerCreating')] });
    const s3 = store.getState();
    expect(s3.topology).not.toBe(s2.topology);
    expect(s3.topology.pods[0].node).toBe('node-2');
    expect(s3.objects.get('Pod/default/web')?.row?.status).toBe('ContainerCreating');
  });

  it('records owners and drops deleted objects and their selection', () => {
    const rs = obj('ReplicaSet', 'web-1', {
      metadata: {
        name: 'web-1',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u', controller: true }],
      },
    });
    feed({ changes: [change('ADDED', rs)] });
    expect(store.getState().topology.replicaSets).toEqual([{ key: 'ReplicaSet/default/web-1', owner: 'Deployment/default/web' }]);
    store.setState({ selected: 'ReplicaSet/default/web-1' });
    feed({ changes: [change('DELETED', rs)] });
    expect(store.getState().objects.size).toBe(0);
    expect(store.getState().topology.replicaSets).toEqual([]);
    expect(store.getState().selected).toBeNull();
  });

  it('ignores deltas of another cluster generation, but always takes a reset', () => {
    feed({ gen: 3, reset: true, simMs: 10 });
    feed({ gen: 2, simMs: 99, changes: [change('ADDED', obj('Pod', 'ghost'))] });
    expect(store.getState().simMs).toBe(10);
    expect(store.getState().objects.size).toBe(0);
    // a restarted worker counts generations from 1 again
    feed({ gen: 1, reset: true, simMs: 0, changes: [change('ADDED', obj('Pod', 'fresh'))] });
    expect(store.getState().gen).toBe(1);
    expect([...store.getState().objects.keys()]).toEqual(['Pod/default/fresh']);
  });

  it('caps relay hops and events, and pulses the link each hop travels', () => {
    const hops = Array.from({ length: RELAY_CAP + 10 }, (_, i) => hop(i + 1, 'kubectl', 'kube-apiserver'));
    hops.push(hop(RELAY_CAP + 11, 'kube-apiserver', 'kubelet/node-1'));
    hops.push(hop(RELAY_CAP + 12, 'kube-apiserver', 'etcd', { category: 'heartbeat' }));
    feed({ hops });
    const s = store.getState();
    expect(s.hops).toHaveLength(RELAY_CAP);
    expect(s.hops.at(-1)?.seq).toBe(RELAY_CAP + 12);
    expect(s.pulses['link:client:kubectl']).toMatchObject({ seq: RELAY_CAP + 10, toApiserver: true });
    expect(s.pulses['link:kubelet/node-1']).toMatchObject({ seq: RELAY_CAP + 11, toApiserver: false });
    expect(s.pulses['link:cp:etcd']).toBeUndefined();

    const events = Array.from({ length: EVENTS_CAP + 5 }, (_, i) => change('ADDED', obj('Event', `e${i}`)));
    feed({ events });
    expect(store.getState().events.size).toBe(EVENTS_CAP);
    expect(store.getState().events.has('Event/default/e0')).toBe(false);
  });

  it('over the cap, the story of the last action keeps its first hops (story-keep.ts); storyCount is folded', () => {
    // the action: hops 11 (kubectl's create) and 12 (its response); 13… each caused by the one two before
    const story = { seq: 11, endSeq: 12, label: 'apply', subjects: [] };
    const hops = Array.from({ length: 10 }, (_, i) => hop(i + 1, 'kubelet/node-1', 'kube-apiserver'));
    hops.push(hop(11, 'kubectl', 'kube-apiserver'), hop(12, 'kube-apiserver', 'kubectl', { cause: 11 }));
    for (let seq = 13; seq <= 4_000; seq++) hops.push(hop(seq, 'kube-apiserver', 'etcd', { cause: seq % 2 ? seq - 2 : null }));
    feed({ hops: hops.slice(0, 2_000), story, storyCount: 1_000 });
    expect(store.getState().storyCount).toBe(1_000);
    feed({ hops: hops.slice(2_000), story, storyCount: 2_001 });
    const s = store.getState();
    expect(s.hops).toHaveLength(RELAY_CAP);
    // the story's first 1,000 (11, 12, then the odd seqs 13…2,007), then the newest others to
    // 3,000: 4,000 down to 2,001, and the even 2,000…1,994 (the odd ones there are the head's)
    const head = [11, 12, ...Array.from({ length: 998 }, (_, i) => 13 + 2 * i)];
    const newest = [1_994, 1_996, 1_998, 2_000, ...Array.from({ length: 2_000 }, (_, i) => 2_001 + i)];
    expect(s.hops.map((h) => h.seq)).toEqual([...new Set([...head, ...newest])].sort((a, b) => a - b));
    expect(s.hops[0]).toMatchObject({ seq: 11, from: 'kubectl' });
    expect(s.storyCount).toBe(2_001);
    // no story: the newest of those held, as before (the oldest, 11, goes)
    feed({ hops: [hop(4_001, 'kubectl', 'kube-apiserver')], story: null });
    expect(
      store
        .getState()
        .hops.map((h) => h.seq)
        .slice(0, 2),
    ).toEqual([12, 13]);
    expect(store.getState().storyCount).toBeNull();
  });

  it('only replaces deadlines when there are any', () => {
    feed({});
    const s1 = store.getState();
    feed({ simMs: 5 });
    expect(store.getState().deadlines).toBe(s1.deadlines);
    feed({ deadlines: [{ at: 1, label: 'x' }] });
    expect(store.getState().deadlines).toHaveLength(1);
  });

  it.each([
    ['the worker measured ×37 at ×100', { pace: 37.5, speed: 100 }, 37.5],
    ['paused: no pace', { pace: null, running: false }, null],
    ['a source that does not measure (attach mode)', {}, null],
  ] as const)('pace: %s', (_name, b, pace) => {
    feed({ pace: 12 });
    feed(b as Partial<TickBatch>);
    expect(store.getState().pace).toBe(pace);
  });
});
