/**
 * The types ClusterHost (cluster-api.ts) and its parts (tool-calls.ts, time-loop.ts,
 * session-log.ts) take: what they need of the engine's `Cluster`, of the host and of each other,
 * and the worker's dependencies (timers, wall clock, printers).
 */
import type { KObject } from '../cluster/api/types';
import type { RelayHop } from '../cluster/relay/relay-event';
import type { Deadline } from '../cluster/sim/clock';
import type { ApplyResult } from '../cluster/kubectl/apply';
import type { ResourceRow } from '../cluster/kubectl/printers';
import type { KubectlResult } from '../cluster/kubectl/command';
import type { GetWatchSession } from '../cluster/kubectl/cmd/get-watch';
import type { SchedulingDecision } from '../cluster/scheduler/decision';
import type { DnsLookupResult, TrafficRequest, TrafficResult, WorkloadLoad } from '../cluster/userland/traffic-types';
import type { UserControllerStatus } from '../cluster/user-controller/types';
import type { Step } from '../cluster/scenario/scenario';
import type { ActingAs, SessionLog } from './session';
import type { TickBatch } from './protocol';

/** What the host needs of the engine's `Cluster` (cluster.ts); the real class satisfies it. */
export interface ClusterLike {
  readonly options: { startMs?: number };
  readonly timings: { profile: string };
  readonly clock: {
    runUntil(untilMs: number, stop?: () => boolean): boolean;
    nextAt(): number | undefined;
    nextDeadlineAt(): number | undefined;
    readonly held?: boolean;
  };
  /** The learner's controllers (cluster/user-controller/manager.ts); absent from fakes. */
  readonly userControllers?: { version: number; onIdle: (() => void) | null; list(): UserControllerStatus[]; stopAll(): void };
  readonly relay: { since(afterSeq: number): RelayHop[]; readonly lastSeq: number };
  /** `opts.as`: made as that identity, the kubectl user impersonating it (cluster.ts clientAs). */
  apply(text: string, opts?: { dryRun?: 'server' | 'client' | false; as?: ActingAs }): ApplyResult[];
  step(): boolean;
  killNode(name: string): void;
  restoreNode(name: string): void;
  addNode(cfg: { name: string }): void;
  removeNode(name: string): void;
  deletePod(namespace: string, name: string, opts?: { as?: ActingAs }): void;
  readonly images: { markMissing(image: string): void; markPresent(image: string): void; missingImages(): string[] };
  objects(): KObject[];
  events(): KObject[];
  onChange(l: (c: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; resource: string; object: KObject }) => void): () => void;
  deadlines(): Deadline[];
  now(): number;
  /** `opts.as`: the kubeconfig's impersonation (a line's own `--as` wins). */
  kubectl(line: string, stdin?: string, onWatch?: (session: GetWatchSession) => void, opts?: { as?: ActingAs }): KubectlResult;
  readonly scheduler: { decisionFor(namespace: string, name: string): SchedulingDecision | undefined };
  readonly kubeProxies: ReadonlyMap<string, { rules(): string }>;
  /** the kubelets by node name (Kubelet.containerInfo: what a container serves, known or assumed) */
  readonly kubelets?: ReadonlyMap<
    string,
    { containerInfo(namespace: string, name: string): { name: string; serves?: { kind: 'known' | 'assumed' | 'none'; ports: number[] } }[] }
  >;
  /** traffic/nslookup.ts through cluster DNS */
  dnsLookup(name: string, fromNamespace: string): DnsLookupResult;
  /** traffic/traffic.ts */
  sendRequests(request: TrafficRequest): TrafficResult[];
  /** traffic/load.ts */
  readonly loads: { set(load: WorkloadLoad): void; list(): WorkloadLoad[] };
}

/** Cluster options the UI may choose (ClusterHost.setControlPlaneReplicas); everything else is fixed. */
export interface HostClusterOptions {
  /** Control-plane nodes (1, or 3 for an HA control plane: cluster.ts `controlPlane.replicas`). */
  controlPlaneReplicas: number;
}

export interface HostDeps {
  /** A fresh cluster with `opts` (absent: the defaults, one control-plane node). */
  createCluster(opts?: HostClusterOptions): ClusterLike;
  /**
   * The origin of the clock the UI shows (ms since the epoch): batches carry `simMs` = now − startMs.
   * The worker passes the cluster's boot (cluster.ts BOOT_MS before the engine's time zero), so the
   * clock agrees with the nodes' AGE.
   */
  startMs: number;
  /** The engine's printer (kubectl/printers.ts); `nowMs` is simulated now, for AGE. */
  describeRow(obj: KObject, nowMs: number): ResourceRow;
  /** Resource name for a kind (snapshots carry objects without their resource). */
  resourceOf(obj: KObject): string;
  /** Wall clock, ms (performance.now in the worker). */
  wallNow(): number;
  setInterval(fn: () => void, ms: number): unknown;
  /**
   * Schedules a continuation slice (time-slice.ts) when a tick could not run all its timers
   * within one slice; without it (tests), a tick runs one slice of {@link TICK_BUDGET_MS}.
   */
  setTimeout?(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** What the time loop (time-loop.ts) needs of ClusterHost. */
export interface TimeHost {
  /** The current cluster (a reset replaces it). */
  readonly cluster: ClusterLike;
  /** True while the session log replays asynchronously (session-log.ts): the loop does not tick. */
  readonly replaying: boolean;
  /** Records a step in the session log at simulated `at` (ms). */
  record(step: Step, at: number): void;
  /** The simulated ms (≤ `untilMs`) a tick may run to: a queued tour step's time first (script.ts `limit`). */
  scriptLimit(untilMs: number): number;
  /** After a tick's timers, when tour steps are queued: runs those now due (and pauses when a `pauseWhenDone` run ends). */
  pumpScript(): void;
  /** Marks the UI state changed (the next batch goes even when nothing else did). */
  markDirty(): void;
  /** Pushes a batch when anything changed; `paced`: the loop's flush (see ClusterHost.flush). */
  flush(paced?: boolean): void;
}

/** What the session log needs of the time loop (time-loop.ts TimeLoop). */
export interface LoopClock {
  readonly running: boolean;
  readonly speed: number;
  /** The clock as a replayed session left it: `running`, `speed` (when supported), from now. */
  restore(running: boolean, speed: number): void;
  /** Resolves once the engine's clock is not held (a reconcile awaiting its sandbox). */
  whenIdle(): Promise<void>;
}

/** What the session log (session-log.ts) needs of ClusterHost. */
export interface SessionHost {
  /** The current cluster (a reset replaces it). */
  readonly cluster: ClusterLike;
  readonly loop: LoopClock;
  /** The cluster options the session log names (the worker's `createCluster` uses the same). */
  readonly sessionCluster: SessionLog['cluster'];
  /** Whether the UI subscribed to batches. */
  readonly subscribed: boolean;
  /** Chooses the control-plane nodes of the next {@link boot} (1 or 3). */
  setReplicas(replicas: 1 | 3): void;
  /** A fresh cluster (a reset, without a batch): empties the session log too. */
  boot(): void;
  /** Plays one step on the cluster without recording it. */
  playHere(step: Step): void;
  /** Ends the hops a step held back (any recorded action does). */
  releaseHeld(): void;
  /** The batch of what changed since the last one, at most `limit` changes; null when nothing did. */
  nextBatch(limit: number): TickBatch | null;
  /** Hands a batch to the subscriber; false when there is none. */
  send(batch: TickBatch): boolean;
  /** Marks the UI state changed and pushes a batch. */
  changed(): void;
}
