/** Simulated time, play/pause/speed, deadlines and the worker connection. */
import type { StateCreator } from 'zustand/vanilla';
import type { ConnectionStatus } from '../../../worker/connect';
import type { Deadline } from '../types';
import type { KubeState } from '../store';

export interface PlaybackSlice {
  gen: number;
  simMs: number;
  startMs: number;
  running: boolean;
  speed: number;
  /** Simulated ms per wall ms the worker actually reached (TickBatch.pace); null when paused or unknown. */
  pace: number | null;
  deadlines: Deadline[];
  profile: string;
  connection: ConnectionStatus;
  connectionDetail: string | null;
}

export const createPlaybackSlice: StateCreator<KubeState, [], [], PlaybackSlice> = () => ({
  gen: 0,
  simMs: 0,
  startMs: Date.UTC(2026, 0, 1),
  running: true,
  speed: 1,
  pace: null,
  deadlines: [],
  profile: 'kubernetes-defaults',
  connection: 'starting',
  connectionDetail: null,
});
