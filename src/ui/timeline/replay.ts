/**
 * Replay: folds worker batches into the store while recording a {@link Timeline}, and swaps
 * the store's *view* fields for a recorded frame while the slider is scrubbed back. The live
 * cluster keeps running meanwhile: batches then fold into a stashed live view. `goLive` puts
 * the stashed live view back.
 *
 * What rewinds (the view, {@link VIEW_KEYS}): the graph and the tables (objects, topology),
 * the events, the relay (sequence diagram, pulses, the story it tells), the simulated time and the pending-timer
 * strip (the deadlines as they were then, counted down from the replayed moment). What stays
 * live: play/pause, speed, notices, apply/kubectl results, the selection, traffic flights,
 * and the tours' store (ui/tours/tour-store.ts): the tour panel (it drives the live cluster)
 * and the `docker run` container chips.
 *
 * After a reload the worker replays the session log and sends the batches the session would
 * have sent live, flagged `replayed` (worker/import-frames.ts), then live ones: each
 * replayed batch is a frame of the timeline (merge-batches.ts never merges them), folded
 * without animation: no pulses, and the view does not play them — it stays as it was until
 * the first live batch after them, then shows the live cluster. So the timeline reaches back
 * before the reload.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { TickBatch } from '../../worker/protocol';
import type { KubeState } from '../store/store';
import { reduceBatch } from '../store/reducers';
import { Timeline, type TimelineOptions } from './timeline';

/** The store fields a frame records and a scrub swaps (see the module comment). */
export const VIEW_KEYS = ['objects', 'topology', 'events', 'hops', 'pulses', 'simMs', 'deadlines', 'story', 'podSummary'] as const;
export type View = Pick<KubeState, (typeof VIEW_KEYS)[number]>;

function pickView(s: View): View {
  return {
    objects: s.objects,
    topology: s.topology,
    events: s.events,
    hops: s.hops,
    pulses: s.pulses,
    simMs: s.simMs,
    deadlines: s.deadlines,
    story: s.story,
    podSummary: s.podSummary,
  };
}

/** `out` without the view fields (what a batch changes besides the view). */
function withoutView(out: Partial<KubeState>): Partial<KubeState> {
  const rest: Partial<KubeState> = { ...out };
  for (const k of VIEW_KEYS) delete rest[k];
  delete rest.selected;
  return rest;
}

/** The pulses of replayed batches: none (one shared object, so nothing re-renders for them). */
const NO_PULSES: KubeState['pulses'] = Object.freeze({});

export interface Replay {
  receive(batch: TickBatch): void;
  /** Folds batches in order (as `receive` each) with one store update at the end. */
  receiveAll(batches: readonly TickBatch[]): void;
  /** Shows the cluster as it was at `simMs` (live when at or past the live time). */
  scrubTo(simMs: number): void;
  goLive(): void;
  readonly timeline: Timeline<View>;
}

export function createReplay(store: StoreApi<KubeState>, opts: Partial<TimelineOptions> = {}): Replay {
  const timeline = new Timeline<View>(opts);
  /** The live view while the store shows another (scrubbed back, or a reload's replayed batches folding); null otherwise. */
  let live: View | null = null;

  const goLive = () => {
    if (live) store.setState({ ...live, replayAt: null });
    else if (store.getState().replayAt !== null) store.setState({ replayAt: null });
    live = null;
  };

  const receiveAll = (batches: readonly TickBatch[]): void => {
    // every batch folds and is recorded in turn; the store is updated once at the end
    let s = store.getState();
    let patch: Partial<KubeState> = {};
    let folded = false;
    for (const batch of batches) {
      const base: KubeState = live ? { ...s, ...live } : s;
      const out = reduceBatch(base, batch);
      if (out.simMs === undefined) continue; // a stale generation's delta
      if (batch.replayed && out.pulses) out.pulses = NO_PULSES;
      const next = { ...base, ...out };
      if (batch.reset) timeline.clear();
      timeline.record(next.simMs, pickView(next), { pinned: batch.reset, size: next.objects.size + next.events.size });
      const range = { liveMs: next.simMs, timelineStartMs: timeline.firstMs };
      // a reset ends a replay; the view stays put while scrubbed back or while a reload's
      // replayed batches fold (it shows their end, the live cluster, with the next live batch)
      const replayAt = batch.reset ? null : s.replayAt;
      let applied: Partial<KubeState>;
      if (batch.replayed || replayAt !== null) {
        live = pickView(next);
        applied = { ...withoutView(out), ...range, replayAt };
      } else {
        live = null;
        applied = { ...out, ...pickView(next), ...range, replayAt: null };
        if (s.selected && !next.objects.has(s.selected)) applied.selected = null;
      }
      s = { ...s, ...applied };
      patch = { ...patch, ...applied };
      folded = true;
    }
    if (folded) store.setState(patch);
  };

  return {
    timeline,
    receive(batch) {
      receiveAll([batch]);
    },
    receiveAll,
    scrubTo(simMs) {
      const s = store.getState();
      if (simMs >= s.liveMs) return goLive();
      const frame = timeline.at(simMs);
      if (!frame) return;
      live ??= pickView(s);
      store.setState({ ...frame.view, simMs: frame.stateMs, replayAt: Math.max(simMs, timeline.firstMs) });
    },
    goLive,
  };
}
