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

interface CachedEvent {
  /** The Event as first recorded (core/v1 form), note included: later notes are not written. */
  ev: KObject;
  /** eventTime, simulated ms. */
  eventTimeMs: number;
  series?: { count: number; lastObservedTime: string; lastObservedMs: number };
}

/**
 * eventBroadcasterImpl + recorderImpl of tools/events for one reporting controller. `start`
 * arms the two periodic timers (one each, for the whole cache); `stop` cancels them.
 */
export class EventsV1Recorder {
  private readonly events: ResourceClient;
  private readonly cache = new Map<string, CachedEvent>();
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
    return this.cache.size;
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
    const reg: ObjectRef = 'metadata' in regarding ? refOf(regarding as KObject) : (regarding as ObjectRef);
    const rel: ObjectRef | null = related ? ('metadata' in related ? refOf(related as KObject) : (related as ObjectRef)) : null;
    const key = [type, action, reason, this.reportingController, this.reportingInstance, refKey(reg), rel ? refKey(rel) : ''].join(
      '\u0001',
    );
    const nowMs = this.clock.now();
    const hit = this.cache.get(key);
    if (hit) {
      if (hit.series) {
        hit.series.count++;
        hit.series.lastObservedTime = this.clock.nowMicro();
        hit.series.lastObservedMs = nowMs;
        return;
      }
      hit.series = { count: 2, lastObservedTime: this.clock.nowMicro(), lastObservedMs: nowMs };
      this.recordEvent(hit);
      return;
    }
    const namespace = reg.namespace || 'default';
    const name = [reg.name, (BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)].join('.');
    const ev: KObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: reg,
      ...(rel ? { related: rel } : {}),
      reason,
      message: note,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type,
      eventTime: this.clock.nowMicro(),
      action,
      reportingComponent: this.reportingController,
      reportingInstance: this.reportingInstance,
    };
    const entry: CachedEvent = { ev, eventTimeMs: nowMs };
    // no bound, as upstream's eventCache map: finishSeries prunes it (an entry lives at most
    // finishTime past its last observation), so a Pod retried within 6 min stays a series
    this.cache.set(key, entry);
    this.recordEvent(entry);
  }

  /** refreshExistingEventSeries: writes every series Event's current count. */
  refreshExistingEventSeries(): void {
    for (const e of this.cache.values()) if (e.series) this.recordEvent(e);
  }

  /** finishSeries: writes and forgets series older than finishTime; forgets older non-series Events. */
  finishSeries(): void {
    const cutoff = this.clock.now() - FINISH_TIME_MS;
    for (const [k, e] of this.cache) {
      if (e.series) {
        if (e.series.lastObservedMs < cutoff) {
          this.recordEvent(e);
          this.cache.delete(k);
        }
      } else if (e.eventTimeMs < cutoff) this.cache.delete(k);
    }
  }

  /** recordEvent: PATCH the series of a series Event (create it when gone), else create. */
  private recordEvent(e: CachedEvent): void {
    const { ev } = e;
    const ns = ev.metadata.namespace ?? 'default';
    try {
      if (e.series) {
        const series = { count: e.series.count, lastObservedTime: e.series.lastObservedTime };
        try {
          this.events.patch(
            ns,
            ev.metadata.name,
            'strategic',
            { series },
            { category: 'event', summary: `event ${ev.reason} series ×${series.count}` },
          );
          return;
        } catch (err) {
          if (!(err instanceof StatusError) || err.code !== 404) throw err;
        }
        this.events.create(ns, { ...ev, series }, { category: 'event', summary: `event ${ev.type} ${ev.reason}: ${ev.message}` });
        return;
      }
      this.events.create(ns, ev, { category: 'event', summary: `event ${ev.type} ${ev.reason}: ${ev.message}` });
    } catch {
      // Server rejected event (will not retry!)
    }
  }
}

/** The ObjectReference as a key (every field, as Go's struct equality compares). */
function refKey(r: ObjectRef): string {
  return [r.kind, r.namespace ?? '', r.name, r.uid ?? '', r.apiVersion ?? '', r.resourceVersion ?? '', r.fieldPath ?? ''].join('\u0000');
}
