/**
 * Which hops the sequence diagram draws (pure): a window mode — the story of the latest
 * action (the default, story.ts), the last N hops, one reconciliation, or one object's
 * story — after the object and component filters.
 *
 * Reconciliations come from the engine (src/cluster/relay/relay-event.ts): a decision hop
 * carries `reconcile` (id) and `note` (its headline); the writes it caused inherit the id.
 */
import type { ActionStory, RelayHop } from '../relay-event';
import { isVisible, type SequenceOptions } from './to-mermaid';
import { hopObject, type HopObject } from './hop-object';

/** Re-exported from hop-object.ts (story.ts needs it too). */
export { hopObject, type HopObject } from './hop-object';
import {
  causesOf,
  foldPerNodeReactions,
  foldResponses,
  foldWatches,
  groupByReconciliation,
  ontoKubeletLane,
  storyHops as actionHops,
  type DrawnHop,
} from './story';

/**
 * The diagram's window modes: "action" the story of the latest user action (story.ts), "last"
 * the last N hops, "reconcile" one reconciliation, "story" one object's story.
 */
export type WindowMode = 'action' | 'last' | 'reconcile' | 'story';

/** The sequence diagram's window and filters (the relay slice's `sequenceView`). */
export interface SequenceView {
  mode: WindowMode;
  /** Reconciliation id shown in mode "reconcile"; null: the latest one. */
  reconcile: number | null;
  /** The object whose story mode "story" shows; null: none picked yet (nothing drawn). */
  story: HopObject | null;
  /** Object filter text: "namespace/name", a name (substring), or a kind ("Pod", "pods"). Empty: all. */
  objectFilter: string;
  /** Participants unchecked in the component filter. */
  hiddenComponents: string[];
  /**
   * Mode "action": also draw what the action did not cause (heartbeats, Lease renewals, node
   * status, resyncs, other churn) from its first hop on. Off by default.
   */
  background?: boolean;
}

export const DEFAULT_SEQUENCE_VIEW: SequenceView = {
  mode: 'action',
  reconcile: null,
  story: null,
  objectFilter: '',
  hiddenComponents: [],
  background: false,
};

/** One reconciliation: its id, controller, object and note (from its opening decision hop). */
export interface Reconciliation {
  id: number;
  controller: string;
  object: string;
  note: string;
  /** seq of the opening decision hop. */
  seq: number;
}

/** Plural resource of a kind, as the API names it: Pod → pods, NetworkPolicy → networkpolicies. */
export function pluralOf(kind: string): string {
  const k = kind.toLowerCase();
  if (k.endsWith('s')) return `${k}es`;
  if (k.endsWith('y') && !/[aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/** The store key ("Kind/namespace/name" or "Kind/name") of a hop's object among `keys`, or null. */
export function storeKeyOf(o: HopObject, keys: Iterable<string>): string | null {
  const tail = o.namespace ? `/${o.namespace}/${o.name}` : `/${o.name}`;
  for (const k of keys) {
    if (!k.endsWith(tail)) continue;
    const kind = k.slice(0, k.length - tail.length);
    if (!kind.includes('/') && pluralOf(kind) === o.resource) return k;
  }
  return null;
}

/** The {@link HopObject} of a store key ("Kind/namespace/name" or "Kind/name"). */
export function objectOfKey(key: string): HopObject {
  const parts = key.split('/');
  return parts.length >= 3
    ? { resource: pluralOf(parts[0]), namespace: parts[1], name: parts.slice(2).join('/') }
    : { resource: pluralOf(parts[0]), namespace: '', name: parts[1] ?? '' };
}

/**
 * Whether a hop matches the object filter. Each whitespace-separated term must match:
 * "ns/name" (exact namespace, name prefix), a kind or resource ("Pod", "pods"), or a part of
 * the name. Case-insensitive.
 */
export function matchesObjectFilter(h: RelayHop, filter: string): boolean {
  const terms = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!terms.length) return true;
  const o = hopObject(h);
  if (!o) return false;
  const name = o.name.toLowerCase();
  return terms.every((t) => {
    const slash = t.indexOf('/');
    if (slash >= 0) return o.namespace.toLowerCase() === t.slice(0, slash) && name.startsWith(t.slice(slash + 1));
    return o.resource === t || o.resource === pluralOf(t) || name.includes(t);
  });
}

const sameObject = (a: HopObject, b: HopObject) => a.resource === b.resource && a.namespace === b.namespace && a.name === b.name;

/**
 * One object's story: every hop about it, and every hop of a reconciliation that touched it
 * (so a Pod's story holds the ReplicaSet's create, the scheduler's decision and bind, the
 * kubelet's status writes). Oldest first.
 */
export function storyHops(hops: readonly RelayHop[], target: HopObject): RelayHop[] {
  const about = (h: RelayHop) => {
    const o = hopObject(h);
    return o !== null && sameObject(o, target);
  };
  const groups = new Set<number>();
  for (const h of hops) if (h.reconcile !== undefined && about(h)) groups.add(h.reconcile);
  return hops.filter((h) => about(h) || (h.reconcile !== undefined && groups.has(h.reconcile)));
}

/**
 * The object mode "story" follows: the picked one (`v.story`), else the one the object filter
 * names — the first object exactly "namespace/name" of a one-term filter (the one applied: its
 * Endpoints and EndpointSlice of the same name come later), else the newest hop matching the
 * filter — else null (nothing picked: the diagram asks for a pick).
 */
export function storyTarget(hops: readonly RelayHop[], v: SequenceView): HopObject | null {
  if (v.story) return v.story;
  const filter = v.objectFilter.trim().toLowerCase();
  if (!filter) return null;
  let loose: HopObject | null = null;
  for (const h of hops) {
    const o = hopObject(h);
    if (!o || !matchesObjectFilter(h, filter)) continue;
    if (`${o.namespace}/${o.name}`.toLowerCase() === filter || (!o.namespace && o.name.toLowerCase() === filter)) return o;
    loose = o;
  }
  return loose;
}

/** The reconciliations opened in `hops` (by a decision hop with a note), oldest first. */
export function reconciliations(hops: readonly RelayHop[]): Reconciliation[] {
  const out: Reconciliation[] = [];
  const seen = new Set<number>();
  for (const h of hops) {
    if (h.reconcile === undefined || h.note === undefined || seen.has(h.reconcile)) continue;
    seen.add(h.reconcile);
    const o = hopObject(h);
    out.push({
      id: h.reconcile,
      controller: h.from,
      object: o ? `${o.resource} ${o.namespace ? `${o.namespace}/` : ''}${o.name}` : '',
      note: h.note,
      seq: h.seq,
    });
  }
  return out;
}

/** Every participant of `hops` (for the component filter's checkbox list), unordered. */
export function participantsOf(hops: readonly RelayHop[]): Set<string> {
  const s = new Set<string>();
  for (const h of hops) {
    s.add(h.from);
    s.add(h.to);
  }
  return s;
}

/**
 * Most hops the story of an action draws (its first ones: the story reads from its start).
 * A Mermaid render costs about a millisecond per drawn line on the main thread; the seed's
 * apply tells its whole story, to the three Pods Running, in about 150.
 */
export const STORY_MAX_HOPS = 160;

/**
 * Mode "action": the story of `story` (story.ts), drawn as the seed's diagram draws it — each
 * watch event once, per-node reactions once, kubelet ↔ containerd on the kubelet's lane,
 * reconciliations together under their note — after the category folds (admission, Event
 * writes; heartbeats only with `v.background`), the component and object filters. Its first
 * `max(o.window, STORY_MAX_HOPS)` drawn hops. Empty before any action.
 */
export function actionWindow(hops: readonly RelayHop[], story: ActionStory | null, o: SequenceOptions, v: SequenceView): DrawnHop[] {
  if (!story) return [];
  const pool = v.background ? hops.filter((h) => h.seq >= story.seq) : actionHops(hops, story);
  const causes = causesOf(pool);
  const { hops: watched, drawnAs } = foldWatches(pool, causes, !v.background);
  const drawn = foldResponses(foldPerNodeReactions(watched, drawnAs)).map(ontoKubeletLane);
  const hidden = new Set(v.hiddenComponents);
  const shows = { ...o, heartbeats: o.heartbeats || v.background === true };
  const kept = drawn.filter(
    (h) => isVisible(h, shows) && !hidden.has(h.from) && !hidden.has(h.to) && matchesObjectFilter(h, v.objectFilter),
  );
  return groupByReconciliation(kept).slice(0, Math.max(o.window, STORY_MAX_HOPS));
}

/**
 * The hops the diagram draws: folded categories (heartbeats, admission, events) per `o`,
 * hops touching a hidden component removed, the object filter applied, then the window:
 * - "last": the last `o.window` hops (or the first ones from `o.fromSeq`);
 * - "reconcile": the hops of reconciliation `v.reconcile` (the latest one when null);
 * - "story": the last `o.window` hops of the {@link storyTarget}'s story;
 * - "action": {@link actionWindow} of `story`.
 * In every mode but "action" (which folds more), a watch event delivered to several informers
 * is drawn once (story.ts foldWatches), naming its watchers.
 */
export function windowHops(hops: readonly RelayHop[], o: SequenceOptions, v: SequenceView, story: ActionStory | null = null): DrawnHop[] {
  if (v.mode === 'action') return actionWindow(hops, story, o, v);
  const hidden = new Set(v.hiddenComponents);
  // a story the filter picked ({@link storyTarget}) is not filtered again: it keeps its context
  const filter = v.mode === 'story' && !v.story ? '' : v.objectFilter;
  const keep = (h: RelayHop) => isVisible(h, o) && !hidden.has(h.from) && !hidden.has(h.to) && matchesObjectFilter(h, filter);
  if (v.mode === 'reconcile') {
    const id = v.reconcile ?? reconciliations(hops).at(-1)?.id;
    return id === undefined ? [] : hops.filter((h) => h.reconcile === id && keep(h));
  }
  const target = v.mode === 'story' ? storyTarget(hops, v) : null;
  const raw = v.mode === 'story' ? (target ? storyHops(hops, target) : []) : hops;
  // each watch event once (naming its watchers), however many informers it was delivered to
  const pool = foldWatches(raw, causesOf(raw), false).hops;
  if (o.fromSeq != null && v.mode === 'last') {
    const out: DrawnHop[] = [];
    for (const h of pool) {
      if (out.length >= o.window) break;
      if (h.seq >= o.fromSeq && keep(h)) out.push(h);
    }
    return out;
  }
  const out: DrawnHop[] = [];
  for (let i = pool.length - 1; i >= 0 && out.length < o.window; i--) if (keep(pool[i])) out.push(pool[i]);
  return out.reverse();
}
