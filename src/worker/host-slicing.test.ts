/**
 * ClusterHost's loop under load (issue 21 §5): time slices with continuations, back-pressure
 * on batches, batches of bounded size. Wall clock and timers are injected: the wall clock
 * advances 1 ms per reading, so a slice of SLICE_MS stops after a known number of timers.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { describeRow } from '../cluster/kubectl/printers';
import { ClusterHost, MAX_CHANGES_PER_BATCH, TICK_MS } from './cluster-api';
import type { TickBatch } from './protocol';

function host(opts: { timeouts?: boolean } = {}) {
  let wall = 0;
  let tick: (() => void) | null = null;
  const timeouts: (() => void)[] = [];
  const h = new ClusterHost({
    createCluster: () => new Cluster({ seed: 1, nodes: 3 }),
    startMs: DEFAULT_START_MS,
    describeRow,
    resourceOf: (o) => `${o.kind.toLowerCase()}s`,
    wallNow: () => wall++,
    setInterval: (fn) => ((tick = fn), 1),
    clearInterval: () => (tick = null),
    ...(opts.timeouts === false ? {} : { setTimeout: (fn: () => void) => timeouts.push(fn) }),
  });
  return {
    h,
    timeouts,
    /** One interval tick after `ms` more wall ms. */
    tick: (ms = TICK_MS) => {
      wall += ms;
      tick!();
    },
    now: () => h.exportState().now,
  };
}

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx:1.27}]
`;

const configMaps = (n: number) =>
  Array.from({ length: n }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}}\ndata: {k: v}\n`).join('---\n');

describe('ClusterHost time slices', () => {
  it('a tick the engine cannot finish in one slice continues in later slices up to its target, and no further', () => {
    const t = host();
    t.h.subscribe(() => {});
    t.h.setSpeed(100);
    t.h.apply(deployment(200));
    const before = t.now();
    t.tick(); // ≈ 50 wall ms × 100 = ≈ 5 simulated s owed
    expect(t.timeouts.length).toBe(1); // one continuation, not run synchronously
    const afterFirst = t.now();
    let slices = 1;
    while (t.timeouts.length) {
      t.timeouts.shift()!();
      slices++;
    }
    expect(slices).toBeGreaterThan(2);
    const reached = t.now();
    expect(reached).toBeGreaterThan(afterFirst);
    // the target is the clock at the tick plus the owed whole ms: wall moved by 50 + the readings before the tick
    expect(reached - before).toBeGreaterThanOrEqual(50 * 100);
    expect(reached - before).toBeLessThan(52 * 100);
  });

  it('pausing drops the continuation: the clock stays where the slice stopped', () => {
    const t = host();
    t.h.subscribe(() => {});
    t.h.setSpeed(100);
    t.h.apply(deployment(200));
    t.tick();
    expect(t.timeouts.length).toBe(1);
    t.h.pause();
    const at = t.now();
    t.timeouts.shift()!();
    expect(t.now()).toBe(at);
    expect(t.timeouts.length).toBe(0);
  });

  it('without an injected setTimeout (tests, headless) a tick runs one budgeted slice and schedules nothing', () => {
    const t = host({ timeouts: false });
    t.h.subscribe(() => {});
    t.h.apply(deployment(3));
    t.tick();
    expect(t.timeouts.length).toBe(0);
  });
});

describe('ClusterHost back-pressure and batch size', () => {
  it('holds batches until the UI acknowledges; changes fold meanwhile; a snapshot goes in shares', async () => {
    const t = host();
    t.h.apply(configMaps(MAX_CHANGES_PER_BATCH + 200));
    const got: TickBatch[] = [];
    const acks: (() => void)[] = [];
    t.h.subscribe((b) => {
      got.push(structuredClone(b));
      return new Promise<void>((r) => acks.push(r));
    });
    // the snapshot: a reset with the first share; nothing more while unacknowledged
    expect(got.map((b) => [b.reset, b.changes.length])).toEqual([[true, MAX_CHANGES_PER_BATCH]]);
    const names = (b: TickBatch, type: string) =>
      b.changes
        .filter((c) => c.type === type && c.object.kind === 'ConfigMap' && c.object.metadata.name!.startsWith('cm-'))
        .map((c) => c.object.metadata.name!);
    const sent = new Set(names(got[0], 'ADDED'));
    const all = Array.from({ length: MAX_CHANGES_PER_BATCH + 200 }, (_, i) => `cm-${i}`);
    const unsent = all.filter((n) => !sent.has(n));
    expect(unsent.length).toBeGreaterThan(0);
    t.tick();
    t.tick();
    const gone = [...sent][0];
    t.h.kubectl(`delete configmap ${gone}`); // already sent: a DELETED change follows
    t.h.kubectl(`delete configmap ${unsent[0]}`); // not sent yet: ADDED + DELETED fold to nothing
    expect(got.length).toBe(1);
    acks.shift()!();
    await Promise.resolve();
    await Promise.resolve();
    expect(got.length).toBe(2);
    const second = got[1];
    expect(second.reset).toBe(false);
    expect(names(second, 'DELETED')).toEqual([gone]);
    expect(names(second, 'ADDED').sort()).toEqual(unsent.slice(1).sort());
    expect(second.changes.length).toBeLessThanOrEqual(MAX_CHANGES_PER_BATCH);
  });
});
