/**
 * The time loop of ClusterHost (cluster-api.ts): the wall-clock loop that moves simulated time
 * while playing, play / pause, the speed, one step and fast-forward.
 *
 * The loop: every tick (≈ {@link TICK_MS} wall ms) simulated time advances by elapsed wall ms ×
 * speed, but a tick never runs timers for longer than {@link TICK_BUDGET_MS} of wall time (or,
 * with `setTimeout` injected, in slices of time-slice.ts `SLICE_MS`) — when the engine cannot
 * keep up, simulated time slips rather than the worker freezing. After the timers the host
 * pushes one batch to the UI (see protocol.ts), only when something changed.
 *
 * Timers and the wall clock are injected (host-types.ts HostDeps) so tests can drive the loop by hand.
 */
import type { RelayHop } from '../cluster/relay/relay-event';
import { PaceMeter, SLICE_MS } from './time-slice';
import { SPEEDS, STEP_MAX_MS, type StepFilter } from './protocol';
import type { HostDeps, TimeHost } from './host-types';

export const TICK_MS = 50;
/** Most wall time one tick may spend running simulated timers. */
export const TICK_BUDGET_MS = 35;
/** A tick after a long stall (tab in background) advances at most this much wall time. */
const MAX_TICK_WALL_MS = 250;
/** Fast-forward stops after this much simulated quiet (no hop but heartbeats)… */
const FAST_FORWARD_QUIET_MS = 10_000;
/** …or, when no deadline showed up, this much (longer than the 50 s node-monitor-grace-period)… */
const FAST_FORWARD_IDLE_MS = 60_000;
/** …or after this much simulated time. */
const FAST_FORWARD_LIMIT_MS = 15 * 60_000;

/** Whether the user's relay view (`f`, see {@link StepFilter}) shows hop `h`. */
export function stepShows(h: RelayHop, f: StepFilter): boolean {
  if (h.category === 'heartbeat' && !f.heartbeats) return false;
  if (h.category === 'admission' && !f.admission) return false;
  if (h.category === 'event' && !f.events) return false;
  return !f.hiddenComponents?.length || !(f.hiddenComponents.includes(h.from) || f.hiddenComponents.includes(h.to));
}

/** The time loop (see the file comment); ClusterHost delegates its clock's ClusterApi methods here. */
export class TimeLoop {
  /** Whether the clock plays (sent as `running`). */
  running = true;
  /** Simulated ms per wall ms the user chose (one of protocol.ts SPEEDS). */
  speed = 1;
  /** An engine error that stopped the loop (sent as `fault`); null when none. */
  fault: string | null = null;
  /**
   * While stepping: the last relay hop sent to the UI; later hops (of the instant the last step
   * ran) are held and revealed one shown hop per step. Null: every hop is sent.
   */
  heldAfter: number | null = null;
  /** The simulated ms the current tick runs to, pursued by continuation slices (time-slice.ts). */
  private sliceTarget: number | null = null;
  private sliceScheduled = false;
  /** Simulated ms per wall ms actually reached (sent as `pace`). */
  readonly paceMeter = new PaceMeter();
  private timer: unknown = null;
  private lastWall: number;
  /** Simulated time owed but not yet run: the engine's clock moves in whole milliseconds. */
  private owedMs = 0;
  /** Resolved when a held reconcile ends (the async replay waits on it). */
  private idleWaiters: (() => void)[] = [];
  /** A continuation after a held reconcile ended is scheduled. */
  private resumeScheduled = false;

  constructor(
    private readonly host: TimeHost,
    private readonly deps: HostDeps,
  ) {
    this.lastWall = deps.wallNow();
  }

  /** Starts the wall-clock timer (once) from now (a subscriber came). */
  start(): void {
    this.lastWall = this.deps.wallNow();
    if (this.timer === null) this.timer = this.deps.setInterval(() => this.tick(), TICK_MS);
  }

  /** Stops the wall-clock timer. */
  stop(): void {
    if (this.timer !== null) this.deps.clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * One loop iteration: advance while playing, then push a batch. With `setTimeout` injected
   * (the worker), timers run in slices of {@link SLICE_MS} wall ms with a yield between them,
   * until this tick's target or the next tick (which drops what is left: simulated time slips
   * rather than piling up a debt); without it, one slice of {@link TICK_BUDGET_MS}.
   */
  tick(): void {
    if (this.host.replaying) return;
    const wall = this.deps.wallNow();
    const dt = Math.min(wall - this.lastWall, MAX_TICK_WALL_MS);
    this.lastWall = wall;
    // a held clock (a reconcile awaiting its sandbox) stands still: no time is owed meanwhile
    if (this.running && dt > 0 && !this.held()) this.owedMs += dt * this.speed;
    const whole = Math.floor(this.owedMs);
    if (this.running && whole > 0) {
      this.owedMs -= whole;
      this.sliceTarget = this.host.scriptLimit(this.host.cluster.now() + whole);
      this.runSlice(this.deps.setTimeout ? SLICE_MS : TICK_BUDGET_MS);
    }
    if (this.running) this.paceMeter.record(wall, this.host.cluster.now());
    this.host.pumpScript();
    this.host.flush(true);
  }

  /** Runs timers toward `sliceTarget` for at most `budgetMs` wall ms; schedules the next slice when not there yet. */
  private runSlice(budgetMs: number): void {
    const target = this.sliceTarget;
    if (target === null || !this.running) return;
    const budgetEnd = this.deps.wallNow() + budgetMs;
    try {
      if (this.host.cluster.clock.runUntil(target, () => this.deps.wallNow() > budgetEnd)) this.sliceTarget = null;
    } catch (e) {
      // an engine bug: stop the loop (rather than crash the worker) and say what happened
      this.running = false;
      this.sliceTarget = null;
      this.fault = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      this.host.markDirty();
    }
    // held: the end of the reconcile resumes the slice (onEngineIdle)
    if (this.sliceTarget !== null && this.deps.setTimeout && !this.sliceScheduled && !this.held()) {
      this.sliceScheduled = true;
      this.deps.setTimeout(() => {
        this.sliceScheduled = false;
        this.runSlice(SLICE_MS);
      }, 0);
    }
  }

  /** True while the engine's clock is held (sim/clock.ts `hold`). */
  private held(): boolean {
    return this.host.cluster.clock.held === true;
  }

  /**
   * A held reconcile ended: the async replay goes on, and the live loop carries on with the
   * slice it was running (after the current message: never inside the engine's call).
   */
  onEngineIdle(): void {
    this.host.markDirty();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
    if (this.host.replaying || this.resumeScheduled || !this.deps.setTimeout) return;
    this.resumeScheduled = true;
    this.deps.setTimeout(() => {
      this.resumeScheduled = false;
      if (this.host.replaying) return;
      if (this.sliceTarget !== null && this.running && !this.sliceScheduled) this.runSlice(SLICE_MS);
      this.host.flush();
    }, 0);
  }

  /** Resolves once the clock is not held (at once when it is not). */
  whenIdle(): Promise<void> {
    if (!this.held()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops the clock where it is (a tour's steps are done): nothing owed. */
  halt(): void {
    this.running = false;
    this.owedMs = 0;
  }

  /** The clock as a replayed session left it: `running`, and `speed` when it is one of SPEEDS; nothing owed, from now. */
  restore(running: boolean, speed: number): void {
    this.running = running;
    if ((SPEEDS as readonly number[]).includes(speed)) this.speed = speed;
    this.owedMs = 0;
    this.lastWall = this.deps.wallNow();
  }

  play(): void {
    this.heldAfter = null;
    this.running = true;
    this.fault = null;
    this.lastWall = this.deps.wallNow();
    this.host.markDirty();
    this.host.flush();
  }

  pause(): void {
    this.running = false;
    this.owedMs = 0;
    this.sliceTarget = null;
    this.paceMeter.clear();
    this.host.markDirty();
    this.host.flush();
  }

  setSpeed(speed: number): void {
    if (!(SPEEDS as readonly number[]).includes(speed)) throw new Error(`unsupported speed ${speed}`);
    this.speed = speed;
    this.paceMeter.clear();
    this.host.markDirty();
    this.host.flush();
  }

  step(filter: StepFilter = {}): boolean {
    this.running = false;
    this.owedMs = 0;
    const shows = (h: RelayHop) => stepShows(h, filter);
    const c = this.host.cluster;
    // a shown hop already run but held back: reveal it, the clock stays
    if (this.heldAfter !== null) {
      const next = c.relay.since(this.heldAfter).find(shows);
      this.heldAfter = null;
      if (next) {
        this.holdAfter(next.seq, shows);
        this.host.markDirty();
        this.host.flush();
        return true;
      }
    }
    const before = c.relay.lastSeq;
    const start = c.now();
    const fired = this.stepTimers(shows);
    // logged as the time it ran (replay runs the clock there: the same timers in order)
    if (c.now() > start || c.relay.lastSeq > before) this.host.record({ kind: 'advance', ms: c.now() - start }, start);
    const first = c.relay.since(before).find(shows);
    if (first) this.holdAfter(first.seq, shows);
    this.host.markDirty();
    this.host.flush();
    return fired;
  }

  /** Sends hops up to `seq`; holds the rest when another shown hop follows (else sends them all). */
  private holdAfter(seq: number, shows: (h: RelayHop) => boolean): void {
    this.heldAfter = this.host.cluster.relay.since(seq).some(shows) ? seq : null;
  }

  fastForward(): { untilMs: number; reason: 'quiet' | 'limit' } {
    this.heldAfter = null;
    this.running = false;
    this.owedMs = 0;
    const c = this.host.cluster;
    const start = c.now();
    // the next deadline: the earliest one seen during the run (a killed node's grace period
    // is armed only once its heartbeats stop); passed once the clock reaches it
    let next = Infinity;
    let seen = c.relay.lastSeq;
    let lastActive = start;
    let reason: 'quiet' | 'limit' = 'limit';
    while (c.now() - start < FAST_FORWARD_LIMIT_MS) {
      if (next === Infinity || c.now() < next) next = Math.min(next, c.deadlines().find((d) => d.at > start)?.at ?? Infinity);
      c.clock.runUntil(c.now() + 1000);
      if (this.held()) break; // a reconcile awaits its sandbox: fast-forward ends at this instant
      if (c.relay.lastSeq > seen && c.relay.since(seen).some((h) => h.category !== 'heartbeat')) lastActive = c.now();
      seen = c.relay.lastSeq;
      // no deadline seen yet: wait longer (a timer may still be armed, e.g. a silent node's grace period)
      const quietFor = next === Infinity ? FAST_FORWARD_IDLE_MS : FAST_FORWARD_QUIET_MS;
      if (c.now() - lastActive >= quietFor && (next === Infinity || c.now() >= next)) {
        reason = 'quiet';
        break;
      }
    }
    // logged as the time it ran: replay runs the clock there, the same timers in order
    this.host.record({ kind: 'advance', ms: c.now() - start }, start);
    this.host.markDirty();
    this.host.flush();
    return { untilMs: c.now(), reason };
  }

  /**
   * Runs timers one simulated instant at a time (always whole instants, so a replay can run
   * the clock to the same `until`) until a hop `shows`, a known deadline's instant ran (the
   * next thing that happens: never skipped), or the next timer lies more than
   * {@link STEP_MAX_MS} ahead — then the clock moves exactly that far. False when no timer is pending.
   */
  private stepTimers(shows: (h: RelayHop) => boolean): boolean {
    const c = this.host.cluster;
    const before = c.relay.lastSeq;
    const cap = c.now() + STEP_MAX_MS;
    let fired = false;
    for (;;) {
      const at = c.clock.nextAt();
      if (at === undefined) break;
      fired = true;
      if (at > cap) {
        c.clock.runUntil(cap);
        break;
      }
      const deadline = c.clock.nextDeadlineAt() === at;
      c.clock.runUntil(at);
      if (this.held()) break; // a reconcile awaits its sandbox: the instant goes on after it
      if (deadline || (c.relay.lastSeq > before && c.relay.since(before).some(shows))) break;
    }
    return fired;
  }
}
