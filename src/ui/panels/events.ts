/** Pure helpers for core/v1 Events. */
import type { KObject } from '../store/types';

/** When an Event last happened, ms since the epoch. */
export function eventTime(e: KObject): number {
  const t = (e.lastTimestamp ?? e.series?.lastObservedTime ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp) as string | undefined;
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

/** Events newest first. */
export function sortEvents(events: Iterable<KObject>): KObject[] {
  return [...events].sort((a, b) => eventTime(b) - eventTime(a));
}
