import { describe, expect, it } from 'vitest';
import { ReplicaSetController } from './replicaset';
import { newFixture, newReplicaSet, type Fixture } from './controller.fixture';
import { deepCopy } from '../api/types';
import type { PodControl } from './controller-utils';
import type { Pod } from '../api/objects';
import type { PodStatus } from 'kubernetes-types/core/v1';

function setup(seed = 1): { fx: Fixture; rsc: ReplicaSetController } {
  const fx = newFixture(seed);
  const rsc = new ReplicaSetController(fx.ctx, fx.informers);
  fx.informers.start();
  return { fx, rsc };
}

const rsClient = (fx: Fixture) => fx.kubectl.resource('apps', 'replicasets');
const podClient = (fx: Fixture) => fx.kubectl.resource('', 'pods');

function scale(fx: Fixture, name: string, replicas: number): void {
  const rs = deepCopy(fx.get('replicasets.apps', name)!);
  rs.spec.replicas = replicas;
  rsClient(fx).update(rs);
}

/** Creates an orphan pod with the given status (nodeName, phase, ready, creation offset). */
function orphanPod(
  fx: Fixture,
  name: string,
  o: { node?: string; phase: string; ready?: boolean; restarts?: number; cost?: number },
): void {
  podClient(fx).create('default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: { app: 'web' },
      ...(o.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(o.cost) } } : {}),
    },
    spec: { ...(o.node ? { nodeName: o.node } : {}), containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] },
  });
  const p = deepCopy(fx.get('pods', name)!);
  p.status = {
    phase: o.phase,
    conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: fx.clock.nowRFC3339() }],
    containerStatuses: [{ name: 'nginx', restartCount: o.restarts ?? 0, ready: !!o.ready }],
  } as unknown as PodStatus; // the fields the controller reads; lastProbeTime null as the kubelet writes it
  podClient(fx).updateStatus(p);
}

describe('ReplicaSetController', () => {
  it('creates 3 pods named <rs>-xxxxx with owner references, copied labels/annotations and events', () => {
    const { fx } = setup();
    rsClient(fx).create('default', newReplicaSet('web', 3));
    fx.clock.advance(10);
    const rs = fx.get('replicasets.apps', 'web')!;
    const pods = fx.list('pods');
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata.generateName).toBe('web-');
      expect(p.metadata.labels).toEqual({ app: 'web' });
      expect(p.metadata.annotations).toEqual({ 'example.com/note': 'copied' });
      expect(p.metadata.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
      expect(p.spec.containers[0].image).toBe('nginx:1.14.2');
    }
    const created = pods.map((p) => p.metadata.name).sort();
    const evs = fx.events('web');
    expect(evs).toHaveLength(3);
    expect(evs.map((e) => e.replace(/web-\w{5}$/, 'web-*'))).toEqual([
      'SuccessfulCreate: Created pod: web-*',
      'SuccessfulCreate: Created pod: web-*',
      'SuccessfulCreate: Created pod: web-*',
    ]);
    expect(evs.map((e) => e.slice('SuccessfulCreate: Created pod: '.length)).sort()).toEqual(created);
    // the event source is the replicaset-controller
    const ev = fx.api.store.list('events')[0].obj;
    expect(ev.source).toEqual({ component: 'replicaset-controller' });
    expect(ev.involvedObject).toMatchObject({ kind: 'ReplicaSet', name: 'web', namespace: 'default' });
    // the decision hop
    const decisions = fx.relay.all().filter((h) => h.kind === 'decision');
    expect(decisions.map((d) => [d.from, d.to, d.summary])).toEqual([
      ['replicaset-controller', 'replicaset-controller', 'desired 3 ≠ current 0 → create 3 Pods'],
    ]);
    const creates = fx.relay
      .all()
      .filter((h) => h.kind === 'request' && h.verb === 'create' && h.resource === 'pods' && h.to === 'kube-apiserver');
    expect(creates.map((h) => [h.from, h.cause])).toEqual([1, 2, 3].map(() => ['replicaset-controller', decisions[0].seq]));
    // status once the (fake) kubelet runs the pods
    fx.settle();
    expect(fx.get('replicasets.apps', 'web')!.status).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    });
  });

  it("replaces a deleted pod (the seed's self-heal)", () => {
    const { fx } = setup();
    rsClient(fx).create('default', newReplicaSet('web', 3));
    fx.settle();
    const before = fx
      .list('pods')
      .map((p) => p.metadata.name)
      .sort();
    podClient(fx).delete('default', before[1]);
    fx.clock.advance(10);
    // the terminating pod is no longer active: a replacement is created right away
    const pods = fx.list('pods');
    expect(pods).toHaveLength(4);
    const fresh = pods.filter((p) => !before.includes(p.metadata.name));
    expect(fresh).toHaveLength(1);
    expect(fx.events('web').at(-1)).toBe(`SuccessfulCreate: Created pod: ${fresh[0].metadata.name}`);
    const decisions = fx.relay
      .all()
      .filter((h) => h.kind === 'decision')
      .map((h) => h.summary);
    expect(decisions).toEqual(['desired 3 ≠ current 0 → create 3 Pods', 'desired 3 ≠ current 2 → create 1 Pod']);
    fx.settle();
    expect(
      fx
        .list('pods')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual([...before.filter((n) => n !== before[1]), fresh[0].metadata.name].sort());
    expect(fx.get('replicasets.apps', 'web')!.status?.readyReplicas).toBe(3);
  });

  it('expectations prevent a second sync from creating the pods again', () => {
    const { fx, rsc } = setup();
    rsc.queue.paused = true; // drive syncs by hand
    rsClient(fx).create('default', newReplicaSet('web', 3));
    fx.clock.advance(5);
    rsc.syncReplicaSet('default/web');
    expect(fx.list('pods')).toHaveLength(3);
    expect(rsc.expectations.getExpectations('default/web')).toMatchObject({ add: 3, del: 0 });
    // the informer has not delivered the new pods yet: the lister still shows none
    rsc.syncReplicaSet('default/web');
    expect(fx.list('pods')).toHaveLength(3);
    expect(
      fx.relay
        .all()
        .filter((h) => h.kind === 'decision')
        .map((h) => h.summary),
    ).toEqual([
      'desired 3 ≠ current 0 → create 3 Pods',
      'desired 3 ≠ current 0, but still expecting 3 create(s) and 0 delete(s) to be observed → wait',
    ]);
    // once observed, the expectations are satisfied and a sync does nothing more
    fx.clock.advance(5);
    expect(rsc.expectations.satisfiedExpectations('default/web')).toBe(true);
    rsc.syncReplicaSet('default/web');
    expect(fx.list('pods')).toHaveLength(3);
    // without expectations the stale lister would have doubled the pods
    rsClient(fx).create('default', newReplicaSet('api', 2));
    fx.clock.advance(5);
    rsc.syncReplicaSet('default/api');
    rsc.expectations.deleteExpectations('default/api');
    rsc.syncReplicaSet('default/api');
    expect(fx.list('pods').filter((p) => p.metadata.name.startsWith('api-'))).toHaveLength(4);
  });

  describe('scale down deletes pods by rank', () => {
    const cases: { name: string; pods: [string, Parameters<typeof orphanPod>[2]][]; to: number; deleted: string[] }[] = [
      {
        name: 'unassigned before assigned',
        pods: [
          ['a', { node: 'node-1', phase: 'Running', ready: true }],
          ['b', { phase: 'Pending' }],
          ['c', { node: 'node-2', phase: 'Running', ready: true }],
        ],
        to: 2,
        deleted: ['b'],
      },
      {
        name: 'Pending < Unknown < Running',
        pods: [
          ['a', { node: 'node-1', phase: 'Running', ready: true }],
          ['b', { node: 'node-2', phase: 'Unknown' }],
          ['c', { node: 'node-3', phase: 'Pending' }],
        ],
        to: 1,
        deleted: ['c', 'b'],
      },
      {
        name: 'not ready before ready',
        pods: [
          ['a', { node: 'node-1', phase: 'Running', ready: true }],
          ['b', { node: 'node-2', phase: 'Running', ready: false }],
          ['c', { node: 'node-3', phase: 'Running', ready: true }],
        ],
        to: 2,
        deleted: ['b'],
      },
      {
        name: 'lower pod-deletion-cost first',
        pods: [
          ['a', { node: 'node-1', phase: 'Running', ready: true, cost: 10 }],
          ['b', { node: 'node-2', phase: 'Running', ready: true, cost: -5 }],
          ['c', { node: 'node-3', phase: 'Running', ready: true, cost: 0 }],
        ],
        to: 1,
        deleted: ['b', 'c'],
      },
      {
        name: 'doubled-up node first',
        pods: [
          ['a', { node: 'node-1', phase: 'Running', ready: true }],
          ['b', { node: 'node-2', phase: 'Running', ready: true }],
          ['c', { node: 'node-2', phase: 'Running', ready: true }],
        ],
        to: 1,
        deleted: ['b', 'c'],
      },
      {
        name: 'more restarts first',
        pods: [
          ['a', { node: 'node-1', phase: 'Running', ready: true, restarts: 1 }],
          ['b', { node: 'node-2', phase: 'Running', ready: true, restarts: 7 }],
          ['c', { node: 'node-3', phase: 'Running', ready: true }],
        ],
        to: 2,
        deleted: ['b'],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { fx } = setup();
        for (const [n, o] of c.pods) orphanPod(fx, n, o);
        rsClient(fx).create('default', newReplicaSet('web', c.pods.length));
        fx.clock.advance(10);
        // adopted, nothing created
        expect(fx.list('pods').map((p) => p.metadata.ownerReferences?.[0]?.name)).toEqual(c.pods.map(() => 'web'));
        expect(fx.events('web')).toEqual([]);
        scale(fx, 'web', c.to);
        fx.clock.advance(10);
        expect(fx.events('web')).toEqual(c.deleted.map((n) => `SuccessfulDelete: Deleted pod: ${n}`));
        const terminating = fx
          .list('pods')
          .filter((p) => p.metadata.deletionTimestamp)
          .map((p) => p.metadata.name);
        const gone = c.pods.map(([n]) => n).filter((n) => !fx.get('pods', n));
        expect([...terminating, ...gone].sort()).toEqual([...c.deleted].sort());
      });
    }
  });

  it('releases a pod whose labels stop matching, and replaces it', () => {
    const { fx } = setup();
    rsClient(fx).create('default', newReplicaSet('web', 2));
    fx.settle();
    const [first] = fx.list('pods');
    const p = deepCopy(first);
    p.metadata.labels = { app: 'debug' };
    podClient(fx).update(p);
    fx.settle();
    expect(fx.get('pods', first.metadata.name)!.metadata.ownerReferences).toBeUndefined();
    const owned = fx.list('pods').filter((x) => x.metadata.ownerReferences?.[0]?.name === 'web');
    expect(owned).toHaveLength(2);
  });

  it('slow-start batches stop at the first failure and record ReplicaFailure', () => {
    const { fx, rsc } = setup();
    const calls: string[] = [];
    const fake: PodControl = {
      createPods(): Pod {
        calls.push('create');
        if (calls.length === 4) throw new Error('quota exceeded');
        return { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${calls.length}` }, spec: { containers: [] } };
      },
      deletePod() {},
    };
    rsc.podControl = fake;
    rsc.queue.paused = true;
    rsClient(fx).create('default', newReplicaSet('web', 10));
    fx.clock.advance(5);
    expect(() => rsc.syncReplicaSet('default/web')).toThrow('quota exceeded');
    // batches 1, 2, 4: the failing batch still runs its other calls (upstream runs them in parallel)
    expect(calls).toHaveLength(7);
    // 3 creations were never attempted: only the 6 successes are still expected
    expect(rsc.expectations.getExpectations('default/web')).toMatchObject({ add: 6 });
    const status = fx.get('replicasets.apps', 'web')!.status!;
    expect(status.conditions).toEqual([
      {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: '2026-01-01T00:00:00Z',
        reason: 'FailedCreate',
        message: 'quota exceeded',
      },
    ]);
  });

  it('records FailedCreate with the apiserver error', () => {
    const { fx } = setup();
    fx.api.authorize = (user, verb, info) =>
      user.participant === 'replicaset-controller' && verb === 'create' && info.resource === 'pods' ? 'quota says no' : null;
    rsClient(fx).create('default', newReplicaSet('web', 1));
    fx.clock.advance(5);
    expect(fx.events('web')[0]).toBe(
      'FailedCreate: Error creating: pods "" is forbidden: User "system:serviceaccount:kube-system:replicaset-controller" cannot create resource "pods" in API group "" in the namespace "default": quota says no',
    );
  });
});
