/**
 * Event recorder: core/v1 Events with upstream aggregation — identical events (same
 * source, involved object, type, reason and message) are folded into one Event whose
 * `count` and `lastTimestamp` grow, as client-go's tools/record/events_cache.go
 * (EventCorrelator, eventLogger) does. Event names are `<object>.<hex of unix nanoseconds>`
 * as tools/record/event.go (makeEvent) names them.
 */
import type { Client, ResourceClient } from './clientset';
import type { KObject } from '../api/types';
import type { SimClock } from '../sim/clock';
import { StatusError } from '../api/errors';

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

/** Shared cache of recent events per cluster, so every recorder aggregates the same way. */
export class EventCache {
  readonly byKey = new Map<string, { namespace: string; name: string; count: number }>();
  /** maxLruCacheEntries of tools/record/events_cache.go. */
  static readonly MAX_ENTRIES = 4096;

  /** Looks up an entry and marks it most recently used. */
  get(key: string): { namespace: string; name: string; count: number } | undefined {
    const hit = this.byKey.get(key);
    if (hit) {
      this.byKey.delete(key);
      this.byKey.set(key, hit);
    }
    return hit;
  }

  /** Adds an entry, evicting the least recently used one beyond {@link EventCache.MAX_ENTRIES}. */
  set(key: string, v: { namespace: string; name: string; count: number }): void {
    this.byKey.delete(key);
    this.byKey.set(key, v);
    if (this.byKey.size > EventCache.MAX_ENTRIES) this.byKey.delete(this.byKey.keys().next().value as string);
  }
}

export class EventRecorder {
  private events: ResourceClient;
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
  }

  /** Records an event about `obj` (a stored object or an ObjectReference). Never throws. */
  event(obj: KObject | ObjectRef, type: EventType, reason: string, message: string): void {
    const ref: ObjectRef = 'metadata' in obj ? refOf(obj as KObject) : (obj as ObjectRef);
    const namespace = ref.namespace || 'default';
    const key = [this.component, this.host ?? '', ref.kind, ref.namespace ?? '', ref.name, ref.uid ?? '', ref.fieldPath ?? '', type, reason, message].join('\u0000');
    const now = this.clock.nowRFC3339();
    try {
      const hit = this.cache.get(key);
      if (hit) {
        try {
          const cur = this.events.get(hit.namespace, hit.name, { quiet: true });
          const next = { ...cur, count: (cur.count ?? 1) + 1, lastTimestamp: now };
          this.events.update(next, { category: 'event', summary: `event ${reason} ×${next.count}` });
          hit.count = next.count;
          return;
        } catch (err) {
          if (!(err instanceof StatusError) || err.code !== 404) throw err;
          this.cache.byKey.delete(key);
        }
      }
      const name = `${ref.name}.${(BigInt(Math.floor(this.clock.now())) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)}`;
      const ev: KObject = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: ref,
        reason,
        message,
        source: this.host ? { component: this.component, host: this.host } : { component: this.component },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: this.component,
        reportingInstance: this.host ?? '',
      };
      this.events.create(namespace, ev, { category: 'event', summary: `event ${type} ${reason}: ${message}` });
      this.cache.set(key, { namespace, name, count: 1 });
    } catch {
      // events are best effort, as in client-go
    }
  }

  private seq = 0;
}
