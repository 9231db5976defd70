/**
 * Graph-only selectors, memoized per key (stable function identities, docs/style.md#ui-state).
 * Each returns a primitive, so a card re-renders only when its own text changes.
 */
import type { KubeState } from '../store/store';
import { readyEndpoints } from './object-summary';

function memoByKey<T>(make: (key: string) => (s: KubeState) => T): (key: string) => (s: KubeState) => T {
  const cache = new Map<string, (s: KubeState) => T>();
  return (key) => {
    let f = cache.get(key);
    if (!f) cache.set(key, (f = make(key)));
    return f;
  };
}

/** Ready endpoints of a Service, over all its EndpointSlices. */
export const selectServiceEndpoints = memoByKey((key) => (s: KubeState): number => {
  let n = 0;
  for (const slice of s.topology.endpointSlices) if (slice.service === key) n += readyEndpoints(s.objects.get(slice.key)?.object);
  return n;
});

/**
 * Statuses of a group's Pods as "N Status" parts, most common first ("20 Running · 4 Pending").
 * `keys` is the group's Pod keys (the model's array: same identity while the group is unchanged).
 */
export function podGroupStatus(s: Pick<KubeState, 'objects'>, keys: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const k of keys) {
    const o = s.objects.get(k);
    const st = o?.row?.status ?? (o?.object.status?.phase as string | undefined) ?? 'Unknown';
    counts.set(st, (counts.get(st) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([st, n]) => `${n} ${st}`)
    .join(' · ');
}

/**
 * A selector of {@link podGroupStatus} for one group that recomputes only when the store's
 * `objects` map changes identity (zustand runs every subscribed selector on every store
 * update; most updates — time, pulses, flights — leave the objects alone).
 */
export function podGroupStatusSelector(keys: readonly string[]): (s: Pick<KubeState, 'objects'>) => string {
  let seen: KubeState['objects'] | null = null;
  let last = '';
  return (s) => {
    if (s.objects !== seen) {
      seen = s.objects;
      last = podGroupStatus(s, keys);
    }
    return last;
  };
}
