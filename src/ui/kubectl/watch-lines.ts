/**
 * The live tail of the kubectl bar's `kubectl get -w`: polls the worker's watch session
 * (ClusterApi.kubectlWatchPoll) while it is open, keeps the last {@link MAX_WATCH_LINES} lines,
 * and stops it on ^C / Esc (kubectl prints nothing on ^C).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { cluster } from '../cluster-client';

/** Lines of watch output the bar keeps (older ones scroll away for good). */
export const MAX_WATCH_LINES = 2_000;
/** Wall ms between polls of the worker's watch session. */
export const WATCH_POLL_MS = 150;

/** `text + more`, keeping only the last `max` lines (each line ends in "\n"). */
export function appendCapped(text: string, more: string, max = MAX_WATCH_LINES): string {
  const all = text + more;
  let cut = all.length;
  // the final "\n" ends the last line; count `max` line breaks back from the one before it
  for (let n = 0; n < max; n++) {
    cut = all.lastIndexOf('\n', cut - 2);
    if (cut < 0) return all;
    cut++;
  }
  return all.slice(cut);
}

interface WatchState {
  /** the session the lines belong to (null: none) */
  id: number | null;
  lines: string;
  open: boolean;
}

let state: WatchState = { id: null, lines: '', open: false };
const listeners = new Set<() => void>();
function set(next: WatchState): void {
  state = next;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The bar's watch tail: its lines and whether the watch still runs. */
export function useWatchTail(): WatchState {
  return useSyncExternalStore(subscribe, () => state);
}

/** ^C / Esc: stops the running watch (if any), keeping what it printed. */
export function stopWatch(): void {
  if (state.id === null || !state.open) return;
  void cluster.kubectlWatchStop(state.id);
  set({ ...state, open: false });
}

/** Follows the session `watchId` of the latest kubectl result (undefined: that command does not watch). */
export function useWatchSession(watchId: number | undefined): void {
  useEffect(() => {
    if (watchId === undefined) {
      if (state.id !== null) set({ id: null, lines: '', open: false });
      return;
    }
    if (state.id !== watchId) set({ id: watchId, lines: '', open: true });
    let busy = false;
    const timer = setInterval(() => {
      if (busy || state.id !== watchId || !state.open) return;
      busy = true;
      void cluster.kubectlWatchPoll(watchId).then((r) => {
        busy = false;
        if (state.id !== watchId || !state.open) return;
        if (r.output || !r.open) set({ id: watchId, lines: r.output ? appendCapped(state.lines, r.output) : state.lines, open: r.open });
      });
    }, WATCH_POLL_MS);
    return () => clearInterval(timer);
  }, [watchId]);
}
