/**
 * A bounded string intern pool: equal strings built again and again (the scheduler's
 * `0/4 nodes are available: …` message of every Pending Pod, kept in its PodScheduled condition
 * and its FailedScheduling Event) resolve to one flat string instead of one rope per object.
 *
 * Interning changes no output (strings compare by value); it only changes how many copies the
 * heap holds. With 200,000 Pending Pods the scheduler's messages alone are ~100 MB as ropes.
 */
export class StringIntern {
  private pool = new Map<string, string>();

  /** @param limit entries kept; the pool is emptied when it is full (a new generation starts). */
  constructor(private readonly limit = 4096) {}

  /** Returns the pooled string equal to `s` (pooling `s`, flattened, when it is new). */
  intern(s: string): string {
    const hit = this.pool.get(s);
    if (hit !== undefined) return hit;
    if (this.pool.size >= this.limit) this.pool.clear();
    // pooled flat: later hits then hand out one sequential string, not a rope of its parts
    const flat = flatten(s);
    this.pool.set(flat, flat);
    return flat;
  }

  /** Entries pooled now. */
  get size(): number {
    return this.pool.size;
  }
}

/**
 * A flat (sequential) copy of a string built by concatenation: V8 keeps `a + b` as a rope of
 * its parts until it is read; reading a character forces the flat form and replaces the rope's
 * contents. Returns `s` itself.
 */
export function flatten(s: string): string {
  // charCodeAt on a rope makes V8 flatten it in place
  if (s.length) s.charCodeAt(0);
  return s;
}
