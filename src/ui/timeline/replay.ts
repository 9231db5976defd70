/**
 * Replay: folds worker batches into the store while recording a {@link Timeline}, and swaps
 * the store's *view* fields (objects, topology, events, relay, simulated time) for a recorded
 * frame while the slider is scrubbed back. The live cluster keeps running meanwhile: batches
 * then fold into a stashed live view, and everything else (play/pause, speed, deadlines,
 * notices) stays live. `goLive` puts the stashed live view back.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { TickBatch } from '../../worker/protocol';
import type { KubeState } from '../store/store';
import { reduceBatch } from '../store/reducers';
import { Timeline, type TimelineOptions } from './timeline';

const VIEW_KEYS = ['objects', 'topology', 'events', 'hops', 'pulses', 'simMs'] as const;
export type View = Pick<KubeState, (typeof VIEW_KEYS)[number]>;

function pickView(s: View): View {
  return { objects: s.objects, topology: s.topology, events: s.events, hops: s.hops, pulses: s.pulses, simMs: s.simMs };
}

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
  /** The live view while scrubbed back; null while live. */
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
      const next = { ...base, ...out };
      if (batch.reset) timeline.clear();
      timeline.record(next.simMs, pickView(next), { pinned: batch.reset, size: next.objects.size + next.events.size });
      const range = { liveMs: next.simMs, timelineStartMs: timeline.firstMs };
      let applied: Partial<KubeState>;
      if (live && !batch.reset) {
        live = pickView(next);
        const { objects: _o, topology: _t, events: _e, hops: _h, pulses: _p, simMs: _s, selected: _sel, ...rest } = out;
        applied = { ...rest, ...range };
      } else {
        live = null;
        applied = { ...out, ...range, replayAt: null };
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
