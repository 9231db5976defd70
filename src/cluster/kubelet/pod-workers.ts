/**
 * Pod workers: one state machine per Pod bound to this node, as pkg/kubelet/pod_workers.go
 * drives pkg/kubelet/kubelet.go (SyncPod / SyncTerminatingPod / SyncTerminatedPod) and
 * pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod: sandbox, then each container
 * through startContainer in kuberuntime_container.go: EnsureImageExists → CreateContainer →
 * StartContainer), with restart decisions by restartPolicy and the crash back-off
 * (doBackOff: 10 s doubling to 300 s, reset after 10 minutes of running).
 *
 * Level-triggered: every sync pass looks at the record and does the next thing; one runtime
 * operation chain runs per Pod at a time (like the pod worker goroutine), a sync requested
 * meanwhile runs after it. Events (component kubelet, host = node) with v1.33 texts:
 *   Created "Created container: nginx", Started "Started container nginx",
 *   Killing "Stopping container nginx", Failed "Error: ErrImagePull",
 *   BackOff "Back-off restarting failed container nginx in pod web-x_default(<uid>)".
 * Durations are simulated ms.
 */
import type { KObject } from '../api/types';
import type { EventRecorder } from '../client/record';
import type { ComponentContext } from '../component-context';
import { Backoff, formatGoDuration } from './backoff';
import { planProcess } from './container-process';
import { containerRef, type ImageManager } from './image-manager';
import type { ContainerRuntime, PodRef, RuntimeContainer } from './runtime';
import type { ContainerRecord, PodRecord, StatusManager, TerminatedInfo } from './status-manager';
import type { OwnedTimers } from './timers';
import type { TimerHandle } from '../sim/clock';

/** format.Pod (pkg/kubelet/util/format): "name_namespace(uid)". */
export function formatPod(pod: KObject): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class PodWorkers {
  private pods = new Map<string, PodRecord>();
  private syncTimers = new Map<string, TimerHandle>();
  private retryTimers = new Map<string, TimerHandle>();
  /** crash back-off (kubeGenericRuntimeManager's backOff), keyed per container */
  readonly crashBackOff: Backoff;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly nodeName: string,
    private readonly runtime: ContainerRuntime,
    private readonly images: ImageManager,
    private readonly status: StatusManager,
    private readonly recorder: EventRecorder,
    private readonly timers: OwnedTimers,
  ) {
    this.crashBackOff = new Backoff(ctx.timings.backOffInitialMs, ctx.timings.backOffMaxMs, () => ctx.clock.now());
  }

  private ref(rec: PodRecord): PodRef {
    return { namespace: rec.namespace, name: rec.name, uid: rec.uid };
  }

  /** The record of a Pod by UID (tests, UI). */
  get(uid: string): PodRecord | undefined {
    return this.pods.get(uid);
  }

  /** Number of Pods this kubelet is working on. */
  get size(): number {
    return this.pods.size;
  }

  /** A Pod was added or updated (UpdatePod with SyncPodCreate / SyncPodUpdate). */
  upsert(pod: KObject): void {
    const uid = pod.metadata.uid ?? '';
    let rec = this.pods.get(uid);
    if (!rec) {
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') return; // nothing will run again
      rec = this.newRecord(pod);
      this.pods.set(uid, rec);
      this.status.setPodStatus(rec);
      if (pod.metadata.deletionTimestamp) return this.beginTermination(rec);
      this.requestSync(rec, this.ctx.timings.kubeletSyncDelayMs);
      return;
    }
    rec.pod = pod;
    if (pod.metadata.deletionTimestamp && !rec.terminating) this.beginTermination(rec);
  }

  /** The Pod is gone from the apiserver (SyncPodKill of an orphan): stop everything quietly. */
  remove(pod: KObject): void {
    const rec = this.pods.get(pod.metadata.uid ?? '');
    if (!rec) return;
    rec.deleted = true;
    rec.gen++;
    this.cancelTimers(rec);
    for (const c of rec.containers) if (c.containerID) this.runtime.removeContainer(c.containerID);
    if (rec.sandbox) this.runtime.stopPodSandbox(rec.sandbox.id, this.ref(rec));
    this.pods.delete(rec.uid);
    this.status.forget(rec.uid);
  }

  /** Power loss: forget every Pod (the runtime is wiped separately). */
  reset(): void {
    this.pods.clear();
    this.syncTimers.clear();
    this.retryTimers.clear();
    this.crashBackOff.clear();
  }

  private newRecord(pod: KObject): PodRecord {
    const now = this.ctx.clock.nowRFC3339();
    const prev: Record<string, { restartCount?: number; state?: { running?: { startedAt?: string }; terminated?: TerminatedInfo }; lastState?: { terminated?: TerminatedInfo }; containerID?: string }> = {};
    for (const s of pod.status?.containerStatuses ?? []) prev[s.name] = s;
    const containers: ContainerRecord[] = (pod.spec?.containers ?? []).map((spec: ContainerRecord['spec']) => {
      const p = prev[spec.name];
      const ran = !!(p?.containerID || p?.state?.running || p?.state?.terminated);
      const c: ContainerRecord = { name: spec.name, spec, current: { kind: 'waiting', reason: 'ContainerCreating' }, restartCount: p?.restartCount ?? 0, everStarted: ran };
      if (ran) {
        // the node rebooted under this container: it is gone, as kubelet reports after a reboot
        c.last = p?.state?.terminated ?? { exitCode: 255, reason: 'Unknown', startedAt: p?.state?.running?.startedAt, finishedAt: now, containerID: p?.containerID?.replace(/^containerd:\/\//, '') };
        c.current = { kind: 'waiting', reason: 'ContainerCreating' };
      }
      return c;
    });
    return {
      uid: pod.metadata.uid ?? '', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name, pod,
      startTime: pod.status?.startTime ?? now, containers, gen: 0, busy: false, pendingSync: false,
      terminating: false, done: false, terminal: false, deleted: false,
    };
  }

  private cancelTimers(rec: PodRecord): void {
    this.timers.cancel(this.syncTimers.get(rec.uid));
    this.syncTimers.delete(rec.uid);
    for (const c of rec.containers) {
      const k = `${rec.uid}/${c.name}`;
      this.timers.cancel(this.retryTimers.get(k));
      this.retryTimers.delete(k);
    }
  }

  /** Asks for a sync pass after `delayMs` (coalesced per Pod). */
  requestSync(rec: PodRecord, delayMs = 0, deadline?: string): void {
    if (rec.busy) {
      rec.pendingSync = true;
      return;
    }
    this.timers.cancel(this.syncTimers.get(rec.uid));
    this.syncTimers.set(rec.uid, this.timers.set(delayMs, () => {
      this.syncTimers.delete(rec.uid);
      this.syncPass(rec, 0);
    }, deadline ? { deadline: true, label: deadline, object: `Pod/${rec.namespace}/${rec.name}` } : { label: `kubelet/${this.nodeName}: sync ${rec.namespace}/${rec.name}` }));
  }

  private retryAt(rec: PodRecord, c: ContainerRecord, atMs: number, label: string): void {
    const k = `${rec.uid}/${c.name}`;
    this.timers.cancel(this.retryTimers.get(k));
    this.retryTimers.set(k, this.timers.set(Math.max(0, atMs - this.ctx.clock.now()), () => {
      this.retryTimers.delete(k);
      this.requestSync(rec);
    }, { deadline: true, label, object: `Pod/${rec.namespace}/${rec.name}` }));
  }

  /** One SyncPod pass from container index `i`; async steps continue the same pass. */
  private syncPass(rec: PodRecord, i: number): void {
    if (rec.deleted || rec.terminating || rec.done) return;
    if (!rec.sandbox) return this.createSandbox(rec);
    const gen = rec.gen;
    for (; i < rec.containers.length; i++) {
      const c = rec.containers[i];
      const cur = c.current;
      if (cur.kind === 'running') continue;
      if (cur.kind === 'waiting' && !(c.last && c.finishedAtMs !== undefined)) {
        const next = i + 1;
        return this.startContainer(rec, c, gen, () => this.syncPass(rec, next));
      }
      // the container exited (terminated, or waiting in CrashLoopBackOff)
      const exitCode = cur.kind === 'terminated' ? cur.exitCode : c.last?.exitCode ?? 0;
      if (!this.shouldRestart(rec, exitCode)) continue;
      const key = `${rec.name}_${rec.namespace}_${rec.uid}_${c.name}`;
      const finishedAt = c.finishedAtMs ?? this.ctx.clock.now();
      if (this.crashBackOff.isInBackOffSince(key, finishedAt)) {
        const delay = this.crashBackOff.get(key);
        if (cur.kind !== 'waiting' || cur.reason !== 'CrashLoopBackOff') {
          this.recorder.event(containerRef(rec.pod, c.name), 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${formatPod(rec.pod)}`);
          if (cur.kind === 'terminated') c.last = { ...cur };
          c.current = { kind: 'waiting', reason: 'CrashLoopBackOff', message: `back-off ${formatGoDuration(delay)} restarting failed container=${c.name} pod=${formatPod(rec.pod)}` };
          this.retryAt(rec, c, finishedAt + delay, `back-off ${formatGoDuration(delay)} restarting failed container ${c.name} in pod ${rec.namespace}/${rec.name}`);
        }
        continue;
      }
      this.crashBackOff.next(key, finishedAt);
      const next = i + 1;
      return this.startContainer(rec, c, gen, () => this.syncPass(rec, next));
    }
    this.finishPass(rec);
  }

  private shouldRestart(rec: PodRecord, exitCode: number): boolean {
    const policy = rec.pod.spec?.restartPolicy ?? 'Always';
    return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
  }

  private finishPass(rec: PodRecord): void {
    // every container exited for good → the Pod is terminal (Succeeded / Failed)
    const allDone = rec.containers.every((c) => c.current.kind === 'terminated' && !this.shouldRestart(rec, c.current.exitCode));
    if (allDone && rec.containers.length) {
      rec.done = true;
      if (rec.sandbox) this.runtime.stopPodSandbox(rec.sandbox.id, this.ref(rec));
      rec.sandbox = undefined;
    }
    this.status.setPodStatus(rec);
    if (rec.pendingSync) {
      rec.pendingSync = false;
      this.requestSync(rec);
    }
  }

  private createSandbox(rec: PodRecord): void {
    const gen = rec.gen;
    rec.busy = true;
    this.runtime.runPodSandbox(this.ref(rec), (s) => {
      rec.busy = false;
      if (rec.gen !== gen) {
        this.runtime.stopPodSandbox(s.id, this.ref(rec));
        return;
      }
      rec.sandbox = s;
      rec.podIP = s.ip;
      this.status.setPodStatus(rec);
      this.syncPass(rec, 0);
    });
  }

  /** kuberuntime startContainer: pull, create, start. `then` continues the pass. */
  private startContainer(rec: PodRecord, c: ContainerRecord, gen: number, then: () => void): void {
    rec.busy = true;
    const ref = containerRef(rec.pod, c.name);
    const stale = () => rec.gen !== gen || rec.deleted || rec.terminating;
    this.images.ensureImageExists(rec.pod, c.spec, (r) => {
      if (stale()) return void (rec.busy = false);
      if (!r.ok) {
        rec.busy = false;
        this.recorder.event(ref, 'Warning', 'Failed', `Error: ${r.reason}`);
        c.current = { kind: 'waiting', reason: r.reason, message: r.message };
        if (r.reason === 'ErrImagePull') this.requestSync(rec, 1_000, `kubelet/${this.nodeName}: resync ${rec.namespace}/${rec.name} after ErrImagePull`);
        if (r.reason === 'ImagePullBackOff' && r.retryAt !== undefined) {
          this.retryAt(rec, c, r.retryAt, `back-off pulling image ${c.spec.image} for ${rec.namespace}/${rec.name}`);
        }
        return then();
      }
      c.image = r.image.ref;
      c.imageID = r.image.repoDigest;
      const sandbox = rec.sandbox;
      if (!sandbox) return void (rec.busy = false);
      this.runtime.createContainer(sandbox, this.ref(rec), c.name, r.image, (created) => {
        if (stale()) {
          rec.busy = false;
          return this.runtime.removeContainer(created.id);
        }
        if (c.everStarted) c.restartCount++;
        c.everStarted = true;
        this.recorder.event(ref, 'Normal', 'Created', `Created container: ${c.name}`);
        const plan = planProcess(c.spec);
        c.plan = plan;
        this.runtime.startContainer(created.id, this.ref(rec), plan, () => {
          rec.busy = false;
          if (stale()) return this.runtime.removeContainer(created.id);
          this.recorder.event(ref, 'Normal', 'Started', `Started container ${c.name}`);
          if (c.current.kind === 'terminated') c.last = { ...c.current };
          if (c.containerID && c.containerID !== created.id) this.runtime.removeContainer(c.containerID);
          c.containerID = created.id;
          c.finishedAtMs = undefined;
          c.current = { kind: 'running', startedAt: iso(created.startedAt ?? this.ctx.clock.now()) };
          this.status.setPodStatus(rec);
          then();
        }, (exited) => this.onContainerExit(rec, c, exited));
      });
    });
  }

  /** PLEG saw a container exit by itself. */
  private onContainerExit(rec: PodRecord, c: ContainerRecord, rc: RuntimeContainer): void {
    if (rec.deleted || c.containerID !== rc.id) return;
    c.current = { kind: 'terminated', ...this.terminatedInfo(rc) };
    c.finishedAtMs = rc.finishedAt;
    this.status.setPodStatus(rec);
    if (rec.terminating) return this.checkTerminated(rec);
    this.requestSync(rec);
  }

  private terminatedInfo(rc: RuntimeContainer): TerminatedInfo {
    return {
      containerID: rc.id, exitCode: rc.exitCode ?? 0, reason: rc.reason ?? 'Completed',
      startedAt: rc.startedAt !== undefined ? iso(rc.startedAt) : undefined, finishedAt: iso(rc.finishedAt ?? this.ctx.clock.now()),
    };
  }

  /**
   * Graceful deletion (SyncTerminatingPod → killPod): Killing event per running container,
   * StopContainer with the Pod's deletionGracePeriodSeconds, then the final status and the
   * delete with grace 0.
   */
  private beginTermination(rec: PodRecord): void {
    rec.terminating = true;
    rec.gen++;
    rec.busy = false;
    rec.pendingSync = false;
    this.cancelTimers(rec);
    const graceS = rec.pod.metadata.deletionGracePeriodSeconds ?? rec.pod.spec?.terminationGracePeriodSeconds ?? 30;
    const graceMs = Math.max(graceS, 2) * 1000; // minimumGracePeriodInSeconds = 2
    let stopping = 0;
    for (const c of rec.containers) {
      if (c.current.kind !== 'running' || !c.containerID) continue;
      stopping++;
      this.recorder.event(containerRef(rec.pod, c.name), 'Normal', 'Killing', `Stopping container ${c.name}`);
      this.runtime.stopContainer(c.containerID, this.ref(rec), graceMs, c.plan?.ignoresSigterm ?? false, (rc) => {
        if (rec.deleted) return;
        if (c.current.kind === 'running') {
          c.current = { kind: 'terminated', ...this.terminatedInfo(rc) };
          c.finishedAtMs = rc.finishedAt;
        }
        this.checkTerminated(rec);
      });
    }
    if (!stopping) this.checkTerminated(rec);
  }

  private checkTerminated(rec: PodRecord): void {
    if (rec.deleted || rec.terminal || rec.containers.some((c) => c.current.kind === 'running')) return;
    rec.terminal = true;
    rec.done = true;
    const now = this.ctx.clock.nowRFC3339();
    for (const c of rec.containers) {
      if (c.current.kind === 'waiting') {
        // never (re)started in this boot: upstream reports it as ContainerStatusUnknown
        c.current = { kind: 'terminated', exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', finishedAt: now };
      }
    }
    if (rec.sandbox) this.runtime.stopPodSandbox(rec.sandbox.id, this.ref(rec));
    rec.sandbox = undefined;
    this.status.deletePod(rec);
  }
}
