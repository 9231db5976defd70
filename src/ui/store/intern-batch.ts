/**
 * One copy of each string the page's Events and relay hops repeat. A batch arrives as a
 * structured clone, so every Event of the scheduler carries its own copy of
 * `0/4 nodes are available: …`, of `default-scheduler`, `FailedScheduling`, `Warning`, and every
 * hop its own `watch`, `pods`, `default`, admission summary…; the store keeps 1,000 Events and
 * 3,000 hops and the timeline's frames (timeline/timeline.ts) keep earlier ones, so with a
 * summarized cluster most of the page's heap was those copies (16 MB of 57 MB at 200,000
 * Pods, 190 simulated s). Equal strings are one pooled string instead; the values are
 * unchanged (strings compare by value), so nothing the page shows differs.
 *
 * The strings that name one object or one write (names, uids, resourceVersions) are left out:
 * they never repeat and would only fill the pool.
 */
import type { TickBatch } from '../../worker/protocol';

/** Distinct strings pooled before the pool starts over. */
export const STRING_POOL_LIMIT = 16_384;

/** Longest string pooled (an Event message is at most 1 kB). */
const MAX_POOLED = 2048;

const pool = new Map<string, string>();

/** The pooled string equal to `s` (pooled when new). */
export function pooled(s: string): string {
  if (s.length > MAX_POOLED) return s;
  const hit = pool.get(s);
  if (hit !== undefined) return hit;
  if (pool.size >= STRING_POOL_LIMIT) pool.clear();
  pool.set(s, s);
  return s;
}

/** Strings pooled now (tests). */
export function poolSize(): number {
  return pool.size;
}

/** Fields of one object or write, never pooled (in an Event, its metadata and involvedObject; in a hop). */
const UNIQUE = new Set(['name', 'uid', 'resourceVersion']);

/** Replaces the string fields of `o` (and of its plain sub-objects, `depth` levels down) by pooled ones. */
function poolFields(o: Record<string, unknown>, depth: number): void {
  if (Object.isFrozen(o)) return; // not the page's own copy (a test's shared fixture)
  for (const k in o) {
    const v = o[k];
    if (typeof v === 'string') {
      if (!UNIQUE.has(k)) {
        const p = pooled(v);
        if (p !== v) o[k] = p;
      }
    } else if (depth > 0 && v !== null && typeof v === 'object' && !Array.isArray(v)) poolFields(v as Record<string, unknown>, depth - 1);
  }
}

/**
 * Pools the repeated strings of a batch's Events (their fields, metadata, involvedObject,
 * source…; not managedFields or other lists) and hops, in place: the batch is the page's own
 * structured clone, not yet read by anything.
 */
export function internBatch(b: TickBatch): void {
  for (const e of b.events) if (e.object) poolFields(e.object as unknown as Record<string, unknown>, 1);
  for (const h of b.hops) poolFields(h as unknown as Record<string, unknown>, 0);
}
