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
 *   BackOff "Back-off restarting failed container nginx in pod web-x_default(<uid>)" — on every
 *   sync that hits the back-off: a failed sync (CrashLoopBackOff, ImagePullBackOff) is requeued
 *   after 10–15 s (workerBackOffPeriod, jitter 0.5), so the event counts up (x25 over 5m, then
 *   the EventCorrelator's spam filter lets one through per 5 min) while the restarts keep
 *   their 10, 20, 40 … 300 s back-off.
 * Also: init containers in order before the app containers (restartable init containers —
 * sidecars — start and keep running; a failed init container restarts with the crash back-off
 * unless restartPolicy is Never), volumes set up before the sandbox (volumes.ts), the
 * container's environment (env.ts; a missing ConfigMap/Secret/key → waiting
 * CreateContainerConfigError, event Failed "Error: configmap \"x\" not found", retried every
 * 10–15 s as the pod worker's backOffPeriod with jitter 0.5), probes (prober.ts) and the
 * kill of a container that failed its liveness/startup probe: Killing "Container liveness
 * failed liveness probe, will be restarted", then a restart whose back-off is judged from the
 * run before (doBackOff sees the killed container still running in its stale podStatus).
 * Durations are simulated ms.
 */
import type { ConfigMap, Pod, Secret } from '../api/objects';
import type { ContainerStatus } from 'kubernetes-types/core/v1';
import type { EventRecorder } from '../client/record';
import type { ComponentContext } from '../component-context';
import { Backoff, formatGoDuration } from './backoff';
import { defaultServer, httpAnswer, imageRepoName, IMAGE_PORTS, type HttpAnswer } from '../userland/images/web-servers';
import { ContainerProcess, execInContainer, type ExecResult } from '../userland/container-process';
import { inClusterFor } from '../userland/images/in-cluster';
import { makeEnvironmentVariables } from './env';
import { ContainerFS, managedHostsFile, type KubeletManagedFiles, type Mount } from '../userland/filesystem';
import { CLUSTER_DOMAIN, formatResolvConf, podDNSConfig } from '../component-helpers/dns';
import { containerRef, type ImageManager } from './image-manager';
import { ProbeManager, type ProbeSpec, type ProbeType } from './prober';
import type { VolumeManager } from './volumes';
import type { Client } from '../client/clientset';
import type { ContainerRuntime, PodRef, RuntimeContainer } from './runtime';
import type { ContainerRecord, PodRecord, StatusManager, TerminatedInfo } from './status-manager';
import type { OwnedTimers } from './timers';
import type { TimerHandle } from '../sim/clock';

/**
 * The pod worker's requeue after a failed sync (pod_workers.go completeWork):
 * wait.Jitter(backOffPeriod 10 s, workerBackOffPeriodJitterFactor 0.5) = 10–15 s, in ms.
 * @param u a uniform sample in [0, 1)
 */
export function workerBackOffMs(u: number): number {
  return Math.round(10_000 * (1 + 0.5 * u));
}

/** Waiting reasons of a container whose sync returned a back-off error. */
const BACKOFF_REASONS = new Set(['CrashLoopBackOff', 'ImagePullBackOff']);

/** format.Pod (pkg/kubelet/util/format): "name_namespace(uid)". */
export function formatPod(pod: Pod): string {
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
  readonly probes: ProbeManager;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly nodeName: string,
    private readonly runtime: ContainerRuntime,
    private readonly images: ImageManager,
    private readonly status: StatusManager,
    private readonly recorder: EventRecorder,
    private readonly timers: OwnedTimers,
    private readonly volumes: VolumeManager,
    private readonly client: Client,
    private readonly hostIP: () => string,
  ) {
    this.crashBackOff = new Backoff(ctx.timings.backOffInitialMs, ctx.timings.backOffMaxMs, () => ctx.clock.now());
    this.probes = new ProbeManager(
      ctx,
      recorder,
      timers,
      {
        exec: (rec, c, argv, timeoutMs) => this.exec(rec, c, argv, timeoutMs),
        serves: (rec, port) => this.serves(rec, port),
        httpGet: (rec, port, path) => this.httpGet(rec, port, path),
        onResult: (rec, c, type, result) => {
          if (result === 'Failure' && type !== 'readiness') this.killForProbe(rec, c, type);
          else {
            this.status.setPodStatus(rec);
            if (type === 'startup') this.requestSync(rec); // a started sidecar lets the next init container run
          }
        },
      },
      ctx.clock.now(),
    );
  }

  private allContainers(rec: PodRecord): ContainerRecord[] {
    return [...rec.initContainers, ...rec.containers];
  }

  /** ExecSync in a running container (exec probes). */
  exec(rec: PodRecord, c: ContainerRecord, argv: string[], timeoutMs: number): ExecResult {
    if (!c.fs || !c.process) return { exitCode: 126, output: '', tookMs: 0, assumed: false };
    if (c.process.assumed) return { exitCode: 0, output: '', tookMs: 0, assumed: true };
    return execInContainer(
      argv,
      { fs: c.fs, vars: { ...c.process.ctx.vars }, hostname: rec.name, now: () => this.ctx.clock.now() },
      timeoutMs,
    );
  }

  /**
   * A running container of the Pod listens on `port`: a known image running its default server
   * (images/web-servers.ts) on that server's ports; another process the shell does not model
   * (assumed) on its declared containerPorts (or, with none declared, its probes' ports) and its
   * image's known ports; a modelled script on nothing (ingress-nginx: its flags' ports).
   */
  serves(rec: PodRecord, port: number): boolean {
    return this.listener(rec, port) !== undefined;
  }

  /** The running container of the Pod that listens on `port` (see {@link serves}), or undefined. */
  listener(rec: PodRecord, port: number): ContainerRecord | undefined {
    return this.allContainers(rec).find((c) => {
      if (c.current.kind !== 'running' || !c.process?.assumed) return false;
      if (c.process.listenPorts) return c.process.listenPorts.includes(port);
      const server = defaultServer(c.spec);
      if (server) return server.ports.includes(port);
      const declared = ((c.spec.ports ?? []) as { containerPort: number }[]).map((p) => p.containerPort);
      if ((IMAGE_PORTS[imageRepoName(c.spec.image ?? '')] ?? []).includes(port)) return true;
      return (declared.length ? declared : ProbeManager.probePorts(c.spec)).includes(port);
    });
  }

  /** What a running container listens on, and whether that is known or assumed (see {@link listener}). */
  servedPorts(c: ContainerRecord): { kind: 'known' | 'assumed' | 'none'; ports: number[] } {
    if (!c.process?.assumed) return { kind: 'none', ports: [] };
    if (c.process.listenPorts) return { kind: 'known', ports: [...c.process.listenPorts] };
    const server = defaultServer(c.spec);
    if (server) return { kind: 'known', ports: [...server.ports] };
    const declared = ((c.spec.ports ?? []) as { containerPort: number }[]).map((p) => p.containerPort);
    const ports = new Set([
      ...(declared.length ? declared : ProbeManager.probePorts(c.spec)),
      ...(IMAGE_PORTS[imageRepoName(c.spec.image ?? '')] ?? []),
    ]);
    return { kind: 'assumed', ports: [...ports].sort((a, b) => a - b) };
  }

  /** GET `path` on `port` of the Pod: null when nothing listens, else the server's answer (images/web-servers.ts). */
  httpGet(rec: PodRecord, port: number, path: string): (HttpAnswer & { assumed: boolean }) | null {
    const c = this.listener(rec, port);
    if (!c) return null;
    if (c.process?.listenPorts) return { status: 200, body: '', assumed: true };
    return httpAnswer(c.spec, path, rec.name);
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
  upsert(pod: Pod): void {
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
    const prevSpec = rec.pod.spec;
    rec.pod = pod;
    if (pod.metadata.deletionTimestamp && !rec.terminating) return this.beginTermination(rec);
    // most updates are status writes: the stored spec is then the same (interned, frozen) object
    if (pod.spec !== prevSpec) this.containersChanged(rec, pod);
  }

  /**
   * computePodActions' containerChanged: a container whose spec changed (in a Pod only its image
   * can: `kubectl set image pod/…`) is killed — `Killing: Container web definition changed, will
   * be restarted` — and started again with the new spec, whatever the restartPolicy; one that is
   * not running starts with the new spec at the next sync (its back-off key, keyed by the spec's
   * hash, is a new one). Init containers as computeInitContainerActions: a running sidecar is
   * killed (`Init container side definition changed`) and started again; a running init
   * container that is not a sidecar runs on to its end.
   */
  private containersChanged(rec: PodRecord, pod: Pod): void {
    if (rec.terminating || rec.done) return;
    let resync = false;
    for (const c of this.allContainers(rec)) {
      const next = ((c.init ? pod.spec?.initContainers : pod.spec?.containers) ?? []).find((s) => s.name === c.name);
      if (!next || next.image === c.spec.image) continue;
      c.spec = next;
      c.specHash = (c.specHash ?? 0) + 1;
      // computeInitContainerActions: a running init container that is not a sidecar is left to
      // finish (a later start, after a failure, takes the new spec); a running sidecar is killed
      // with "Init container c definition changed" (no ", will be restarted" there)
      if (c.init && !c.sidecar && c.current.kind === 'running') continue;
      if (c.current.kind === 'running' && c.containerID) {
        this.killContainer(
          rec,
          c,
          c.init ? `Init container ${c.name} definition changed` : `Container ${c.name} definition changed, will be restarted`,
          rec.pod.spec?.terminationGracePeriodSeconds ?? 30,
          {
            always: true,
          },
        );
      } else if (!(c.init && c.current.kind === 'terminated' && c.current.exitCode === 0)) resync = true;
    }
    if (resync) this.requestSync(rec);
  }

  /** The Pod is gone from the apiserver (SyncPodKill of an orphan): stop everything quietly. */
  remove(pod: Pod): void {
    const rec = this.pods.get(pod.metadata.uid ?? '');
    if (!rec) return;
    rec.deleted = true;
    rec.gen++;
    this.cancelTimers(rec);
    for (const c of this.allContainers(rec)) if (c.containerID) this.runtime.removeContainer(c.containerID);
    if (rec.sandbox) this.runtime.stopPodSandbox(rec.sandbox.id, this.ref(rec));
    this.pods.delete(rec.uid);
    this.status.forget(rec.uid);
    this.probes.removePod(rec.uid);
    this.volumes.forget(rec.uid);
  }

  /** Power loss: forget every Pod (the runtime is wiped separately). */
  reset(): void {
    this.pods.clear();
    this.syncTimers.clear();
    this.retryTimers.clear();
    this.crashBackOff.clear();
  }

  private newRecord(pod: Pod): PodRecord {
    const now = this.ctx.clock.nowRFC3339();
    const prev: Record<string, ContainerStatus> = {};
    for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) prev[s.name] = s;
    const hasInit = (pod.spec?.initContainers ?? []).length > 0;
    const make = (spec: ContainerRecord['spec'], init: boolean): ContainerRecord => {
      const p = prev[spec.name];
      const ran = !!(p?.containerID || p?.state?.running || p?.state?.terminated);
      const waiting = { kind: 'waiting' as const, reason: hasInit ? 'PodInitializing' : 'ContainerCreating' };
      const c: ContainerRecord = {
        name: spec.name,
        spec,
        current: waiting,
        restartCount: p?.restartCount ?? 0,
        everStarted: ran,
        logs: [],
        init,
        sidecar: init && spec.restartPolicy === 'Always',
      };
      if (ran) {
        if (init && !c.sidecar && p?.state?.terminated?.exitCode === 0) {
          // a completed init container stays completed across a reboot
          // the stored state as the record's, without the "containerd://" prefix the status adds
          c.current = { kind: 'terminated', ...unprefixed(p.state.terminated as TerminatedInfo) };
          return c;
        }
        // the node rebooted under this container: it is gone, as kubelet reports after a reboot
        const was = p?.state?.terminated as TerminatedInfo | undefined;
        c.last = (was && unprefixed(was)) ?? {
          exitCode: 255,
          reason: 'Unknown',
          startedAt: p?.state?.running?.startedAt,
          finishedAt: now,
          containerID: p?.containerID?.replace(/^containerd:\/\//, ''),
        };
      }
      return c;
    };
    return {
      uid: pod.metadata.uid ?? '',
      namespace: pod.metadata.namespace ?? '',
      name: pod.metadata.name,
      pod,
      startTime: pod.status?.startTime ?? now,
      containers: (pod.spec?.containers ?? []).map((spec) => make(spec, false)),
      initContainers: (pod.spec?.initContainers ?? []).map((spec) => make(spec, true)),
      gen: 0,
      busy: false,
      pendingSync: false,
      terminating: false,
      done: false,
      terminal: false,
      deleted: false,
    };
  }

  private cancelTimers(rec: PodRecord): void {
    this.timers.cancel(this.syncTimers.get(rec.uid));
    this.syncTimers.delete(rec.uid);
    for (const c of this.allContainers(rec)) {
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
    this.syncTimers.set(
      rec.uid,
      this.timers.set(
        delayMs,
        () => {
          this.syncTimers.delete(rec.uid);
          this.syncPass(rec, 0);
        },
        deadline
          ? { deadline: true, label: deadline, object: `Pod/${rec.namespace}/${rec.name}` }
          : { label: `kubelet/${this.nodeName}: sync ${rec.namespace}/${rec.name}` },
      ),
    );
  }

  private retryAt(rec: PodRecord, c: ContainerRecord, atMs: number, label: string): void {
    const k = `${rec.uid}/${c.name}`;
    this.timers.cancel(this.retryTimers.get(k));
    this.retryTimers.set(
      k,
      this.timers.set(
        Math.max(0, atMs - this.ctx.clock.now()),
        () => {
          this.retryTimers.delete(k);
          this.requestSync(rec);
        },
        { deadline: true, label, object: `Pod/${rec.namespace}/${rec.name}` },
      ),
    );
  }

  /** One SyncPod pass from app container index `i`; async steps continue the same pass. */
  private syncPass(rec: PodRecord, i: number): void {
    if (rec.deleted || rec.terminating || rec.done || rec.busy) return;
    this.probes.addPod(rec);
    const stores = this.volumes.ensure(rec.pod, () => this.requestSync(rec));
    if (!stores) return this.finishPass(rec);
    rec.volumes = stores;
    if (!rec.sandbox) return this.createSandbox(rec);
    const gen = rec.gen;
    // init containers, in order (computeInitContainerActions)
    for (const c of rec.initContainers) {
      if (c.sidecar) {
        if (c.current.kind === 'running') {
          if (this.probes.started(rec, c)) continue;
          return this.finishPass(rec);
        }
        const d = this.decide(rec, c, true);
        if (d === 'start') return this.startContainer(rec, c, gen, () => this.syncPass(rec, 0));
        return this.finishPass(rec);
      }
      if (c.current.kind === 'terminated' && c.current.exitCode === 0) continue;
      if (c.current.kind === 'running') return this.finishPass(rec);
      const d = this.decide(rec, c, (rec.pod.spec?.restartPolicy ?? 'Always') !== 'Never');
      if (d === 'start') return this.startContainer(rec, c, gen, () => this.finishPass(rec));
      if (d === 'none') {
        // restartPolicy Never and an init container failed: the Pod failed
        rec.done = true;
        rec.terminal = true;
        this.volumes.podTerminated(rec.uid);
        if (rec.sandbox) this.runtime.stopPodSandbox(rec.sandbox.id, this.ref(rec));
        rec.sandbox = undefined;
      }
      return this.finishPass(rec);
    }
    for (; i < rec.containers.length; i++) {
      const c = rec.containers[i];
      if (c.current.kind === 'running') continue;
      const exitCode = c.current.kind === 'terminated' ? c.current.exitCode : (c.last?.exitCode ?? 0);
      const d = this.decide(rec, c, this.shouldRestart(rec, exitCode));
      if (d === 'start') {
        const next = i + 1;
        return this.startContainer(rec, c, gen, () => this.syncPass(rec, next));
      }
    }
    this.finishPass(rec);
  }

  /**
   * Whether to start a container now (first start, a retry after a start error, or a restart
   * allowed by the crash back-off — doBackOff), or to wait in CrashLoopBackOff.
   */
  private decide(rec: PodRecord, c: ContainerRecord, restart: boolean): 'start' | 'backoff' | 'none' {
    const cur = c.current;
    if (cur.kind === 'waiting' && !(c.last && c.finishedAtMs !== undefined) && !c.probeKill) return 'start';
    if (!restart && !c.probeKill?.always) return 'none';
    // getStableKey: pod name, namespace, UID, container name and the container spec's hash
    const key = `${rec.name}_${rec.namespace}_${rec.uid}_${c.name}_${c.specHash ?? 0}`;
    const finishedAt = c.finishedAtMs ?? this.ctx.clock.now();
    if (c.probeKill) {
      // the killed container was still running in SyncPod's podStatus: doBackOff looks at the run before
      const ref = c.probeKill.backoffRef;
      c.probeKill = undefined;
      if (ref === undefined) return 'start';
      if (!this.crashBackOff.isInBackOffSince(key, ref)) {
        this.crashBackOff.next(key, ref);
        return 'start';
      }
    } else if (!this.crashBackOff.isInBackOffSince(key, finishedAt)) {
      this.crashBackOff.next(key, finishedAt);
      return 'start';
    }
    const delay = this.crashBackOff.get(key);
    // doBackOff records the event on every sync that finds the container in back-off
    this.recorder.event(
      containerRef(rec.pod, c.name),
      'Warning',
      'BackOff',
      `Back-off restarting failed container ${c.name} in pod ${formatPod(rec.pod)}`,
    );
    if (cur.kind !== 'waiting' || cur.reason !== 'CrashLoopBackOff') {
      if (cur.kind === 'terminated') c.last = { ...cur };
      c.current = {
        kind: 'waiting',
        reason: 'CrashLoopBackOff',
        message: `back-off ${formatGoDuration(delay)} restarting failed container=${c.name} pod=${formatPod(rec.pod)}`,
      };
      this.retryAt(
        rec,
        c,
        finishedAt + delay,
        `back-off ${formatGoDuration(delay)} restarting failed container ${c.name} in pod ${rec.namespace}/${rec.name}`,
      );
    }
    return 'backoff';
  }

  /** Kills a container that failed its liveness or startup probe (computePodActions → killContainer). */
  private killForProbe(rec: PodRecord, c: ContainerRecord, type: ProbeType): void {
    if (rec.terminating || rec.deleted || c.current.kind !== 'running' || !c.containerID) return;
    const restart = c.init || (rec.pod.spec?.restartPolicy ?? 'Always') !== 'Never';
    const probe: ProbeSpec | undefined = c.spec[`${type}Probe`];
    const graceS = probe?.terminationGracePeriodSeconds ?? rec.pod.spec?.terminationGracePeriodSeconds ?? 30;
    this.killContainer(rec, c, `Container ${c.name} failed ${type} probe${restart ? ', will be restarted' : ''}`, graceS, {
      backoffRef: c.last ? Date.parse(c.last.finishedAt) : undefined,
    });
  }

  /**
   * killContainer of computePodActions' ContainersToKill: the Killing event with `message`, a
   * stop with `graceS` (at least 2 s, minimumGracePeriodInSeconds), then the next sync pass
   * starts it again when `kill` allows (restart policy, back-off; `always` for a changed spec).
   */
  private killContainer(
    rec: PodRecord,
    c: ContainerRecord,
    message: string,
    graceS: number,
    kill: NonNullable<ContainerRecord['probeKill']>,
  ): void {
    if (rec.terminating || rec.deleted || c.current.kind !== 'running' || !c.containerID) return;
    const restart = kill.always || c.init || (rec.pod.spec?.restartPolicy ?? 'Always') !== 'Never';
    this.recorder.event(containerRef(rec.pod, c.name), 'Normal', 'Killing', message);
    c.probeKill = kill;
    const gen = rec.gen;
    rec.busy = true;
    this.runtime.stopContainer(c.containerID, this.ref(rec), Math.max(graceS, 2) * 1000, c.process?.ignoresSigterm ?? false, (rc) => {
      if (rec.gen !== gen || rec.deleted) return;
      rec.busy = false;
      if (c.current.kind === 'running' && c.containerID === rc.id) {
        c.current = { kind: 'terminated', ...this.terminatedInfo(rc) };
        c.finishedAtMs = rc.finishedAt;
      }
      if (!restart) c.probeKill = undefined;
      // SyncPod kills and starts again in one pass (computePodActions: ContainersToStart): the
      // exited container is only seen by the next sync's status, next to its successor
      if (!restart) this.status.setPodStatus(rec);
      this.syncPass(rec, 0);
    });
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
      this.volumes.podTerminated(rec.uid);
      if (rec.sandbox) this.runtime.stopPodSandbox(rec.sandbox.id, this.ref(rec));
      rec.sandbox = undefined;
    }
    this.status.setPodStatus(rec);
    if (rec.pendingSync) {
      rec.pendingSync = false;
      this.requestSync(rec);
    } else if (!rec.done && this.allContainers(rec).some((c) => c.current.kind === 'waiting' && BACKOFF_REASONS.has(c.current.reason))) {
      // the sync failed (ErrCrashLoopBackOff / ErrImagePullBackOff): completeWork requeues the
      // Pod after backOffPeriod with jitter (pod_workers.go), and that sync hits the back-off again
      this.requestSync(rec, workerBackOffMs(this.ctx.rng.float()));
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

  /** kuberuntime startContainer: pull, generate the config (env), create, start. `then` continues the pass. */
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
        if (r.reason === 'ErrImagePull')
          this.requestSync(rec, 1_000, `kubelet/${this.nodeName}: resync ${rec.namespace}/${rec.name} after ErrImagePull`);
        if (r.reason === 'ImagePullBackOff' && r.retryAt !== undefined) {
          this.retryAt(rec, c, r.retryAt, `back-off pulling image ${c.spec.image} for ${rec.namespace}/${rec.name}`);
        }
        return then();
      }
      c.image = r.image.ref;
      c.imageID = r.image.repoDigest;
      const sandbox = rec.sandbox;
      if (!sandbox) return void (rec.busy = false);
      // generateContainerConfig → makeEnvironmentVariables
      const get = (res: 'configmaps' | 'secrets', ns: string, name: string) =>
        this.client.resource<ConfigMap | Secret>('', res).get(ns, name, { quiet: true });
      const env = makeEnvironmentVariables(rec.pod, c.spec as never, get, sandbox.ip, this.hostIP());
      if (!env.ok) {
        rec.busy = false;
        this.recorder.event(ref, 'Warning', 'Failed', `Error: ${env.message}`);
        c.current = { kind: 'waiting', reason: 'CreateContainerConfigError', message: env.message };
        // the pod worker's error requeue: backOffPeriod 10 s with jitter factor 0.5
        this.requestSync(
          rec,
          workerBackOffMs(this.ctx.rng.float()),
          `kubelet/${this.nodeName}: resync ${rec.namespace}/${rec.name} after CreateContainerConfigError`,
        );
        return then();
      }
      this.runtime.createContainer(sandbox, this.ref(rec), c.name, r.image, (created) => {
        if (stale()) {
          rec.busy = false;
          return this.runtime.removeContainer(created.id);
        }
        if (c.everStarted) c.restartCount++;
        c.everStarted = true;
        this.recorder.event(ref, 'Normal', 'Created', `Created container: ${c.name}`);
        const vars = {
          PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
          HOSTNAME: rec.name,
          ...env.env,
          HOME: '/root',
        };
        const mounts: Mount[] = [];
        for (const m of (c.spec.volumeMounts ?? []) as { name: string; mountPath: string; readOnly?: boolean; subPath?: string }[]) {
          const store = rec.volumes?.get(m.name);
          if (store) mounts.push({ path: m.mountPath, store, readOnly: m.readOnly, subPath: m.subPath });
        }
        const fs = new ContainerFS(mounts, rec.name, kubeletManagedFiles(rec.pod, sandbox.ip));
        const logs: string[] = [];
        const proc = new ContainerProcess(
          c.spec,
          { fs, vars, hostname: rec.name, now: () => this.ctx.clock.now(), inCluster: inClusterFor(this.ctx, rec.pod, c.name) },
          (line) => {
            logs.push(line);
            if (logs.length > 5000) logs.splice(0, logs.length - 5000);
          },
        );
        this.runtime.startContainer(
          created.id,
          this.ref(rec),
          proc,
          () => {
            rec.busy = false;
            if (stale()) return this.runtime.removeContainer(created.id);
            this.recorder.event(ref, 'Normal', 'Started', `Started container ${c.name}`);
            if (c.current.kind === 'terminated') c.last = { ...c.current };
            if (c.containerID && c.containerID !== created.id) this.runtime.removeContainer(c.containerID);
            if (c.containerID) c.previousLogs = c.logs;
            c.logs = logs;
            c.containerID = created.id;
            c.process = proc;
            c.fs = fs;
            c.finishedAtMs = undefined;
            c.startedAtMs = created.startedAt ?? this.ctx.clock.now();
            c.current = { kind: 'running', startedAt: iso(c.startedAtMs) };
            this.status.setPodStatus(rec);
            then();
          },
          (exited) => this.onContainerExit(rec, c, exited),
        );
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
      containerID: rc.id,
      exitCode: rc.exitCode ?? 0,
      reason: rc.reason ?? 'Completed',
      startedAt: rc.startedAt !== undefined ? iso(rc.startedAt) : undefined,
      finishedAt: iso(rc.finishedAt ?? this.ctx.clock.now()),
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
    this.probes.stopLivenessAndStartup(rec);
    const graceS = rec.pod.metadata.deletionGracePeriodSeconds ?? rec.pod.spec?.terminationGracePeriodSeconds ?? 30;
    const graceMs = Math.max(graceS, 2) * 1000; // minimumGracePeriodInSeconds = 2
    let stopping = 0;
    for (const c of this.allContainers(rec)) {
      if (c.current.kind !== 'running' || !c.containerID) continue;
      stopping++;
      this.recorder.event(containerRef(rec.pod, c.name), 'Normal', 'Killing', `Stopping container ${c.name}`);
      this.runtime.stopContainer(c.containerID, this.ref(rec), graceMs, c.process?.ignoresSigterm ?? false, (rc) => {
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
    if (rec.deleted || rec.terminal || this.allContainers(rec).some((c) => c.current.kind === 'running')) return;
    rec.terminal = true;
    rec.done = true;
    this.volumes.podTerminated(rec.uid);
    const now = this.ctx.clock.nowRFC3339();
    for (const c of rec.containers) {
      if (c.current.kind === 'waiting') {
        // never (re)started in this boot: upstream reports it as ContainerStatusUnknown
        c.current = {
          kind: 'terminated',
          exitCode: 137,
          reason: 'ContainerStatusUnknown',
          message: 'The container could not be located when the pod was terminated',
          finishedAt: now,
        };
      }
    }
    if (rec.sandbox) this.runtime.stopPodSandbox(rec.sandbox.id, this.ref(rec));
    rec.sandbox = undefined;
    this.status.deletePod(rec);
  }
}

/**
 * /etc/hosts and /etc/resolv.conf of a Pod's containers (kubelet_pods.go makeMounts →
 * ensureHostsFile, GeneratePodHostNameAndDomain; dns.go GetPodDNS). hostNetwork Pods keep the
 * node's /etc/hosts.
 */
function kubeletManagedFiles(pod: Pod, podIP: string): KubeletManagedFiles {
  const spec = (pod.spec ?? {}) as {
    hostname?: string;
    subdomain?: string;
    hostNetwork?: boolean;
    hostAliases?: { ip?: string; hostnames?: string[] }[];
  };
  const hostName = (spec.hostname || pod.metadata.name).slice(0, 63);
  const domain = spec.subdomain ? `${spec.subdomain}.${pod.metadata.namespace ?? 'default'}.svc.${CLUSTER_DOMAIN}` : '';
  return {
    hosts: spec.hostNetwork ? undefined : managedHostsFile(podIP ? [podIP] : [], hostName, domain, spec.hostAliases ?? []),
    resolvConf: formatResolvConf(podDNSConfig(pod)),
  };
}

/** A status's terminated state as a record holds it: its containerID without the runtime's `containerd://` prefix. */
function unprefixed(t: TerminatedInfo): TerminatedInfo {
  return t.containerID ? { ...t, containerID: t.containerID.replace(/^containerd:\/\//, '') } : t;
}
