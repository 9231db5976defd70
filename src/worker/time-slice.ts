/**
 * Time slicing for the worker's loop (time-loop.ts `tick`): the engine's timers run in
 * slices of at most {@link SLICE_MS} wall ms; between slices the worker yields to its event
 * loop, so the UI's calls (a kubectl command, a ping from the watchdog) are answered within a
 * slice however large the cluster. When the engine cannot keep up with wall × speed, the
 * simulated clock falls behind (what a tick could not run is dropped, never owed), and
 * {@link PaceMeter} measures the speed actually reached, for the UI to say so.
 *
 * Wall time only (performance.now in the worker): nothing here enters the engine.
 */

/** Most wall ms one slice spends running simulated timers before yielding. */
export const SLICE_MS = 12;

/** Wall ms of history {@link PaceMeter} averages over. */
export const PACE_WINDOW_MS = 2_000;

/**
 * Measures simulated ms per wall ms over the last {@link PACE_WINDOW_MS} of wall time.
 * `record(wallMs, simMs)` after each tick (both clocks in ms, wall from any origin);
 * `pace()` is null until two samples span at least a quarter of the window.
 */
export class PaceMeter {
  private samples: { wall: number; sim: number }[] = [];

  record(wallMs: number, simMs: number): void {
    this.samples.push({ wall: wallMs, sim: simMs });
    while (this.samples.length > 2 && wallMs - this.samples[1].wall >= PACE_WINDOW_MS) this.samples.shift();
  }

  /** Forgets the history (pause, reset, a speed change: the next pace starts afresh). */
  clear(): void {
    this.samples = [];
  }

  /** Simulated ms per wall ms over the window; null without enough history. */
  pace(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.wall - first.wall < PACE_WINDOW_MS / 4) return null;
    return (last.sim - first.sim) / (last.wall - first.wall);
  }
}

/**
 * Whether the reached pace is worth telling the user: playing, measured, and below 80 % of
 * the chosen speed (a few percent of jitter is not "falling behind").
 */
export function isBehind(pace: number | null, speed: number, running: boolean): boolean {
  return running && pace !== null && pace < speed * 0.8;
}
