/**
 * ClusterHost against the real engine, in Node: the wall-clock loop is driven by hand
 * (injected wallNow / setInterval), batches are collected as the UI would receive them.
 */
import { describe, expect, it } from 'vitest';
import SEED_MANIFEST from '../scenarios/peekcart.yaml?raw';
import { testHost } from './test-host';

const setup = () =>
  testHost({
    resourceOf: (o) => (o.kind === 'Deployment' || o.kind === 'ReplicaSet' ? `${o.kind.toLowerCase()}s.apps` : `${o.kind.toLowerCase()}s`),
  });

describe('ClusterHost', () => {
  it('starts with a reset batch holding the nodes, with their kubectl rows', () => {
    const { batches, host } = setup();
    expect(batches).toHaveLength(1);
    const [b] = batches;
    expect(b.reset).toBe(true);
    expect(b.simMs).toBeGreaterThanOrEqual(0);
    const nodes = b.changes.filter((c) => c.object.kind === 'Node').map((c) => [c.key, c.row?.status]);
    expect(nodes).toEqual([
      ['Node/control-plane', 'Ready'],
      ['Node/node-1', 'Ready'],
      ['Node/node-2', 'Ready'],
      ['Node/node-3', 'Ready'],
    ]);
    host.dispose();
  });

  it('applies the seed, advances with wall time × speed and dedupes changes per tick', () => {
    const { batches, host, run } = setup();
    const results = host.apply(SEED_MANIFEST);
    expect(results.map((r) => `${r.object} ${r.action}`)).toEqual(['deployment.apps/peekcart created', 'service/peekcart created']);
    host.setSpeed(10);
    run(3_000); // 30 simulated seconds
    for (const b of batches) {
      const keys = b.changes.map((c) => c.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
    const hops = batches.flatMap((b) => b.hops);
    expect(hops.map((h) => h.seq)).toEqual([...hops.map((h) => h.seq)].sort((a, b) => a - b));
    const last = batches.at(-1)!;
    expect(last.fault).toBeNull();
    expect(last.simMs).toBeGreaterThan(25_000);
    expect(batches.every((b) => Number.isInteger(b.simMs))).toBe(true);
    // fold the stream as the UI does and look at the Pods
    const pods = new Map<string, string>();
    for (const b of batches) {
      for (const c of b.changes) {
        if (c.object.kind !== 'Pod' || c.object.metadata.namespace !== 'default') continue;
        if (c.type === 'DELETED') pods.delete(c.key);
        else pods.set(c.key, c.row!.status);
      }
    }
    expect([...pods.values()]).toEqual(['Running', 'Running', 'Running']);
    host.dispose();
  });

  it('pauses, steps to the next visible hop, kills and restores nodes, and resets', () => {
    const { batches, host, run } = setup();
    host.pause();
    const before = batches.at(-1)!.simMs;
    run(1_000);
    expect(batches.at(-1)!.simMs).toBe(before);
    host.apply(SEED_MANIFEST);
    const n = batches.length;
    expect(host.step()).toBe(true);
    expect(batches.length).toBe(n + 1);
    expect(batches.at(-1)!.hops.some((h) => h.category !== 'heartbeat')).toBe(true);

    const power = () => {
      let p: string | undefined;
      for (const b of batches) for (const c of b.changes) if (c.key === 'Machine/node-2') p = c.object.spec?.power;
      return p;
    };
    host.killNode('node-2');
    expect(power()).toBe('Off');
    host.play();
    run(70_000); // the node lifecycle controller notices the silence
    expect(batches.at(-1)!.deadlines.length).toBeGreaterThan(0);
    host.restoreNode('node-2');
    expect(power()).toBe('On');
    expect(host.addNode()).toBe('node-4');

    host.reset();
    const r = batches.at(-1)!;
    expect(r.reset).toBe(true);
    expect(r.gen).toBe(2);
    expect(r.changes.some((c) => c.object.kind === 'Deployment' && c.object.metadata.namespace === 'default')).toBe(false);
    host.dispose();
  });
});

describe('ClusterHost events', () => {
  it('streams core/v1 Events', () => {
    const { batches, host, run } = setup();
    host.apply(SEED_MANIFEST);
    run(2_000);
    const reasons = batches.slice(1).flatMap((b) => b.events.map((e) => e.object.reason));
    expect(reasons).toContain('Scheduled');
    host.dispose();
  });
});
