/**
 * Timers owned by one kubelet: every delayed action of a kubelet (heartbeats, pulls,
 * container exits, back-off retries) goes through here, so `powerOff()` can cancel all of
 * them at once — the way a machine losing power stops every goroutine of its kubelet.
 *
 * Each timer remembers the relay cause current when it was set and runs with it, so the
 * hops a delayed action records still point at what started it.
 *
 * Our own infrastructure (no single upstream file); the role of k8s.io/utils/clock timers
 * owned by a component, like tldraw's `editor.timers`.
 */
import type { SimClock, TimerHandle, TimerInfo } from '../sim/clock';
import type { RelayRecorder } from '../relay/recorder';

export class OwnedTimers {
  private live = new Map<number, TimerHandle>();

  constructor(
    private readonly clock: SimClock,
    private readonly relay: RelayRecorder,
  ) {}

  /** Runs `fn` after `delayMs` simulated ms, with the current relay cause. */
  set(delayMs: number, fn: () => void, info?: TimerInfo): TimerHandle {
    const cause = this.relay.currentCause;
    const h = this.clock.setTimer(
      delayMs,
      () => {
        this.live.delete(h.id);
        this.relay.withCause(cause, fn);
      },
      info,
    );
    this.live.set(h.id, h);
    return h;
  }

  /** Cancels one timer (harmless when it already fired). */
  cancel(h: TimerHandle | null | undefined): void {
    if (!h) return;
    this.live.delete(h.id);
    this.clock.cancel(h);
  }

  /** Cancels every pending timer of this owner. */
  cancelAll(): void {
    for (const h of this.live.values()) this.clock.cancel(h);
    this.live.clear();
  }

  /** Number of pending timers (tests). */
  get size(): number {
    return this.live.size;
  }
}
