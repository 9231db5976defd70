import { describe, expect, it } from 'vitest';
import { DeploymentController } from './deployment';
import { ReplicaSetController } from './replicaset';
import { computeHash, safeEncodeString, fnv32a, resolveFenceposts } from './deployment-utils';
import { newDeployment, newFixture, type Fixture } from './controller.fixture';
import { deepCopy, type KObject } from '../api/types';

function setup(): { fx: Fixture; dc: DeploymentController } {
  const fx = newFixture();
  const dc = new DeploymentController(fx.ctx, fx.informers);
  new ReplicaSetController(fx.ctx, fx.informers);
  fx.informers.start();
  return { fx, dc };
}

const deployments = (fx: Fixture) => fx.kubectl.resource('apps', 'deployments');
const scalingEvents = (fx: Fixture, name = 'web') =>
  fx
    .events(name)
    .filter((e) => e.startsWith('ScalingReplicaSet: '))
    .map((e) => e.slice('ScalingReplicaSet: '.length));

function edit(fx: Fixture, name: string, f: (d: KObject) => void): void {
  const d = deepCopy(fx.get('deployments.apps', name)!);
  f(d);
  deployments(fx).update(d);
}

/** Pods that count for the rollout: not terminating, by image. */
function livePods(fx: Fixture): KObject[] {
  return fx.list('pods').filter((p) => !p.metadata.deletionTimestamp);
}

describe('deployment utils', () => {
  it('FNV-32a and SafeEncodeString behave as hash/fnv and rand.SafeEncodeString', () => {
    // FNV-1a 32-bit reference vectors
    expect(fnv32a([])).toBe(0x811c9dc5);
    expect(fnv32a([...'a'].map((c) => c.charCodeAt(0)))).toBe(0xe40c292c);
    expect(fnv32a([...'foobar'].map((c) => c.charCodeAt(0)))).toBe(0xbf9cf968);
    // digits map onto 4,5,6,7,8,9,b,c,d,f as in real pod-template-hash values
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
    expect(computeHash({ spec: { a: 1 } })).toMatch(/^[456789bcdf]{1,10}$/);
    expect(computeHash({ spec: { a: 1 } }, 1)).not.toBe(computeHash({ spec: { a: 1 } }));
    expect(computeHash({ b: 1, a: 2 })).toBe(computeHash({ a: 2, b: 1 }));
  });

  const fenceposts: { name: string; surge: number | string; unavailable: number | string; desired: number; want: [number, number] }[] = [
    { name: '25%/25% of 3: surge rounds up, unavailable down', surge: '25%', unavailable: '25%', desired: 3, want: [1, 0] },
    { name: '25%/25% of 10', surge: '25%', unavailable: '25%', desired: 10, want: [3, 2] },
    { name: 'both resolve to zero → unavailable 1', surge: '0%', unavailable: '10%', desired: 3, want: [0, 1] },
    { name: 'absolute values', surge: 2, unavailable: 1, desired: 5, want: [2, 1] },
  ];
  for (const c of fenceposts)
    it(`ResolveFenceposts: ${c.name}`, () => expect(resolveFenceposts(c.surge, c.unavailable, c.desired)).toEqual(c.want));
});

describe('DeploymentController', () => {
  it('creates ReplicaSet <name>-<hash> with labels, selector, annotations and the ScalingReplicaSet event', () => {
    const { fx } = setup();
    deployments(fx).create('default', newDeployment('web', 3));
    fx.clock.advance(50);
    const d = fx.get('deployments.apps', 'web')!;
    const hash = computeHash(d.spec.template, undefined);
    const rss = fx.list('replicasets.apps');
    expect(rss.map((r) => r.metadata.name)).toEqual([`web-${hash}`]);
    const rs = rss[0];
    expect(rs.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(rs.spec.template?.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec.replicas).toBe(3);
    expect(rs.metadata.annotations).toEqual({
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
      'deployment.kubernetes.io/revision': '1',
    });
    expect(rs.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(d.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1' });
    expect(fx.events('web')).toEqual([`ScalingReplicaSet: Scaled up replica set web-${hash} from 0 to 3`]);
    const pods = fx.list('pods');
    expect(pods).toHaveLength(3);
    for (const p of pods) expect(p.metadata.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    // first hops of each controller come in the seed's order
    const firsts = ['deployment-controller', 'replicaset-controller'].map((n) => fx.relay.all().findIndex((h) => h.from === n));
    expect(firsts[0]).toBeLessThan(firsts[1]);
    expect(fx.relay.all().find((h) => h.kind === 'decision' && h.from === 'deployment-controller')!.summary).toBe(
      `no ReplicaSet matches the pod template → create ReplicaSet web-${hash} (pod-template-hash ${hash}, revision 1) with 3 replicas`,
    );

    fx.settle();
    const done = fx.get('deployments.apps', 'web')!;
    expect(done.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(done.status?.unavailableReplicas).toBeUndefined();
    expect(done.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "web-${hash}" has successfully progressed.`],
    ]);
    // a finished rollout leaves no progress deadline behind (settle can stop)
    expect(fx.clock.deadlines().filter((x) => x.object === 'Deployment/default/web')).toEqual([]);
  });

  const strategies: { name: string; strategy: KObject['spec']; events: string[]; maxPods: number; minAvailable: number }[] = [
    {
      name: 'RollingUpdate 25%/25% (surge 1, unavailable 0)',
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      events: [
        'up NEW from 0 to 1',
        'down OLD from 3 to 2',
        'up NEW from 1 to 2',
        'down OLD from 2 to 1',
        'up NEW from 2 to 3',
        'down OLD from 1 to 0',
      ],
      maxPods: 4,
      minAvailable: 3,
    },
    {
      name: 'RollingUpdate maxSurge 0, maxUnavailable 1',
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      events: [
        'down OLD from 3 to 2',
        'up NEW from 0 to 1',
        'down OLD from 2 to 1',
        'up NEW from 1 to 2',
        'down OLD from 1 to 0',
        'up NEW from 2 to 3',
      ],
      maxPods: 3,
      minAvailable: 2,
    },
    {
      name: 'Recreate',
      strategy: { type: 'Recreate' },
      events: ['down OLD from 3 to 0', 'up NEW from 0 to 3'],
      maxPods: 3,
      minAvailable: 0,
    },
  ];
  for (const c of strategies) {
    it(`rolls nginx 1.14.2 → 1.16.1 with 3 replicas: ${c.name}`, () => {
      const { fx } = setup();
      deployments(fx).create('default', newDeployment('web', 3, 'nginx:1.14.2', c.strategy));
      fx.settle();
      const oldRS = fx.list('replicasets.apps')[0].metadata.name;
      const before = scalingEvents(fx).length;
      edit(fx, 'web', (d) => (d.spec.template.spec.containers[0].image = 'nginx:1.16.1'));
      let maxPods = 0;
      let minAvailable = Infinity;
      for (let i = 0; i < 60; i++) {
        fx.kubeletTick();
        const live = livePods(fx);
        maxPods = Math.max(maxPods, live.length);
        minAvailable = Math.min(minAvailable, live.filter((p) => p.status?.phase === 'Running').length);
        fx.clock.advance(100);
      }
      const newRS = fx.list('replicasets.apps').find((r) => r.metadata.name !== oldRS)!.metadata.name;
      expect(scalingEvents(fx).slice(before)).toEqual(
        c.events.map((e) => `Scaled ${e.replace('NEW', `replica set ${newRS}`).replace('OLD', `replica set ${oldRS}`)}`),
      );
      expect(maxPods).toBeLessThanOrEqual(c.maxPods);
      expect(minAvailable).toBeGreaterThanOrEqual(c.minAvailable);
      const pods = livePods(fx);
      expect(pods.map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1']);
      expect(fx.get('replicasets.apps', oldRS)!.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
      expect(fx.get('replicasets.apps', newRS)!.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
      const d = fx.get('deployments.apps', 'web')!;
      expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
      expect(d.status).toMatchObject({ observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 3 });
      expect(d.status?.conditions?.find((x) => x.type === 'Progressing')).toMatchObject({
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${newRS}" has successfully progressed.`,
      });
    });
  }

  it('a scaling event resizes the active ReplicaSet', () => {
    const { fx } = setup();
    deployments(fx).create('default', newDeployment('web', 3));
    fx.settle();
    const rs = fx.list('replicasets.apps')[0];
    edit(fx, 'web', (d) => (d.spec.replicas = 5));
    fx.settle();
    edit(fx, 'web', (d) => (d.spec.replicas = 2));
    fx.settle();
    expect(scalingEvents(fx)).toEqual([
      `Scaled up replica set ${rs.metadata.name} from 0 to 3`,
      `Scaled up replica set ${rs.metadata.name} from 3 to 5`,
      `Scaled down replica set ${rs.metadata.name} from 5 to 2`,
    ]);
    expect(fx.get('replicasets.apps', rs.metadata.name)!.metadata.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('2');
    expect(livePods(fx)).toHaveLength(2);
  });

  it('a paused Deployment does not roll out', () => {
    const { fx } = setup();
    deployments(fx).create('default', newDeployment('web', 2));
    fx.settle();
    edit(fx, 'web', (d) => (d.spec.paused = true));
    fx.settle();
    edit(fx, 'web', (d) => (d.spec.template.spec.containers[0].image = 'nginx:1.16.1'));
    fx.settle();
    expect(fx.list('replicasets.apps')).toHaveLength(1);
    expect(fx.get('deployments.apps', 'web')!.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
    edit(fx, 'web', (d) => (d.spec.paused = false));
    fx.settle();
    expect(fx.list('replicasets.apps')).toHaveLength(2);
    expect(livePods(fx).map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.16.1', 'nginx:1.16.1']);
  });

  it('keeps at most revisionHistoryLimit old ReplicaSets', () => {
    const { fx } = setup();
    const d0 = newDeployment('web', 1);
    d0.spec.revisionHistoryLimit = 1;
    deployments(fx).create('default', d0);
    fx.settle();
    for (const tag of ['1.15', '1.16', '1.17']) {
      edit(fx, 'web', (d) => (d.spec.template.spec.containers[0].image = `nginx:${tag}`));
      fx.settle();
    }
    const rss = fx
      .list('replicasets.apps')
      .map((r) => [r.spec.template?.spec?.containers[0].image, r.metadata.annotations?.['deployment.kubernetes.io/revision']]);
    expect(rss.sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['nginx:1.16', '3'],
      ['nginx:1.17', '4'],
    ]);
  });

  it('progressDeadlineSeconds is a known deadline and times the rollout out', () => {
    const { fx } = setup();
    deployments(fx).create('default', newDeployment('web', 2));
    fx.clock.advance(50); // no kubelet: pods never become ready
    const dl = fx.clock.deadlines().filter((x) => x.object === 'Deployment/default/web');
    expect(dl).toHaveLength(1);
    expect(dl[0].at - fx.clock.now()).toBeGreaterThan(600_000 - 100);
    fx.clock.advance(602_000);
    const rs = fx.list('replicasets.apps')[0].metadata.name;
    const d = fx.get('deployments.apps', 'web')!;
    expect(d.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${rs}" has timed out progressing.`,
    });
    expect(d.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
    expect(fx.clock.deadlines().filter((x) => x.object === 'Deployment/default/web')).toEqual([]);
  });
});
