/**
 * k8s.io/client-go/util/flowcontrol's token bucket (NewTokenBucketRateLimiter /
 * NewTokenBucketPassiveRateLimiter) on simulated time: the node lifecycle controller's
 * eviction limiters and the event recorder's spam filter use it.
 */

/** A token bucket (qps, burst) on simulated time; qps ≤ 0 never accepts. */
export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = qps > 0 ? burst : 0;
    this.last = now();
  }
  private refill(): void {
    const t = this.now();
    if (this.qps > 0) this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
  }
  /** TryAccept: takes a token when one is available. */
  tryAccept(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }
  /** ms until a token is available, or Infinity. */
  msUntilToken(): number {
    this.refill();
    if (this.qps <= 0) return Infinity;
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.qps) * 1000);
  }
}
