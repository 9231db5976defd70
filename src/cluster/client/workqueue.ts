/**
 * A rate-limited work queue on the simulated clock, with client-go's contract
 * (k8s.io/client-go/util/workqueue/doc.go): fair (FIFO), stingy (a key is never processed
 * twice at once, and repeated adds before processing collapse into one), re-adding while
 * processing queues the key again after the current run.
 *
 * Unlike client-go there are no worker goroutines: the queue drains itself in a timer at the
 * current instant after an add, calling `process(key)` for each key. A throw means "retry"
 * (AddRateLimited, per-item exponential back-off 5 ms · 2^n up to 1000 s, as
 * DefaultControllerRateLimiter); a normal return means Forget.
 *
 * Each key remembers the relay hop that last caused it, so the sync runs with that cause.
 */
import type { SimClock, TimerHandle } from '../sim/clock';
import type { RelayRecorder } from '../relay/recorder';

export interface WorkQueueOptions {
  /** Base and max per-item back-off, ms. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * The overall token bucket of DefaultControllerRateLimiter (util/workqueue/default_rate_limiters.go:
   * MaxOf(exponential, BucketRateLimiter{rate.NewLimiter(10, 100)})): AddRateLimited waits for a
   * token, `qps` per simulated second, at most `burst` saved. Off when not given.
   */
  bucket?: { qps: number; burst: number };
}

export class RateLimitingQueue {
  private queue: string[] = [];
  private head = 0;
  private dirty = new Map<string, number | null>(); // key → cause
  private processing = new Set<string>();
  private failures = new Map<string, number>();
  private delayed = new Map<string, TimerHandle>();
  private draining = false;
  private drainScheduled = false;
  private shutDown = false;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  /** When true, the queue holds keys but does not process them (a paused component). */
  paused = false;
  /** The bucket's tokens (may go negative: reserved ahead) as of `tokensAt`; undefined: full. */
  private tokens: number | undefined;
  private tokensAt = 0;

  constructor(
    readonly name: string,
    private readonly clock: SimClock,
    private readonly relay: RelayRecorder,
    private readonly process: (key: string) => void,
    private readonly opts: WorkQueueOptions = {},
  ) {
    this.baseDelayMs = opts.baseDelayMs ?? 5;
    this.maxDelayMs = opts.maxDelayMs ?? 1000_000;
  }

  /** Adds a key now. `cause` defaults to the relay's current cause. */
  add(key: string, cause: number | null = this.relay.currentCause): void {
    if (this.shutDown) return;
    if (this.dirty.has(key)) {
      if (cause !== null) this.dirty.set(key, cause);
      return;
    }
    this.dirty.set(key, cause);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.scheduleDrain();
  }

  /**
   * Adds a key after `delayMs` simulated ms. When `deadline` is given, the timer counts as a
   * known deadline for `settle` (e.g. a taint eviction), with that label.
   */
  addAfter(key: string, delayMs: number, deadline?: { label: string; object?: string }): void {
    if (this.shutDown) return;
    if (delayMs <= 0) return this.add(key);
    const cause = this.relay.currentCause;
    const prev = this.delayed.get(key);
    this.clock.cancel(prev);
    this.delayed.set(
      key,
      this.clock.setTimer(
        delayMs,
        () => {
          this.delayed.delete(key);
          this.add(key, cause);
        },
        deadline ? { deadline: true, label: deadline.label, object: deadline.object } : { label: `${this.name} requeue ${key}` },
      ),
    );
  }

  /**
   * Re-adds after the item's back-off (5 ms · 2^failures, capped; with a {@link WorkQueueOptions.bucket},
   * at least until the bucket's next token). The retry is a known deadline unless `retry.deadline`
   * is false: a requeue that by itself changes nothing (deployment's requeueStuckDeployment of a
   * rollout that cannot time out) is periodic work, not "the next thing that happens".
   */
  addRateLimited(key: string, retry: { deadline?: boolean } = {}): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.max(Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs), this.bucketDelay());
    this.addAfter(key, delay, retry.deadline === false ? undefined : { label: `${this.name}: retry ${key}` });
  }

  /** golang.org/x/time/rate Limiter.Reserve().Delay() of the bucket: ms until a token is ours (0: one was saved). */
  private bucketDelay(): number {
    const b = this.opts.bucket;
    if (!b) return 0;
    const now = this.clock.now();
    this.tokens = Math.min(b.burst, (this.tokens ?? b.burst) + ((now - this.tokensAt) * b.qps) / 1000) - 1;
    this.tokensAt = now;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens * 1000) / b.qps);
  }

  /** Clears the item's failure count. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  get length(): number {
    return this.queue.length - this.head;
  }

  /** Stops processing; pending delayed adds are cancelled. */
  shutdown(): void {
    this.shutDown = true;
    for (const h of this.delayed.values()) this.clock.cancel(h);
    this.delayed.clear();
    this.queue = [];
    this.head = 0;
    this.dirty.clear();
  }

  /** Resumes a paused queue (level-triggered catch-up). */
  resume(): void {
    this.paused = false;
    this.scheduleDrain();
  }

  private scheduleDrain(): void {
    if (this.drainScheduled || this.draining || this.paused) return;
    this.drainScheduled = true;
    this.clock.setTimer(0, () => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    if (this.paused || this.shutDown) return;
    this.draining = true;
    try {
      while (this.head < this.queue.length && !this.paused && !this.shutDown) {
        const key = this.queue[this.head++];
        const cause = this.dirty.get(key) ?? null;
        this.dirty.delete(key);
        this.processing.add(key);
        try {
          this.relay.withCause(cause, () => this.process(key));
          this.forget(key);
        } catch (err) {
          this.onError?.(key, err);
          this.addRateLimited(key);
        } finally {
          this.processing.delete(key);
          if (this.dirty.has(key)) this.queue.push(key);
        }
      }
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
    } finally {
      this.draining = false;
    }
  }

  /** Called when process(key) throws, before the rate-limited retry (utilruntime.HandleError). */
  onError: ((key: string, err: unknown) => void) | null = null;
}
