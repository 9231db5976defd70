/**
 * One copy of the rules for every node that would compute the same ones.
 *
 * syncProxyRules is a pure function of the proxier's state: the service-port map, the
 * endpoints map (with each endpoint's `isLocal`, the only thing that differs from node to node)
 * and the cluster CIDR. In a cluster of thousands of nodes almost every kube-proxy sees the same
 * state, and each used to keep its own tables, `iptables-save` text and per-service view
 * (about 20 KB a node, the largest part of an idle node's heap). The cache keys a sync's
 * result by the state's JSON, so nodes with the same state share one result object, and a
 * repeated state skips the rendering. Each kube-proxy still syncs, counts its syncs and records
 * its own relay hop; what it shows (`rules()`, `ruleset()`) is unchanged.
 *
 * The shared results are read-only: {@link KubeProxy} and `route.ts` only read them.
 */
import { renderTable } from './iptables';
import { syncProxyRules, type ProxierState, type Ruleset } from './proxier';

/** What one sync computes from its state. */
export interface SyncResult {
  readonly rs: Ruleset;
  /** `iptables-save` text (`*filter` then `*nat`) */
  readonly text: string;
  /** rules kube-proxy restores into its own chains (not the jumps from built-in chains) */
  readonly ruleCount: number;
  /** per service port (`ns/name[:port][/proto]`): "3 endpoints", "no endpoints (REJECT)", … */
  readonly counts: ReadonlyMap<string, string>;
}

const BUILTIN = new Set(['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING']);

/** Results kept (least recently used dropped first). */
const MAX_ENTRIES = 32;
/** States whose JSON is longer than this (characters) are computed per node, not kept. */
const MAX_KEY_CHARS = 256 * 1024;

/** Computes a sync's result from the proxier's state: rules, text, rule count and per-service counts. */
export function computeSync(state: ProxierState): SyncResult {
  const rs = syncProxyRules(state);
  const text = renderTable(rs.filter) + renderTable(rs.nat);
  let ruleCount = 0;
  for (const r of rs.filter.rules) if (!BUILTIN.has(r.chain)) ruleCount++;
  for (const r of rs.nat.rules) if (!BUILTIN.has(r.chain)) ruleCount++;
  const counts = new Map<string, string>();
  for (const s of rs.services) {
    const what =
      s.filtered === 'REJECT'
        ? 'no endpoints (REJECT)'
        : `${s.endpoints.length} endpoint${s.endpoints.length === 1 ? '' : 's'}${s.filtered === 'DROP' ? ' (no local endpoints: DROP)' : ''}`;
    counts.set(`${s.nameString}${s.protocol === 'tcp' ? '' : `/${s.protocol}`}`, what);
  }
  return { rs, text, ruleCount, counts };
}

/** A cluster's shared sync results, keyed by the state they were computed from. */
export class RulesetCache {
  private readonly entries = new Map<string, SyncResult>();
  /** Lookups answered from the cache (tests, benchmarks). */
  hits = 0;

  /** The result for `state`: a kept one when another node (or this one) computed it, else computed now. */
  sync(state: ProxierState): SyncResult {
    const key = stateKey(state);
    if (key === null) return computeSync(state);
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const r = computeSync(state);
    this.entries.set(key, r);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return r;
  }

  /** Number of kept results. */
  get size(): number {
    return this.entries.size;
  }
}

/** The state as JSON (every field syncProxyRules reads), or null when it is too long to keep. */
function stateKey(state: ProxierState): string | null {
  let n = 0;
  for (const eps of state.endpoints.values()) n += eps.length;
  // a rough bound before building the string: ~150 characters an endpoint, ~600 a service port
  if (n * 150 + state.services.length * 600 > MAX_KEY_CHARS) return null;
  const key = JSON.stringify([state.clusterCIDR, state.services, [...state.endpoints]]);
  return key.length > MAX_KEY_CHARS ? null : key;
}
