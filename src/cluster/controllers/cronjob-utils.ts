/**
 * Pure CronJob helpers, after kubernetes/kubernetes pkg/controller/cronjob/utils.go
 * (mostRecentScheduleTime, nextScheduleTimeDuration, nextScheduleTime's missed-schedule
 * classification, getJobFromTemplate2, getTimeHashInMinutes, byJobStartTime,
 * inActiveList/deleteFromActiveList) and the schedule parsing robfig/cron's ParseStandard
 * does for the controller (here: the `croner` package, evaluated on the simulated clock —
 * `new Cron(pattern, { timezone })` + `nextRun(date)` only, never its timers).
 *
 * Times are simulated ms since the epoch unless a name says seconds.
 */
import { Cron } from 'croner';
import { deepCopy, newControllerRef } from '../api/types';
import type { CronJob, Job } from '../api/objects';
import type { JobSpec } from 'kubernetes-types/batch/v1';

/** nextScheduleDelta: the requeue lands 100 ms after the scheduled time (NTP skew padding). */
export const NextScheduleDeltaMs = 100;

/** batchv1.CronJobScheduledTimestampAnnotation (feature CronJobsScheduledAnnotation, beta/on in v1.33). */
export const CronJobScheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** A parsed schedule: the first activation strictly after `ms` (robfig cron.Schedule.Next), or Infinity. */
export interface Schedule {
  next(ms: number): number;
}

/**
 * Go's time.LoadLocation, as far as the controller needs it: "" and "UTC" are UTC; any other
 * name must be an IANA zone. Returns the error text Go prints, or undefined when valid.
 */
export function loadLocationError(tz: string): string | undefined {
  if (tz === '' || tz === 'UTC' || tz === 'Local') return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return undefined;
  } catch {
    return `unknown time zone ${tz}`;
  }
}

const GO_DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** time.ParseDuration for `@every` (e.g. "1h30m", "90s"). Throws on bad input. */
export function parseGoDurationMs(s: string): number {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * GO_DURATION_UNITS[m[2]];
    consumed = re.lastIndex;
  }
  if (!s || consumed !== s.length) throw new Error(`time: invalid duration "${s}"`);
  return total;
}

/**
 * cron.ParseStandard (robfig/cron v3) with the CronJob's timeZone (formatSchedule's "TZ=" prefix):
 * five fields, the @yearly/@annually/@monthly/@weekly/@daily/@midnight/@hourly macros (croner
 * knows them) and `@every <duration>` (ConstantDelaySchedule: whole seconds, at least 1 s).
 * A schedule without a zone runs in UTC (kube-controller-manager's time.Local in a container).
 * Day-of-month and day-of-week combine with OR, as in robfig/cron. Throws on a bad schedule.
 */
export function parseSchedule(schedule: string, timeZone?: string | null): Schedule {
  const s = schedule.trim();
  if (s.startsWith('@every ')) {
    const d = parseGoDurationMs(s.slice(7).trim());
    const delay = Math.max(1000, d - (d % 1000));
    return { next: (ms) => ms - (ms % 1000) + delay };
  }
  const tz = !timeZone || timeZone === 'Local' ? 'UTC' : timeZone;
  const cron = new Cron(s, { timezone: tz });
  return {
    next(ms) {
      const d = cron.nextRun(new Date(ms));
      return d ? d.getTime() : Infinity;
    },
  };
}

/** missedSchedulesType. */
export type MissedSchedules = 'none' | 'few' | 'many';

/**
 * mostRecentScheduleTime: [earliestTime, the most recent unmet schedule time ≤ now or undefined,
 * how many were missed]. Throws "time difference between two schedules is less than 1 second"
 * for schedules that cannot fire (e.g. 31 February).
 */
export function mostRecentScheduleTime(
  cj: CronJob,
  now: number,
  sched: Schedule,
  includeStartingDeadlineSeconds: boolean,
): [number, number | undefined, MissedSchedules] {
  let earliest = Date.parse(cj.status?.lastScheduleTime ?? cj.metadata.creationTimestamp ?? '') || 0;
  const sds = cj.spec?.startingDeadlineSeconds;
  if (includeStartingDeadlineSeconds && typeof sds === 'number') {
    const deadline = now - sds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  const t1 = sched.next(earliest);
  const t2 = sched.next(t1);
  if (now < t1) return [earliest, undefined, 'none'];
  if (now < t2) return [earliest, t1, 'none'];
  const between = Math.round((t2 - t1) / 1000);
  if (!(between >= 1) || !Number.isFinite(between)) throw new Error('time difference between two schedules is less than 1 second');
  const elapsed = Math.trunc((now - t1) / 1000);
  const missed = Math.floor(elapsed / between) + 1;
  const potentialEarliest = t1 + (missed - 2) * between * 1000;
  let mostRecent: number | undefined;
  for (let t = sched.next(potentialEarliest); t <= now; t = sched.next(t)) mostRecent = t;
  const kind: MissedSchedules = missed > 100 ? 'many' : missed > 0 ? 'few' : 'none';
  return [earliest, mostRecent, kind];
}

/** nextScheduleTimeDuration: ms from now until the next activation, plus the 100 ms delta. */
export function nextScheduleTimeDuration(cj: CronJob, now: number, sched: Schedule): number {
  let base: number;
  try {
    const [earliest, mostRecent, missed] = mostRecentScheduleTime(cj, now, sched, false);
    base = mostRecent ?? (missed === 'none' ? earliest : now);
  } catch {
    base = now;
  }
  return sched.next(base) + NextScheduleDeltaMs - now;
}

/** getTimeHashInMinutes: Unix minutes of the scheduled time. */
export function getTimeHashInMinutes(scheduledMs: number): number {
  return Math.floor(scheduledMs / 60_000);
}

/** getJobName: `<cronjob>-<scheduledTime.Unix()/60>`. */
export function getJobName(cj: CronJob, scheduledMs: number): string {
  return `${cj.metadata.name}-${getTimeHashInMinutes(scheduledMs)}`;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** Wall-clock fields of an instant in an IANA zone, and the zone's UTC offset in minutes. */
function zoned(
  ms: number,
  tz: string,
): { y: number; mo: number; d: number; h: number; mi: number; s: number; offsetMin: number; weekday: number } {
  const t = new Date(ms - (ms % 1000));
  if (!tz || tz === 'UTC' || tz === 'Local') {
    return {
      y: t.getUTCFullYear(),
      mo: t.getUTCMonth() + 1,
      d: t.getUTCDate(),
      h: t.getUTCHours(),
      mi: t.getUTCMinutes(),
      s: t.getUTCSeconds(),
      offsetMin: 0,
      weekday: t.getUTCDay(),
    };
  }
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const f = { y: get('year'), mo: get('month'), d: get('day'), h: get('hour') % 24, mi: get('minute'), s: get('second') };
  const asUTC = Date.UTC(f.y, f.mo - 1, f.d, f.h, f.mi, f.s);
  return { ...f, offsetMin: Math.round((asUTC - t.getTime()) / 60_000), weekday: new Date(asUTC).getUTCDay() };
}

/** time.Time.In(loc).Format(time.RFC3339): "2026-01-01T00:01:00Z" or "2025-12-31T19:01:00-05:00". */
export function formatRFC3339In(ms: number, tz?: string | null): string {
  const z = zoned(ms, tz ?? '');
  const off =
    z.offsetMin === 0
      ? 'Z'
      : `${z.offsetMin < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(z.offsetMin) / 60))}:${pad(Math.abs(z.offsetMin) % 60)}`;
  return `${z.y}-${pad(z.mo)}-${pad(z.d)}T${pad(z.h)}:${pad(z.mi)}:${pad(z.s)}${off}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** t.UTC().Format(time.RFC1123Z): "Thu, 01 Jan 2026 00:01:00 +0000". */
export function formatRFC1123Z(ms: number): string {
  const z = zoned(ms, 'UTC');
  return `${DAYS[z.weekday]}, ${pad(z.d)} ${MONTHS[z.mo - 1]} ${z.y} ${pad(z.h)}:${pad(z.mi)}:${pad(z.s)} +0000`;
}

/**
 * getJobFromTemplate2: labels and annotations from the jobTemplate, the scheduled-timestamp
 * annotation (in the CronJob's zone), the deterministic name and the controller reference;
 * the spec is a copy of jobTemplate.spec.
 */
export function getJobFromTemplate2(cj: CronJob, scheduledMs: number): Job {
  const tmeta = cj.spec?.jobTemplate?.metadata ?? {};
  const annotations: Record<string, string> = { ...(tmeta.annotations ?? {}) };
  annotations[CronJobScheduledTimestampAnnotation] = formatRFC3339In(scheduledMs, cj.spec?.timeZone);
  const labels: Record<string, string> = { ...(tmeta.labels ?? {}) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: getJobName(cj, scheduledMs),
      namespace: cj.metadata.namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      annotations,
      ownerReferences: [newControllerRef({ ...cj, apiVersion: 'batch/v1', kind: 'CronJob' })],
    },
    // a jobTemplate without spec fails the Job's validation at create, as upstream's empty JobSpec does
    spec: deepCopy(cj.spec?.jobTemplate?.spec ?? ({} as JobSpec)),
  };
}

/** byJobStartTime: by status.startTime (unset last), then by name. */
export function byJobStartTime(a: Job, b: Job): number {
  const sa = a.status?.startTime;
  const sb = b.status?.startTime;
  if (!sa && sb) return 1;
  if (sa && !sb) return -1;
  if (sa === sb || (sa && sb && Date.parse(sa) === Date.parse(sb)))
    return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
  return Date.parse(sa!) - Date.parse(sb!); // both set here
}

/** v1.ObjectReference of a Job as ref.GetReference builds it. */
export interface JobRef {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  apiVersion: string;
  resourceVersion?: string;
}

/** getRef: the ObjectReference stored in status.active. */
export function getRef(job: Job): JobRef {
  return {
    kind: 'Job',
    namespace: job.metadata.namespace,
    name: job.metadata.name,
    uid: job.metadata.uid,
    apiVersion: 'batch/v1',
    resourceVersion: job.metadata.resourceVersion,
  };
}

/** inActiveList: status.active holds the UID. */
export function inActiveList(cj: CronJob, uid: string | undefined): boolean {
  return ((cj.status?.active ?? []) as JobRef[]).some((r) => r.uid === uid);
}

/** inActiveListByName: status.active holds a Job of that namespace/name. */
export function inActiveListByName(cj: CronJob, namespace: string | undefined, name: string): boolean {
  return ((cj.status?.active ?? []) as JobRef[]).some((r) => r.name === name && r.namespace === namespace);
}

/** deleteFromActiveList (mutates `cj.status`). */
export function deleteFromActiveList(cj: CronJob, uid: string | undefined): void {
  cj.status = cj.status ?? {};
  cj.status.active = ((cj.status.active ?? []) as JobRef[]).filter((r) => r.uid !== uid);
}

/** jobutil.FinishedCondition: [finished, "Complete" | "Failed" | ""]. */
export function finishedCondition(job: Job): [boolean, string] {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return [true, c.type];
  }
  return [false, ''];
}

/** Simulated instant as "HH:MM:SS" (UTC), for countdown labels. */
export function hhmmss(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}
