/**
 * Event recorder of the events.k8s.io/v1 API, as client-go's tools/events (event_broadcaster.go,
 * recorder.go) records for kube-scheduler: `Eventf(regarding, related, type, reason, action, note)`
 * makes an Event named `<regarding name>.<hex unix nanoseconds>` with eventTime,
 * reportingController and reportingInstance (`<controller>-<hostname>`); recordToSink keys
 * events by (type, action, reason, reportingController, reportingInstance, regarding, related),
 * not by the note: the first is created, the second isomorphic one turns the cached Event into a
 * series {count: 2} written by a strategic-merge PATCH, later ones count the series up in memory
 * only. refreshExistingEventSeries (every 30 min) patches every series Event; finishSeries
 * (every 6 min) writes and forgets series not observed for 6 min and forgets non-series Events
 * older than 6 min. The engine stores events.k8s.io Events apart from core/v1 ones, so the
 * recorder writes the core/v1 form the apiserver's conversion (pkg/apis/events/v1) gives:
 * source {}, firstTimestamp/lastTimestamp null, no count, eventTime, series, action,
 * reportingComponent/reportingInstance, involvedObject (regarding), related, message (note).
 */
import type { Client, ResourceClient } from './clientset';
import type { KObject } from '../api/types';
import type { SimClock, TimerHandle } from '../sim/clock';
import { StatusError } from '../api/errors';
import { refOf, type EventType, type ObjectRef } from './record';

/** refreshTime of event_broadcaster.go, simulated ms. */
export const REFRESH_TIME_MS = 30 * 60_000;
/** finishTime of event_broadcaster.go, simulated ms. */
export const FINISH_TIME_MS = 6 * 60_000;

/** The (type, action, reason) of cached Events, one shared object per combination. */
interface EventHead {
  readonly type: EventType;
  readonly action: string;
  readonly reason: string;
}

/**
 * One isomorphic Event of the cache: what recordEvent writes and the key's fields, nothing else.
 * `reg`, `rel` and the strings are the stored Event's own (the Event is created without a copy),
 * so an entry costs its own fields only. Entries are kept in insertion order (`older`/`newer`,
 * the order upstream's map is walked in here: refresh and finish write in it) and chained by
 * their regarding object's resourceVersion (`sameRv`), the Map's key: a string the object
 * already holds.
 */
class CachedEvent {
  /** series.count: 0 while the Event is not a series. */
  count = 0;
  /** series.lastObservedTime (MicroTime) and the same in simulated ms. */
  lastObservedTime = '';
  lastObservedMs = 0;
  older: CachedEvent | null = null;
  newer: CachedEvent | null = null;
  /** The next entry whose regarding object has the same resourceVersion. */
  sameRv: CachedEvent | null = null;
  constructor(
    readonly head: EventHead,
    public reg: ObjectRef,
    public rel: ObjectRef | null,
    /** The Event's name (metadata.name; its namespace is the regarding object's, or default). */
    readonly name: string,
    /** The note as first recorded: later notes are not written. */
    readonly note: string,
    /** eventTime (MicroTime) and the same in simulated ms. */
    readonly eventTime: string,
    readonly eventTimeMs: number,
  ) {}
}

/**
 * eventBroadcasterImpl + recorderImpl of tools/events for one reporting controller. `start`
 * arms the two periodic timers (one each, for the whole cache); `stop` cancels them.
 */
export class EventsV1Recorder {
  private readonly events: ResourceClient;
  /**
   * eventCache: the entries by their regarding object's resourceVersion (a chain through
   * `sameRv` when several share one). Matching compares every field of the key upstream's
   * map uses (type, action, reason, regarding, related; reportingController and
   * reportingInstance are this recorder's own).
   */
  private readonly cache = new Map<string, CachedEvent>();
  /** The cache in insertion order: oldest and newest entry. */
  private oldest: CachedEvent | null = null;
  private newest: CachedEvent | null = null;
  private size = 0;
  /** (type, action, reason) → its shared head. */
  private readonly heads = new Map<string, EventHead>();
  private refreshTimer: TimerHandle | null = null;
  private finishTimer: TimerHandle | null = null;
  /** reportingInstance: `<reportingController>-<hostname>` (NewRecorder). */
  readonly reportingInstance: string;
  private seq = 0;

  constructor(
    client: Client,
    private readonly clock: SimClock,
    /** reportingController, e.g. "default-scheduler" (the profile's schedulerName). */
    readonly reportingController: string,
    /** os.Hostname() of the component: the (control-plane) node it runs on. */
    hostname: string,
  ) {
    this.events = client.resource('', 'events');
    this.reportingInstance = `${reportingController}-${hostname}`;
  }

  /** StartRecordingToSinkWithContext: refreshExistingEventSeries every 30 min, finishSeries every 6 min. */
  start(): void {
    if (this.refreshTimer) return;
    const refresh = (): void => {
      this.refreshExistingEventSeries();
      this.refreshTimer = this.clock.setTimer(REFRESH_TIME_MS, refresh, { label: 'events: refreshExistingEventSeries' });
    };
    const finish = (): void => {
      this.finishSeries();
      this.finishTimer = this.clock.setTimer(FINISH_TIME_MS, finish, { label: 'events: finishSeries' });
    };
    this.refreshTimer = this.clock.setTimer(REFRESH_TIME_MS, refresh, { label: 'events: refreshExistingEventSeries' });
    this.finishTimer = this.clock.setTimer(FINISH_TIME_MS, finish, { label: 'events: finishSeries' });
  }

  /** Cancels the periodic timers. */
  stop(): void {
    this.clock.cancel(this.refreshTimer);
    this.clock.cancel(this.finishTimer);
    this.refreshTimer = this.finishTimer = null;
  }

  /** Isomorphic events cached (for tests and the UI). */
  get cached(): number {
    return this.size;
  }

  /**
   * Eventf + recordToSink: records an Event about `regarding` (optionally `related`), `note`
   * already formatted (≤ 1 kB, the caller truncates). Never throws (events are best effort).
   */
  eventf(
    regarding: KObject | ObjectRef,
    related: KObject | ObjectRef | null,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): void {
    // a caller's reference is copied: the Event is handed to the apiserver without a copy (its
    // subtrees become the stored, frozen Event's)
    const reg: ObjectRef = 'metadata' in regarding ? refOf(regarding as KObject) : { ...(regarding as ObjectRef) };
    const rel: ObjectRef | null = related ? ('metadata' in related ? refOf(related as KObject) : { ...(related as ObjectRef) }) : null;
    const head = this.headOf(type, action, reason);
    const nowMs = this.clock.now();
    let hit = this.cache.get(reg.resourceVersion ?? '') ?? null;
    while (
      hit &&
      !(hit.head === head && sameRef(hit.reg, reg) && (hit.rel === null ? rel === null : rel !== null && sameRef(hit.rel, rel)))
    )
      hit = hit.sameRv;
    if (hit) {
      hit.lastObservedTime = this.clock.nowMicro();
      hit.lastObservedMs = nowMs;
      if (hit.count) {
        hit.count++;
        return;
      }
      hit.count = 2;
      this.recordEvent(hit);
      return;
    }
    const namespace = reg.namespace || 'default';
    const name = [reg.name, (BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)].join('.');
    const eventTime = this.clock.nowMicro();
    const entry = new CachedEvent(head, reg, rel, name, note, eventTime, nowMs);
    // no bound, as upstream's eventCache map: finishSeries prunes it (an entry lives at most
    // finishTime past its last observation), so a Pod retried within 6 min stays a series
    this.add(reg.resourceVersion ?? '', entry);
    try {
      const stored = this.events.create(namespace, this.eventObject(name, namespace, reg, rel, head, note, eventTime), {
        category: 'event',
        summary: `event ${type} ${reason}: ${note}`,
        owned: true,
      });
      // the stored Event's own references (the store may have put a shared equal copy there)
      entry.reg = (stored.involvedObject as ObjectRef | undefined) ?? reg;
      if (rel) entry.rel = (stored.related as ObjectRef | undefined) ?? rel;
    } catch {
      // Server rejected event (will not retry!)
    }
  }

  /** refreshExistingEventSeries: writes every series Event's current count. */
  refreshExistingEventSeries(): void {
    for (let e = this.oldest; e; e = e.newer) if (e.count) this.recordEvent(e);
  }

  /** finishSeries: writes and forgets series older than finishTime; forgets older non-series Events. */
  finishSeries(): void {
    const cutoff = this.clock.now() - FINISH_TIME_MS;
    for (let e = this.oldest; e;) {
      const next = e.newer;
      if (e.count) {
        if (e.lastObservedMs < cutoff) {
          this.recordEvent(e);
          this.remove(e);
        }
      } else if (e.eventTimeMs < cutoff) this.remove(e);
      e = next;
    }
  }

  /** The shared head of (type, action, reason). */
  private headOf(type: EventType, action: string, reason: string): EventHead {
    const k = `${type}\u0001${action}\u0001${reason}`;
    let h = this.heads.get(k);
    if (!h) this.heads.set(k, (h = { type, action, reason }));
    return h;
  }

  /** The core/v1 form of an events.k8s.io Event (`series` on a re-create after a 404). */
  private eventObject(
    name: string,
    namespace: string,
    reg: ObjectRef,
    rel: ObjectRef | null,
    h: EventHead,
    note: string,
    eventTime: string,
    series?: { count: number; lastObservedTime: string },
  ): KObject {
    const ev: KObject = rel
      ? {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name, namespace },
          involvedObject: reg,
          related: rel,
          reason: h.reason,
          message: note,
          source: {},
          firstTimestamp: null,
          lastTimestamp: null,
          type: h.type,
          eventTime,
          action: h.action,
          reportingComponent: this.reportingController,
          reportingInstance: this.reportingInstance,
        }
      : {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name, namespace },
          involvedObject: reg,
          reason: h.reason,
          message: note,
          source: {},
          firstTimestamp: null,
          lastTimestamp: null,
          type: h.type,
          eventTime,
          action: h.action,
          reportingComponent: this.reportingController,
          reportingInstance: this.reportingInstance,
        };
    if (series) ev.series = series;
    return ev;
  }

  /** Appends `e` (newest) under its regarding object's resourceVersion `rv`. */
  private add(rv: string, e: CachedEvent): void {
    const first = this.cache.get(rv);
    if (first) {
      let last = first;
      while (last.sameRv) last = last.sameRv;
      last.sameRv = e;
    } else this.cache.set(rv, e);
    e.older = this.newest;
    if (this.newest) this.newest.newer = e;
    else this.oldest = e;
    this.newest = e;
    this.size++;
  }

  /** Forgets `e`. */
  private remove(e: CachedEvent): void {
    const rv = e.reg.resourceVersion ?? '';
    const first = this.cache.get(rv)!;
    if (first === e) {
      if (e.sameRv) this.cache.set(rv, e.sameRv);
      else this.cache.delete(rv);
    } else {
      let p = first;
      while (p.sameRv !== e) p = p.sameRv!;
      p.sameRv = e.sameRv;
    }
    if (e.older) e.older.newer = e.newer;
    else this.oldest = e.newer;
    if (e.newer) e.newer.older = e.older;
    else this.newest = e.older;
    e.older = e.newer = e.sameRv = null;
    this.size--;
  }

  /** recordEvent of a series Event: PATCH its series (create it when gone). */
  private recordEvent(e: CachedEvent): void {
    const ns = e.reg.namespace || 'default';
    const h = e.head;
    const series = { count: e.count, lastObservedTime: e.lastObservedTime };
    try {
      try {
        this.events.patch(ns, e.name, 'strategic', { series }, { category: 'event', summary: `event ${h.reason} series ×${series.count}` });
        return;
      } catch (err) {
        if (!(err instanceof StatusError) || err.code !== 404) throw err;
      }
      const ev = this.eventObject(e.name, ns, { ...e.reg }, e.rel && { ...e.rel }, h, e.note, e.eventTime, series);
      this.events.create(ns, ev, { category: 'event', summary: `event ${h.type} ${h.reason}: ${e.note}`, owned: true });
    } catch {
      // Server rejected event (will not retry!)
    }
  }
}

/** Whether two ObjectReferences are equal in every field, as Go's struct equality compares them (a missing field is ''). */
function sameRef(a: ObjectRef, b: ObjectRef): boolean {
  return (
    (a.resourceVersion ?? '') === (b.resourceVersion ?? '') &&
    (a.uid ?? '') === (b.uid ?? '') &&
    (a.name ?? '') === (b.name ?? '') &&
    (a.namespace ?? '') === (b.namespace ?? '') &&
    (a.kind ?? '') === (b.kind ?? '') &&
    (a.apiVersion ?? '') === (b.apiVersion ?? '') &&
    (a.fieldPath ?? '') === (b.fieldPath ?? '')
  );
}
