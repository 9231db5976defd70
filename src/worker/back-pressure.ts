/**
 * BatchGate: back-pressure for the worker's batches. The worker posts a batch only when the
 * main thread has taken the previous one: over comlink, the batch callback's call resolves
 * when the page's callback (connect.ts sink) settles — the page resolves it once the store
 * folded the batch (ui/store/batch-pump.ts), at most once per animation frame. Until then,
 * changes stay in the worker's ChangeBatchers, where they fold per object key (batch.ts), so
 * however slow the page, at most one batch is in flight and the queue never grows; the page
 * then gets the latest state, not a backlog.
 *
 * A `send` that returns no promise (tests, the headless server) is never gated.
 */
import type { TickBatch } from './protocol';

export class BatchGate {
  private inFlight = false;
  private wanted = false;

  /**
   * `send` posts a batch (its promise settles when the receiver took it); `onReady` runs after
   * an acknowledgement when a flush was refused meanwhile (it should flush again).
   */
  constructor(
    private readonly send: (b: TickBatch) => unknown,
    private readonly onReady: () => void,
  ) {}

  /** True while a batch is unacknowledged. */
  get busy(): boolean {
    return this.inFlight;
  }

  /** Asks for `onReady` after the pending acknowledgement (more changes are waiting); no-op when nothing is in flight. */
  again(): void {
    if (this.inFlight) this.wanted = true;
  }

  /**
   * Sends the batch `make` builds, unless one is in flight: then nothing is built (the
   * changes keep folding) and `onReady` runs once the receiver acknowledged. Returns whether
   * a batch was sent.
   */
  offer(make: () => TickBatch | null): boolean {
    if (this.inFlight) {
      this.wanted = true;
      return false;
    }
    const b = make();
    if (!b) return false;
    const r = this.send(b);
    if (r && typeof (r as Promise<unknown>).then === 'function') {
      this.inFlight = true;
      const done = () => {
        this.inFlight = false;
        if (this.wanted) {
          this.wanted = false;
          this.onReady();
        }
      };
      (r as Promise<unknown>).then(done, done);
    }
    return true;
  }
}
