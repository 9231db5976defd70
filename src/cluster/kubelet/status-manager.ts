/**
 * The kubelet's view of each Pod it runs, and how it becomes `pod.status`:
 * generateAPIPodStatus / getPhase (pkg/kubelet/kubelet_pods.go), the condition generators
 * (pkg/kubelet/status/generate.go) and the status manager (pkg/kubelet/status/status_manager.go),
 * which writes status through the pods/status subresource and, once a deleted Pod's containers
 * are gone, deletes it with gracePeriodSeconds 0 (canBeDeleted → Delete with a UID
 * precondition).
 *
 * Condition order and texts as v1.33 writes them: PodReadyToStartContainers, Initialized,
 * Ready, ContainersReady, PodScheduled; "containers with unready status: [nginx]"; reason
 * ContainersNotReady / PodCompleted. Times are RFC 3339 strings of simulated time.
 */
import { deepEqual } from '../api/types';
import type { Pod } from '../api/objects';
import type { Container, PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import { StatusError } from '../api/errors';
import type { ResourceClient } from '../client/clientset';
import type { ComponentContext } from '../component-context';
import type { ContainerProcess } from '../userland/container-process';
import type { ContainerFS } from '../userland/filesystem';
import type { Sandbox } from './runtime';
import type { OwnedTimers } from './timers';

/** A terminated container run (containerStatuses[].state.terminated). */
export interface TerminatedInfo {
  containerID?: string;
  exitCode: number;
  reason: string;
  message?: string;
  startedAt?: string;
  finishedAt: string;
}

/** The current state of a container (containerStatuses[].state). */
export type ContainerCurrent =
  | { kind: 'waiting'; reason: string; message?: string }
  | { kind: 'running'; startedAt: string }
  | ({ kind: 'terminated' } & TerminatedInfo);

/** The kubelet's record of one container of a Pod. */
export interface ContainerRecord {
  name: string;
  spec: Container;
  /** an init container (spec.initContainers); `sidecar` when its restartPolicy is Always */
  init?: boolean;
  sidecar?: boolean;
  current: ContainerCurrent;
  last?: TerminatedInfo;
  restartCount: number;
  /** true once a container for this name was created (this boot or before a reboot). */
  everStarted: boolean;
  containerID?: string;
  /** normalized image reference and repo digest, once pulled */
  image?: string;
  imageID?: string;
  /** the running process and the container's files (this run) */
  process?: ContainerProcess;
  fs?: ContainerFS;
  /** the current run's log lines and the previous run's (kubectl logs [--previous]) */
  logs: string[];
  previousLogs?: string[];
  /** simulated ms when the current run started / exited (probes' initialDelay; crash back-off) */
  startedAtMs?: number;
  finishedAtMs?: number;
  /**
   * set while killing for a failed liveness/startup probe (the finish time of the run before:
   * doBackOff's reference) or for a changed definition (`always`: restarted whatever the
   * restartPolicy, with no back-off: its back-off key carries the new spec's hash)
   */
  probeKill?: { backoffRef?: number; always?: boolean };
  /** how many times the container's spec changed while the Pod ran (stands for its hash in the back-off key) */
  specHash?: number;
}

/** The kubelet's record of one Pod (its pod worker state). */
export interface PodRecord {
  uid: string;
  namespace: string;
  name: string;
  pod: Pod;
  startTime: string;
  sandbox?: Sandbox;
  /** last Pod IP, kept after the sandbox is gone */
  podIP?: string;
  containers: ContainerRecord[];
  initContainers: ContainerRecord[];
  /** the Pod's volumes once set up (volumes.ts), by volume name */
  volumes?: Map<string, import('../userland/filesystem').FileStore>;
  /** bumped on termination / removal; async callbacks of an older generation are stale */
  gen: number;
  busy: boolean;
  pendingSync: boolean;
  terminating: boolean;
  /** no container will run again (terminal phase or termination finished) */
  done: boolean;
  /** the kubelet is killing or has killed everything (deletion) */
  terminal: boolean;
  deleted: boolean;
}

const OWNED = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);

/** True once every regular init container exited 0 and every sidecar has started. */
export function initDone(rec: PodRecord, started: (c: ContainerRecord) => boolean = (c) => c.current.kind === 'running'): boolean {
  return (rec.initContainers ?? []).every((c) => (c.sidecar ? started(c) : c.current.kind === 'terminated' && c.current.exitCode === 0));
}

/** getPhase (pkg/kubelet/kubelet_pods.go), init containers included. */
export function getPhase(rec: PodRecord): string {
  const policy = rec.pod.spec?.restartPolicy ?? 'Always';
  if (!initDone(rec, (c) => c.current.kind === 'running' || !!c.everStarted)) {
    const failed = (rec.initContainers ?? []).some(
      (c) =>
        !c.sidecar &&
        ((c.current.kind === 'terminated' && c.current.exitCode !== 0) ||
          (c.current.kind === 'waiting' && c.last && c.last.exitCode !== 0)),
    );
    if (failed && (policy === 'Never' || rec.terminal)) return 'Failed';
    return 'Pending';
  }
  let running = 0,
    waiting = 0,
    stopped = 0,
    succeeded = 0;
  for (const c of rec.containers) {
    if (c.current.kind === 'running') running++;
    else if (c.current.kind === 'terminated') {
      stopped++;
      if (c.current.exitCode === 0) succeeded++;
    } else if (c.last) stopped++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (rec.terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** What the prober says about a container (prober_manager.go UpdatePodStatus). */
export interface ProbeStatus {
  started(rec: PodRecord, c: ContainerRecord): boolean;
  ready(rec: PodRecord, c: ContainerRecord): boolean;
}

const NO_PROBES: ProbeStatus = { started: (_r, c) => c.current.kind === 'running', ready: (_r, c) => c.current.kind === 'running' };

function cond(
  type: string,
  status: string,
  prev: PodStatus | undefined,
  now: string,
  reason?: string,
  message?: string,
): Record<string, unknown> {
  const old = (prev?.conditions ?? []).find((c) => c.type === type);
  const c: Record<string, unknown> = {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now,
  };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

function qosClass(pod: Pod): string {
  let any = false;
  let guaranteed = true;
  for (const c of pod.spec?.containers ?? []) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || q !== l) guaranteed = false;
    }
  }
  return !any ? 'BestEffort' : guaranteed ? 'Guaranteed' : 'Burstable';
}

function stateJSON(s: ContainerCurrent): Record<string, unknown> {
  if (s.kind === 'waiting') return { waiting: s.message ? { reason: s.reason, message: s.message } : { reason: s.reason } };
  if (s.kind === 'running') return { running: { startedAt: s.startedAt } };
  return { terminated: terminatedJSON(s) };
}

function terminatedJSON(t: TerminatedInfo): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (t.containerID) o.containerID = `containerd://${t.containerID}`;
  o.exitCode = t.exitCode;
  o.finishedAt = t.finishedAt;
  if (t.message) o.message = t.message;
  o.reason = t.reason;
  if (t.startedAt) o.startedAt = t.startedAt;
  return o;
}

function containerStatusJSON(c: ContainerRecord, ready: boolean, started: boolean): Record<string, unknown> {
  return {
    ...(c.containerID && c.current.kind !== 'waiting'
      ? { containerID: `containerd://${c.containerID}` }
      : c.containerID && c.last
        ? { containerID: `containerd://${c.containerID}` }
        : {}),
    image: c.image ?? c.spec.image ?? '',
    imageID: c.imageID ?? '',
    lastState: c.last ? { terminated: terminatedJSON(c.last) } : {},
    name: c.name,
    ready,
    restartCount: c.restartCount,
    started,
    state: stateJSON(c.current),
  };
}

/** generateAPIPodStatus: the status the kubelet would post for this record now. */
export function generateAPIPodStatus(
  rec: PodRecord,
  hostIP: string,
  now: string,
  probes: ProbeStatus = NO_PROBES,
): Record<string, unknown> {
  const prev = rec.pod.status;
  const phase = getPhase(rec);
  const inits = rec.initContainers ?? [];
  const readyOf = new Map<ContainerRecord, boolean>();
  for (const c of [...inits, ...rec.containers]) {
    readyOf.set(c, c.init && !c.sidecar ? c.current.kind === 'terminated' && c.current.exitCode === 0 : probes.ready(rec, c));
  }
  const unready = [...inits.filter((c) => c.sidecar), ...rec.containers].filter((c) => !readyOf.get(c)).map((c) => c.name);
  const incomplete = inits.filter((c) => !c.sidecar && !(c.current.kind === 'terminated' && c.current.exitCode === 0)).map((c) => c.name);
  const sandboxReady = !!rec.sandbox?.ready && !rec.done;
  const conditions: (Record<string, unknown> | PodCondition)[] = [
    cond('PodReadyToStartContainers', sandboxReady ? 'True' : 'False', prev, now),
  ];
  if (incomplete.length && phase !== 'Succeeded')
    conditions.push(
      cond('Initialized', 'False', prev, now, 'ContainersNotInitialized', `containers with incomplete status: [${incomplete.join(' ')}]`),
    );
  else conditions.push(cond('Initialized', 'True', prev, now));
  if (phase === 'Succeeded') {
    conditions.push(cond('Ready', 'False', prev, now, 'PodCompleted'), cond('ContainersReady', 'False', prev, now, 'PodCompleted'));
  } else if (unready.length) {
    const msg = `containers with unready status: [${unready.join(' ')}]`;
    conditions.push(
      cond('Ready', 'False', prev, now, 'ContainersNotReady', msg),
      cond('ContainersReady', 'False', prev, now, 'ContainersNotReady', msg),
    );
  } else {
    conditions.push(cond('Ready', 'True', prev, now), cond('ContainersReady', 'True', prev, now));
  }
  conditions.push(cond('PodScheduled', 'True', prev, now));
  for (const c of prev?.conditions ?? []) if (!OWNED.has(c.type)) conditions.push(c);
  const status: Record<string, unknown> = {
    conditions,
    containerStatuses: rec.containers.map((c) => containerStatusJSON(c, !!readyOf.get(c), probes.started(rec, c))),
    hostIP,
    hostIPs: [{ ip: hostIP }],
  };
  if (inits.length) status.initContainerStatuses = inits.map((c) => containerStatusJSON(c, !!readyOf.get(c), probes.started(rec, c)));
  status.phase = phase;
  const ip = rec.sandbox?.ip ?? rec.podIP;
  if (ip) {
    status.podIP = ip;
    status.podIPs = [{ ip }];
  }
  status.qosClass = prev?.qosClass ?? qosClass(rec.pod);
  status.startTime = rec.startTime;
  return status;
}

/**
 * Writes Pod status (coalesced per instant) and performs the final delete of terminated Pods.
 * Status writes carry the kubelet's relay participant.
 */
export class StatusManager {
  private dirty = new Set<PodRecord>();
  private flushScheduled = false;
  private lastWritten = new Map<string, unknown>();
  /** the prober's view of started/ready (set by the kubelet once its probe manager exists) */
  probes: ProbeStatus | null = null;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly pods: ResourceClient<Pod>,
    private readonly timers: OwnedTimers,
    private readonly hostIP: () => string,
  ) {}

  /** Marks a Pod's status for writing at the end of the current instant. */
  setPodStatus(rec: PodRecord): void {
    this.dirty.add(rec);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.timers.set(0, () => {
      this.flushScheduled = false;
      const recs = [...this.dirty];
      this.dirty.clear();
      for (const r of recs) this.syncPod(r);
    });
  }

  /** Writes a Pod's status now when it changed. Returns false when the Pod is gone. */
  syncPod(rec: PodRecord): boolean {
    if (rec.deleted) return false;
    this.dirty.delete(rec);
    const status = generateAPIPodStatus(rec, this.hostIP(), this.ctx.clock.nowRFC3339(), this.probes ?? undefined);
    const cmp = {
      ...status,
      conditions: (status.conditions as Record<string, unknown>[]).map((c) => ({ ...c, lastTransitionTime: undefined })),
    };
    if (deepEqual(this.lastWritten.get(rec.uid), cmp)) return true;
    // the status is JSON built in the kubelet's field order (conditions' lastProbeTime is null, as Go marshals it)
    const obj: Pod = { ...rec.pod, metadata: { ...rec.pod.metadata, resourceVersion: undefined }, status: status as PodStatus };
    try {
      const out = this.pods.updateStatus(obj, { summary: `update status Pod ${rec.namespace}/${rec.name}: ${status.phase}` });
      rec.pod = out;
      this.lastWritten.set(rec.uid, cmp);
      return true;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return false;
      throw err;
    }
  }

  /** The final delete (status_manager.go canBeDeleted): grace 0, UID precondition. */
  deletePod(rec: PodRecord): void {
    this.syncPod(rec);
    try {
      this.pods.delete(rec.namespace, rec.name, {
        gracePeriodSeconds: 0,
        preconditions: { uid: rec.uid },
        summary: `delete Pod ${rec.namespace}/${rec.name} (grace 0: containers stopped)`,
      });
    } catch (err) {
      if (!(err instanceof StatusError) || (err.code !== 404 && err.code !== 409)) throw err;
    }
  }

  /** Forgets a Pod (removed from the node). */
  forget(uid: string): void {
    this.lastWritten.delete(uid);
  }

  /** Forgets everything (power loss). */
  reset(): void {
    this.dirty.clear();
    this.flushScheduled = false;
    this.lastWritten.clear();
  }
}
