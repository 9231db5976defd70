/**
 * The scheduling queue: activeQ, podBackoffQ (+ podErrorBackoffQ) and unschedulablePods,
 * on the simulated clock.
 *
 * Mirrors pkg/scheduler/backend/queue/scheduling_queue.go (PriorityQueue), active_queue.go,
 * backoff_queue.go and unschedulable_pods.go as of v1.33:
 * - activeQ is ordered by the QueueSort plugin (PrioritySort: higher spec.priority first,
 *   then the earlier queue timestamp).
 * - Back-off: 1 s initial, doubling per attempt, 10 s max (DefaultPodInitialBackoffDuration,
 *   DefaultPodMaxBackoffDuration); the expiration is aligned to 1 s windows and the back-off
 *   queue is flushed on whole-second ticks (SchedulerPopFromBackoffQ, beta and on in v1.33).
 *   When activeQ is empty, pop takes the first pod of podBackoffQ early (same gate); pods that
 *   failed with an error wait in podErrorBackoffQ.
 * - unschedulablePods: pods rejected by plugins wait there until a cluster event that one of
 *   their rejecting plugins registered (with a queueing hint saying Queue) moves them, or
 *   until flushUnschedulablePodsLeftover (every 30 s) finds them older than
 *   podMaxInUnschedulablePodsDuration (5 min).
 *
 * Timers: the end of a back-off is a known deadline (`deadline: true`, for `settle`); the
 * 5-minute leftover flush is a plain timer at the exact 30 s tick that will move the pod (it is
 * periodic housekeeping, not a change the cluster is waiting for). No timer polls.
 */
import type { SimClock, TimerHandle } from '../sim/clock';
import type { APIObject, Pod } from '../api/objects';
import type { PodInfo } from './node-info';
import type { ClusterEvent, ClusterEventWithHint, QueueingHint, QueueingHintFn } from './types';
import { Heap } from '../sim/heap';

/** DefaultPodInitialBackoffDuration, ms. */
export const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
/** DefaultPodMaxBackoffDuration, ms. */
export const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
/** DefaultPodMaxInUnschedulablePodsDuration, ms. */
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_MS = 5 * 60_000;
/** flushUnschedulablePodsLeftover period, ms. */
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;
/** backoffQOrderingWindowDuration, ms. */
export const BACKOFF_ORDERING_WINDOW_MS = 1_000;

/** framework.QueuedPodInfo. Times are simulated ms. */
export interface QueuedPodInfo {
  pi: PodInfo;
  /** Time the pod entered the queue, reset on each failure. */
  timestamp: number;
  /** Time of the first scheduling attempt. */
  initialAttemptTimestamp?: number;
  /** Scheduling attempts so far. */
  attempts: number;
  /** Plugins that rejected the pod in its last attempt (shared between pods: read-only). */
  unschedulablePlugins: ReadonlySet<string>;
  /** Aligned back-off expiration, cached until the next pop. */
  backoffExpiration?: number;
  /** Held by SchedulingGates (spec.schedulingGates not empty). */
  gated: boolean;
  /** Relay hop that last queued the pod (the cause of its next cycle). */
  cause: number | null;
  /** Insertion sequence, for stable heap order. */
  seq: number;
  /** Where the queue holds it ('none' once popped or deleted). */
  loc: QueueLocation;
  /** Neighbours in unschedulablePods' order of arrival (null outside it, or at an end). */
  prevUnschedulable: QueuedPodInfo | null;
  nextUnschedulable: QueuedPodInfo | null;
}

/** Where a pod is in the queue. */
export type QueueLocation = 'active' | 'backoff' | 'errorBackoff' | 'unschedulable' | 'none';

export interface SchedulingQueueOptions {
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  maxInUnschedulableMs?: number;
  /** Events each plugin registered (EnqueueExtensions), by plugin name. */
  eventsByPlugin?: Map<string, ClusterEventWithHint[]>;
  /** Called when a pod becomes poppable (the scheduler schedules its next cycle). */
  onPodReady?: () => void;
}

/** PrioritySort.Less: higher priority first, then the earlier timestamp. */
export function prioritySortLess(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
  if (a.pi.priority !== b.pi.priority) return a.pi.priority > b.pi.priority;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
  return a.seq < b.seq;
}

/** The scheduler's PriorityQueue. */
/** The rejecting plugins of a pod not yet rejected (shared: read-only). */
const NO_PLUGINS: ReadonlySet<string> = new Set();

/** Distinct rejecting-plugin lists {@link SchedulingQueue} shares before it starts over. */
const REJECTOR_SETS_LIMIT = 256;

export class SchedulingQueue {
  /**
   * One Set per distinct list of rejecting plugins, in the order the attempt added them (the
   * order queueing hints are asked in): 200,000 Pending Pods rejected alike share one.
   */
  private rejectorSets = new Map<string, ReadonlySet<string>>();
  private activeQ = new Heap<QueuedPodInfo>(prioritySortLess);
  private backoffQ = new Heap<QueuedPodInfo>((a, b) => {
    const ea = this.backoffTime(a);
    const eb = this.backoffTime(b);
    return ea !== eb ? ea < eb : prioritySortLess(a, b);
  });
  private errorBackoffQ = new Heap<QueuedPodInfo>(
    (a, b) => this.backoffTime(a) < this.backoffTime(b) || (this.backoffTime(a) === this.backoffTime(b) && a.seq < b.seq),
  );
  /**
   * unschedulablePods (a map by pod key upstream): a list through the entries in order of
   * arrival, the order a Map would iterate in; {@link where} finds a pod by key. Two fields per
   * entry instead of a second map of 200,000 Pending Pods.
   */
  private unschedulableHead: QueuedPodInfo | null = null;
  private unschedulableTail: QueuedPodInfo | null = null;
  private unschedulableCount = 0;
  /** Every queued pod by "namespace/name" (its `loc` says which queue holds it). */
  private where = new Map<string, QueuedPodInfo>();
  private seq = 0;
  private backoffTimer: TimerHandle | null = null;
  private backoffTimerAt = Infinity;
  private leftoverTimer: TimerHandle | null = null;
  private leftoverTimerAt = Infinity;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly maxInUnschedulableMs: number;
  private readonly startMs: number;
  eventsByPlugin: Map<string, ClusterEventWithHint[]>;
  onPodReady: () => void;

  constructor(
    private readonly clock: SimClock,
    opts: SchedulingQueueOptions = {},
  ) {
    this.initialBackoffMs = opts.initialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = opts.maxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS;
    this.maxInUnschedulableMs = opts.maxInUnschedulableMs ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_MS;
    this.eventsByPlugin = opts.eventsByPlugin ?? new Map();
    this.onPodReady = opts.onPodReady ?? (() => {});
    this.startMs = clock.now();
  }

  // ---- back-off arithmetic (backoff_queue.go) ------------------------------------------

  /** calculateBackoffDuration: initial · 2^(attempts-1), capped at max; 0 before any attempt. */
  backoffDuration(attempts: number): number {
    if (attempts === 0) return 0;
    let d = this.initialBackoffMs;
    for (let i = 1; i < attempts; i++) {
      if (d > this.maxBackoffMs - d) return this.maxBackoffMs;
      d += d;
    }
    return d;
  }

  private align(t: number): number {
    return Math.floor(t / BACKOFF_ORDERING_WINDOW_MS) * BACKOFF_ORDERING_WINDOW_MS;
  }

  /** getBackoffTime: the aligned back-off expiration (cached until the next pop). */
  backoffTime(q: QueuedPodInfo): number {
    if (q.attempts === 0) return -Infinity;
    if (q.backoffExpiration === undefined) q.backoffExpiration = this.align(q.timestamp + this.backoffDuration(q.attempts));
    return q.backoffExpiration;
  }

  /** isPodBackingoff: true while the expiration's window has not yet passed. */
  isBackingOff(q: QueuedPodInfo): boolean {
    return !(this.backoffTime(q) < this.align(this.clock.now()));
  }

  /** The simulated moment the pod's back-off ends (the whole-second flush that releases it). */
  backoffEndsAt(q: QueuedPodInfo): number {
    return this.backoffTime(q) + BACKOFF_ORDERING_WINDOW_MS;
  }

  // ---- membership -----------------------------------------------------------------------

  /** Where a pod (by "namespace/name") sits. */
  locate(key: string): QueueLocation {
    return this.where.get(key)?.loc ?? 'none';
  }

  /** The queued info of a pod, wherever it is. */
  get(key: string): QueuedPodInfo | undefined {
    return this.where.get(key);
  }

  get activeLength(): number {
    return this.activeQ.length;
  }
  get backoffLength(): number {
    return this.backoffQ.length + this.errorBackoffQ.length;
  }
  get unschedulableLength(): number {
    return this.unschedulableCount;
  }

  private detach(key: string): QueuedPodInfo | undefined {
    const q = this.where.get(key);
    if (!q) return undefined;
    const loc = q.loc;
    if (loc === 'active') this.activeQ.remove(q);
    else if (loc === 'backoff') this.backoffQ.remove(q);
    else if (loc === 'errorBackoff') this.errorBackoffQ.remove(q);
    else if (loc === 'unschedulable') this.unlinkUnschedulable(q);
    this.where.delete(key);
    q.loc = 'none';
    return q;
  }

  private toActive(q: QueuedPodInfo): void {
    this.activeQ.push(q);
    q.loc = 'active';
    this.where.set(q.pi.key, q);
    this.onPodReady();
  }

  private toBackoff(q: QueuedPodInfo): void {
    if (q.unschedulablePlugins.size === 0) {
      this.errorBackoffQ.push(q);
      q.loc = 'errorBackoff';
      this.where.set(q.pi.key, q);
    } else {
      this.backoffQ.push(q);
      q.loc = 'backoff';
      this.where.set(q.pi.key, q);
      this.onPodReady(); // poppable early when activeQ is empty
    }
    this.armBackoffTimer();
  }

  private toUnschedulable(q: QueuedPodInfo): void {
    if (q.loc !== 'unschedulable') {
      // appended, as a Map appends a new key (one already there keeps its place)
      q.prevUnschedulable = this.unschedulableTail;
      q.nextUnschedulable = null;
      if (this.unschedulableTail) this.unschedulableTail.nextUnschedulable = q;
      else this.unschedulableHead = q;
      this.unschedulableTail = q;
      this.unschedulableCount++;
    }
    q.loc = 'unschedulable';
    this.where.set(q.pi.key, q);
    if (!q.gated) this.armLeftoverTimer();
  }

  private unlinkUnschedulable(q: QueuedPodInfo): void {
    const p = q.prevUnschedulable;
    const n = q.nextUnschedulable;
    if (p) p.nextUnschedulable = n;
    else this.unschedulableHead = n;
    if (n) n.prevUnschedulable = p;
    else this.unschedulableTail = p;
    q.prevUnschedulable = q.nextUnschedulable = null;
    this.unschedulableCount--;
  }

  /** The unschedulable pods in order of arrival (a copy: callers move them). */
  private unschedulablePods(): QueuedPodInfo[] {
    const out: QueuedPodInfo[] = [];
    for (let q = this.unschedulableHead; q; q = q.nextUnschedulable) out.push(q);
    return out;
  }

  // ---- API used by the scheduler's event handlers ----------------------------------------

  /** PriorityQueue.Add: a new unscheduled pod (runs PreEnqueue: SchedulingGates). */
  add(pi: PodInfo, cause: number | null): void {
    if (this.where.has(pi.key)) return this.update(pi, cause);
    // every field from the start: one that appears later (initialAttemptTimestamp and
    // backoffExpiration after the first pop) moves the object's fields to an out-of-object
    // property array (~40 B more per Pending Pod)
    const q: QueuedPodInfo = {
      pi,
      timestamp: this.clock.now(),
      initialAttemptTimestamp: undefined,
      attempts: 0,
      unschedulablePlugins: NO_PLUGINS,
      backoffExpiration: undefined,
      gated: false,
      cause,
      seq: this.seq++,
      loc: 'none',
      prevUnschedulable: null,
      nextUnschedulable: null,
    };
    this.enqueueNew(q);
  }

  private enqueueNew(q: QueuedPodInfo): void {
    q.gated = (q.pi.pod.spec?.schedulingGates ?? []).length > 0;
    if (q.gated) this.toUnschedulable(q);
    else this.toActive(q);
  }

  /**
   * PriorityQueue.Update: refreshes the pod wherever it is. An unschedulable pod whose spec,
   * labels or annotations changed is moved (to backoffQ while backing off, else activeQ).
   */
  update(pi: PodInfo, cause: number | null): void {
    const q = this.where.get(pi.key);
    if (!q) return this.add(pi, cause);
    const loc = q.loc;
    const old = q.pi;
    if (loc === 'unschedulable') {
      if (q.gated) {
        this.detach(pi.key);
        q.pi = pi;
        q.cause = cause;
        this.enqueueNew(q);
        return;
      }
      if (podChanged(old.pod, pi.pod)) {
        this.detach(pi.key);
        q.pi = pi;
        q.cause = cause;
        if (this.isBackingOff(q)) this.toBackoff(q);
        else this.toActive(q);
        return;
      }
      q.pi = pi;
      return;
    }
    // in a heap: re-insert so a priority change is ordered correctly
    this.detach(pi.key);
    q.pi = pi;
    if (loc === 'active') this.toActive(q);
    else this.toBackoff(q);
  }

  /** PriorityQueue.Delete. */
  delete(key: string): void {
    this.detach(key);
  }

  /**
   * PriorityQueue.Pop: the head of activeQ, or — when activeQ is empty — the head of
   * podBackoffQ (SchedulerPopFromBackoffQ). Increments attempts.
   */
  pop(): QueuedPodInfo | undefined {
    let q = this.activeQ.pop();
    if (!q) q = this.backoffQ.pop();
    if (!q) return undefined;
    this.where.delete(q.pi.key);
    q.loc = 'none';
    q.attempts++;
    q.backoffExpiration = undefined;
    if (q.initialAttemptTimestamp === undefined) q.initialAttemptTimestamp = this.clock.now();
    return q;
  }

  /** True when a pop would return a pod. */
  hasPoppable(): boolean {
    return this.activeQ.length > 0 || this.backoffQ.length > 0;
  }

  /** The shared Set equal to `s` (same plugins, same order). */
  private sharedRejectors(s: ReadonlySet<string>): ReadonlySet<string> {
    if (s.size === 0) return NO_PLUGINS;
    const key = [...s].join('\n');
    const hit = this.rejectorSets.get(key);
    if (hit) return hit;
    if (this.rejectorSets.size >= REJECTOR_SETS_LIMIT) this.rejectorSets.clear();
    this.rejectorSets.set(key, s);
    return s;
  }

  /**
   * AddUnschedulableIfNotPresent: after a failed attempt. Pods rejected by plugins go to
   * unschedulablePods; pods that failed with an error (no rejecting plugin) go to the error
   * back-off queue.
   */
  addUnschedulableIfNotPresent(q: QueuedPodInfo, rejectors: Set<string>): void {
    if (this.where.has(q.pi.key)) return;
    q.timestamp = this.clock.now();
    q.backoffExpiration = undefined;
    q.unschedulablePlugins = this.sharedRejectors(rejectors);
    if (rejectors.size === 0) this.toBackoff(q);
    else this.toUnschedulable(q);
  }

  /**
   * MoveAllToActiveOrBackoffQueue: moves each unschedulable pod for which one of its
   * rejecting plugins' queueing hints says Queue for this event (all pods for a wildcard
   * event). `preCheck` filters candidates first (e.g. the node must fit nodeSelector).
   */
  moveAllToActiveOrBackoffQueue(
    ev: ClusterEvent,
    oldObj?: APIObject,
    newObj?: APIObject,
    preCheck?: (pod: Pod) => boolean,
    cause: number | null = null,
  ): number {
    let moved = 0;
    for (const q of this.unschedulablePods()) {
      if (q.gated) continue;
      if (preCheck && !preCheck(q.pi.pod)) continue;
      if (this.worthRequeuing(q, ev, oldObj, newObj) === 'QueueSkip') continue;
      this.detach(q.pi.key);
      if (cause !== null) q.cause = cause;
      if (this.isBackingOff(q)) this.toBackoff(q);
      else this.toActive(q);
      moved++;
    }
    return moved;
  }

  /** isPodWorthRequeuing. */
  private worthRequeuing(q: QueuedPodInfo, ev: ClusterEvent, oldObj?: APIObject, newObj?: APIObject): QueueingHint {
    if (q.unschedulablePlugins.size === 0 || ev.resource === 'WildCard') return 'Queue';
    for (const plugin of q.unschedulablePlugins) {
      for (const reg of this.eventsByPlugin.get(plugin) ?? []) {
        if (reg.resource !== ev.resource && reg.resource !== 'WildCard') continue;
        if (!reg.actions.includes(ev.action)) continue;
        // the event's objects are of the kind its resource names (EventObjects), as reg.hint expects
        if (!reg.hint || (reg.hint as QueueingHintFn)(q.pi.pod, oldObj, newObj, ev) === 'Queue') return 'Queue';
      }
    }
    return 'QueueSkip';
  }

  // ---- timers -----------------------------------------------------------------------------

  private armBackoffTimer(): void {
    let next = Infinity;
    let who = '';
    for (const h of [this.backoffQ, this.errorBackoffQ]) {
      const top = h.peek();
      if (top && this.backoffEndsAt(top) < next) {
        next = this.backoffEndsAt(top);
        who = top.pi.key;
      }
    }
    if (next === this.backoffTimerAt) return;
    this.clock.cancel(this.backoffTimer);
    this.backoffTimer = null;
    this.backoffTimerAt = next;
    if (next === Infinity) return;
    this.backoffTimer = this.clock.setTimer(
      Math.max(0, next - this.clock.now()),
      () => {
        this.backoffTimer = null;
        this.backoffTimerAt = Infinity;
        this.flushBackoffQCompleted();
      },
      { deadline: true, label: `kube-scheduler: back-off of ${who} ends`, object: `Pod/${who}` },
    );
  }

  /** flushBackoffQCompleted: moves every pod whose back-off ended to activeQ. */
  flushBackoffQCompleted(): void {
    for (const h of [this.backoffQ, this.errorBackoffQ]) {
      for (let top = h.peek(); top && !this.isBackingOff(top); top = h.peek()) {
        h.pop();
        this.where.delete(top.pi.key);
        top.loc = 'none';
        this.toActive(top);
      }
    }
    this.armBackoffTimer();
  }

  private armLeftoverTimer(): void {
    // The oldest ungated pod is the first in the Map's (insertion) order: an ungated pod enters
    // unschedulablePods only from addUnschedulableIfNotPresent, stamped with the current time,
    // and nothing changes its timestamp while it is there (a scan of all of them per added pod
    // was quadratic: 200,000 Pending Pods).
    let oldest = Infinity;
    for (let q = this.unschedulableHead; q; q = q.nextUnschedulable) {
      if (q.gated) continue;
      oldest = q.timestamp;
      break;
    }
    if (oldest === Infinity) {
      this.clock.cancel(this.leftoverTimer);
      this.leftoverTimer = null;
      this.leftoverTimerAt = Infinity;
      return;
    }
    // first 30 s tick (counted from queue start) at which now - timestamp > max duration
    const due = oldest + this.maxInUnschedulableMs;
    const k = Math.floor((due - this.startMs) / UNSCHEDULABLE_FLUSH_PERIOD_MS) + 1;
    const at = this.startMs + k * UNSCHEDULABLE_FLUSH_PERIOD_MS;
    if (at === this.leftoverTimerAt) return;
    this.clock.cancel(this.leftoverTimer);
    this.leftoverTimerAt = at;
    this.leftoverTimer = this.clock.setTimer(
      at - this.clock.now(),
      () => {
        this.leftoverTimer = null;
        this.leftoverTimerAt = Infinity;
        this.flushUnschedulablePodsLeftover();
      },
      { label: 'kube-scheduler: flushUnschedulablePodsLeftover' },
    );
  }

  /** flushUnschedulablePodsLeftover: pods unschedulable for longer than 5 min are retried. */
  flushUnschedulablePodsLeftover(): void {
    const now = this.clock.now();
    for (const q of this.unschedulablePods()) {
      if (q.gated || !(now - q.timestamp > this.maxInUnschedulableMs)) continue;
      this.detach(q.pi.key);
      if (this.isBackingOff(q)) this.toBackoff(q);
      else this.toActive(q);
    }
    this.armLeftoverTimer();
  }

  /** Cancels the queue's timers (scheduler shutdown). */
  close(): void {
    this.clock.cancel(this.backoffTimer);
    this.clock.cancel(this.leftoverTimer);
    this.backoffTimer = this.leftoverTimer = null;
    this.backoffTimerAt = this.leftoverTimerAt = Infinity;
  }
}

/** isPodUpdated: something other than status / resourceVersion / managedFields changed. */
function podChanged(a: Pod, b: Pod): boolean {
  // part by part (the same JSON as a whole iff the same JSON each); a part that is the same
  // object in both (labels a status write kept) is not serialized
  const same = (x: unknown, y: unknown) => x === y || JSON.stringify(x) === JSON.stringify(y);
  return !same(a.spec, b.spec) || !same(a.metadata.labels, b.metadata.labels) || !same(a.metadata.annotations, b.metadata.annotations);
}
