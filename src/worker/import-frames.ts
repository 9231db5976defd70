/**
 * Frames of a session import (session-log.ts `importState`, issue 6 §3): while the session log
 * is replayed on a fresh cluster, the host sends the batches the session would have sent had
 * it run live — flagged `replayed` (protocol.ts) — so the UI's timeline reaches back to
 * before the page load. A frame goes out after each recorded action and every `stride` of
 * simulated time while the clock runs between actions.
 *
 * Frame budget: the stride is {@link IMPORT_FRAME_MS}, longer for a long session so that
 * time frames stay at most {@link IMPORT_MAX_TIME_FRAMES} (whole seconds). The UI's Timeline
 * bounds what it keeps anyway (ui/timeline/timeline.ts: 600 frames, thinned oldest first);
 * this bound keeps the worker → UI traffic of one reload small.
 *
 * Running the clock in strides fires exactly the timers one run to the same end would, in
 * the same order (sim/clock.ts `runUntil` fires every timer due by its end, then sets now to
 * it): the replay stays deterministic and ends in the state the live session had.
 */

/** Simulated ms between two time frames of an import (at least). */
export const IMPORT_FRAME_MS = 5_000;
/** Most time frames (besides one per action) an import emits: a longer session gets a longer stride. */
export const IMPORT_MAX_TIME_FRAMES = 500;

/** The stride (simulated ms, whole seconds) for a session spanning `spanMs` of simulated time. */
export function importStride(spanMs: number): number {
  return Math.max(IMPORT_FRAME_MS, Math.ceil(Math.max(0, spanMs) / IMPORT_MAX_TIME_FRAMES / 1000) * 1000);
}

/** What a framed run needs of the cluster: its simulated clock (ms since the epoch). */
export interface FramedClock {
  now(): number;
  readonly clock: { runUntil(untilMs: number): boolean; readonly held?: boolean };
}

/** Runs a cluster's clock forward, calling `frame` at every stride boundary crossed. */
export class FramedRun {
  private next: number;

  /** Boundaries fall at `startMs + k × strideMs`. */
  constructor(
    private readonly c: FramedClock,
    startMs: number,
    private readonly strideMs: number,
    private readonly frame: () => void,
  ) {
    this.next = startMs + strideMs;
  }

  /**
   * Runs the clock to `untilMs` (ms since the epoch), stopping at each boundary for a frame.
   * Returns false when the clock is held (a user controller's reconcile awaits its sandbox,
   * sim/clock.ts `hold`): call again with `resume` once it is released, to fire the rest of
   * the instant it stopped at.
   */
  runTo(untilMs: number, resume = false): boolean {
    while (this.c.now() < untilMs || resume) {
      resume = false;
      if (!this.c.clock.runUntil(Math.min(untilMs, this.next)) && this.c.clock.held) return false;
      if (this.c.now() >= this.next) {
        this.frame();
        this.catchUp();
      }
    }
    return true;
  }

  /** After the clock moved by other means (a `step` action): the next boundary is after now. */
  catchUp(): void {
    const now = this.c.now();
    if (this.next <= now) this.next += Math.ceil((now - this.next + 1) / this.strideMs) * this.strideMs;
  }
}
