import { describe, expect, it } from 'vitest';
import { ControllerManager } from './controller-manager';
import { newDeployment, newFixture } from './controller.fixture';

function setup() {
  const fx = newFixture();
  const cm = new ControllerManager(fx.ctx);
  cm.start();
  return { fx, cm };
}

describe('ControllerManager', () => {
  it('hosts the controllers on one informer factory and runs the seed relay: Deployment → ReplicaSet → Pods', () => {
    const { fx } = setup();
    fx.kubectl.resource('apps', 'deployments').create('default', newDeployment('peekcart', 3, 'peekcart:latest'));
    fx.settle();
    expect(fx.list('replicasets.apps')).toHaveLength(1);
    expect(fx.list('pods')).toHaveLength(3);
    const order = ['deployment-controller', 'replicaset-controller'].map((p) => fx.relay.all().findIndex((h) => h.from === p));
    expect(order[0]).toBeGreaterThanOrEqual(0);
    expect(order[0]).toBeLessThan(order[1]);
    expect(fx.get('deployments.apps', 'peekcart')!.status).toMatchObject({ readyReplicas: 3, availableReplicas: 3 });
  });

  it('pause: missed changes are caught up on resume (level-triggered)', () => {
    const { fx, cm } = setup();
    fx.kubectl.resource('apps', 'deployments').create('default', newDeployment('web', 2));
    fx.settle();
    const before = fx.list('pods').map((p) => p.metadata.name);
    cm.pause();
    expect(cm.isPaused).toBe(true);
    // while paused: a Pod is removed and a new Deployment appears — nobody reacts
    fx.kubectl.resource('', 'pods').delete('default', before[0], { gracePeriodSeconds: 0 });
    fx.kubectl.resource('apps', 'deployments').create('default', newDeployment('api', 1));
    fx.clock.advance(60_000);
    expect(fx.list('pods')).toHaveLength(1);
    expect(fx.list('replicasets.apps')).toHaveLength(1);
    cm.resume();
    fx.settle();
    const pods = fx.list('pods');
    expect(pods.filter((p) => p.metadata.name.startsWith('web-'))).toHaveLength(2);
    expect(pods.filter((p) => p.metadata.name.startsWith('api-'))).toHaveLength(1);
    const notes = fx.relay
      .all()
      .filter((h) => h.from === 'kube-controller-manager' && h.kind === 'note')
      .map((h) => h.summary);
    expect(notes).toEqual([
      'kube-controller-manager paused: watches stopped, work queues held',
      'kube-controller-manager resumed: relist and resync — level-triggered loops catch up',
    ]);
  });
});
