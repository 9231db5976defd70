/**
 * client-go's leader election on the simulated clock
 * (staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go):
 *
 * - `acquire`: wait.JitterUntil(tryAcquireOrRenew, RetryPeriod, JitterFactor 1.2, sliding):
 *   the first try at once, then every RetryPeriod + rand·1.2·RetryPeriod (2 s to 4.4 s) until
 *   it succeeds; success records `<identity> became leader` and runs OnStartedLeading.
 * - `renew`: wait.Until every RetryPeriod (2 s); each round is PollImmediateUntil(RetryPeriod,
 *   tryAcquireOrRenew) bounded by RenewDeadline (10 s). A round that times out loses the
 *   lease: `<identity> stopped leading` and OnStoppedLeading (kube-controller-manager and
 *   kube-scheduler exit then; the kubelet restarts them as a new candidate).
 * - `tryAcquireOrRenew`: the leader's fast path (Update of the record it observed), else
 *   Get (Create when 404), then: a Lease held by another whose observed record is younger
 *   than leaseDurationSeconds is not taken; otherwise Update with leaseTransitions + 1 (a
 *   takeover) or kept (the leader renewing). Expiry is measured from `observedTime`, the
 *   local time the elector last saw the record change — not from renewTime.
 *
 * Times: simulated ms (durations) and MicroTime strings (records). A stopped elector (its
 * node powered off) writes nothing and lets its Lease expire.
 */
import { StatusError } from '../api/errors';
import type { SimClock, TimerHandle } from '../sim/clock';
import type { Rng } from '../sim/rng';
import type { RelayRecorder } from '../relay/recorder';
import type { LeaderElectionRecord, LeaseLock } from './leaselock';

/** wait.JitterUntil's factor in acquire (leaderelection.go JitterFactor). */
export const JITTER_FACTOR = 1.2;

/** kube-controller-manager's and kube-scheduler's defaults (component-base LeaderElectionConfiguration), ms. */
export const LEADER_ELECTION_DEFAULTS = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 } as const;

/** LeaderCallbacks. */
export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
  /** Called when the observed leader changes (including the first one seen). */
  onNewLeader?(identity: string): void;
}

/** LeaderElectionConfig (durations in simulated ms). */
export interface LeaderElectionConfig {
  lock: LeaseLock;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  callbacks: LeaderCallbacks;
  /** Relay participant of the candidate (its notes). */
  participant: string;
}

/** Where an elector is: trying to acquire, leading (renewing), or stopped. */
export type ElectorState = 'acquiring' | 'leading' | 'stopped';

/** LeaderElector (one candidate). */
export class LeaderElector {
  private observedRecord: LeaderElectionRecord = {
    holderIdentity: '',
    leaseDurationSeconds: 0,
    acquireTime: '',
    renewTime: '',
    leaderTransitions: 0,
  };
  private observedRawRecord = '';
  private observedTime = 0;
  private reportedLeader = '';
  private timer: TimerHandle | null = null;
  private roundStart = 0;
  private stateNow: ElectorState = 'stopped';

  /**
   * @param rng the candidate's own stream (jitter), so a standby's retries do not shift others' draws
   */
  constructor(
    readonly config: LeaderElectionConfig,
    private readonly clock: SimClock,
    private readonly rng: Rng,
    private readonly relay: RelayRecorder,
  ) {}

  /** Identity(): the lock's holder identity (`<hostname>_<uuid>`). */
  get identity(): string {
    return this.config.lock.identity;
  }

  /** The current state. */
  get state(): ElectorState {
    return this.stateNow;
  }

  /** GetLeader(): the last observed leader's identity, '' before any. */
  getLeader(): string {
    return this.observedRecord.holderIdentity;
  }

  /** IsLeader(). */
  isLeader(): boolean {
    return this.observedRecord.holderIdentity === this.identity;
  }

  /** Run: starts acquiring (the first try runs now). No-op unless stopped. */
  run(): void {
    if (this.stateNow !== 'stopped') return;
    this.stateNow = 'acquiring';
    this.acquireTick();
  }

  /** The process dies (its node powered off): timers cancelled, no write, no event, no callback. */
  stop(): void {
    this.stateNow = 'stopped';
    this.clock.cancel(this.timer);
    this.timer = null;
  }

  private acquireTick(): void {
    this.timer = null;
    const ok = this.tryAcquireOrRenew();
    this.maybeReportTransition();
    if (!ok) {
      // wait.Jitter(RetryPeriod, 1.2), to the simulated millisecond
      const delay = Math.round(this.config.retryPeriodMs + this.rng.float() * JITTER_FACTOR * this.config.retryPeriodMs);
      const r = this.observedRecord;
      this.note(
        `lease ${this.config.lock.describe()} is held by ${r.holderIdentity} and has not yet expired; retry in ${(delay / 1000).toFixed(1)} s`,
      );
      this.timer = this.clock.setTimer(delay, () => this.acquireTick());
      return;
    }
    this.config.lock.recordEvent('became leader');
    this.note(`successfully acquired lease ${this.config.lock.describe()}`);
    this.stateNow = 'leading';
    this.config.callbacks.onStartedLeading();
    if (this.stateNow !== 'leading') return;
    this.roundStart = this.clock.now() + this.config.retryPeriodMs;
    this.timer = this.clock.setTimer(this.config.retryPeriodMs, () => this.renewTick());
  }

  /** One poll of a renew round (PollImmediateUntil inside wait.Until). */
  private renewTick(): void {
    this.timer = null;
    const ok = this.tryAcquireOrRenew();
    this.maybeReportTransition();
    const now = this.clock.now();
    if (ok) {
      this.roundStart = now + this.config.retryPeriodMs;
      this.timer = this.clock.setTimer(this.config.retryPeriodMs, () => this.renewTick());
      return;
    }
    const deadline = this.roundStart + this.config.renewDeadlineMs;
    if (now + this.config.retryPeriodMs < deadline) {
      this.timer = this.clock.setTimer(this.config.retryPeriodMs, () => this.renewTick());
      return;
    }
    // the round's RenewDeadline timeout ends the poll: leaderelection lost
    this.timer = this.clock.setTimer(deadline - now, () => this.lose());
  }

  private lose(): void {
    this.timer = null;
    this.config.lock.recordEvent('stopped leading');
    this.note(`failed to renew lease ${this.config.lock.describe()}: timed out waiting for the condition; leaderelection lost`);
    this.stateNow = 'stopped';
    this.config.callbacks.onStoppedLeading();
  }

  /** tryAcquireOrRenew: true when this candidate holds the lease afterwards. Never throws StatusError. */
  tryAcquireOrRenew(): boolean {
    const lock = this.config.lock;
    const now = this.clock.now();
    const nowMicro = this.clock.nowMicro();
    const record: LeaderElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.round(this.config.leaseDurationMs / 1000),
      acquireTime: nowMicro,
      renewTime: nowMicro,
      leaderTransitions: 0,
    };
    // 1. fast path for the leader
    if (this.isLeader() && this.isLeaseValid(now)) {
      record.acquireTime = this.observedRecord.acquireTime;
      record.leaderTransitions = this.observedRecord.leaderTransitions;
      try {
        lock.update(record, `renew Lease ${lock.describe()} (${this.identity})`);
        this.setObservedRecord(record);
        return true;
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        // Failed to update lock optimistically: falling back to slow path
      }
    }
    // 2. obtain or create the election record
    let old: { record: LeaderElectionRecord; raw: string };
    try {
      old = lock.get();
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (err.code !== 404) return false;
      try {
        lock.create(record, `create Lease ${lock.describe()} (holder ${this.identity})`);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        return false;
      }
      this.setObservedRecord(record);
      return true;
    }
    // 3. record obtained: check the identity and time
    if (this.observedRawRecord !== old.raw) {
      this.setObservedRecord(old.record);
      this.observedRawRecord = old.raw;
    }
    if (old.record.holderIdentity.length > 0 && this.isLeaseValid(now) && !this.isLeader()) return false;
    // 4. update: keep acquireTime and transitions when renewing, count a takeover
    if (this.isLeader()) {
      record.acquireTime = old.record.acquireTime;
      record.leaderTransitions = old.record.leaderTransitions;
    } else {
      record.leaderTransitions = old.record.leaderTransitions + 1;
    }
    try {
      lock.update(
        record,
        this.isLeader()
          ? `renew Lease ${lock.describe()} (${this.identity})`
          : `acquire Lease ${lock.describe()}: ${this.identity} (leaseTransitions ${record.leaderTransitions})`,
      );
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      return false;
    }
    this.setObservedRecord(record);
    return true;
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + this.observedRecord.leaseDurationSeconds * 1000 > now;
  }

  private setObservedRecord(r: LeaderElectionRecord): void {
    this.observedRecord = { ...r };
    this.observedTime = this.clock.now();
  }

  private maybeReportTransition(): void {
    if (this.observedRecord.holderIdentity === this.reportedLeader) return;
    this.reportedLeader = this.observedRecord.holderIdentity;
    this.config.callbacks.onNewLeader?.(this.reportedLeader);
  }

  private note(summary: string): void {
    this.relay.record({ from: this.config.participant, to: this.config.participant, kind: 'note', summary, category: 'heartbeat' });
  }
}
