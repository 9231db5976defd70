/**
 * The one vanilla zustand store (docs/style.md#ui-state), built from typed slices and fed by
 * module-level actions (actions.ts) — the worker bridge needs no React to write to it.
 * Components read it through {@link useKubeStore} with module-level selectors (selectors.ts).
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { createResourcesSlice, type ResourcesSlice } from './slices/resources';
import { createRelaySlice, type RelaySlice } from './slices/relay';
import { createPlaybackSlice, type PlaybackSlice } from './slices/playback';
import { createSelectionSlice, type SelectionSlice } from './slices/selection';
import { createApplySlice, type ApplySlice } from './slices/apply';
import { createReplaySlice, type ReplaySlice } from './slices/replay';
import { createConsoleSlice, type ConsoleSlice } from './slices/console';
import { createTrafficSlice, type TrafficSlice } from './slices/traffic';

export type KubeState = ResourcesSlice &
  RelaySlice &
  PlaybackSlice &
  SelectionSlice &
  ApplySlice &
  ReplaySlice &
  ConsoleSlice &
  TrafficSlice;

/** A fresh store (the app has one; tests make their own). */
export function createKubeStore() {
  return createStore<KubeState>()((...a) => ({
    ...createResourcesSlice(...a),
    ...createRelaySlice(...a),
    ...createPlaybackSlice(...a),
    ...createSelectionSlice(...a),
    ...createApplySlice(...a),
    ...createReplaySlice(...a),
    ...createConsoleSlice(...a),
    ...createTrafficSlice(...a),
  }));
}

export const kubeStore = createKubeStore();

/** Bounded hook over the app's store. */
export function useKubeStore<T>(selector: (s: KubeState) => T): T {
  return useStore(kubeStore, selector);
}
