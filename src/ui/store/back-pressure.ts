/**
 * The page's side of the worker's back-pressure (worker/back-pressure.ts): when to tell the
 * worker a batch was taken. Folding is not the page's whole cost: receiving a batch
 * (structured-clone deserialization on the main thread) grows with its size, before any fold.
 * So after a large batch the acknowledgement waits a little more, in proportion to its
 * changes: the page takes at most ≈ 1 / {@link ACK_MS_PER_CHANGE} changes a wall second while a
 * large Deployment churns (the worker folds the rest meanwhile), and small batches — all of
 * an ordinary cluster — are acknowledged as soon as they are folded.
 */
import type { TickBatch } from '../../worker/protocol';

/** Wall ms the acknowledgement waits per change of a large batch. */
export const ACK_MS_PER_CHANGE = 0.8;
/** Batches with fewer changes (objects + Events) than this are acknowledged at once. */
export const SMALL_BATCH = 200;

/** Extra wall ms to wait, after the fold, before acknowledging `b`. */
export function ackDelayMs(b: Pick<TickBatch, 'changes' | 'events'>): number {
  const n = b.changes.length + b.events.length;
  return n < SMALL_BATCH ? 0 : Math.round(n * ACK_MS_PER_CHANGE);
}

/** Resolves once `folded` settled and then {@link ackDelayMs} passed. */
export function acknowledgeAfter(
  folded: Promise<void>,
  b: Pick<TickBatch, 'changes' | 'events'>,
  setTimer: (cb: () => void, ms: number) => void = (cb, ms) => void setTimeout(cb, ms),
): Promise<void> {
  const delay = ackDelayMs(b);
  return delay ? folded.then(() => new Promise<void>((r) => setTimer(r, delay))) : folded;
}
