/**
 * Shared informers: list + watch of one resource into a local cache (the indexer), then
 * event handlers — client-go's tools/cache (reflector.go, shared_informer.go, index.go)
 * in miniature. The list and watch are the reflector's (client/cache/reflector.ts) over a
 * ListerWatcher (client/listwatch.ts for a client's resource); the informer is its store.
 *
 * Contract (as shared_informer.go's opening comment): the cache is eventually consistent
 * with the apiserver; each handler sees one object's notifications in order, after the cache
 * was updated; there is no ordering across objects; handlers must be quick and hand work to a
 * work queue. Cache objects are shared: never mutate them.
 *
 * Relay: before a handler of a component (`participant`) runs for an event, the informer
 * records one `watch` hop kube-apiserver → participant whose cause is the write that produced
 * the event, and runs the handler with that hop as the current cause — so everything the
 * component then does is traced back to what it observed.
 */
import type { Client } from './clientset';
import type { KObject, WatchEvent } from '../api/types';
import { metaNamespaceKey } from '../api/types';
import { carryObjectKey, sharedObjectKey } from '../api/object-key';
import type { ResourceInfo } from '../api/resources';
import { matches, type Selector } from '../api/labels';
import type { RelayRecorder } from '../relay/recorder';
import { Reflector, type ReflectorStore } from './cache/reflector';
import { newListWatchFromClient, type ResourceListerWatcher } from './listwatch';
import type { HopCategory } from '../relay/relay-event';

export interface EventHandler<T extends KObject = KObject> {
  /** Relay participant that owns this handler (e.g. "replicaset-controller"). */
  participant: string;
  /** Only events whose object passes are delivered (FilteringResourceEventHandler). */
  filter?: (obj: T) => boolean;
  onAdd?: (obj: T, isInInitialList: boolean) => void;
  onUpdate?: (oldObj: T, newObj: T) => void;
  onDelete?: (obj: T) => void;
}

/** Derives the relay category of an event (Lease renewals and node heartbeats → "heartbeat"). */
export type Categorizer = (ev: WatchEvent) => HopCategory;

export type IndexFunc<T extends KObject = KObject> = (obj: T) => string[];

/**
 * Called synchronously on every cache change, before any handler runs for it: `oldObj` is the
 * object the cache held (undefined for an add), `newObj` the one it holds now (undefined for a
 * delete). Not an event handler — no relay hop, no filtering, no initial replay: an extension
 * of the indexer for in-process derived state (e.g. per-owner counters) that must stay exactly
 * consistent with the cache.
 */
export type CacheListener<T extends KObject = KObject> = (key: string, oldObj: T | undefined, newObj: T | undefined) => void;

/** Read-only view of an informer's cache (client-go listers). */
export interface Lister<T extends KObject = KObject> {
  get(key: string): T | undefined;
  /** Objects in one namespace (or all), optionally filtered by a label selector. */
  list(namespace?: string, selector?: Selector): T[];
  byIndex(index: string, value: string): T[];
}

/** Objects a namespace holds before it may go without a map of its own (SharedInformer.bigNamespace). */
const BIG_NAMESPACE_MIN = 4096;

/** `key` (metaNamespaceKey(o)) as one flat string. */
function flatKey(o: KObject, key: string): string {
  const ns = o.metadata.namespace;
  return ns ? [ns, o.metadata.name].join('/') : key;
}

export class SharedInformer<T extends KObject = KObject> implements Lister<T>, ReflectorStore<T> {
  private items = new Map<string, T>();
  private byNamespace = new Map<string, Map<string, T>>();
  /**
   * The namespace (at most one) that holds most of the cache — 200,000 Pods of one Deployment —
   * and has no map in {@link byNamespace}: that map would repeat most of `items`, so its list
   * filters `items` instead (the same objects in the same order), and {@link bigCount} counts it.
   */
  private bigNamespace: string | null = null;
  private bigCount = 0;
  /** Per index, value → the keys of the objects under it (cache.Index: map[string]sets.String). */
  private indexers = new Map<string, { fn: IndexFunc<T>; index: Map<string, Set<string>> }>();
  private handlers: EventHandler<T>[] = [];
  private cacheListeners: CacheListener<T>[] = [];
  private readonly reflector: Reflector<T>;
  private started = false;
  private synced = false;
  /** The resource this informer caches. */
  readonly info: ResourceInfo;
  /** Pods (many informers, one key string each: api/object-key.ts). */
  private readonly sharedKeys: boolean;

  /**
   * @param listerWatcher what the reflector lists and watches: for engine components a
   *   {@link ListWatch} made from a client (newListWatchFromClient), whose `trace` names the
   *   cause of each watch hop.
   */
  constructor(
    readonly listerWatcher: ResourceListerWatcher<T>,
    readonly opts: { categorize?: Categorizer } = {},
  ) {
    this.info = listerWatcher.info;
    this.sharedKeys = this.info.group === '' && this.info.resource === 'pods';
    this.reflector = new Reflector<T>(listerWatcher, this);
  }

  /** Resource version of the last event seen (resume point). */
  get lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion;
  }

  /** Adds a named index (cache.Indexers), e.g. pods by spec.nodeName. Call before start. */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    this.indexers.set(name, { fn, index: new Map() });
    for (const [k, o] of this.items) this.indexAdd(k, o);
  }

  /** Adds a {@link CacheListener}; it sees changes from now on (read the cache for the past). */
  addCacheListener(l: CacheListener<T>): void {
    this.cacheListeners.push(l);
  }

  addEventHandler(h: EventHandler<T>): void {
    this.handlers.push(h);
    if (this.synced) {
      // late registration: replay the cache as adds (client-go does the same)
      for (const o of this.items.values()) if (!h.filter || h.filter(o)) h.onAdd?.(o, true);
    }
  }

  /**
   * Runs the reflector: lists, fills the cache, notifies handlers (isInInitialList), then
   * watches from the list's RV — all before it returns (the engine's ListerWatcher answers at once).
   * @throws StatusError when the list or the watch is refused (e.g. 403).
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.reflector.run();
  }

  /** Stops the watch (a component going down); the cache is kept. */
  stop(): void {
    this.reflector.stop();
    this.started = false;
  }

  /**
   * Restarts after {@link stop}: relists and reconciles the cache against the list, emitting
   * adds, updates and deletes for what changed meanwhile (the reflector's relist).
   */
  restart(): void {
    this.start();
  }

  /**
   * ReflectorStore.replace: the first list fills the cache and notifies handlers as the initial
   * list; a relist (restart, or after a 410) reconciles the cache against it, emitting adds,
   * updates and deletes for what changed meanwhile.
   */
  replace(items: T[], _resourceVersion: string): void {
    if (!this.synced) {
      for (const o of items) this.cacheSet(o);
      this.synced = true;
      for (const o of items) this.notify({ type: 'ADDED', object: o }, true);
      return;
    }
    const seen = new Set<string>();
    for (const o of items) {
      const k = metaNamespaceKey(o);
      seen.add(k);
      const old = this.items.get(k);
      if (!old) this.event({ type: 'ADDED', object: o });
      else if (old.metadata.resourceVersion !== o.metadata.resourceVersion) this.event({ type: 'MODIFIED', object: o, oldObject: old });
    }
    for (const [k, o] of [...this.items]) if (!seen.has(k)) this.event({ type: 'DELETED', object: o });
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** ReflectorStore.event: updates the cache, then notifies the handlers. */
  event(ev: WatchEvent<T>): void {
    const k = metaNamespaceKey(ev.object);
    const old = this.items.get(k);
    if (ev.type === 'DELETED') this.cacheDelete(k);
    else this.cacheSet(ev.object);
    const e: WatchEvent<T> = ev.type === 'MODIFIED' || ev.type === 'DELETED' ? { ...ev, oldObject: old ?? ev.oldObject } : ev;
    this.notify(e, false);
  }

  private notify(ev: WatchEvent<T>, initial: boolean): void {
    const trace = this.listerWatcher.trace;
    if (!this.handlers.length || !trace) return;
    const relay = trace.relay;
    const rv = Number(ev.object.metadata.resourceVersion);
    const writeCause = initial ? null : trace.causeOf(rv);
    const category = this.opts.categorize?.(ev as WatchEvent);
    let lastParticipant = '';
    let hop: number | null = null;
    for (const h of this.handlers) {
      let e = ev;
      if (h.filter) {
        // for updates, deliver when either side passes (FilteringResourceEventHandler semantics)
        const pass = h.filter(ev.object);
        const passOld = ev.type === 'MODIFIED' && ev.oldObject ? h.filter(ev.oldObject) : false;
        if (!pass && !passOld) continue;
        if (ev.type === 'MODIFIED' && !pass && passOld) e = { type: 'DELETED', object: ev.object };
        else if (ev.type === 'MODIFIED' && pass && !passOld) e = { type: 'ADDED', object: ev.object };
      }
      // handlers of one participant in a row share its watch hop
      const seq = this.deliver(h, e, initial, relay, writeCause, category, h.participant === lastParticipant ? hop : null);
      if (seq !== null) hop = seq;
      lastParticipant = h.participant;
    }
  }

  /**
   * Runs one handler for one event: records the watch hop unless `existingHop` is given (or the
   * handler has no callback for the event type), then calls it with that hop as the cause.
   * @returns the hop used, or null when the handler does not observe this event type.
   */
  private deliver(
    h: EventHandler<T>,
    ev: WatchEvent<T>,
    initial: boolean,
    relay: RelayRecorder,
    writeCause: number | null,
    category: HopCategory,
    existingHop: number | null,
  ): number | null {
    // a handler with no callback for this event type does not observe it (no watch hop)
    if (!(ev.type === 'ADDED' ? h.onAdd : ev.type === 'MODIFIED' ? h.onUpdate : h.onDelete)) return null;
    let seq = existingHop;
    if (seq === null) {
      const o = ev.object;
      seq = relay.record({
        from: 'kube-apiserver',
        to: h.participant,
        kind: 'watch',
        verb: initial ? 'LIST' : ev.type,
        resource: this.info.resource,
        namespace: o.metadata.namespace ?? null,
        name: o.metadata.name,
        resourceVersion: o.metadata.resourceVersion,
        summary: this.watchSummary(o, ev.type, initial),
        cause: writeCause,
        category,
        seq: 0,
        time: 0,
      });
    }
    relay.withCause(seq, () => {
      if (ev.type === 'ADDED') h.onAdd?.(ev.object, initial);
      else if (ev.type === 'MODIFIED') h.onUpdate?.(ev.oldObject ?? ev.object, ev.object);
      else if (ev.type === 'DELETED') h.onDelete?.(ev.object);
    });
    return seq;
  }

  /**
   * The watch hop's summary ("watch MODIFIED Pod default/web-1"), one string for the hops of all
   * the handlers an event reaches (the last one is kept), built flat (a template literal would
   * leave a rope of ~7 pieces in every hop the relay's ring holds).
   */
  private watchSummary(o: T, type: string, initial: boolean): string {
    const last = this.lastSummary;
    if (last.object !== o || last.type !== type || last.initial !== initial) {
      last.object = o;
      last.type = type;
      last.initial = initial;
      last.text = [initial ? 'list' : 'watch', type, this.info.kind, metaNamespaceKey(o)].join(' ');
    }
    return last.text;
  }
  private lastSummary: { object: T | null; type: string; initial: boolean; text: string } = {
    object: null,
    type: '',
    initial: false,
    text: '',
  };

  // ---- cache ---------------------------------------------------------------------------
  private cacheSet(o: T): void {
    let k = metaNamespaceKey(o);
    const old = this.items.get(k);
    if (old) {
      this.indexRemove(k, old);
      // Pods: the key the maps hold goes on with the object (api/object-key.ts)
      if (this.sharedKeys) carryObjectKey(o, (k = sharedObjectKey(old)));
    }
    // a new key is kept by every map below (and the cache listeners'): one flat string, where
    // the rope `ns/name` would be flattened behind a rope header when first hashed; a Pod's is
    // the one string the other Pod informers and the scheduler's queue hold
    else k = this.sharedKeys ? sharedObjectKey(o) : flatKey(o, k);
    this.items.set(k, o);
    const ns = o.metadata.namespace ?? '';
    if (ns === this.bigNamespace) {
      if (!old) this.bigCount++;
    } else {
      let m = this.byNamespace.get(ns);
      if (!m) this.byNamespace.set(ns, (m = new Map()));
      m.set(k, o);
      if (this.bigNamespace === null && m.size >= BIG_NAMESPACE_MIN && m.size * 2 > this.items.size) {
        this.bigNamespace = ns;
        this.bigCount = m.size;
        this.byNamespace.delete(ns);
      } else if (!old) this.keepBigNamespace();
    }
    this.indexAdd(k, o);
    for (const l of this.cacheListeners) l(k, old, o);
  }

  private cacheDelete(k: string): void {
    const old = this.items.get(k);
    if (!old) return;
    this.items.delete(k);
    const ns = old.metadata.namespace ?? '';
    if (ns === this.bigNamespace) {
      this.bigCount--;
      this.keepBigNamespace();
    } else this.byNamespace.get(ns)?.delete(k);
    this.indexRemove(k, old);
    for (const l of this.cacheListeners) l(k, old, undefined);
  }

  /** Gives the big namespace its map again once it holds less than a quarter of the cache. */
  private keepBigNamespace(): void {
    if (this.bigNamespace === null || this.bigCount * 4 >= this.items.size) return;
    const ns = this.bigNamespace;
    const m = new Map<string, T>();
    for (const [k, o] of this.items) if ((o.metadata.namespace ?? '') === ns) m.set(k, o);
    this.byNamespace.set(ns, m);
    this.bigNamespace = null;
    this.bigCount = 0;
  }

  private indexAdd(k: string, o: T): void {
    // `k` is the key `items` holds `o` under (a Set entry: one slot fewer than a Map's)
    for (const { fn, index } of this.indexers.values()) {
      for (const v of fn(o)) {
        let m = index.get(v);
        if (!m) index.set(v, (m = new Set()));
        m.add(k);
      }
    }
  }

  private indexRemove(k: string, o: T): void {
    for (const { fn, index } of this.indexers.values()) {
      for (const v of fn(o)) index.get(v)?.delete(k);
    }
  }

  // ---- Lister ----------------------------------------------------------------------------
  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(namespace?: string, selector?: Selector): T[] {
    const out: T[] = [];
    if (namespace !== undefined && namespace === this.bigNamespace) {
      for (const o of this.items.values())
        if ((o.metadata.namespace ?? '') === namespace && (!selector || matches(selector, o.metadata.labels))) out.push(o);
      return out;
    }
    const src = namespace !== undefined ? (this.byNamespace.get(namespace)?.values() ?? []) : this.items.values();
    for (const o of src) if (!selector || matches(selector, o.metadata.labels)) out.push(o);
    return out;
  }

  byIndex(index: string, value: string): T[] {
    const ix = this.indexers.get(index);
    if (!ix) throw new Error(`index ${index} does not exist`);
    const out: T[] = [];
    for (const k of ix.index.get(value) ?? []) out.push(this.items.get(k)!);
    return out;
  }

  /** Number of cached objects. */
  get size(): number {
    return this.items.size;
  }
}

/**
 * One informer per resource per component process (kube-controller-manager shares one set
 * among its controllers), like informers.SharedInformerFactory.
 */
export class SharedInformerFactory {
  private informers = new Map<string, SharedInformer>();
  constructor(
    readonly client: Client,
    private readonly categorize?: Categorizer,
  ) {}

  /** The shared informer for a group/resource (created on first use). */
  informerFor<T extends KObject = KObject>(group: string, resource: string): SharedInformer<T> {
    const k = `${group}/${resource}`;
    let inf = this.informers.get(k);
    if (!inf) {
      if (!this.client.restMapper.forResource(group, resource)) throw new Error(`unknown resource ${resource}.${group}`);
      inf = new SharedInformer(newListWatchFromClient(this.client, group, resource), { categorize: this.categorize });
      this.informers.set(k, inf);
    }
    return inf as unknown as SharedInformer<T>;
  }

  /** Starts every informer created so far. */
  start(): void {
    for (const i of this.informers.values()) i.start();
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }

  restart(): void {
    for (const i of this.informers.values()) i.restart();
  }
}
