/**
 * TTLAfterFinishedController: deletes finished Jobs whose `spec.ttlSecondsAfterFinished` has
 * passed, after kubernetes/kubernetes
 * pkg/controller/ttlafterfinished/ttlafterfinished_controller.go (processJob, processTTL,
 * timeLeft, jobFinishTime). The finish time is the lastTransitionTime of the Complete or
 * Failed condition; until it expires the Job is re-enqueued for exactly then (a known
 * deadline). The Job is deleted with propagationPolicy Foreground and a UID precondition
 * (the garbage collector then deletes its Pods first). No events, as upstream.
 * Relay participant `ttl-after-finished-controller`.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import { RateLimitingQueue } from '../client/workqueue';
import { metaNamespaceKey, splitKey } from '../api/types';
import type { Job } from '../api/objects';
import { isNotFound, recordDecision } from './controller-utils';
import { isJobFinished, jobFinishTime } from './job-utils';

/** Relay participant of this controller. */
export const TTLAfterFinishedControllerName = 'ttl-after-finished-controller';

/** needsCleanup: a TTL is set and the Job finished. */
function needsCleanup(j: Job): boolean {
  return typeof j.spec?.ttlSecondsAfterFinished === 'number' && isJobFinished(j);
}

export class TTLAfterFinishedController {
  readonly name = TTLAfterFinishedControllerName;
  readonly queue: RateLimitingQueue;
  private readonly jobInformer: SharedInformer<Job>;
  private readonly jobClient: ResourceClient<Job>;

  /** Wires the Job informer handlers (add/update of Jobs that need cleanup). */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    const client = ctx.client(users.controller(TTLAfterFinishedControllerName));
    this.jobClient = client.resource<Job>('batch', 'jobs');
    this.jobInformer = informers.informerFor<Job>('batch', 'jobs');
    this.queue = new RateLimitingQueue('ttl_jobs_to_delete', ctx.clock, ctx.relay, (key) => this.processJob(key));
    this.jobInformer.addEventHandler({
      participant: TTLAfterFinishedControllerName,
      filter: needsCleanup,
      onAdd: (j) => this.queue.add(metaNamespaceKey(j)),
      onUpdate: (_o, j) => this.queue.add(metaNamespaceKey(j)),
    });
  }

  pause(): void {
    this.queue.paused = true;
  }

  resume(): void {
    this.queue.resume();
  }

  resync(): void {
    for (const j of this.jobInformer.list()) if (needsCleanup(j)) this.queue.add(metaNamespaceKey(j));
  }

  /**
   * processJob: deletes the Job when its TTL expired (re-checked on a fresh read), else
   * schedules itself for the expiry.
   */
  processJob(key: string): void {
    const [namespace, name] = splitKey(key);
    const job = this.jobInformer.get(key);
    if (!job || job.metadata.deletionTimestamp || !needsCleanup(job)) return;
    if (this.timeLeft(job, key) > 0) return;
    let fresh: Job;
    try {
      fresh = this.jobClient.get(namespace, name, { quiet: true });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!needsCleanup(fresh) || fresh.metadata.deletionTimestamp || this.timeLeft(fresh, key) > 0) return;
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'jobs', namespace, name },
      `Job finished ${fresh.spec.ttlSecondsAfterFinished}s ago (ttlSecondsAfterFinished) → delete it`,
      this.ctx.relay.newReconcile(),
    );
    this.ctx.relay.withCause(seq, () => {
      try {
        this.jobClient.delete(namespace, name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid } });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    });
  }

  /** processTTL/timeLeft: ms until expiry; when positive the key is re-enqueued then (a deadline). */
  private timeLeft(job: Job, key: string): number {
    const finish = jobFinishTime(job);
    if (finish === undefined) return 0;
    // only Jobs with ttlSecondsAfterFinished are processed (needsCleanup)
    const left = finish + job.spec.ttlSecondsAfterFinished! * 1000 - this.ctx.clock.now();
    if (left > 0) this.queue.addAfter(key, left, { label: `job ${key} ttlSecondsAfterFinished expires`, object: `Job/${key}` });
    return left;
  }
}
