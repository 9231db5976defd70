/**
 * The story the relay's default view tells (protocol.ts ActionStory): which user actions start
 * one, the hop range they recorded, and tours pausing the clock when their steps are done.
 */
import { describe, expect, it } from 'vitest';
import SEED_MANIFEST from '../scenarios/peekcart.yaml?raw';
import { testHost } from './test-host';

describe('ClusterHost: the story of the last action', () => {
  it('an apply starts it at its first hop (kubectl get), a kubectl read leaves it, a write and a kill replace it', () => {
    const { host, run, last } = testHost();
    run(200);
    expect(last().story).toBeNull();
    host.apply(SEED_MANIFEST);
    const apply = last().story!;
    const hops = () => last().hops;
    expect(apply.label).toBe('apply');
    expect(apply.seq).toBe(last().applySeq);
    const own = hops().filter((h) => h.seq >= apply.seq && h.seq <= apply.endSeq);
    expect(own[0]).toMatchObject({ from: 'kubectl', to: 'kube-apiserver', summary: 'get Deployment default/peekcart' });
    expect(own.at(-1)).toMatchObject({ from: 'kube-apiserver', to: 'kubectl', summary: '201 Created Service default/peekcart' });
    run(2_000);

    host.kubectl('get pods');
    expect(last().story).toEqual(apply);

    host.kubectl('scale deployment peekcart --replicas=4');
    const scale = last().story!;
    expect(scale.label).toBe('kubectl');
    expect(scale.seq).toBeGreaterThan(apply.endSeq);
    expect(scale.subjects).toEqual([]);

    host.killNode('node-2');
    const kill = last().story!;
    expect([kill.label, kill.subjects]).toEqual(['kill', [{ resource: 'nodes', namespace: '', name: 'node-2' }]]);
    expect(hops().find((h) => h.seq === kill.seq)?.summary).toBe('power off machine node-2 (spec.power=Off)');
  });

  it('a reset forgets it', () => {
    const { host, last } = testHost();
    host.apply(SEED_MANIFEST);
    expect(last().story).not.toBeNull();
    host.reset();
    expect(last().story).toBeNull();
  });

  it('tour steps with pauseWhenDone: the clock stops the moment the last one is done (an advance exactly on time)', () => {
    const { host, run, last } = testHost();
    run(200);
    const t0 = last().simMs;
    host.runScenarioSteps(
      [
        { kind: 'apply', manifest: SEED_MANIFEST },
        { kind: 'advance', ms: 3 },
      ],
      { pauseWhenDone: true },
    );
    expect(last().running).toBe(true);
    expect(last().story?.label).toBe('apply');
    run(500);
    expect([last().running, last().simMs - t0, last().script?.pending]).toEqual([false, 3, 0]);
    run(1_000);
    expect(last().simMs - t0).toBe(3);
    // without it the clock plays on
    host.play();
    host.runScenarioSteps([{ kind: 'advance', ms: 3 }]);
    run(500);
    expect(last().running).toBe(true);
    expect(last().simMs - t0).toBeGreaterThan(100);
  });
});
