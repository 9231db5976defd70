/**
 * Invariants under seeded random fault sequences (issue 8 §4): a small count in CI;
 * `npm run soak` runs thousands. A failing run prints its seed, the shrunk sequence and the
 * step log; a fixed failure stays below as a named regression case.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Cluster } from '../cluster';
import { runSequence, fenceposts, checkRolloutBounds, Tracker, type Action } from './invariants';
import { sequenceArb } from './arbitraries';

describe('cluster invariants under random faults', () => {
  it('hold for 12 seeded sequences of up to 14 actions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), sequenceArb(14), (seed, actions) => {
        const r = runSequence(seed, actions);
        if (r.violation) throw new Error(`${r.violation}\n${r.log.join('\n')}`);
      }),
      { seed: 8, numRuns: 12 },
    );
  }, 120_000);

  const cases: { name: string; seed: number; actions: Action[] }[] = [
    {
      name: 'rolling update 4 → new image with maxSurge 1, maxUnavailable 0, then a node kill and restore',
      seed: 3,
      actions: [
        { op: 'apply', dep: 0, replicas: 4, maxSurge: 1, maxUnavailable: 0, tag: 0 },
        { op: 'advance', ms: 60_000 },
        { op: 'setImage', dep: 0, tag: 1 },
        { op: 'advance', ms: 2_000 },
        { op: 'advance', ms: 2_000 },
        { op: 'advance', ms: 60_000 },
        { op: 'killNode', node: 0 },
        { op: 'advance', ms: 400_000 },
        { op: 'restoreNode', node: 0 },
      ],
    },
    {
      name: 'delete a Pod mid-rollout with 50% surge and unavailability',
      seed: 5,
      actions: [
        { op: 'apply', dep: 1, replicas: 6, maxSurge: '50%', maxUnavailable: '50%', tag: 0 },
        { op: 'advance', ms: 60_000 },
        { op: 'setImage', dep: 0, tag: 2 },
        { op: 'advance', ms: 1_500 },
        { op: 'deletePod', pod: 3 },
        { op: 'scale', dep: 0, replicas: 2 },
        { op: 'advance', ms: 5_000 },
      ],
    },
    {
      // was src/cluster/testing/.probe.test.ts, which only logged this sequence's outcome
      name: 'scale 0 → 1 at maxUnavailable 50% in the same instant, kill a node, add one',
      seed: 1,
      actions: [
        { op: 'apply', dep: 0, replicas: 0, maxSurge: 0, maxUnavailable: '100%', tag: 0 },
        { op: 'apply', dep: 0, replicas: 1, maxSurge: 0, maxUnavailable: '50%', tag: 0 },
        { op: 'killNode', node: 4 },
        { op: 'addNode' },
      ],
    },
  ];
  it.each(cases)('$name', ({ seed, actions }) => {
    const r = runSequence(seed, actions);
    expect(r.violation, r.log.join('\n')).toBeUndefined();
    expect(r.log.length).toBe(actions.length + 1);
  });

  // Found by the property above (seed 8): Machine updates copy `status: undefined` from a
  // Machine that has none yet (apiserver.ts update, status subresource: obj.status =
  // deepCopy(old.status)), and the CRD schema rejects it. Upstream's customResourceStrategy
  // PrepareForUpdate keeps the old status only when present. Fixed in apiserver.ts; kept as
  // a regression test.
  it('regression: kill a node in the same instant it was added', () => {
    const r = runSequence(1, [{ op: 'apply', dep: 0, replicas: 0, maxSurge: 0, maxUnavailable: '100%', tag: 0 }, { op: 'addNode' }]);
    expect(r.violation).toBeUndefined();
    const c = new Cluster({ seed: 1 });
    c.addNode({ name: 'node-5' });
    expect(() => c.killNode('node-5')).not.toThrow();
  });

  it.each([
    {
      name: '25%/25% of 4',
      spec: { replicas: 4, strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } },
      want: { maxSurge: 1, maxUnavailable: 1 },
    },
    {
      name: '25%/25% of 3 (surge rounds up, unavailable down)',
      spec: { replicas: 3, strategy: { rollingUpdate: {} } },
      want: { maxSurge: 1, maxUnavailable: 0 },
    },
    {
      name: '0/0% becomes unavailable 1',
      spec: { replicas: 5, strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } },
      want: { maxSurge: 0, maxUnavailable: 1 },
    },
    {
      name: 'unavailable capped at replicas',
      spec: { replicas: 1, strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 3 } } },
      want: { maxSurge: 0, maxUnavailable: 1 },
    },
  ])('fenceposts: $name', ({ spec, want }) => {
    expect(fenceposts({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec } as never)).toEqual(want);
  });

  it('the rollout check fails on a surplus ReplicaSet (the check can fail)', () => {
    const c = new Cluster({ seed: 1 });
    const t = new Tracker(c);
    c.apply(
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web-a' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web-a' } },
          strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
          template: { metadata: { labels: { app: 'web-a' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
        },
      }),
    );
    c.advance(60_000);
    checkRolloutBounds(c, t);
    expect(t.clean.get('web-a')).toBe(true);
    const rs = c.list('replicasets.apps', 'default')[0];
    expect(c.kubectl(`scale rs/${rs.metadata.name} --replicas=10`).exitCode).toBe(0);
    expect(() => checkRolloutBounds(c, t)).toThrow('web-a: Σ ReplicaSet spec.replicas 10 > replicas 2 + maxSurge 1');
  });

  // Found by `npm run soak` (seed 1): the tracker called a rollout clean while a killed node's
  // Node still read Ready (before the 50 s grace period ran out), then blamed the controller for
  // the Pods the node lifecycle controller marked NotReady. A powered-off machine now counts as
  // a fault in effect.
  it('regression: a rollout does not start clean while a killed node still reads Ready', () => {
    const r = runSequence(1, [
      { op: 'apply', dep: 0, replicas: 3, maxSurge: 1, maxUnavailable: '0%', tag: 0 },
      { op: 'advance', ms: 3000 },
      { op: 'killNode', node: 0 },
      { op: 'advance', ms: 57000 },
      { op: 'apply', dep: 0, replicas: 0, maxSurge: '25%', maxUnavailable: '0%', tag: 0 },
    ]);
    expect(r.violation, r.log.join('\n')).toBeUndefined();
  });
});
