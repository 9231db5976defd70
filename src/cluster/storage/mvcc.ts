/**
 * An etcd-like multi-version store: one global revision, per-key create/mod revisions,
 * compare-and-swap on the mod revision, an event history to resume watches from, and
 * compaction (a watch from a compacted revision gets 410 Gone, as in etcd3's
 * ErrCompacted and the apiserver's "too old resource version").
 *
 * Keys are grouped by resource ("deployments.apps", "pods") so a list touches one bucket.
 * Values are plain JSON objects; the store sets metadata.resourceVersion to the mod
 * revision. Stored values are shared read-only with readers: never mutate them.
 *
 * Mirrors go.etcd.io/etcd/server/v3/mvcc (revisions, compaction) as used by
 * k8s.io/apiserver/pkg/storage/etcd3/store.go (GuaranteedUpdate's CAS on mod revision).
 */
import type { KObject } from '../api/types';
import { ManagedFieldsIntern } from './managed-fields-intern';
import { ObjectIntern } from './object-intern';

export interface StoredEntry {
  obj: KObject;
  createRev: number;
  modRev: number;
}

/** One change, as an etcd watch reports it. */
export interface StoreEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** group-qualified resource, e.g. "pods", "deployments.apps" */
  resource: string;
  /** "namespace/name" or "name" */
  key: string;
  obj: KObject;
  prev?: KObject;
  rev: number;
}

export type StoreListener = (ev: StoreEvent) => void;

/**
 * Top-level fields of a resource the object intern leaves unshared, frozen as written (storage/object-intern.ts):
 * an Event's involvedObject (regarding) and related name one object at one resourceVersion
 * (with a field path), so nearly every Event has its own; numbering their strings and hashing
 * them was about a fifth of the CPU of an Event write, for no sharing.
 */
const UNSHARED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['events', new Set(['involvedObject', 'related'])],
  ['events.events.k8s.io', new Set(['regarding', 'related'])],
]);

export class MVCCStore {
  private rev = 0;
  private buckets = new Map<string, Map<string, StoredEntry>>();
  /**
   * Per resource, its keys in list order (by "namespace/name" of the stored object), sorted on
   * demand: dropped when a key is created or deleted, kept across updates (which change neither
   * the key nor the object's name and namespace), so a list sorts only after the key set changed.
   */
  private sortedKeys = new Map<string, string[]>();
  private history: StoreEvent[] = [];
  private historyStart = 0; // index into history of the oldest kept event
  private compactedRev = 0;
  private listeners: StoreListener[] = [];
  /** Shared frozen managedFields entries (managed-fields-intern.ts): memory only, never what a reader sees. */
  readonly managedFieldsIntern = new ManagedFieldsIntern();
  /** Shared frozen copies of repeated subtrees (object-intern.ts): memory only, never what a reader sees. */
  readonly objectIntern = new ObjectIntern();
  /** Max events kept for watch resumption before compaction drops the oldest. */
  historyLimit: number;

  /** @param historyLimit events kept for resuming watches (the apiserver watch cache size). */
  constructor(historyLimit = 10_000) {
    this.historyLimit = historyLimit;
  }

  /** The current global revision (the resourceVersion of a list). */
  get revision(): number {
    return this.rev;
  }

  /** The oldest revision a watch may resume from; older ones get 410 Gone. */
  get compactedRevision(): number {
    return this.compactedRev;
  }

  /** Subscribes to every committed change, synchronously, in revision order. */
  listen(l: StoreListener): () => void {
    this.listeners.push(l);
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
    };
  }

  /**
   * Called before a read of a resource (get: the key; list: undefined), so a lazily kept object
   * can be written up to date first (the lazy node Leases and status reports, sim/heartbeats.ts).
   * A hook's own writes and reads do not call hooks again.
   */
  readonly readHooks = new Map<string, (key: string | undefined) => void>();
  private inHook = false;

  private beforeRead(resource: string, key: string | undefined): void {
    const hook = this.readHooks.get(resource);
    if (!hook || this.inHook) return;
    this.inHook = true;
    try {
      hook(key);
    } finally {
      this.inHook = false;
    }
  }

  get(resource: string, key: string): StoredEntry | undefined {
    if (this.readHooks.size) this.beforeRead(resource, key);
    return this.buckets.get(resource)?.get(key);
  }

  /**
   * Entries of a resource, optionally one namespace, sorted by key (etcd range order).
   * O(n) when no key was created or deleted since the last list of the resource, else
   * O(n log n) once.
   */
  list(resource: string, namespace?: string): StoredEntry[] {
    if (this.readHooks.size) this.beforeRead(resource, undefined);
    const b = this.buckets.get(resource);
    if (!b) return [];
    const keys = this.keysInOrder(resource, b);
    const out: StoredEntry[] = [];
    if (namespace) {
      const prefix = namespace + '/';
      for (const k of keys) if (k.startsWith(prefix)) out.push(b.get(k)!);
    } else {
      for (const k of keys) out.push(b.get(k)!);
    }
    return out;
  }

  private keysInOrder(resource: string, b: Map<string, StoredEntry>): string[] {
    let keys = this.sortedKeys.get(resource);
    if (keys) return keys;
    const rows: { sortKey: string; key: string }[] = [];
    for (const [key, e] of b) rows.push({ sortKey: keyOf(e.obj), key });
    rows.sort((a, b2) => (a.sortKey < b2.sortKey ? -1 : 1));
    keys = rows.map((r) => r.key);
    this.sortedKeys.set(resource, keys);
    return keys;
  }

  /** The entries of the given keys of a resource (absent ones skipped), in list order. */
  entriesInOrder(resource: string, keys: Iterable<string>): StoredEntry[] {
    const b = this.buckets.get(resource);
    if (!b) return [];
    const rows: { sortKey: string; e: StoredEntry }[] = [];
    for (const k of keys) {
      const e = b.get(k);
      if (e) rows.push({ sortKey: keyOf(e.obj), e });
    }
    rows.sort((a, b2) => (a.sortKey < b2.sortKey ? -1 : 1));
    return rows.map((r) => r.e);
  }

  /** Number of keys stored for a resource. */
  count(resource: string): number {
    return this.buckets.get(resource)?.size ?? 0;
  }

  /** Resources that have at least one key. */
  resources(): string[] {
    return [...this.buckets.keys()].filter((r) => (this.buckets.get(r)?.size ?? 0) > 0);
  }

  /**
   * Creates a key. Returns the stored entry, or undefined when the key exists (the caller
   * turns that into 409 AlreadyExists). Sets metadata.resourceVersion on `obj` (which the
   * store then owns).
   */
  create(resource: string, key: string, obj: KObject): StoredEntry | undefined {
    let b = this.buckets.get(resource);
    if (!b) this.buckets.set(resource, (b = new Map()));
    if (b.has(key)) return undefined;
    const rev = ++this.rev;
    obj.metadata.resourceVersion = String(rev);
    this.managedFieldsIntern.internManagedFields(obj);
    this.objectIntern.internObject(obj, UNSHARED.get(resource));
    const e: StoredEntry = { obj, createRev: rev, modRev: rev };
    b.set(key, e);
    this.sortedKeys.delete(resource);
    this.emit({ type: 'ADDED', resource, key, obj, rev });
    return e;
  }

  /**
   * Replaces a key's value when its mod revision equals `expectedModRev` (or always, when
   * undefined). Returns the new entry, 'notfound', or 'conflict'.
   */
  update(resource: string, key: string, obj: KObject, expectedModRev?: number): StoredEntry | 'notfound' | 'conflict' {
    const b = this.buckets.get(resource);
    const cur = b?.get(key);
    if (!b || !cur) return 'notfound';
    if (expectedModRev !== undefined && cur.modRev !== expectedModRev) return 'conflict';
    const rev = ++this.rev;
    obj.metadata.resourceVersion = String(rev);
    this.managedFieldsIntern.internManagedFields(obj);
    this.objectIntern.internObject(obj, UNSHARED.get(resource));
    const e: StoredEntry = { obj, createRev: cur.createRev, modRev: rev };
    b.set(key, e);
    this.emit({ type: 'MODIFIED', resource, key, obj, prev: cur.obj, rev });
    return e;
  }

  /** Deletes a key (CAS like update). The DELETED event carries the last value at the new revision. */
  delete(resource: string, key: string, expectedModRev?: number): StoredEntry | 'notfound' | 'conflict' {
    const b = this.buckets.get(resource);
    const cur = b?.get(key);
    if (!b || !cur) return 'notfound';
    if (expectedModRev !== undefined && cur.modRev !== expectedModRev) return 'conflict';
    const rev = ++this.rev;
    b.delete(key);
    this.sortedKeys.delete(resource);
    // The deleted object is reported with the deletion revision, as the watch cache does.
    const last = { ...cur.obj, metadata: { ...cur.obj.metadata, resourceVersion: String(rev) } };
    this.emit({ type: 'DELETED', resource, key, obj: last, prev: cur.obj, rev });
    return { obj: last, createRev: cur.createRev, modRev: rev };
  }

  /**
   * Events after `fromRev` (exclusive) for one resource, for resuming a watch.
   * Returns 'gone' when `fromRev` is older than what history keeps. O(log h + events after
   * fromRev) in the history h kept.
   */
  eventsSince(resource: string, fromRev: number): StoreEvent[] | 'gone' {
    if (fromRev < this.compactedRev) return 'gone';
    const out: StoreEvent[] = [];
    if (fromRev >= this.rev) return out;
    // history is in revision order: start at the first event after fromRev (binary search)
    let lo = this.historyStart;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.history[mid].rev > fromRev) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < this.history.length; i++) {
      const ev = this.history[i];
      if (ev.rev > fromRev && ev.resource === resource) out.push(ev);
    }
    return out;
  }

  /** Drops history at or below `rev` (etcd compaction). */
  compact(rev: number): void {
    while (this.historyStart < this.history.length && this.history[this.historyStart].rev <= rev) this.historyStart++;
    this.compactedRev = Math.max(this.compactedRev, rev);
    if (this.historyStart > 4096 && this.historyStart * 2 > this.history.length) {
      this.history = this.history.slice(this.historyStart);
      this.historyStart = 0;
    }
  }

  private emit(ev: StoreEvent): void {
    this.history.push(ev);
    if (this.history.length - this.historyStart > this.historyLimit) {
      const drop = this.history[this.historyStart];
      this.compact(drop.rev);
    }
    for (const l of this.listeners) l(ev);
  }
}

function keyOf(o: KObject): string {
  const ns = o.metadata.namespace;
  return ns ? `${ns}/${o.metadata.name}` : `${o.metadata.name}`;
}
