import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { buildAnchored, serverEpochMs } from './epoch';

describe('the apiserver command anchors the simulated clock at the wall-clock second it starts', () => {
  const wall = Date.UTC(2025, 5, 20, 14, 3, 7, 650);
  const second = Date.UTC(2025, 5, 20, 14, 3, 7);

  it.each([
    ['a fresh cluster', 0],
    ['a scenario that runs 90 s of simulated time first', 90_000],
  ])('%s: now() is the wall-clock second, objects are as old as the steps made them', (_, playMs) => {
    const c = buildAnchored(wall, (startMs) => {
      const cl = new Cluster({ startMs });
      if (playMs) {
        cl.kubectl('create configmap early --from-literal=a=b');
        cl.clock.runUntil(cl.now() + playMs);
      }
      return cl;
    });
    expect(new Date(c.now()).toISOString()).toBe('2025-06-20T14:03:07.000Z');
    const ns = c.api.getObject('namespaces', '', 'default')!;
    expect(ns.metadata.creationTimestamp).toBe(new Date(second - playMs - 30_000).toISOString().replace('.000Z', 'Z'));
    if (playMs) expect(c.api.getObject('configmaps', 'default', 'early')!.metadata.creationTimestamp).toBe('2025-06-20T14:01:37Z');
  });

  it.each([
    [Date.UTC(2025, 0, 1, 0, 0, 0, 999), '2025-01-01T00:00:00.000Z'],
    [Date.UTC(2025, 0, 1, 0, 0, 1, 0), '2025-01-01T00:00:01.000Z'],
  ])('serverEpochMs(%i) = %s', (ms, iso) => {
    expect(new Date(serverEpochMs(ms)).toISOString()).toBe(iso);
  });

  it('clusters built without startMs keep the 2026-01-01T00:00:00Z epoch (tests and goldens)', () => {
    expect(new Date(new Cluster().now()).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});
