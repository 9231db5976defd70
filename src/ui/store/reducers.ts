/**
 * Pure reducers: (state, worker batch) → the next state's changed fields. Collections are
 * replaced, never mutated (docs/style.md#ui-state), so subscribers see every change by identity.
 */
import type { TickBatch } from '../../worker/protocol';
import { linkOfHop } from '../graph/participants';
import type { KubeState } from './store';
import { RELAY_CAP } from './slices/relay';
import { capRelayHops } from '../../cluster/relay/sequence/story-keep';
import { EMPTY_TOPOLOGY } from './slices/resources';
import type { KObject, Pulse, StoredObject } from './types';
import { computeTopology, touchesTopology } from './topology';

/** Events the UI keeps (oldest dropped first). */
export const EVENTS_CAP = 1_000;

export { computeTopology } from './topology';

/** Folds one worker batch into the state; returns only the fields that change. */
export function reduceBatch(s: KubeState, b: TickBatch): Partial<KubeState> {
  // A reset batch replaces everything (also the first batch of a restarted worker, whose
  // generations count from 1 again); a delta is only valid for the generation it belongs to.
  if (!b.reset && b.gen !== s.gen) return {};
  const out: Partial<KubeState> = {
    gen: b.gen,
    simMs: b.simMs,
    startMs: b.startMs,
    running: b.running,
    speed: b.speed,
    pace: b.pace ?? null,
    profile: b.profile,
  };
  if (b.applySeq !== s.applySeq) out.applySeq = b.applySeq;
  // a snapshot, cloned in every batch: replaced only when it names another action
  const story = b.story ?? null;
  if (story?.seq !== s.story?.seq || story?.endSeq !== s.story?.endSeq) out.story = story;
  const storyCount = b.storyCount ?? null;
  if (storyCount !== s.storyCount) out.storyCount = storyCount;
  if (b.fault && s.notice !== `engine stopped: ${b.fault}`) out.notice = `engine stopped: ${b.fault}`;
  if (b.deadlines.length || s.deadlines.length) out.deadlines = b.deadlines;

  // the large-cluster path (worker/pod-summary.ts): counts instead of Pods
  const summary = b.podSummary !== undefined ? b.podSummary : b.reset ? null : s.podSummary;
  if (summary !== s.podSummary) out.podSummary = summary;
  const sample = !summary ? null : b.podSample !== undefined ? b.podSample : b.reset ? null : s.podSample;
  if (sample !== s.podSample) out.podSample = sample;
  /** Summarizing starts: the Pods the page holds go (no per-Pod object stays on the main thread). */
  const dropPods = !!summary && !s.podSummary && !b.reset;

  // objects
  if (b.reset || b.changes.length || dropPods) {
    const objects = b.reset ? new Map<string, StoredObject>() : new Map(s.objects);
    let topo = b.reset;
    if (dropPods) {
      for (const [k, o] of objects) if (o.object.kind === 'Pod') objects.delete(k);
      topo = true;
    }
    for (const c of b.changes) {
      if (summary && c.object.kind === 'Pod') continue;
      const prev = objects.get(c.key);
      if (!topo && touchesTopology(c, prev)) topo = true;
      if (c.type === 'DELETED') objects.delete(c.key);
      else objects.set(c.key, { key: c.key, resource: c.resource, object: c.object, row: c.row, controllers: c.controllers });
    }
    out.objects = objects;
    if (topo) out.topology = objects.size ? computeTopology(objects) : EMPTY_TOPOLOGY;
    if (s.selected && !objects.has(s.selected)) out.selected = null;
  }

  // events
  if (b.reset || b.events.length) {
    const events = b.reset ? new Map<string, KObject>() : new Map(s.events);
    for (const c of b.events) {
      if (c.type === 'DELETED') events.delete(c.key);
      else {
        events.delete(c.key); // re-insert: Map order = last written
        events.set(c.key, c.object);
      }
    }
    while (events.size > EVENTS_CAP) events.delete(events.keys().next().value as string);
    out.events = events;
  }

  // relay
  if (b.reset || b.hops.length) {
    const base = b.reset ? [] : s.hops;
    // over the cap: the story's first hops stay, the newest fill the rest (story-keep.ts)
    const hops = capRelayHops(base, b.hops, RELAY_CAP, story);
    out.hops = hops;
    const pulses: Record<string, Pulse> = { ...(b.reset ? {} : s.pulses) };
    for (const h of b.hops) {
      if (h.category === 'heartbeat') continue;
      const l = linkOfHop(h.from, h.to);
      if (l) pulses[l.link] = { seq: h.seq, toApiserver: l.toApiserver, summary: h.summary };
    }
    out.pulses = pulses;
  }
  return out;
}
