/**
 * Test harness (not a test): a {@link ClusterHost} on a seeded 3-node cluster with a fake wall
 * clock and a hand-driven tick, as the worker tests need it.
 */
import type { KObject } from '../cluster/api/types';
import { Cluster } from '../cluster/cluster';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { describeRow } from '../cluster/kubectl/printers';
import { ClusterHost, TICK_MS } from './cluster-api';
import type { TickBatch } from './protocol';

export interface TestHostOptions {
  /** worker nodes (default 3) */
  nodes?: number;
  /** wall ms each tick lets pass (default TICK_MS + 0.37: performance.now() is fractional, simulated time must not be) */
  wallStep?: number;
  /** subscribe at once (default true); otherwise call `listen()` */
  subscribe?: boolean;
  /** the clock origin of batches (`simMs` = now − startMs; default DEFAULT_START_MS, the engine's time zero; the worker uses the boot) */
  startMs?: number;
  /** the resource name of an object in batches (default `${kind}s`, lower case) */
  resourceOf?: (o: KObject) => string;
}

/**
 * A host and its driver: `run(ms)` lets `ms` of wall time pass one tick at a time; `batches`
 * holds structured clones of every batch pushed (as they cross the worker boundary).
 */
export function testHost(opts: TestHostOptions = {}) {
  let wall = 0;
  let tick: (() => void) | null = null;
  const host = new ClusterHost({
    createCluster: (o) =>
      new Cluster({ seed: 1, nodes: opts.nodes ?? 3, ...(o ? { controlPlane: { replicas: o.controlPlaneReplicas } } : {}) }),
    startMs: opts.startMs ?? DEFAULT_START_MS,
    describeRow,
    resourceOf: opts.resourceOf ?? ((o) => `${o.kind.toLowerCase()}s`),
    wallNow: () => wall,
    setInterval: (fn) => ((tick = fn), 1),
    clearInterval: () => (tick = null),
  });
  const batches: TickBatch[] = [];
  const listen = () => host.subscribe((b) => batches.push(structuredClone(b)));
  if (opts.subscribe !== false) listen();
  const step = opts.wallStep ?? TICK_MS + 0.37;
  const run = (ms: number) => {
    for (let t = 0; t < ms; t += TICK_MS) {
      wall += step;
      tick!();
    }
  };
  return { host, batches, run, listen, last: () => batches.at(-1)! };
}
