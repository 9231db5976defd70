/**
 * Pure Job helpers, after kubernetes/kubernetes pkg/controller/job: backoff_utils.go
 * (backoffRecord, newBackoffRecord, getFinishedTime, getRemainingTimeForFailuresCount),
 * job_controller.go (newCondition, ensureJobConditionStatus, pastBackoffLimitOnFailure,
 * isPodFailed, the condition reasons and messages) and util/utils.go (IsJobFinished).
 * Times are simulated ms since the epoch.
 */
import type { Job, Pod } from '../api/objects';
import type * as batch from 'kubernetes-types/batch/v1';

/** batch.JobTrackingFinalizer. */
export const JobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

/** DefaultJobPodFailureBackOff (10 s) and MaxJobPodFailureBackOff (10 min in v1.33's job_controller.go). */
export const DefaultJobPodFailureBackOffMs = 10_000;
export const MaxJobPodFailureBackOffMs = 10 * 60_000;

/** syncJobBatchPeriod: pod events and status updates sync the Job after 1 s. */
export const SyncJobBatchPeriodMs = 1_000;

/** Condition reasons and messages (batch/v1 types.go, job_controller.go), verified against v1.33. */
export const JobReasonBackoffLimitExceeded = 'BackoffLimitExceeded';
export const JobMessageBackoffLimitExceeded = 'Job has reached the specified backoff limit';
export const JobReasonDeadlineExceeded = 'DeadlineExceeded';
export const JobMessageDeadlineExceeded = 'Job was active longer than specified deadline';
export const JobReasonCompletionsReached = 'CompletionsReached';
export const JobMessageCompletionsReached = 'Reached expected number of succeeded pods';

/** batch/v1 JobCondition. */
export type JobCondition = batch.JobCondition;

/** newCondition: both times are `now`. */
export function newCondition(type: string, status: JobCondition['status'], reason: string, message: string, now: string): JobCondition {
  const c: JobCondition = { type, status, lastProbeTime: now, lastTransitionTime: now };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/** findConditionByType. */
export function findCondition(list: JobCondition[] | undefined, type: string): JobCondition | undefined {
  return list?.find((c) => c.type === type);
}

/**
 * ensureJobConditionStatus: appends or updates the condition of that type; never appends a
 * False condition. Returns the new list and whether it changed.
 */
export function ensureJobConditionStatus(
  list: JobCondition[],
  type: string,
  status: JobCondition['status'],
  reason: string,
  message: string,
  now: string,
): [JobCondition[], boolean] {
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i];
    if (c.status !== status || (c.reason ?? '') !== reason || (c.message ?? '') !== message) {
      const next = [...list];
      next[i] = newCondition(type, status, reason, message, now);
      return [next, true];
    }
    return [list, false];
  }
  if (status !== 'False') return [[...list, newCondition(type, status, reason, message, now)], true];
  return [list, false];
}

/** util.IsJobFinished: a Complete or Failed condition with status True. */
export function isJobFinished(job: Job): boolean {
  return ((job.status?.conditions ?? []) as JobCondition[]).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** The time the Job finished (its Complete/Failed condition's lastTransitionTime), ms, or undefined. */
export function jobFinishTime(job: Job): number | undefined {
  const c = ((job.status?.conditions ?? []) as JobCondition[]).find(
    (x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True',
  );
  return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : undefined;
}

/** hasJobTrackingFinalizer. */
export function hasJobTrackingFinalizer(pod: Pod): boolean {
  return (pod.metadata.finalizers ?? []).includes(JobTrackingFinalizer);
}

/** isPodFailed with podReplacementPolicy TerminatingOrFailed: Failed, or deleted before succeeding. */
export function isPodFailed(pod: Pod, job: Job): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (job.spec?.podReplacementPolicy === 'Failed' || job.spec?.podFailurePolicy) return false;
  return !!pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded';
}

/** controller.CountTerminatingPods: deleting and not yet terminal. */
export function countTerminatingPods(pods: Pod[]): number {
  return pods.filter((p) => p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length;
}

/** pastBackoffLimitOnFailure: restartPolicy OnFailure and container restarts of live pods reach backoffLimit. */
export function pastBackoffLimitOnFailure(job: Job, pods: Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let result = 0;
  for (const p of pods) {
    const phase = p.status?.phase;
    if (phase !== 'Running' && phase !== 'Pending') continue;
    for (const s of p.status?.initContainerStatuses ?? []) result += s.restartCount ?? 0;
    for (const s of p.status?.containerStatuses ?? []) result += s.restartCount ?? 0;
  }
  const limit: number = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? result > 0 : result >= limit;
}

/**
 * getFinishedTime: the latest container finishedAt when every container terminated; else the
 * Ready=False transition; else deletionTimestamp − grace; else creation.
 */
export function getFinishedTime(p: Pod): number {
  const cs = (p.status?.containerStatuses ?? []) as { state?: { terminated?: { finishedAt?: string } } }[];
  let latest: number | undefined;
  let all = cs.length > 0;
  for (const s of cs) {
    const f = s.state?.terminated?.finishedAt;
    if (!f) {
      all = false;
      break;
    }
    latest = Math.max(latest ?? 0, Date.parse(f));
  }
  if (all && latest !== undefined) return latest;
  const ready = (p.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
  if (ready?.status === 'False' && ready.lastTransitionTime) return Date.parse(ready.lastTransitionTime);
  if (p.metadata.deletionTimestamp) return Date.parse(p.metadata.deletionTimestamp) - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return p.metadata.creationTimestamp ? Date.parse(p.metadata.creationTimestamp) : 0;
}

/** backoffRecord: consecutive failures since the last success and the last failure's time. */
export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

/** backoffStore.newBackoffRecord: folds newly finished pods into the previous record. */
export function newBackoffRecord(old: BackoffRecord | undefined, newSucceeded: Pod[], newFailed: Pod[]): BackoffRecord {
  const b: BackoffRecord = { ...(old ?? { failuresAfterLastSuccess: 0 }) };
  const fail = newFailed.map(getFinishedTime).sort((x, y) => x - y);
  const succ = newSucceeded.map(getFinishedTime).sort((x, y) => x - y);
  if (succ.length === 0) {
    if (fail.length === 0) return b;
    return { failuresAfterLastSuccess: b.failuresAfterLastSuccess + fail.length, lastFailureTime: fail[fail.length - 1] };
  }
  const out: BackoffRecord = { failuresAfterLastSuccess: 0 };
  const lastSuccess = succ[succ.length - 1];
  for (let i = fail.length - 1; i >= 0; i--) {
    if (!(fail[i] > lastSuccess)) break;
    if (out.lastFailureTime === undefined) out.lastFailureTime = fail[i];
    out.failuresAfterLastSuccess++;
  }
  return out;
}

/** getRemainingTimeForFailuresCount: 10 s · 2^(n−1), capped, minus the time since the last failure. */
export function backoffRemainingMs(
  rec: BackoffRecord,
  nowMs: number,
  baseMs = DefaultJobPodFailureBackOffMs,
  maxMs = MaxJobPodFailureBackOffMs,
): number {
  if (rec.failuresAfterLastSuccess === 0 || rec.lastFailureTime === undefined) return 0;
  let d = baseMs;
  for (let i = 1; i < rec.failuresAfterLastSuccess; i++) {
    d *= 2;
    if (d >= maxMs) {
      d = maxMs;
      break;
    }
  }
  const elapsed = nowMs - rec.lastFailureTime;
  return d < elapsed ? 0 : d - elapsed;
}

/** batch/v1 JobStatus as JSON: counters omitted when 0; ready/terminating always present (pointers). */
export type JobStatus = batch.JobStatus;

/** Applies omitempty to a status. */
export function normalizeJobStatus(s: JobStatus): JobStatus {
  const out: JobStatus = {};
  if (s.conditions?.length) out.conditions = s.conditions;
  if (s.startTime) out.startTime = s.startTime;
  if (s.completionTime) out.completionTime = s.completionTime;
  if (s.active) out.active = s.active;
  if (s.succeeded) out.succeeded = s.succeeded;
  if (s.failed) out.failed = s.failed;
  if (s.terminating !== undefined) out.terminating = s.terminating;
  if (s.ready !== undefined) out.ready = s.ready;
  const u = s.uncountedTerminatedPods;
  if (u) {
    out.uncountedTerminatedPods = {};
    if (u.succeeded?.length) out.uncountedTerminatedPods.succeeded = u.succeeded;
    if (u.failed?.length) out.uncountedTerminatedPods.failed = u.failed;
  }
  for (const k of Object.keys(s))
    if (
      !(k in out) &&
      ![
        'conditions',
        'startTime',
        'completionTime',
        'active',
        'succeeded',
        'failed',
        'terminating',
        'ready',
        'uncountedTerminatedPods',
      ].includes(k)
    )
      // the fields this table does not name (completedIndexes, failedIndexes, …) pass through
      (out as Record<string, unknown>)[k] = (s as Record<string, unknown>)[k];
  return out;
}
