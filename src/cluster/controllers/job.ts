/**
 * JobController: runs each Job's Pods to completion, in the shape of kubernetes/kubernetes
 * pkg/controller/job/job_controller.go (v1.33: JobPodReplacementPolicy and JobManagedBy on, so
 * `status.terminating` is tracked and the terminal condition is delayed behind the interim
 * SuccessCriteriaMet / FailureTarget conditions).
 *
 * Handlers only enqueue Job keys: Job adds and spec changes sync at once, pod events and status
 * updates after syncJobBatchPeriod (1 s). `syncJob(key)`:
 *  - counts newly finished Pods (they still carry the `batch.kubernetes.io/job-tracking`
 *    finalizer), records them in `status.uncountedTerminatedPods`, removes the finalizers, then
 *    moves them into `succeeded` / `failed` (two status writes, as upstream);
 *  - fails the Job when `failed > backoffLimit` (or, for restartPolicy OnFailure, when container
 *    restarts reach it) or `activeDeadlineSeconds` passed: FailureTarget, active Pods deleted,
 *    then Failed once none is terminating; reason/message BackoffLimitExceeded "Job has reached
 *    the specified backoff limit" / DeadlineExceeded "Job was active longer than specified
 *    deadline";
 *  - otherwise `manageJob` creates Pods up to min(parallelism, completions − succeeded), after the
 *    pod-failure back-off (10 s · 2^(failures−1), capped at 10 min, counted from the last failed
 *    Pod's finish time; a known deadline);
 *  - completes with SuccessCriteriaMet then Complete (CompletionsReached "Reached expected number
 *    of succeeded pods") and completionTime.
 * Events (source.component `job-controller`): SuccessfulCreate "Created pod: pi-xxxxx",
 * SuccessfulDelete "Deleted pod: …", Completed "Job completed", and the failure reason with its
 * message (Warning). Indexed completion, podFailurePolicy, successPolicy and
 * backoffLimitPerIndex are not modelled.
 */
import { hasStatusCause, NamespaceTerminatingCause } from '../api/errors';
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { RateLimitingQueue } from '../client/workqueue';
import type { TimerHandle } from '../sim/clock';
import { fromLabelSelector } from '../api/labels';
import { deepCopy, deepEqual, getControllerOf, metaNamespaceKey, newControllerRef, splitKey, type OwnerReference } from '../api/types';
import type { Job, Pod } from '../api/objects';
import {
  ControllerExpectations,
  RealPodControl,
  SlowStartInitialBatchSize,
  filterActivePods,
  isNotFound,
  isPodReady,
  plural,
  recordDecision,
  slowStartBatch,
  type PodControl,
} from './controller-utils';
import { claimObjects, patchObject, recheckDeletionTimestamp } from './controller-ref-manager';
import { getPodsToDelete } from './pod-ranks';
import { ensurePodControllerUIDIndex, filterPodsByOwner } from './replicaset';
import * as u from './job-utils';

/** Relay participant and event source of this controller. */
export const JobControllerName = 'job-controller';

/** MaxPodCreateDeletePerSync. */
export const MaxPodCreateDeletePerSync = 500;

interface SyncCtx {
  job: Job;
  status: u.JobStatus;
  pods: Pod[];
  finished?: u.JobCondition;
  expectedRm: Set<string>;
  terminating: number;
  newBackoff: u.BackoffRecord;
}

export class JobController {
  readonly name = JobControllerName;
  readonly queue: RateLimitingQueue;
  readonly orphanQueue: RateLimitingQueue;
  readonly expectations: ControllerExpectations;
  /** finalizerExpectations: per Job key, pod UIDs whose finalizer removal is not yet observed. */
  private readonly finalizerExpectations = new Map<string, Set<string>>();
  /** podBackoffStore. */
  private readonly backoffStore = new Map<string, u.BackoffRecord>();
  /** One pending delayed enqueue per key (the earliest wins, as the delaying queue). */
  private readonly pending = new Map<string, { at: number; handle: TimerHandle }>();
  podControl: PodControl;
  /** Test seam (job_controller.go's syncHandler field). */
  syncHandler: (key: string) => void;
  readonly jobInformer: SharedInformer<Job>;
  readonly podInformer: SharedInformer<Pod>;
  private readonly jobClient: ResourceClient<Job>;
  private readonly podClient: ResourceClient<Pod>;
  private readonly recorder: EventRecorder;

  /** Wires informer handlers (Jobs, Pods) on the shared factory. */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    const client = ctx.client(users.controller(JobControllerName));
    this.jobClient = client.resource<Job>('batch', 'jobs');
    this.podClient = client.resource<Pod>('', 'pods');
    this.recorder = ctx.recorder(client, JobControllerName);
    this.podControl = new RealPodControl(this.podClient, this.recorder);
    this.expectations = new ControllerExpectations(ctx.clock);
    this.jobInformer = informers.informerFor<Job>('batch', 'jobs');
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    ensurePodControllerUIDIndex(this.podInformer);
    this.syncHandler = (key) => this.syncJob(key);
    this.queue = new RateLimitingQueue('job', ctx.clock, ctx.relay, (key) => this.syncHandler(key), {
      baseDelayMs: 1000,
      maxDelayMs: 60_000,
    });
    this.orphanQueue = new RateLimitingQueue('job_orphan_pod', ctx.clock, ctx.relay, (key) => this.syncOrphanPod(key), {
      baseDelayMs: 1000,
      maxDelayMs: 60_000,
    });
    this.jobInformer.addEventHandler({
      participant: JobControllerName,
      onAdd: (j) => this.queue.add(metaNamespaceKey(j)),
      onUpdate: (o, n) => this.updateJob(o, n),
      onDelete: (j) => this.deleteJob(j),
    });
    this.podInformer.addEventHandler({
      participant: JobControllerName,
      filter: (p) => isJobPod(p),
      onAdd: (p) => this.addPod(p),
      onUpdate: (o, n) => this.updatePod(o, n),
      onDelete: (p) => this.deletePod(p, true),
    });
  }

  /** Holds the work queues (kube-controller-manager paused). */
  pause(): void {
    this.queue.paused = true;
    this.orphanQueue.paused = true;
  }

  /** Releases the work queues. */
  resume(): void {
    this.queue.resume();
    this.orphanQueue.resume();
  }

  /** Enqueues every cached Job. */
  resync(): void {
    for (const j of this.jobInformer.list()) this.queue.add(metaNamespaceKey(j));
  }

  // ---- handlers: keys only ---------------------------------------------------------------

  /** AddAfter with the delaying queue's semantics: an earlier pending add wins. */
  private enqueueAfter(key: string, delayMs: number, deadline?: string): void {
    const at = this.ctx.clock.now() + delayMs;
    const cur = this.pending.get(key);
    if (cur && cur.at <= at) return;
    if (cur) this.ctx.clock.cancel(cur.handle);
    const cause = this.ctx.relay.currentCause;
    const handle = this.ctx.clock.setTimer(
      delayMs,
      () => {
        this.pending.delete(key);
        this.queue.add(key, cause);
      },
      deadline ? { deadline: true, label: deadline, object: `Job/${key}` } : { label: `job requeue ${key}` },
    );
    this.pending.set(key, { at, handle });
  }

  private enqueueBatched(job: Job): void {
    this.enqueueAfter(metaNamespaceKey(job), u.SyncJobBatchPeriodMs);
  }

  private updateJob(oldJob: Job, curJob: Job): void {
    const key = metaNamespaceKey(curJob);
    if (curJob.metadata.generation === oldJob.metadata.generation) this.enqueueBatched(curJob);
    else this.queue.add(key);
    if (u.isJobFinished(curJob)) this.cleanupPodFinalizers(curJob);
    const ads = curJob.spec?.activeDeadlineSeconds;
    if (curJob.status?.startTime && typeof ads === 'number' && oldJob.spec?.activeDeadlineSeconds !== ads) {
      const remaining = ads * 1000 - (this.ctx.clock.now() - Date.parse(curJob.status.startTime));
      this.enqueueAfter(key, Math.max(0, remaining), `job ${key} activeDeadlineSeconds runs out`);
    }
  }

  private deleteJob(job: Job): void {
    this.queue.add(metaNamespaceKey(job));
    this.cleanupPodFinalizers(job);
  }

  private resolveControllerRef(namespace: string, ref: OwnerReference): Job | undefined {
    if (ref.kind !== 'Job') return undefined;
    const job = this.jobInformer.get(`${namespace}/${ref.name}`);
    return job && job.metadata.uid === ref.uid ? job : undefined;
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod, false);
    const ref = getControllerOf(pod);
    if (ref) {
      const job = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (!job) return;
      this.expectations.creationObserved(metaNamespaceKey(job));
      this.enqueueBatched(job);
      return;
    }
    if (u.hasJobTrackingFinalizer(pod)) this.orphanQueue.add(metaNamespaceKey(pod));
  }

  private updatePod(oldPod: Pod, curPod: Pod): void {
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return;
    if (curPod.metadata.deletionTimestamp) return this.deletePod(curPod, false);
    const finalizerRemoved = !u.hasJobTrackingFinalizer(curPod);
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    for (const ref of curRef?.uid !== oldRef?.uid && oldRef ? [oldRef, curRef] : [curRef]) {
      if (!ref) continue;
      const job = this.resolveControllerRef(curPod.metadata.namespace ?? '', ref);
      if (!job) continue;
      if (finalizerRemoved) this.finalizerExpectations.get(metaNamespaceKey(job))?.delete(curPod.metadata.uid ?? '');
      this.enqueueBatched(job);
    }
    if (!curRef && u.hasJobTrackingFinalizer(curPod)) this.orphanQueue.add(metaNamespaceKey(curPod));
  }

  private deletePod(pod: Pod, final: boolean): void {
    const ref = getControllerOf(pod);
    const hasFinalizer = u.hasJobTrackingFinalizer(pod);
    if (!ref) {
      if (hasFinalizer) this.orphanQueue.add(metaNamespaceKey(pod));
      return;
    }
    const job = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
    if (!job || u.isJobFinished(job)) {
      if (hasFinalizer) this.orphanQueue.add(metaNamespaceKey(pod));
      return;
    }
    const key = metaNamespaceKey(job);
    this.expectations.deletionObserved(key);
    if (final || !hasFinalizer) this.finalizerExpectations.get(key)?.delete(pod.metadata.uid ?? '');
    this.enqueueBatched(job);
  }

  /** cleanupPodFinalizers: pods of a finished or deleted Job still carrying the finalizer. */
  private cleanupPodFinalizers(job: Job): void {
    for (const p of filterPodsByOwner(this.podInformer, job, false)) {
      if (u.hasJobTrackingFinalizer(p)) this.orphanQueue.add(metaNamespaceKey(p));
    }
  }

  /** syncOrphanPod: removes the tracking finalizer from a pod no running Job owns. */
  syncOrphanPod(key: string): void {
    const pod = this.podInformer.get(key);
    if (!pod) return;
    const ref = getControllerOf(pod);
    if (ref) {
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const job = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (job && !u.isJobFinished(job)) return;
    }
    try {
      this.removeFinalizer(pod);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private removeFinalizer(pod: Pod): void {
    patchObject(
      this.podClient,
      pod.metadata.namespace ?? '',
      pod.metadata.name,
      (cur) => {
        if (!u.hasJobTrackingFinalizer(cur)) return false;
        const f = (cur.metadata.finalizers ?? []).filter((x) => x !== u.JobTrackingFinalizer);
        if (f.length) cur.metadata.finalizers = f;
        else delete cur.metadata.finalizers;
        return true;
      },
      `remove finalizer ${u.JobTrackingFinalizer} from Pod ${pod.metadata.namespace}/${pod.metadata.name}`,
    );
  }

  // ---- sync --------------------------------------------------------------------------------

  /**
   * syncJob: reconciles one Job (see the file comment). Idempotent; reads from listers.
   * @throws on a failed write (the queue retries with back-off).
   */
  syncJob(key: string): void {
    const shared = this.jobInformer.get(key);
    if (!shared) {
      this.expectations.deleteExpectations(key);
      this.finalizerExpectations.delete(key);
      this.backoffStore.delete(key);
      return;
    }
    if (u.isJobFinished(shared)) {
      this.backoffStore.delete(key);
      return;
    }
    const job = deepCopy(shared);
    const now = this.ctx.clock.now();
    const nowStr = this.ctx.clock.nowRFC3339();
    const status: u.JobStatus = deepCopy(job.status ?? {});
    status.uncountedTerminatedPods = status.uncountedTerminatedPods ?? {};
    const satisfied = this.expectations.satisfiedExpectations(key);
    const pods = this.getPodsForJob(job);
    const activePods = filterActivePods(pods);
    const expectedRm = new Set(this.finalizerExpectations.get(key) ?? []);
    const sc: SyncCtx = {
      job,
      status,
      pods,
      expectedRm,
      terminating: u.countTerminatingPods(pods),
      newBackoff: { failuresAfterLastSuccess: 0 },
    };
    let ready = activePods.filter(isPodReady).length;
    let active = activePods.length;
    const uncSucc = new Set(status.uncountedTerminatedPods.succeeded ?? []);
    const uncFail = new Set(status.uncountedTerminatedPods.failed ?? []);
    const valid = (p: Pod, unc: Set<string>) =>
      u.hasJobTrackingFinalizer(p) && !unc.has(p.metadata.uid ?? '') && !expectedRm.has(p.metadata.uid ?? '');
    const newSucceeded = pods.filter((p) => valid(p, uncSucc) && p.status?.phase === 'Succeeded');
    const newFailed = pods.filter((p) => valid(p, uncFail) && u.isPodFailed(p, job));
    const succeeded = (status.succeeded ?? 0) + newSucceeded.length + uncSucc.size;
    const failed = (status.failed ?? 0) + newFailed.length + uncFail.size;
    const suspended = job.spec?.suspend === true;
    if (!status.startTime && !suspended) status.startTime = nowStr;
    sc.newBackoff = u.newBackoffRecord(this.backoffStore.get(key), newSucceeded, newFailed);
    const target = { resource: 'jobs', namespace: job.metadata.namespace, name: job.metadata.name };

    const scm = u.findCondition(status.conditions, 'SuccessCriteriaMet');
    sc.finished = scm?.status === 'True' ? scm : undefined;
    if (!sc.finished) {
      const ft = u.findCondition(status.conditions, 'FailureTarget');
      if (ft?.status === 'True') sc.finished = u.newCondition('Failed', 'True', ft.reason ?? '', ft.message ?? '', nowStr);
    }
    if (!sc.finished) {
      const limit: number = job.spec?.backoffLimit ?? 6;
      const ads = job.spec?.activeDeadlineSeconds;
      if (failed > limit || u.pastBackoffLimitOnFailure(job, pods)) {
        sc.finished = u.newCondition('FailureTarget', 'True', u.JobReasonBackoffLimitExceeded, u.JobMessageBackoffLimitExceeded, nowStr);
        recordDecision(
          this.ctx.relay,
          this.name,
          target,
          `failed ${failed} > backoffLimit ${limit} → Job fails (BackoffLimitExceeded)`,
          this.ctx.relay.newReconcile(),
        );
      } else if (typeof ads === 'number' && status.startTime && !suspended && now - Date.parse(status.startTime) >= ads * 1000) {
        sc.finished = u.newCondition('FailureTarget', 'True', u.JobReasonDeadlineExceeded, u.JobMessageDeadlineExceeded, nowStr);
        recordDecision(
          this.ctx.relay,
          this.name,
          target,
          `active longer than activeDeadlineSeconds ${ads} → Job fails (DeadlineExceeded)`,
          this.ctx.relay.newReconcile(),
        );
      } else if (typeof ads === 'number' && status.startTime && !suspended) {
        this.enqueueAfter(key, ads * 1000 - (now - Date.parse(status.startTime)), `job ${key} activeDeadlineSeconds runs out`);
      }
    }

    let manageErr: unknown = undefined;
    let suspendChanged = false;
    if (sc.finished) {
      const [deletedReady, deleted, err] = this.deletePods(job, activePods, false);
      if (deleted !== active || !satisfied) sc.finished = undefined;
      active -= deleted;
      sc.terminating += deleted;
      ready -= deletedReady;
      manageErr = err;
    } else {
      let called = false;
      if (satisfied && !job.metadata.deletionTimestamp) {
        [active, manageErr] = this.manageJob(job, activePods, succeeded, sc, (n, r) => {
          sc.terminating += n;
          ready -= r;
        });
        called = true;
      }
      const completions = job.spec?.completions;
      const complete =
        completions === undefined || completions === null ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0;
      if (complete) {
        sc.finished = u.newCondition('SuccessCriteriaMet', 'True', u.JobReasonCompletionsReached, u.JobMessageCompletionsReached, nowStr);
      } else if (called) {
        const [conds, changed] = suspended
          ? u.ensureJobConditionStatus(status.conditions ?? [], 'Suspended', 'True', 'JobSuspended', 'Job suspended', nowStr)
          : u.ensureJobConditionStatus(status.conditions ?? [], 'Suspended', 'False', 'JobResumed', 'Job resumed', nowStr);
        if (changed) {
          status.conditions = conds;
          suspendChanged = true;
          this.recorder.event(job, 'Normal', suspended ? 'Suspended' : 'Resumed', suspended ? 'Job suspended' : 'Job resumed');
          if (!suspended) status.startTime = nowStr;
        }
      }
    }
    const needsUpdate =
      suspendChanged ||
      active !== (status.active ?? 0) ||
      ready !== status.ready ||
      sc.terminating !== status.terminating ||
      !shared.status?.startTime;
    status.active = active;
    status.ready = ready;
    status.terminating = sc.terminating;
    this.trackJobStatusAndRemoveFinalizers(sc, needsUpdate);
    if (manageErr !== undefined) throw manageErr;
  }

  /** getPodsForJob: owned pods plus orphans, claimed by selector (adoption / release). */
  private getPodsForJob(job: Job): Pod[] {
    let selector;
    try {
      selector = fromLabelSelector(job.spec?.selector);
    } catch (err) {
      throw new Error(`couldn't convert Job selector: ${String(err)}`);
    }
    return claimObjects(
      { controller: job, selector, client: this.podClient, canAdopt: recheckDeletionTimestamp(this.jobClient, job) },
      filterPodsByOwner(this.podInformer, job, true),
    );
  }

  /**
   * manageJob: deletes surplus pods or creates missing ones (after the pod-failure back-off).
   * `onDeleted(n, ready)` reports deletions. Returns [active, error].
   */
  private manageJob(
    job: Job,
    activePods: Pod[],
    succeeded: number,
    sc: SyncCtx,
    onDeleted: (n: number, ready: number) => void,
  ): [number, unknown] {
    const key = metaNamespaceKey(job);
    let active = activePods.length;
    const parallelism: number = job.spec?.parallelism ?? 1;
    const target = { resource: 'jobs', namespace: job.metadata.namespace, name: job.metadata.name };
    if (job.spec?.suspend === true) {
      if (active === 0) return [0, undefined];
      this.expectations.expectDeletions(key, active);
      const [r, removed, err] = this.deletePods(job, activePods, true);
      onDeleted(removed, r);
      return [active - removed, err];
    }
    const completions = job.spec?.completions;
    let wantActive: number;
    if (completions === undefined || completions === null) wantActive = succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(completions - succeeded, parallelism));
    const rmAtLeast = Math.max(0, active - wantActive);
    if (rmAtLeast > 0) {
      const toDelete = getPodsToDelete(activePods, [], Math.min(rmAtLeast, MaxPodCreateDeletePerSync), this.ctx.clock.now());
      this.expectations.expectDeletions(key, toDelete.length);
      const seq = recordDecision(
        this.ctx.relay,
        this.name,
        target,
        `active ${active} > wanted ${wantActive} → delete ${plural(toDelete.length, 'Pod')}`,
        this.ctx.relay.newReconcile(),
      );
      const [r, removed, err] = this.ctx.relay.withCause(seq, () => this.deletePods(job, toDelete, true));
      onDeleted(removed, r);
      return [active - removed, err];
    }
    const replaceOnlyFailed = job.spec?.podReplacementPolicy === 'Failed' || !!job.spec?.podFailurePolicy;
    let diff = wantActive - (replaceOnlyFailed ? sc.terminating : 0) - active;
    if (diff <= 0) return [active, undefined];
    const remaining = u.backoffRemainingMs(sc.newBackoff, this.ctx.clock.now());
    if (remaining > 0) {
      const delay = Math.max(remaining, u.SyncJobBatchPeriodMs);
      recordDecision(
        this.ctx.relay,
        this.name,
        target,
        `active ${active} < wanted ${wantActive}, but ${plural(sc.newBackoff.failuresAfterLastSuccess, 'failure')} → pod failure back-off, create in ${delay / 1000}s`,
        this.ctx.relay.newReconcile(),
      );
      this.enqueueAfter(key, delay, `job ${key} pod failure back-off`);
      return [active, undefined];
    }
    diff = Math.min(diff, MaxPodCreateDeletePerSync);
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      target,
      `active ${active} < wanted ${wantActive} (succeeded ${succeeded}) → create ${plural(diff, 'Pod')}`,
      this.ctx.relay.newReconcile(),
    );
    this.expectations.expectCreations(key, diff);
    const template = deepCopy(job.spec?.template ?? {});
    template.metadata = template.metadata ?? {};
    const fins: string[] = template.metadata.finalizers ?? [];
    if (!fins.includes(u.JobTrackingFinalizer)) template.metadata.finalizers = [...fins, u.JobTrackingFinalizer];
    const ref = newControllerRef(job);
    const [ok, err] = this.ctx.relay.withCause(seq, () =>
      slowStartBatch(diff, SlowStartInitialBatchSize, () => {
        try {
          this.podControl.createPods(job.metadata.namespace ?? '', template, job, ref);
        } catch (e) {
          if (hasStatusCause(e, NamespaceTerminatingCause)) return;
          throw e;
        }
      }),
    );
    for (let i = ok; i < diff; i++) this.expectations.creationObserved(key);
    return [active + ok, err];
  }

  /**
   * deleteActivePods / deleteJobPods: DELETE each pod (deleteJobPods first removes the tracking
   * finalizer). Returns [deleted ready, deleted, first error].
   */
  private deletePods(job: Job, pods: Pod[], removeFinalizer: boolean): [number, number, unknown] {
    let deleted = 0;
    let deletedReady = 0;
    let firstErr: unknown = undefined;
    const key = metaNamespaceKey(job);
    for (const pod of pods) {
      try {
        if (removeFinalizer && u.hasJobTrackingFinalizer(pod)) this.removeFinalizer(pod);
        this.podControl.deletePod(job.metadata.namespace ?? '', pod.metadata.name, job);
        deleted++;
        if (isPodReady(pod)) deletedReady++;
      } catch (err) {
        if (removeFinalizer) this.expectations.deletionObserved(key);
        if (isNotFound(err)) {
          deleted++;
          continue;
        }
        if (firstErr === undefined) firstErr = err;
      }
    }
    return [deletedReady, deleted, firstErr];
  }

  /**
   * trackJobStatusAndRemoveFinalizers: finished pods → uncountedTerminatedPods (flush), remove
   * their finalizers, move them into the counters, then the terminal condition (flush again).
   */
  private trackJobStatusAndRemoveFinalizers(sc: SyncCtx, needsFlush: boolean): void {
    const { status, pods, expectedRm } = sc;
    let job = sc.job;
    const key = metaNamespaceKey(job);
    const nowStr = this.ctx.clock.nowRFC3339();
    const unc = status.uncountedTerminatedPods!;
    unc.succeeded = [...(unc.succeeded ?? [])];
    unc.failed = [...(unc.failed ?? [])];
    const uncSucc = new Set(unc.succeeded);
    const uncFail = new Set(unc.failed);
    const withFinalizer = new Set<string>();
    for (const p of pods)
      if (u.hasJobTrackingFinalizer(p) && !expectedRm.has(p.metadata.uid ?? '')) withFinalizer.add(p.metadata.uid ?? '');
    if (cleanUncounted(status, withFinalizer)) needsFlush = true;
    const toRemove: Pod[] = [];
    for (const pod of pods) {
      const uid = pod.metadata.uid ?? '';
      if (!u.hasJobTrackingFinalizer(pod) || expectedRm.has(uid)) continue;
      const considerFailed = u.isPodFailed(pod, job);
      if (!(job.metadata.deletionTimestamp || sc.finished || pod.status?.phase === 'Succeeded' || considerFailed)) continue;
      toRemove.push(pod);
      if (pod.status?.phase === 'Succeeded' && !uncFail.has(uid)) {
        if (!uncSucc.has(uid)) {
          needsFlush = true;
          unc.succeeded.push(uid);
        }
      } else if (considerFailed || (sc.finished && sc.finished.type !== 'SuccessCriteriaMet')) {
        if (!uncFail.has(uid)) {
          needsFlush = true;
          unc.failed.push(uid);
        }
      }
    }
    if (sc.finished?.type === 'FailureTarget') {
      status.conditions = [...(status.conditions ?? []), sc.finished];
      needsFlush = true;
      sc.finished = u.newCondition('Failed', 'True', sc.finished.reason ?? '', sc.finished.message ?? '', nowStr);
    }
    if (sc.finished?.type === 'SuccessCriteriaMet') {
      if (!u.findCondition(status.conditions, 'SuccessCriteriaMet')) {
        status.conditions = [...(status.conditions ?? []), sc.finished];
        needsFlush = true;
      }
      sc.finished = u.newCondition('Complete', 'True', sc.finished.reason ?? '', sc.finished.message ?? '', nowStr);
    }
    if (needsFlush) {
      job = this.updateStatus(job, status);
      this.backoffStore.set(key, sc.newBackoff);
      needsFlush = false;
    }
    let rmErr: unknown = undefined;
    if (toRemove.length) {
      const exp = this.finalizerExpectations.get(key) ?? new Set<string>();
      this.finalizerExpectations.set(key, exp);
      for (const p of toRemove) exp.add(p.metadata.uid ?? '');
      for (const p of toRemove) {
        try {
          this.removeFinalizer(p);
          withFinalizer.delete(p.metadata.uid ?? '');
        } catch (err) {
          exp.delete(p.metadata.uid ?? '');
          if (isNotFound(err)) withFinalizer.delete(p.metadata.uid ?? '');
          else if (rmErr === undefined) rmErr = err;
        }
      }
    }
    if (cleanUncounted(status, withFinalizer)) needsFlush = true;
    if (rmErr !== undefined) {
      if (needsFlush) this.updateStatus(job, status);
      throw rmErr;
    }
    // enactJobFinished
    let finished = false;
    const f = sc.finished;
    if (
      f &&
      !(status.uncountedTerminatedPods?.succeeded?.length || status.uncountedTerminatedPods?.failed?.length) &&
      sc.terminating === 0
    ) {
      [status.conditions] = u.ensureJobConditionStatus(status.conditions ?? [], f.type, f.status, f.reason ?? '', f.message ?? '', nowStr);
      if (f.type === 'Complete') status.completionTime = nowStr;
      finished = true;
      needsFlush = true;
    }
    if (!needsFlush) return;
    job = this.updateStatus(job, status);
    if (finished && f) {
      if (f.type === 'Complete') {
        const completions = job.spec?.completions;
        if (typeof completions === 'number' && (status.succeeded ?? 0) > completions)
          this.recorder.event(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
        this.recorder.event(job, 'Normal', 'Completed', 'Job completed');
      } else {
        this.recorder.event(job, 'Warning', f.reason ?? '', f.message ?? '');
      }
    }
  }

  /** updateJobStatus through the status subresource; skips a write that changes nothing. */
  private updateStatus(job: Job, status: u.JobStatus): Job {
    const next = u.normalizeJobStatus(status);
    if (deepEqual(next, job.status ?? {})) return job;
    const [namespace, name] = splitKey(metaNamespaceKey(job));
    return this.jobClient.updateStatus(
      { ...job, status: next },
      {
        summary: `update status Job ${namespace}/${name}: active ${next.active ?? 0}, succeeded ${next.succeeded ?? 0}, failed ${next.failed ?? 0}${next.conditions?.length ? `, ${next.conditions.map((c) => c.type).join(', ')}` : ''}`,
      },
    );
  }
}

/** True for pods a Job may own (controlled by a Job, or carrying the tracking finalizer). */
function isJobPod(p: Pod): boolean {
  const ref = getControllerOf(p);
  return ref ? ref.kind === 'Job' : u.hasJobTrackingFinalizer(p) || !!p.metadata.labels?.['batch.kubernetes.io/controller-uid'];
}

/** cleanUncountedPodsWithoutFinalizers: uncounted pods whose finalizer is gone move into the counters. */
function cleanUncounted(status: u.JobStatus, withFinalizer: Set<string>): boolean {
  const unc = status.uncountedTerminatedPods!;
  let updated = false;
  const s = (unc.succeeded ?? []).filter((x) => withFinalizer.has(x));
  if (s.length !== (unc.succeeded ?? []).length) {
    updated = true;
    status.succeeded = (status.succeeded ?? 0) + (unc.succeeded ?? []).length - s.length;
    unc.succeeded = s;
  }
  const f = (unc.failed ?? []).filter((x) => withFinalizer.has(x));
  if (f.length !== (unc.failed ?? []).length) {
    updated = true;
    status.failed = (status.failed ?? 0) + (unc.failed ?? []).length - f.length;
    unc.failed = f;
  }
  return updated;
}
