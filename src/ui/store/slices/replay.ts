/** The timeline: where the replay slider stands (null: live) and the recorded range. */
import type { StateCreator } from 'zustand/vanilla';
import type { KubeState } from '../store';

export interface ReplaySlice {
  /** The simulated ms the views show while scrubbed back; null when they follow the live cluster. */
  replayAt: number | null;
  /** Simulated ms of the live cluster (simMs shows the replayed moment while scrubbed). */
  liveMs: number;
  /** The oldest recorded moment the slider can reach. */
  timelineStartMs: number;
}

export const createReplaySlice: StateCreator<KubeState, [], [], ReplaySlice> = () => ({
  replayAt: null,
  liveMs: 0,
  timelineStartMs: 0,
});
