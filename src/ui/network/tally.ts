/**
 * Tallies of traffic results (pure, unit-tested): how many requests each Pod got — kube-proxy's
 * KUBE-SVC chain picks an endpoint with `--probability 1/n, 1/(n-1) … 1`, so over many
 * requests the counts spread evenly — and the conversion of a result into a graph flight.
 */
import type { TrafficResult } from '../../worker/protocol';
import type { TrafficFlight } from '../store/slices/traffic';

/** Requests one Pod received. */
export interface PodTally {
  /** "Pod/NS/NAME" */
  podKey: string;
  /** requests routed to it (answered or refused) */
  count: number;
  /** of those, answered successfully */
  ok: number;
  /** count / all requests routed to some Pod, 0..1 */
  share: number;
}

/** The tally of a list of results. */
export interface Tally {
  /** Pods by count (descending), then name */
  pods: PodTally[];
  /** all results */
  total: number;
  /** results with ok = true */
  ok: number;
  /** results that never reached a Pod (NXDOMAIN, no endpoints, unknown host …) */
  noPod: number;
}

/** Counts results per Pod (every result whose `podKey` is set), with shares of the routed total. */
export function tallyByPod(results: readonly TrafficResult[]): Tally {
  const counts = new Map<string, { count: number; ok: number }>();
  let ok = 0;
  let noPod = 0;
  for (const r of results) {
    if (r.ok) ok++;
    if (!r.podKey) {
      noPod++;
      continue;
    }
    const c = counts.get(r.podKey) ?? { count: 0, ok: 0 };
    c.count++;
    if (r.ok) c.ok++;
    counts.set(r.podKey, c);
  }
  const routed = results.length - noPod;
  const pods = [...counts]
    .map(([podKey, c]) => ({ podKey, count: c.count, ok: c.ok, share: routed ? c.count / routed : 0 }))
    .sort((a, b) => b.count - a.count || a.podKey.localeCompare(b.podKey));
  return { pods, total: results.length, ok, noPod };
}

/** A traffic source as the panel's select holds it: "external" or "NS/NAME" of a Pod. */
export function parseSource(value: string): { kind: 'external' } | { kind: 'pod'; namespace: string; name: string } {
  const slash = value.indexOf('/');
  if (value === 'external' || slash < 0) return { kind: 'external' };
  return { kind: 'pod', namespace: value.slice(0, slash), name: value.slice(slash + 1) };
}

/** The graph flight for one result (without its id), started at `startedWallMs` (performance.now()). */
export function flightOf(result: TrafficResult, source: string, startedWallMs: number): Omit<TrafficFlight, 'id'> {
  const src = parseSource(source);
  return {
    source: src.kind === 'pod' ? { kind: 'pod', podKey: `Pod/${src.namespace}/${src.name}` } : { kind: 'external' },
    ingressKey: result.ingressKey,
    serviceKey: result.serviceKey,
    podKey: result.podKey,
    viaNode: result.viaNode,
    ok: result.ok,
    message: result.message,
    startedWallMs,
  };
}

/** "Pod/default/web-5d9c-abcde" → "web-5d9c-abcde" (the name a person reads). */
export function shortKey(key: string | null): string {
  return key ? key.slice(key.lastIndexOf('/') + 1) : '';
}
