import { describe, expect, it } from 'vitest';
import { DeploymentController } from './deployment';
import { ReplicaSetController } from './replicaset';
import { GarbageCollector } from './garbagecollector';
import { newDeployment, newFixture, type Fixture } from './controller.fixture';

/** A settled 2-replica Deployment with its RS and Pods, plus a log of removals from etcd. */
function setup(): { fx: Fixture; removed: string[]; rsName: string } {
  const fx = newFixture();
  new DeploymentController(fx.ctx, fx.informers);
  new ReplicaSetController(fx.ctx, fx.informers);
  new GarbageCollector(fx.ctx, fx.informers);
  fx.informers.start();
  const removed: string[] = [];
  fx.api.store.listen((ev) => {
    if (ev.type === 'DELETED' && ev.resource !== 'events') removed.push(`${ev.obj.kind}/${ev.obj.metadata.name}`);
  });
  fx.kubectl.resource('apps', 'deployments').create('default', newDeployment('web', 2));
  fx.settle();
  return { fx, removed, rsName: fx.list('replicasets.apps')[0].metadata.name };
}

const gcDecisions = (fx: Fixture) =>
  fx.relay
    .all()
    .filter((h) => h.kind === 'decision' && h.from === 'garbage-collector-controller')
    .map((h) => h.summary);

describe('GarbageCollector', () => {
  it('background: deleting a Deployment deletes its ReplicaSet, then the Pods', () => {
    const { fx, removed, rsName } = setup();
    const pods = fx.list('pods').map((p) => p.metadata.name);
    expect(pods).toHaveLength(2);
    fx.kubectl.resource('apps', 'deployments').delete('default', 'web', { propagationPolicy: 'Background' });
    fx.settle();
    expect(fx.list('replicasets.apps')).toEqual([]);
    expect(fx.list('pods')).toEqual([]);
    expect(removed[0]).toBe('Deployment/web');
    expect(removed[1]).toBe(`ReplicaSet/${rsName}`);
    expect(removed.slice(2).sort()).toEqual(pods.map((p) => `Pod/${p}`).sort());
    const decisions = gcDecisions(fx);
    expect(decisions[0]).toBe(`owner Deployment web is gone → delete ReplicaSet default/${rsName} (propagationPolicy Background)`);
    expect(decisions.slice(1).sort()).toEqual(
      pods.map((p) => `owner ReplicaSet ${rsName} is gone → delete Pod default/${p} (propagationPolicy Background)`).sort(),
    );
    // the GC authenticates as generic-garbage-collector and shows as garbage-collector-controller
    const del = fx.relay.all().find((h) => h.kind === 'request' && h.verb === 'delete' && h.resource === 'replicasets')!;
    expect(del.from).toBe('garbage-collector-controller');
  });

  it('foreground: Pods go first, then the ReplicaSet, then the Deployment', () => {
    const { fx, removed, rsName } = setup();
    const left = fx.kubectl.resource('apps', 'deployments').delete('default', 'web', { propagationPolicy: 'Foreground' });
    expect(left.metadata.finalizers).toEqual(['foregroundDeletion']);
    fx.clock.advance(50); // no kubelet yet: the Pods are terminating, nothing can finish
    const d = fx.get('deployments.apps', 'web')!;
    expect(d.metadata.deletionTimestamp).toBe(left.metadata.deletionTimestamp);
    expect(d.metadata.finalizers).toEqual(['foregroundDeletion']);
    const rs = fx.get('replicasets.apps', rsName)!;
    expect(rs.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(fx.list('pods').every((p) => p.metadata.deletionTimestamp)).toBe(true);
    expect(removed).toEqual([]);
    fx.settle();
    expect(removed.map((r) => r.split('/')[0])).toEqual(['Pod', 'Pod', 'ReplicaSet', 'Deployment']);
    expect(gcDecisions(fx)).toContain(
      `owner Deployment web is deleting its dependents (foregroundDeletion) → delete ReplicaSet default/${rsName} in the foreground`,
    );
    expect(gcDecisions(fx)).toContain(`no dependents block ReplicaSet default/${rsName} any more → remove finalizer foregroundDeletion`);
    expect(gcDecisions(fx).at(-1)).toBe('no dependents block Deployment default/web any more → remove finalizer foregroundDeletion');
  });

  it('orphan: dependents lose their ownerReference and stay', () => {
    const { fx, removed, rsName } = setup();
    fx.kubectl.resource('apps', 'deployments').delete('default', 'web', { propagationPolicy: 'Orphan' });
    fx.settle();
    expect(removed).toEqual(['Deployment/web']);
    const rs = fx.get('replicasets.apps', rsName)!;
    expect(rs.metadata.ownerReferences).toBeUndefined();
    const pods = fx.list('pods');
    expect(pods).toHaveLength(2);
    expect(pods.every((p) => p.metadata.ownerReferences?.[0]?.name === rsName)).toBe(true);
    expect(gcDecisions(fx)).toEqual(['Deployment default/web has the orphan finalizer → orphan 1 dependent, then remove the finalizer']);
  });

  it('deletes an object whose owner never existed', () => {
    const { fx } = setup();
    fx.kubectl.resource('', 'configmaps').create('default', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'stray',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'ghost', uid: '00000000-0000-4000-8000-000000000000' }],
      },
    });
    fx.clock.advance(50);
    expect(fx.get('configmaps', 'stray')).toBeUndefined();
    // the owner was not cached: the collector asked the apiserver (404) before deleting
    const get = fx.relay.all().find((h) => h.kind === 'request' && h.verb === 'get' && h.name === 'ghost')!;
    expect(get.from).toBe('garbage-collector-controller');
  });
});
