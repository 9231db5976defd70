/**
 * CronJobController: creates a Job for each scheduled time of a CronJob, in the shape of
 * kubernetes/kubernetes pkg/controller/cronjob/cronjob_controllerv2.go (ControllerV2: sync,
 * cleanupFinishedJobs, syncCronJob, updateCronJob) with the helpers of utils.go
 * (cronjob-utils.ts).
 *
 * The schedule is evaluated on the simulated clock. After every sync the key is re-queued for
 * the next activation plus 100 ms (nextScheduleTimeDuration); that timer is a known deadline
 * ("cronjob default/x: next run at HH:MM:SS") so that `settle` runs through it. A sync:
 *  - prunes finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit, oldest
 *    start first (SuccessfulDelete "Deleted job <name>");
 *  - reconciles status.active with the Jobs it owns (SawCompletedJob "Saw completed job: <name>,
 *    condition: Complete", MissingJob, UnexpectedJob) and lastSuccessfulTime;
 *  - skips when suspended, the zone is unknown (UnknownTimeZone) or the schedule cannot be parsed;
 *  - finds the most recent unmet schedule time (TooManyMissedTimes when more than 100 were
 *    missed); past startingDeadlineSeconds it records MissSchedule "Missed scheduled time to start
 *    a job: <RFC1123Z>";
 *  - Forbid with an active Job: JobAlreadyActive; Replace: deletes the active Jobs first;
 *  - creates `<name>-<unix minutes>` from the jobTemplate (SuccessfulCreate "Created job <name>"),
 *    appends it to status.active and sets lastScheduleTime.
 * Relay participant and event source: `cronjob-controller`.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { RateLimitingQueue } from '../client/workqueue';
import { deepCopy, getControllerOf, metaNamespaceKey, splitKey, type OwnerReference } from '../api/types';
import type { CronJob, Job } from '../api/objects';
import type { CronJobStatus } from 'kubernetes-types/batch/v1';
import { hasStatusCause, NamespaceTerminatingCause, StatusError } from '../api/errors';
import { errorMessage, isAlreadyExists, isNotFound, recordDecision } from './controller-utils';
import * as u from './cronjob-utils';

/** Relay participant and event source of this controller. */
export const CronJobControllerName = 'cronjob-controller';

/** The sync's copy of a CronJob: status always set (sync starts from `status ?? {}`). */
type CronJobCopy = CronJob & { status: CronJobStatus };

export class CronJobController {
  readonly name = CronJobControllerName;
  readonly queue: RateLimitingQueue;
  readonly jobInformer: SharedInformer<Job>;
  readonly cronJobInformer: SharedInformer<CronJob>;
  private readonly jobClient: ResourceClient<Job>;
  private readonly cronJobClient: ResourceClient<CronJob>;
  private readonly recorder: EventRecorder;

  /** NewControllerV2: wires the Job and CronJob informer handlers (keys only). */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    const client = ctx.client(users.controller(CronJobControllerName));
    this.jobClient = client.resource<Job>('batch', 'jobs');
    this.cronJobClient = client.resource<CronJob>('batch', 'cronjobs');
    this.recorder = ctx.recorder(client, CronJobControllerName);
    this.jobInformer = informers.informerFor<Job>('batch', 'jobs');
    this.cronJobInformer = informers.informerFor<CronJob>('batch', 'cronjobs');
    this.queue = new RateLimitingQueue('cronjob', ctx.clock, ctx.relay, (key) => this.sync(key));
    this.jobInformer.addEventHandler({
      participant: CronJobControllerName,
      filter: (j) => getControllerOf(j)?.kind === 'CronJob',
      onAdd: (j) => (j.metadata.deletionTimestamp ? this.deleteJob(j) : this.enqueueFor(j, getControllerOf(j))),
      onUpdate: (o, n) => this.updateJob(o, n),
      onDelete: (j) => this.deleteJob(j),
    });
    this.cronJobInformer.addEventHandler({
      participant: CronJobControllerName,
      onAdd: (cj) => this.queue.add(metaNamespaceKey(cj)),
      onUpdate: (o, n) => this.updateCronJob(o, n),
      onDelete: (cj) => this.queue.add(metaNamespaceKey(cj)),
    });
  }

  /** Holds the work queue (kube-controller-manager paused). */
  pause(): void {
    this.queue.paused = true;
  }

  /** Releases the work queue. */
  resume(): void {
    this.queue.resume();
  }

  /** Enqueues every cached CronJob. */
  resync(): void {
    for (const cj of this.cronJobInformer.list()) this.queue.add(metaNamespaceKey(cj));
  }

  // ---- handlers -----------------------------------------------------------------------------

  private resolveControllerRef(namespace: string, ref: OwnerReference | undefined): CronJob | undefined {
    if (!ref || ref.kind !== 'CronJob') return undefined;
    const cj = this.cronJobInformer.get(`${namespace}/${ref.name}`);
    return cj && cj.metadata.uid === ref.uid ? cj : undefined;
  }

  private enqueueFor(job: Job, ref: OwnerReference | undefined): void {
    const cj = this.resolveControllerRef(job.metadata.namespace ?? '', ref);
    if (cj) this.queue.add(metaNamespaceKey(cj));
  }

  private updateJob(oldJob: Job, curJob: Job): void {
    if (curJob.metadata.resourceVersion === oldJob.metadata.resourceVersion) return;
    const cur = getControllerOf(curJob);
    const old = getControllerOf(oldJob);
    if (old && (old.uid !== cur?.uid || old.name !== cur?.name)) this.enqueueFor(oldJob, old);
    if (cur) this.enqueueFor(curJob, cur);
  }

  private deleteJob(job: Job): void {
    this.enqueueFor(job, getControllerOf(job));
  }

  /** updateCronJob: a schedule or zone change re-queues for the new next activation; anything else syncs now. */
  private updateCronJob(oldCJ: CronJob, newCJ: CronJob): void {
    const key = metaNamespaceKey(newCJ);
    if (oldCJ.spec?.schedule !== newCJ.spec?.schedule || (oldCJ.spec?.timeZone ?? null) !== (newCJ.spec?.timeZone ?? null)) {
      let sched: u.Schedule;
      try {
        sched = u.parseSchedule(newCJ.spec?.schedule ?? '', newCJ.spec?.timeZone);
      } catch {
        this.recorder.event(newCJ, 'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${newCJ.spec?.schedule}`);
        return;
      }
      this.requeueAfter(key, u.nextScheduleTimeDuration(newCJ, this.ctx.clock.now(), sched));
      return;
    }
    this.queue.add(key);
  }

  /** AddAfter for the next activation: a known deadline for `settle` and the UI's countdown. */
  private requeueAfter(key: string, delayMs: number): void {
    const at = this.ctx.clock.now() + delayMs;
    this.queue.addAfter(key, delayMs, {
      label: `cronjob ${key}: next run at ${u.hhmmss(at - u.NextScheduleDeltaMs)}`,
      object: `CronJob/${key}`,
    });
  }

  // ---- sync ----------------------------------------------------------------------------------

  /**
   * sync: cleanupFinishedJobs, then syncCronJob, then one status update; re-queues for the next
   * activation. @throws on a failed write (the queue retries with back-off).
   */
  sync(key: string): void {
    const shared = this.cronJobInformer.get(key);
    if (!shared) return;
    const jobs = this.jobInformer.list(shared.metadata.namespace).filter((j) => getControllerOf(j)?.name === shared.metadata.name);
    const copy = deepCopy(shared);
    copy.status = copy.status ?? {};
    const cj = copy as CronJobCopy;
    const updateAfterCleanup = this.cleanupFinishedJobs(cj, jobs);
    let requeue: number | undefined;
    let updateAfterSync = false;
    let syncErr: unknown;
    try {
      [requeue, updateAfterSync] = this.syncCronJob(cj, jobs);
    } catch (err) {
      syncErr = err;
      updateAfterSync = (err as { updateStatus?: boolean }).updateStatus === true;
    }
    if (updateAfterCleanup || updateAfterSync) this.updateStatus(cj);
    if (requeue !== undefined) {
      this.requeueAfter(key, requeue);
      return;
    }
    if (syncErr !== undefined) throw syncErr;
  }

  private updateStatus(cj: CronJobCopy): void {
    const st = { ...cj.status };
    if (!st.active?.length) delete st.active;
    const active = (st.active ?? []).map((r) => r.name).join(', ');
    this.cronJobClient.updateStatus(
      { ...cj, status: st },
      {
        summary: `update status CronJob ${metaNamespaceKey(cj)}: active [${active}]${st.lastScheduleTime ? `, lastScheduleTime ${st.lastScheduleTime}` : ''}`,
      },
    );
  }

  /** syncCronJob: returns [requeue after ms or undefined, status changed]. */
  private syncCronJob(cj: CronJobCopy, jobs: Job[]): [number | undefined, boolean] {
    const now = this.ctx.clock.now();
    const ns = cj.metadata.namespace ?? '';
    const target = { resource: 'cronjobs', namespace: ns, name: cj.metadata.name };
    let updateStatus = false;
    const children = new Set<string>();
    for (const j of jobs) {
      children.add(j.metadata.uid ?? '');
      const found = u.inActiveList(cj, j.metadata.uid);
      const [finished, condition] = u.finishedCondition(j);
      if (!found && !finished) {
        const fresh = this.cronJobClient.get(ns, cj.metadata.name, { quiet: true });
        if (u.inActiveList(fresh, j.metadata.uid)) {
          cj.status = deepCopy(fresh.status ?? {});
          cj.metadata.resourceVersion = fresh.metadata.resourceVersion;
          continue;
        }
        this.recorder.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`);
      } else if (finished) {
        if (found) {
          u.deleteFromActiveList(cj, j.metadata.uid);
          this.recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, condition: ${condition}`);
          updateStatus = true;
        }
        if (condition === 'Complete' && j.status?.completionTime) {
          const last = cj.status.lastSuccessfulTime;
          if (!last || Date.parse(j.status.completionTime) > Date.parse(last)) {
            cj.status.lastSuccessfulTime = j.status.completionTime;
            updateStatus = true;
          }
        }
      }
    }
    for (const ref of [...((cj.status.active ?? []) as u.JobRef[])]) {
      if (children.has(ref.uid ?? '')) continue;
      try {
        this.jobClient.get(ref.namespace ?? ns, ref.name, { quiet: true });
      } catch (err) {
        if (!isNotFound(err)) throw Object.assign(err as object, { updateStatus });
        this.recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        u.deleteFromActiveList(cj, ref.uid);
        updateStatus = true;
      }
    }
    if (cj.metadata.deletionTimestamp) return [undefined, updateStatus];
    const tz: string | undefined = cj.spec?.timeZone ?? undefined;
    if (tz !== undefined) {
      const tzErr = u.loadLocationError(tz);
      if (tzErr) {
        this.recorder.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(tz)}: ${tzErr}`);
        return [undefined, updateStatus];
      }
    }
    if (cj.spec?.suspend === true) return [undefined, updateStatus];
    let sched: u.Schedule;
    try {
      sched = u.parseSchedule(cj.spec?.schedule ?? '', tz);
    } catch (err) {
      this.recorder.event(
        cj,
        'Warning',
        'UnparseableSchedule',
        `unparseable schedule: ${JSON.stringify(cj.spec?.schedule ?? '')} : ${errorMessage(err)}`,
      );
      return [undefined, updateStatus];
    }
    let scheduled: number | undefined;
    try {
      const [, mostRecent, missed] = u.mostRecentScheduleTime(cj, now, sched, true);
      if (mostRecent !== undefined && mostRecent <= now) {
        scheduled = mostRecent;
        if (missed === 'many')
          this.recorder.event(
            cj,
            'Warning',
            'TooManyMissedTimes',
            'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
          );
      }
    } catch (err) {
      this.recorder.event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec?.schedule} : ${errorMessage(err)}`);
      return [undefined, updateStatus];
    }
    const next = () => u.nextScheduleTimeDuration(cj, now, sched);
    if (scheduled === undefined) return [next(), updateStatus];
    const sds = cj.spec?.startingDeadlineSeconds;
    if (typeof sds === 'number' && scheduled + sds * 1000 < now) {
      this.recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${u.formatRFC1123Z(scheduled)}`);
      return [next(), updateStatus];
    }
    const jobName = u.getJobName(cj, scheduled);
    const lst = cj.status.lastScheduleTime;
    if (u.inActiveListByName(cj, ns, jobName) || (lst && Date.parse(lst) === scheduled)) return [next(), updateStatus];
    const active = (cj.status.active ?? []) as u.JobRef[];
    if (cj.spec?.concurrencyPolicy === 'Forbid' && active.length > 0) {
      recordDecision(
        this.ctx.relay,
        this.name,
        target,
        `scheduled time ${u.hhmmss(scheduled)} reached, but ${active[0].name} is still running and concurrencyPolicy is Forbid → skip`,
        this.ctx.relay.newReconcile(),
      );
      this.recorder.event(
        cj,
        'Normal',
        'JobAlreadyActive',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return [next(), updateStatus];
    }
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      target,
      `scheduled time ${u.hhmmss(scheduled)} reached${cj.spec?.concurrencyPolicy === 'Replace' && active.length ? ` → replace ${active.map((a) => a.name).join(', ')}` : ''} → create Job ${jobName}`,
      this.ctx.relay.newReconcile(),
    );
    return this.ctx.relay.withCause(seq, () => {
      if (cj.spec?.concurrencyPolicy === 'Replace') {
        for (const ref of active) {
          let job: Job;
          try {
            job = this.jobClient.get(ref.namespace ?? ns, ref.name, { quiet: true });
          } catch (err) {
            this.recorder.event(cj, 'Warning', 'FailedGet', `Get job: ${errorMessage(err)}`);
            throw Object.assign(err as object, { updateStatus });
          }
          if (!this.deleteJob2(cj, job))
            throw Object.assign(new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`), { updateStatus });
          updateStatus = true;
        }
      }
      const req = u.getJobFromTemplate2(cj, scheduled);
      let created: Job;
      try {
        created = this.jobClient.create(ns, req, {
          summary: `create Job ${ns}/${jobName} for CronJob ${cj.metadata.name} (scheduled ${u.formatRFC3339In(scheduled, tz)})`,
        });
        this.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
      } catch (err) {
        if (hasStatusCause(err, NamespaceTerminatingCause)) throw Object.assign(err as StatusError, { updateStatus });
        if (!isAlreadyExists(err)) {
          this.recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${errorMessage(err)}`);
          throw Object.assign(err as object, { updateStatus });
        }
        created = this.jobClient.get(ns, jobName, { quiet: true });
        const ref = getControllerOf(created);
        if (!ref || ref.uid !== cj.metadata.uid || u.inActiveList(cj, created.metadata.uid))
          return [undefined, updateStatus] as [number | undefined, boolean];
      }
      cj.status.active = [...((cj.status.active ?? []) as u.JobRef[]), u.getRef(created)];
      cj.status.lastScheduleTime = new Date(scheduled).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return [next(), true] as [number | undefined, boolean];
    });
  }

  /** cleanupFinishedJobs: prunes finished Jobs beyond the history limits. */
  private cleanupFinishedJobs(cj: CronJob, jobs: Job[]): boolean {
    const sLimit = cj.spec?.successfulJobsHistoryLimit;
    const fLimit = cj.spec?.failedJobsHistoryLimit;
    if (sLimit == null && fLimit == null) return false;
    const ok: Job[] = [];
    const failed: Job[] = [];
    for (const j of jobs) {
      const [fin, type] = u.finishedCondition(j);
      if (fin && type === 'Complete') ok.push(j);
      else if (fin && type === 'Failed') failed.push(j);
    }
    let update = false;
    if (sLimit != null && this.removeOldestJobs(cj, ok, sLimit)) update = true;
    if (fLimit != null && this.removeOldestJobs(cj, failed, fLimit)) update = true;
    return update;
  }

  private removeOldestJobs(cj: CronJob, jobs: Job[], max: number): boolean {
    const n = jobs.length - max;
    if (n <= 0) return false;
    const sorted = [...jobs].sort(u.byJobStartTime);
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'cronjobs', namespace: cj.metadata.namespace, name: cj.metadata.name },
      `${jobs.length} finished Jobs > history limit ${max} → delete ${sorted
        .slice(0, n)
        .map((j) => j.metadata.name)
        .join(', ')}`,
      this.ctx.relay.newReconcile(),
    );
    let update = false;
    this.ctx.relay.withCause(seq, () => {
      for (let i = 0; i < n; i++) if (this.deleteJob2(cj, sorted[i])) update = true;
    });
    return update;
  }

  /** deleteJob (utils): DELETE with propagationPolicy Background, drop it from status.active. */
  private deleteJob2(cj: CronJob, job: Job): boolean {
    const [ns, name] = splitKey(metaNamespaceKey(job));
    try {
      this.jobClient.delete(ns, name, { propagationPolicy: 'Background' });
    } catch (err) {
      this.recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${errorMessage(err)}`);
      return false;
    }
    u.deleteFromActiveList(cj, job.metadata.uid);
    this.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
    return true;
  }
}
