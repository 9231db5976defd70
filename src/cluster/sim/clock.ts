import { Heap } from './heap';

/**
 * SimClock: the one clock of the simulated cluster.
 *
 * Time is simulated milliseconds since the Unix epoch (the cluster starts at
 * 2026-01-01T00:00:00Z unless told otherwise). Nothing in src/cluster reads the
 * wall clock; everything that must happen "later" is a timer on this heap.
 *
 * Ordering contract: timers fire in (time, insertion sequence) order, so two
 * timers due at the same instant fire in the order they were set. This makes
 * every run reproducible from (inputs, seed).
 *
 * Timers may be marked as *deadlines*: moments at which the engine already knows
 * something will change (a node's grace period running out, a taint eviction, a
 * back-off retry). `settle` (see cluster.ts) uses them to decide whether the
 * cluster is really quiet. Periodic work (heartbeats, resyncs) is not a deadline.
 *
 * Mirrors the role of k8s.io/utils/clock (clock.Clock / testing.FakeClock) and
 * client-go's injectable clocks in util/workqueue/delaying_queue.go.
 */

/** What a timer is for, shown to users as a countdown when it is a deadline. */
export interface TimerInfo {
  /** Short description, e.g. "taint eviction of default/web-1". */
  label?: string;
  /** True when the timer is a known deadline (see the file comment). */
  deadline?: boolean;
  /** Object the deadline concerns, as "kind/namespace/name" or "kind/name". */
  object?: string;
}

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  info: TimerInfo | undefined;
  cancelled: boolean;
  /** Set when the timer ran (it left the timer heap; the deadline heap drops it lazily). */
  fired: boolean;
}

/** (time, insertion sequence): the one order of every timer and deadline (file comment). */
const timerLess = (a: Timer, b: Timer): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** A handle returned by {@link SimClock.setTimer}; pass it to {@link SimClock.cancel}. */
export type TimerHandle = { readonly id: number };

/** A metav1.MicroTime of simulated ms since the epoch (Lease renewTime), e.g. 2026-01-01T00:00:10.000000Z. */
export function microTimeOf(ms: number): string {
  // joined, not replaced: one flat string (a replace leaves a rope over the ISO string, which an
  // Event's eventTime or a Lease's renewTime would keep for as long as it lives)
  if (Number.isInteger(ms) && ms >= 0 && ms < MAX_ISO_MS) {
    // the ISO text of the second is remembered: every Event of a second differs only in its ms
    const sec = Math.floor(ms / 1000);
    if (sec !== microSec) {
      microSec = sec;
      microPrefix = new Date(sec * 1000).toISOString().slice(0, -4);
    }
    const r = ms - sec * 1000;
    return [microPrefix, r < 10 ? '00' : r < 100 ? '0' : '', r, '000Z'].join('');
  }
  return [new Date(ms).toISOString().slice(0, -1), '000Z'].join('');
}

/** 10000-01-01T00:00:00Z in ms: from there on toISOString has a six-digit signed year. */
const MAX_ISO_MS = 253402300800000;
/** The second {@link microTimeOf} printed last, and its text up to the ms (`2026-01-01T00:00:10.`). */
let microSec = NaN;
let microPrefix = '';

/** A pending deadline as the UI shows it. `at` is simulated ms since the epoch. */
export interface Deadline {
  at: number;
  label: string;
  object?: string;
}

/** The default start of every simulated cluster: 2026-01-01T00:00:00Z, in ms. */
export const DEFAULT_START_MS = Date.UTC(2026, 0, 1, 0, 0, 0);

export class SimClock {
  private nowMs: number;
  private seq = 0;
  private heap = new Heap<Timer>(timerLess);
  /**
   * The deadline timers alone, in the same (time, sequence) order, so `settle` and the
   * fast-forward find the next deadline in O(log n) instead of scanning every pending timer.
   * Cancelled and fired ones leave it lazily (popped when on top, or compacted when they
   * outnumber the pending ones).
   */
  private deadlineHeap = new Heap<Timer>(timerLess);
  private byId = new Map<number, Timer>();
  private deadlineCount = 0;
  private rfcAt = NaN;
  private rfc = '';
  private microAt = NaN;
  private micro = '';
  /** Open holds ({@link hold}): while any is open, {@link runUntil} fires nothing. */
  private holds = 0;
  /** Called after each fired timer; the cluster uses it to count activity. */
  onFire: ((info: TimerInfo | undefined) => void) | null = null;

  /** @param startMs simulated start time in ms since the Unix epoch. */
  constructor(startMs: number = DEFAULT_START_MS) {
    this.nowMs = startMs;
  }

  /** Current simulated time, ms since the Unix epoch. */
  now(): number {
    return this.nowMs;
  }

  /** Current simulated time as an RFC 3339 string with second precision, like metav1.Time. */
  nowRFC3339(): string {
    // memoized per second (the string's precision): every write stamped within one simulated
    // second shares one string, not one copy per object
    const sec = Math.floor(this.nowMs / 1000);
    if (this.rfcAt !== sec) {
      this.rfcAt = sec;
      this.rfc = [new Date(sec * 1000).toISOString().slice(0, -5), 'Z'].join(''); // flat, not a rope
    }
    return this.rfc;
  }

  /** Current simulated time with microseconds, like metav1.MicroTime (Lease renewTime, Event eventTime). */
  nowMicro(): string {
    // memoized per millisecond, as nowRFC3339 per second: the kubelets' Lease renewals that
    // fall on one instant share one string
    if (this.microAt !== this.nowMs) {
      this.microAt = this.nowMs;
      this.micro = microTimeOf(this.nowMs);
    }
    return this.micro;
  }

  /**
   * Runs `fn` after `delayMs` simulated milliseconds (0 = at the current instant, after
   * everything already due now). Returns a handle for {@link cancel}.
   */
  setTimer(delayMs: number, fn: () => void, info?: TimerInfo): TimerHandle {
    const t: Timer = { at: this.nowMs + Math.max(0, delayMs), seq: this.seq++, fn, info, cancelled: false, fired: false };
    this.heap.push(t);
    this.byId.set(t.seq, t);
    if (info?.deadline) {
      this.deadlineCount++;
      this.deadlineHeap.push(t);
    }
    return { id: t.seq };
  }

  /** Cancels a timer; harmless when it already fired or was cancelled. */
  cancel(handle: TimerHandle | null | undefined): void {
    if (!handle) return;
    const t = this.byId.get(handle.id);
    if (!t || t.cancelled) return;
    t.cancelled = true;
    this.byId.delete(handle.id);
    if (t.info?.deadline) {
      this.deadlineCount--;
      this.compactDeadlines();
    }
  }

  /** Simulated time of the next timer, or undefined when none is pending. */
  nextAt(): number | undefined {
    this.dropCancelled();
    return this.heap.peek()?.at;
  }

  /** The earliest pending deadline's time, or undefined. O(log deadlines) amortized. */
  nextDeadlineAt(): number | undefined {
    const h = this.deadlineHeap;
    while (h.length && !pendingTimer(h.peek()!)) h.pop();
    return h.peek()?.at;
  }

  /**
   * All pending deadlines, earliest first (for countdowns in the UI); deadlines due at the same
   * instant in the order they were set. O(d log d) in the pending deadlines d.
   */
  deadlines(): Deadline[] {
    if (this.deadlineCount === 0) return [];
    const pending = this.deadlineHeap.items.filter(pendingTimer).sort((a, b) => a.at - b.at || a.seq - b.seq);
    return pending.map((t) => ({ at: t.at, label: t.info!.label ?? 'deadline', object: t.info!.object }));
  }

  /** Rebuilds the deadline heap when cancelled and fired deadlines outnumber the pending ones. */
  private compactDeadlines(): void {
    const h = this.deadlineHeap;
    if (h.length < 64 || h.length < 2 * this.deadlineCount) return;
    const keep = h.items.filter(pendingTimer);
    this.deadlineHeap = new Heap<Timer>(timerLess);
    for (const t of keep) this.deadlineHeap.push(t);
  }

  /**
   * Fires every timer due at or before `untilMs`, in order, moving the clock to each
   * timer's time, then sets the clock to `untilMs`. Timers set while running fire too
   * when they fall inside that time window; `stop` is checked after each timer; when it returns
   * true, the clock stays at that timer's time and the call returns false.
   * @returns true when the window was completed.
   */
  runUntil(untilMs: number, stop?: () => boolean): boolean {
    if (this.holds > 0) return false;
    for (;;) {
      this.dropCancelled();
      const t = this.heap.peek();
      if (!t || t.at > untilMs) break;
      this.heap.pop();
      this.byId.delete(t.seq);
      t.fired = true;
      if (t.info?.deadline) {
        this.deadlineCount--;
        this.compactDeadlines();
      }
      if (t.at > this.nowMs) this.nowMs = t.at;
      t.fn();
      this.onFire?.(t.info);
      if (this.holds > 0 || stop?.()) return false;
    }
    if (untilMs > this.nowMs) this.nowMs = untilMs;
    return true;
  }

  /**
   * Holds the clock at this instant until the returned release is called (once; later calls
   * do nothing): meanwhile {@link runUntil} fires no timer and does not move the time, and
   * returns false. A component whose work at this instant is answered asynchronously (a user
   * controller's reconcile in its sandbox, user-controller/controller.ts) holds the clock so
   * that simulated time stands still until the answer, whatever the wall time it takes.
   */
  hold(): () => void {
    this.holds++;
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.holds--;
    };
  }

  /** True while a {@link hold} is open. */
  get held(): boolean {
    return this.holds > 0;
  }

  /** Advances by `ms` simulated milliseconds, firing what falls due. */
  advance(ms: number): void {
    this.runUntil(this.nowMs + ms);
  }

  /** Fires the next timer (and any others due at the same instant). Returns false when none is pending. */
  step(): boolean {
    const at = this.nextAt();
    if (at === undefined) return false;
    this.runUntil(at);
    return true;
  }

  /** Number of pending (not cancelled) timers. */
  get pending(): number {
    return this.byId.size;
  }

  private dropCancelled(): void {
    while (this.heap.length && this.heap.peek()!.cancelled) this.heap.pop();
  }
}

/** Not yet fired nor cancelled. */
function pendingTimer(t: Timer): boolean {
  return !t.cancelled && !t.fired;
}
