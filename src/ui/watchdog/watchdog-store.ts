/** What the watchdog (watchdog.ts) last said: whether the worker is stuck, since when (wall ms). */
import { createStore } from 'zustand/vanilla';

export interface WatchdogState {
  stuck: boolean;
  /** performance.now() of the unanswered ping; null when not stuck. */
  sinceMs: number | null;
}

export const watchdogStore = createStore<WatchdogState>()(() => ({ stuck: false, sinceMs: null }));
