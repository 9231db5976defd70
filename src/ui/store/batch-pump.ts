/**
 * BatchPump: hands the worker's batches to the store at most once per animation frame, and
 * backs off when folding them costs the main thread too much.
 *
 * The worker sends one batch per tick (≈ 20 a second). Each fold makes React re-render what
 * changed, synchronously. When a 300-Pod rollout makes that cost tens of milliseconds per
 * batch, folding every batch as it arrives keeps the main thread busy and the frames long.
 * The pump queues batches instead and folds all queued batches in one go (one React render:
 * React renders once per task in a microtask, however many store updates the task made):
 *
 * - the next fold waits for an animation frame (so never more than one fold per frame), with
 *   a timer fallback of {@link FALLBACK_MS} for a hidden tab, where frames do not come;
 * - after a fold that cost `c` ms, the next fold waits at least `min(c × GAP_FACTOR, MAX_GAP_MS)`:
 *   the main thread spends at most ≈ 1/GAP_FACTOR of its time folding batches, and the view
 *   still follows the cluster several times a second. The cost is measured up to the end of
 *   the frame that draws the fold (PumpDeps.afterRender: React's render and commit, its
 *   effects, React Flow's ResizeObserver measuring, style, layout and paint), not only to the
 *   end of React's synchronous render: those later parts are most of a fold's frame, and a
 *   cost that leaves them out spaces the folds too closely (more long frames).
 *
 * A batch of a paused cluster (`running: false`) is folded in the next frame, without waiting
 * out the gap: the view shows at once the moment the clock stopped at.
 *
 * Batches are never dropped or reordered: every queued batch is folded, in arrival order
 * (deltas depend on the batches before them; docker and tour fields come only when changed).
 */
import type { TickBatch } from '../../worker/protocol';

/** The next fold waits at least this many times the last fold's cost. */
export const GAP_FACTOR = 6;
/** …but never longer than this (ms): the view stays live. */
export const MAX_GAP_MS = 400;
/** Without animation frames (hidden tab), a queued batch is folded after this (ms). */
export const FALLBACK_MS = 100;

/** What the pump needs of the page: injected so tests can drive it by hand. */
export interface PumpDeps {
  /** Wall clock in ms (performance.now). */
  now(): number;
  requestFrame(cb: () => void): void;
  setTimeout(cb: () => void, ms: number): void;
  queueMicrotask(cb: () => void): void;
  /**
   * Runs `cb` once the page has drawn what a fold changed (browser: a MessageChannel task
   * posted from the fold's animation frame, which runs after that frame's rendering). Absent:
   * {@link queueMicrotask} (the end of React's synchronous render).
   */
  afterRender?(cb: () => void): void;
}

export interface BatchPump {
  /**
   * Queues a batch; the promise resolves once it was folded (also when the fold threw). The
   * worker's back-pressure (worker/back-pressure.ts) waits for it: it sends the next batch only
   * then, so at most one batch waits here and the worker coalesces the rest.
   */
  push(batch: TickBatch): Promise<void>;
  /** Batches waiting for the next fold. */
  readonly queued: number;
  /** Earliest wall time (ms) the next fold may run. */
  readonly nextAllowedMs: number;
}

/** A task after the current one (and after the rendering of the frame it runs in). */
function afterRenderTask(): (cb: () => void) => void {
  if (typeof MessageChannel !== 'function') return (cb) => void setTimeout(cb, 0);
  const ch = new MessageChannel();
  const queue: (() => void)[] = [];
  ch.port1.onmessage = () => queue.shift()?.();
  return (cb) => {
    queue.push(cb);
    ch.port2.postMessage(null);
  };
}

/** Made on first use (a MessagePort with a listener keeps a Node test process alive). */
let afterRender: ((cb: () => void) => void) | undefined;

export const browserPumpDeps: PumpDeps = {
  now: () => performance.now(),
  requestFrame: (cb) => requestAnimationFrame(() => cb()),
  setTimeout: (cb, ms) => void setTimeout(cb, ms),
  queueMicrotask: (cb) => queueMicrotask(cb),
  afterRender: (cb) => (afterRender ??= afterRenderTask())(cb),
};

/** `fold` gets the queued batches in arrival order; it must fold every one of them. */
export function createBatchPump(fold: (batches: TickBatch[]) => void, deps: PumpDeps = browserPumpDeps): BatchPump {
  let queue: TickBatch[] = [];
  /** Resolvers of the queued batches' `push` promises. */
  let waiters: (() => void)[] = [];
  let scheduled = false;
  /** Bumped per fold, so the frame and the fallback timer of one schedule fold once. */
  let token = 0;
  let nextAllowedMs = -Infinity;
  /** Between a fold and the end of its measuring: a batch pushed meanwhile is scheduled once the cost is known. */
  let measuring = false;
  /** A queued batch is of a paused cluster: fold it in the next frame, gap or not. */
  let urgentQueued = false;

  const schedule = () => {
    if (urgentQueued) return onTime();
    const wait = nextAllowedMs - deps.now();
    if (wait > 0) deps.setTimeout(onTime, wait);
    else onTime();
  };

  const flush = (t: number) => {
    if (t !== token || !queue.length) return;
    token++;
    scheduled = false;
    const batches = queue;
    const done = waiters;
    queue = [];
    waiters = [];
    urgentQueued = false;
    const start = deps.now();
    try {
      fold(batches);
    } finally {
      for (const w of done) w();
      measuring = true;
      (deps.afterRender ?? deps.queueMicrotask)(() => {
        const end = deps.now();
        nextAllowedMs = end + Math.min((end - start) * GAP_FACTOR, MAX_GAP_MS);
        measuring = false;
        if (scheduled) schedule();
      });
    }
  };

  const onTime = () => {
    const t = token;
    deps.requestFrame(() => flush(t));
    deps.setTimeout(() => flush(t), FALLBACK_MS);
  };

  return {
    push(batch) {
      queue.push(batch);
      const folded = new Promise<void>((r) => waiters.push(r));
      // a paused clock shows where it stopped at once (tours pause on the moment they describe)
      const urgent = batch.running === false;
      if (urgent) urgentQueued = true;
      if (scheduled) {
        if (urgent && !measuring) onTime();
        return folded;
      }
      scheduled = true;
      if (!measuring) schedule();
      return folded;
    },
    get queued() {
      return queue.length;
    },
    get nextAllowedMs() {
      return nextAllowedMs;
    },
  };
}
