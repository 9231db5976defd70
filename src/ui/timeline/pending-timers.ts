/**
 * The "Pending timers" strip (pure): the engine's known deadlines (sim/clock.ts `deadline: true`
 * timers, sent in every batch) grouped by what they are, with the seconds left in simulated
 * time. Reasons follow the engine's timer labels:
 * - `eviction`: tainteviction.ts "taint eviction of NS/NAME at Ns"
 * - `backoff`: kubelet "back-off 10s restarting failed container …", "back-off pulling image …",
 *   kube-scheduler "back-off of NS/NAME ends", job "pod failure back-off"
 * - `hpa-stabilization`: podautoscaler.ts "scale-down stabilization window ends at …"
 * - `job-deadline`: job.ts "activeDeadlineSeconds runs out"
 * - `grace-period`: nodelifecycle.ts "node-monitor-grace-period runs out"
 * - `progress-deadline`: deployment.ts "progressDeadlineSeconds check"
 * - `probe`: kubelet prober "Readiness probe of …"
 * - `cronjob`: cronjob.ts "cronjob NS/NAME: next run at HH:MM:SS"; `other` for the rest.
 */
import type { Deadline } from '../../cluster/sim/clock';

export type TimerReason =
  'eviction' | 'backoff' | 'hpa-stabilization' | 'job-deadline' | 'grace-period' | 'progress-deadline' | 'probe' | 'cronjob' | 'other';

const RULES: [RegExp, TimerReason][] = [
  [/taint eviction/, 'eviction'],
  [/back-off/, 'backoff'],
  [/stabilization window/, 'hpa-stabilization'],
  [/activeDeadlineSeconds/, 'job-deadline'],
  [/node-monitor-grace-period/, 'grace-period'],
  [/progressDeadlineSeconds/, 'progress-deadline'],
  [/probe of /, 'probe'],
  [/^cronjob \S+: next run at /, 'cronjob'],
];

/** What a deadline is, from its engine label. */
export function timerReason(label: string): TimerReason {
  for (const [re, reason] of RULES) if (re.test(label)) return reason;
  return 'other';
}

/** One chip of the strip: the earliest pending timer of a reason, and how many there are. */
export interface PendingTimer {
  reason: TimerReason;
  /** The earliest timer's engine label, e.g. "taint eviction of default/web-1 at 300s". */
  label: string;
  object?: string;
  /** Simulated ms since the epoch. */
  at: number;
  /** Whole simulated seconds left (rounded up). */
  secondsLeft: number;
  count: number;
}

/** Deadlines still ahead of `nowMs`, one entry per reason (its earliest), earliest first. */
export function pendingTimers(deadlines: readonly Deadline[], nowMs: number): PendingTimer[] {
  const by = new Map<TimerReason, PendingTimer>();
  for (const d of deadlines) {
    if (d.at <= nowMs) continue;
    const reason = timerReason(d.label);
    const cur = by.get(reason);
    if (!cur)
      by.set(reason, { reason, label: d.label, object: d.object, at: d.at, secondsLeft: Math.ceil((d.at - nowMs) / 1000), count: 1 });
    else {
      cur.count++;
      if (d.at < cur.at) Object.assign(cur, { label: d.label, object: d.object, at: d.at, secondsLeft: Math.ceil((d.at - nowMs) / 1000) });
    }
  }
  return [...by.values()].sort((a, b) => a.at - b.at);
}
