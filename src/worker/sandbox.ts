/**
 * Runs a "what if" against the cluster without changing it: server-side dry runs of the
 * editor's text (after every edit) and `kubectl diff`. The apiserver's dry run stores nothing,
 * but it still records relay hops, draws from the seeded RNG (uids, generated names, random
 * ClusterIPs and NodePorts) and marks ClusterIPs/NodePorts as allocated. Any of those would
 * make a later replay of the session log diverge (the log never holds dry runs), so the
 * sandbox snapshots that state and puts it back afterwards. Stored objects are never touched
 * by a dry run, so they need no snapshot.
 *
 * The engine keeps these fields private; this is the one place that reaches into them, and
 * sandbox.test.ts pins the behaviour (a dry run followed by a real apply gives exactly what
 * the real apply alone gives).
 */
import type { Cluster } from '../cluster/cluster';

interface Internals {
  rng: { a: number; b: number; c: number; d: number };
  relay: { nextSeq: number; reconcileSeq: number; enabled: boolean };
  api: { clusterIPs?: { used: Set<number> }; nodePorts?: { used: Set<number> } };
}

/** Runs `fn` and restores the RNG, the relay counters and the Service allocators after it. */
export function sandboxed<T>(cluster: Cluster, fn: () => T): T {
  const c = cluster as unknown as Internals;
  const rng = { ...c.rng };
  const { nextSeq, reconcileSeq, enabled } = c.relay;
  const ips = c.api.clusterIPs ? new Set(c.api.clusterIPs.used) : null;
  const ports = c.api.nodePorts ? new Set(c.api.nodePorts.used) : null;
  c.relay.enabled = false;
  try {
    return fn();
  } finally {
    Object.assign(c.rng, rng);
    c.relay.nextSeq = nextSeq;
    c.relay.reconcileSeq = reconcileSeq;
    c.relay.enabled = enabled;
    if (ips && c.api.clusterIPs) c.api.clusterIPs.used = ips;
    if (ports && c.api.nodePorts) c.api.nodePorts.used = ports;
  }
}
