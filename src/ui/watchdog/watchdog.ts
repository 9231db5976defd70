/**
 * The watchdog: notices a cluster worker that stops answering. Every {@link PING_EVERY_MS}
 * it pings the worker (ClusterApi.ping, answered at once between two time slices); when a
 * ping has been outstanding for {@link STUCK_AFTER_MS}, the worker is stuck and `onState(true,
 * since)` runs (`since`: wall ms the unanswered ping was sent); when the answer finally comes,
 * `onState(false, null)`. One ping is outstanding at a time, so a stuck worker does not pile
 * up pings. Wall clock and timers are injected (tests drive them by hand).
 */

/** How often the worker is pinged (wall ms). */
export const PING_EVERY_MS = 1_000;
/** A ping unanswered this long (wall ms) means the worker is stuck. */
export const STUCK_AFTER_MS = 5_000;

export interface WatchdogDeps {
  /** Wall clock, ms (performance.now). */
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface Watchdog {
  /** One check now (the interval calls it). */
  check(): void;
  /** Forgets the outstanding ping (a new worker replaced the stuck one); reports not stuck. */
  reset(): void;
  dispose(): void;
}

export const browserWatchdogDeps: WatchdogDeps = {
  now: () => performance.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

export function createWatchdog(
  ping: () => Promise<unknown>,
  onState: (stuck: boolean, sinceMs: number | null) => void,
  deps: WatchdogDeps = browserWatchdogDeps,
): Watchdog {
  let sentAt: number | null = null;
  let stuck = false;
  /** Bumped by reset: the answer of a ping to a replaced worker is ignored. */
  let epoch = 0;

  const answered = (e: number) => {
    if (e !== epoch) return;
    sentAt = null;
    if (stuck) {
      stuck = false;
      onState(false, null);
    }
  };

  const check = () => {
    const t = deps.now();
    if (sentAt === null) {
      sentAt = t;
      const e = epoch;
      ping().then(
        () => answered(e),
        () => answered(e), // a rejected ping is an answer too (the worker is there to say no)
      );
      return;
    }
    if (!stuck && t - sentAt >= STUCK_AFTER_MS) {
      stuck = true;
      onState(true, sentAt);
    }
  };

  const handle = deps.setInterval(check, PING_EVERY_MS);
  return {
    check,
    reset() {
      epoch++;
      sentAt = null;
      if (stuck) {
        stuck = false;
        onState(false, null);
      }
    },
    dispose: () => deps.clearInterval(handle),
  };
}
