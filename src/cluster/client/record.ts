/**
 * Event recorder: core/v1 Events (kube-scheduler's own Events go through events.k8s.io,
 * client/events-recorder.ts; its leader election's legacy recorder comes here) with upstream
 * aggregation — identical events (same source, involved object, type, reason and message) are folded into one Event whose
 * `count` and `lastTimestamp` grow, as client-go's tools/record/events_cache.go
 * (EventCorrelator, eventLogger) does. Event names are `<object>.<hex of unix nanoseconds>`
 * as tools/record/event.go (makeEvent) names them.
 */
import type { Client, ResourceClient } from './clientset';
import type { KObject } from '../api/types';
import type { SimClock } from '../sim/clock';
import { StatusError } from '../api/errors';
import { TokenBucket } from './flowcontrol';
import { Lru } from './lru';

export type EventType = 'Normal' | 'Warning';

/** What the recorder needs to refer to an object (v1.ObjectReference). */
export interface ObjectRef {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export function refOf(obj: KObject, fieldPath?: string): ObjectRef {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    namespace: obj.metadata.namespace,
    name: obj.metadata.name,
    uid: obj.metadata.uid,
    resourceVersion: obj.metadata.resourceVersion,
    ...(fieldPath ? { fieldPath } : {}),
  };
}

/** eventLog of events_cache.go: what the logger last wrote for an event key. */
export interface EventLog {
  namespace: string;
  name: string;
  count: number;
  firstTimestamp: string;
}

/**
 * The EventCorrelator's state (client-go tools/record/events_cache.go), shared by every
 * recorder of the cluster (each key starts with the event's source, so this equals one
 * correlator per component): the eventLogger's last observation per event, the
 * EventAggregator's distinct messages per (source, object, type, reason), and the
 * EventSourceObjectSpamFilter's token bucket per (source, object).
 */
export class EventCache {
  /** maxLruCacheEntries of tools/record/events_cache.go. */
  static readonly MAX_ENTRIES = 4096;
  /** defaultAggregateMaxEvents: distinct messages before events are combined. */
  static readonly AGGREGATE_MAX_EVENTS = 10;
  /** defaultAggregateIntervalInSeconds, simulated ms. */
  static readonly AGGREGATE_INTERVAL_MS = 600_000;
  /** defaultSpamBurst and defaultSpamQPS (one event per 5 minutes), per source + object. */
  static readonly SPAM_BURST = 25;
  static readonly SPAM_QPS = 1 / 300;

  /** eventLogger: event key → last observation. */
  readonly logs = new Lru<EventLog>(EventCache.MAX_ENTRIES);
  /** EventAggregator: aggregate key → distinct messages (insertion order) and last time (ms). */
  readonly aggregates = new Lru<{ messages: Set<string>; last: number }>(EventCache.MAX_ENTRIES);
  /** EventSourceObjectSpamFilter: spam key → its token bucket. */
  readonly spam = new Lru<TokenBucket>(EventCache.MAX_ENTRIES);

  /** `now`: simulated ms (the cluster's clock). */
  constructor(private readonly now: () => number = () => 0) {}

  private sources = new Map<string, number>();

  /**
   * A number for the event source (component, host), the same for every recorder of that source:
   * the correlator's keys start with it instead of the two strings.
   */
  sourceId(component: string, host: string): number {
    const k = `${component}\u0000${host}`;
    let id = this.sources.get(k);
    if (id === undefined) this.sources.set(k, (id = this.sources.size + 1));
    return id;
  }

  /** EventSourceObjectSpamFilter.Filter: true when the event is to be dropped (no token). */
  spamFiltered(key: string): boolean {
    let bucket = this.spam.get(key);
    if (!bucket) this.spam.set(key, (bucket = new TokenBucket(EventCache.SPAM_QPS, EventCache.SPAM_BURST, this.now)));
    return !bucket.tryAccept();
  }
}

export class EventRecorder {
  private events: ResourceClient;
  /** This recorder's (component, host) as the EventCache's number for it: the head of every correlator key. */
  private readonly sourceKey: string;
  constructor(
    client: Client,
    private readonly clock: SimClock,
    /** source.component, e.g. "default-scheduler", "kubelet", "deployment-controller" */
    readonly component: string,
    private readonly cache: EventCache,
    /** source.host for kubelet events */
    readonly host?: string,
  ) {
    this.events = client.resource('', 'events');
    this.sourceKey = String(cache.sourceId(component, host ?? ''));
  }

  /**
   * Records an event about `obj` (a stored object or an ObjectReference), through the
   * EventCorrelator of events_cache.go:
   * 1. EventAggregate: from the 10th distinct message of one (source, object, type, reason)
   *    within 10 minutes, events are combined into one whose message is
   *    "(combined from similar events): <message>";
   * 2. eventObserve: a repeat of an event (same source, object, type, reason, message) counts
   *    up the Event it created (`count`, `lastTimestamp`) instead of creating another;
   * 3. the spam filter: each (source, object) may write 25 events at once and then one per
   *    5 minutes; a dropped event still counts in step 2, so the next written one jumps.
   * Never throws.
   */
  event(obj: KObject | ObjectRef, type: EventType, reason: string, message: string): void {
    // the Event is handed to the apiserver without a copy: a caller's reference is copied here (it
    // becomes part of the stored, frozen Event)
    const ref: ObjectRef = 'metadata' in obj ? refOf(obj as KObject) : { ...(obj as ObjectRef) };
    const namespace = ref.namespace || 'default';
    // the source and object of the event: the spam filter's key, and the prefix of the others
    const src = `${this.sourceKey}\u0000${ref.kind}\u0000${ref.namespace ?? ''}\u0000${ref.name}\u0000${ref.uid ?? ''}\u0000${ref.apiVersion ?? ''}`;
    const nowMs = this.clock.now();
    const now = this.clock.nowRFC3339();
    // 1. EventAggregate (EventAggregatorByReasonFunc: reportingController/instance = source, fixed by sourceKey)
    const aggKey = `${src}\u0000${type}\u0000${reason}`;
    let agg = this.cache.aggregates.get(aggKey);
    if (!agg || nowMs - agg.last > EventCache.AGGREGATE_INTERVAL_MS) agg = { messages: new Set(), last: nowMs };
    agg.messages.add(message);
    agg.last = nowMs;
    this.cache.aggregates.set(aggKey, agg);
    // getEventKey: the source, the object with its fieldPath, type, reason and message
    let key = `${src}\u0000${ref.fieldPath ?? ''}\u0000${type}\u0000${reason}\u0000${message}`;
    let text = message;
    if (agg.messages.size >= EventCache.AGGREGATE_MAX_EVENTS) {
      agg.messages.delete(agg.messages.values().next().value as string);
      key = aggKey;
      text = `(combined from similar events): ${message}`;
    }
    // 2. eventObserve
    const last = this.cache.logs.get(key);
    const count = last ? last.count + 1 : 1;
    // joined, not concatenated: one flat string for as long as the Event lives, not a rope
    const name = last
      ? last.name
      : [ref.name, (BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)].join('.');
    const firstTimestamp = last ? last.firstTimestamp : now;
    this.cache.logs.set(key, { namespace, name, count, firstTimestamp });
    // 3. EventSourceObjectSpamFilter
    if (this.cache.spamFiltered(src)) return;
    try {
      if (count > 1) {
        try {
          // eventSink.Patch: a strategic merge patch of count, lastTimestamp and message
          this.events.patch(
            namespace,
            name,
            'strategic',
            { count, lastTimestamp: now, message: text },
            { category: 'event', summary: `event ${reason} ×${count}` },
          );
          return;
        } catch (err) {
          if (!(err instanceof StatusError) || err.code !== 404) throw err;
        }
      }
      const ev: KObject = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: ref,
        reason,
        message: text,
        source: this.host ? { component: this.component, host: this.host } : { component: this.component },
        firstTimestamp,
        lastTimestamp: now,
        count,
        type,
        eventTime: null,
        reportingComponent: this.component,
        reportingInstance: this.host ?? '',
      };
      this.events.create(namespace, ev, { category: 'event', summary: `event ${type} ${reason}: ${text}`, owned: true });
    } catch {
      // events are best effort, as in client-go
    }
  }

  private seq = 0;
}
