/**
 * Per-item exponential back-off, as k8s.io/client-go/util/flowcontrol/backoff.go (`Backoff`)
 * which the kubelet uses for image pulls (key `<podUID>_<image>`) and for restarting crashed
 * containers (CrashLoopBackOff): 10 s doubling to 300 s, no jitter (the kubelet's
 * maxJitterFactor is 0). An entry is forgotten once 2 × max (10 minutes) passed since its last
 * update — so a container that ran for 10 minutes starts again at 10 s.
 *
 * All times are simulated ms.
 */
export class Backoff {
  private entries = new Map<string, { backoffMs: number; lastUpdate: number }>();

  constructor(
    readonly initialMs: number,
    readonly maxMs: number,
    private readonly now: () => number,
  ) {}

  private expired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > 2 * this.maxMs;
  }

  /** Backoff.Next: start at initial, or double (capped); lastUpdate = now. */
  next(id: string, eventTime: number): void {
    const e = this.entries.get(id);
    if (!e || this.expired(eventTime, e.lastUpdate)) {
      this.entries.set(id, { backoffMs: this.initialMs, lastUpdate: this.now() });
    } else {
      e.backoffMs = Math.min(e.backoffMs * 2, this.maxMs);
      e.lastUpdate = this.now();
    }
  }

  /** Backoff.Get: the current back-off duration (0 when none). */
  get(id: string): number {
    return this.entries.get(id)?.backoffMs ?? 0;
  }

  /** The last update time of an entry, or undefined. */
  lastUpdate(id: string): number | undefined {
    return this.entries.get(id)?.lastUpdate;
  }

  /** Backoff.IsInBackOffSince: now − eventTime < back-off (unless the entry expired). */
  isInBackOffSince(id: string, eventTime: number): boolean {
    const e = this.entries.get(id);
    if (!e || this.expired(eventTime, e.lastUpdate)) return false;
    return this.now() - eventTime < e.backoffMs;
  }

  /** Backoff.IsInBackOffSinceUpdate: now − lastUpdate < back-off. */
  isInBackOffSinceUpdate(id: string, eventTime: number): boolean {
    const e = this.entries.get(id);
    if (!e || this.expired(eventTime, e.lastUpdate)) return false;
    return eventTime - e.lastUpdate < e.backoffMs;
  }

  /** Backoff.Reset. */
  reset(id: string): void {
    this.entries.delete(id);
  }

  /** Forgets everything (a kubelet restart). */
  clear(): void {
    this.entries.clear();
  }
}

/**
 * Formats simulated milliseconds as Go's time.Duration.String() does for whole
 * milliseconds: "313ms", "1.594s", "10s", "1m20s", "5m0s", "1h0m0s".
 */
export function formatGoDuration(ms: number): string {
  ms = Math.trunc(ms);
  if (ms === 0) return '0s';
  const neg = ms < 0;
  if (neg) ms = -ms;
  let out: string;
  if (ms < 1000) out = `${ms}ms`;
  else {
    const h = Math.floor(ms / 3_600_000);
    const m = Math.floor((ms % 3_600_000) / 60_000);
    const sMs = ms % 60_000;
    let s = String(Math.floor(sMs / 1000));
    const frac = sMs % 1000;
    if (frac) s += '.' + String(frac).padStart(3, '0').replace(/0+$/, '');
    out = h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
  }
  return neg ? '-' + out : out;
}
