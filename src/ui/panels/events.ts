/** Pure helpers for core/v1 Events. */
import type { KObject } from '../store/types';

/** When an Event last happened, ms since the epoch. */
export function eventTime(e: KObject): number {
  const t = (e.lastTimestamp ?? e.series?.lastObservedTime ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp) as
    string | undefined;
  return t ? Date.parse(t) : 0;
}

/** `kind/name` of the object an Event is about, as kubectl get events prints it. */
export function eventObject(e: KObject): string {
  const o = e.involvedObject ?? e.regarding ?? {};
  return `${String(o.kind ?? '').toLowerCase()}/${o.name ?? ''}`;
}

/**
 * Whether an Event is about the given object (kind, namespace, name; and uid when the Event
 * carries the object's uid — kubelet's Node events carry the node name as uid, as upstream).
 */
export function eventIsAbout(e: KObject, obj: KObject): boolean {
  const o = e.involvedObject ?? e.regarding;
  if (!o || o.kind !== obj.kind || o.name !== obj.metadata.name || (o.namespace ?? '') !== (obj.metadata.namespace ?? '')) return false;
  return !o.uid || !obj.metadata.uid || o.uid === obj.metadata.uid || o.uid === obj.metadata.name;
}

/**
 * Events by when they last happened (lastTimestamp, second resolution), ties in the order the
 * apiserver lists them (by name: `<object>.<hex of creation nanoseconds>`, i.e. creation order).
 * `oldest` is kubectl describe's order (event.SortableEvents); the default, newest first, is
 * the Events panel's.
 */
export function sortEvents(events: Iterable<KObject>, order: 'newest' | 'oldest' = 'newest'): KObject[] {
  const sign = order === 'oldest' ? 1 : -1;
  const byName = (a: KObject, b: KObject) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);
  return [...events].sort((a, b) => sign * (eventTime(a) - eventTime(b) || byName(a, b)));
}
