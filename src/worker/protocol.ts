/**
 * The worker boundary (docs/architecture.md#the-worker-boundary): the API `cluster.worker.ts` exposes over comlink,
 * and the per-tick batch it pushes to the UI. Every payload is structured-clone safe: plain
 * JSON objects, no class instances, no functions except the `Comlink.proxy` batch callback.
 *
 * Batch contract: one batch per worker tick, and only when something changed.
 * `changes` hold at most one entry per object key within a tick (see batch.ts for how
 * ADDED/MODIFIED/DELETED fold together), in first-touched order; `hops` are the relay hops
 * recorded since the previous batch, oldest first. A batch with `reset: true` replaces the
 * whole UI state (first batch after subscribe, after `reset()`, after a worker restart).
 * No batch carries more than MAX_CHANGES_PER_BATCH (cluster-api.ts) object changes: a large
 * snapshot goes as a reset with the first share, then ADDED deltas; and the worker sends the
 * next batch only once the UI took the previous one (back-pressure.ts).
 */
import type { KObject } from '../cluster/api/types';
import type { ActionStory, RelayHop } from '../cluster/relay/relay-event';
import type { Deadline } from '../cluster/sim/clock';
import type { ApplyResult } from '../cluster/kubectl/apply';
import type { ResourceRow } from '../cluster/kubectl/printers';
import type { EditorMarker } from './markers';
import type { DiffOutput } from './diff';
import type { SessionLog, SessionLogV1, SessionAction, LoggedStep, ActingAs } from './session';
import type { KubectlResult } from '../cluster/kubectl/command';
import type { SchedulingDecision } from '../cluster/scheduler/decision';
import type { DnsLookupResult, TrafficRequest, TrafficResult, WorkloadLoad } from '../cluster/userland/traffic-types';
export type { DnsLookupResult, TrafficRequest, TrafficResult, WorkloadLoad };

export type { EditorMarker, DiffOutput, SessionLog, SessionLogV1, SessionAction, LoggedStep, ActingAs };
import type { StandaloneContainer } from '../cluster/docker/standalone';
import type { Step, Scenario } from '../cluster/scenario/scenario';
import type { StepResult } from '../cluster/scenario/runner';
import type { ScriptStatus } from './script';
import type { UserControllerSpec, UserControllerStatus } from '../cluster/user-controller/types';

/** One container's entry of {@link ClusterApi.podServes}. */
export interface PodContainerServes {
  name: string;
  image: string;
  kind: 'known' | 'assumed' | 'none';
  ports: number[];
}
export type { StandaloneContainer, Step, Scenario, StepResult, ScriptStatus };

/** A tour file parsed by the worker: the scenario plus its optional `title: {en, ko}`. */
export interface ParsedTour {
  scenario: Scenario;
  title: Record<string, string>;
}
export type { KObject, RelayHop, Deadline, ApplyResult, ResourceRow, KubectlResult, SchedulingDecision };

/** Playback speeds (simulated ms per wall ms) offered by the toolbar. */
export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100] as const;

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One object change, with the row `kubectl get` would print for it (null when deleted). */
export interface ObjectChangeMsg {
  type: ChangeType;
  /** group-qualified resource, e.g. "pods", "deployments.apps" */
  resource: string;
  /** {@link objectKey}: "Kind/namespace/name" or "Kind/name" */
  key: string;
  object: KObject;
  row: ResourceRow | null;
  /**
   * The components that reconcile this kind (src/cluster/reconcilers.ts); empty when the
   * kind is stored only, with no controller acting on it. Absent on DELETED changes.
   */
  controllers?: readonly string[];
}

/** Pod counts of one node, one owner or the whole cluster (worker/pod-summary.ts). */
export interface PodCounts {
  total: number;
  /** Pods whose Ready condition is True. */
  ready: number;
  /** [status, Pods] pairs, most Pods first: `status.phase` (Pending when unset) or Terminating. */
  statuses: [status: string, pods: number][];
}

/**
 * What the page gets instead of one change per Pod once the cluster holds more than
 * `threshold` Pods (worker/pod-summary.ts): Pod counts per node and per controller owner.
 */
export interface PodSummary {
  /** The Pod count beyond which the graph is summarized (SUMMARY_ENTER_PODS). */
  threshold: number;
  /** The Pod count below which it goes back to one card per Pod (SUMMARY_LEAVE_PODS). */
  leaveThreshold: number;
  /** Every Pod. */
  all: PodCounts;
  /** Per node name, natural order; `node: ""` (last) counts the Pods bound to no node. At most SUMMARY_MAX_NODES. */
  nodes: ({ node: string } & PodCounts)[];
  /** Nodes beyond those listed. */
  moreNodes: number;
  /** Per controller owner's store key ("ReplicaSet/NS/NAME"; "" for Pods without one), most Pods first. At most SUMMARY_MAX_OWNERS. */
  owners: ({ owner: string } & PodCounts)[];
  /** Owners beyond those listed. */
  moreOwners: number;
}

/** The Pods table's rows while summarized: the first Pods with their rows, and how many Pods there are. */
export interface PodSample {
  /** Each a Pod reduced to its names, uid, creationTimestamp and node, with its `kubectl get` row. */
  rows: { key: string; object: KObject; row: ResourceRow | null; controllers?: readonly string[] }[];
  total: number;
}

/** The latest user action as the relay's story starts it (relay-event.ts). */
export type { ActionStory };

/** What the worker pushes once per tick. */
export interface TickBatch {
  /** Cluster generation: increments on every reset; batches of an older generation are stale. */
  gen: number;
  /** True when this batch replaces the whole state (changes then list objects as ADDED; beyond one batch's share, the next batches add the rest). */
  reset: boolean;
  /** Simulated ms since the cluster started (`data-sim-ms`, docs/ui-hooks.md). */
  simMs: number;
  /** The simulated start, ms since the Unix epoch (2026-01-01T00:00:00Z by default). */
  startMs: number;
  /** Object changes other than Events, deduplicated per key within the tick. */
  changes: ObjectChangeMsg[];
  /** core/v1 Event changes, deduplicated the same way. */
  events: ObjectChangeMsg[];
  /**
   * Relay hops since the last batch, oldest first (capped at {@link MAX_HOPS_PER_BATCH}: the
   * story's first hops first, then the newest — cluster/relay/sequence/story-keep.ts).
   */
  hops: RelayHop[];
  /** Pending deadlines (countdowns), earliest first. */
  deadlines: Deadline[];
  running: boolean;
  speed: number;
  /**
   * Simulated ms per wall ms actually reached over the last seconds (worker/time-slice.ts);
   * below `speed` when the engine cannot keep up (the simulated clock falls behind rather
   * than the worker freezing). Null while paused or not measured yet; absent from sources
   * that do not measure it (attach mode).
   */
  pace?: number | null;
  /** Timing profile ("kubernetes-defaults" or "teaching"). */
  profile: string;
  /** seq of the first relay hop of the latest `apply` (null before any). */
  applySeq: number | null;
  /**
   * The latest user action that wrote to the cluster (apply, kill, scale, delete, a tour
   * step…): the relay's default view tells its story (cluster/relay/sequence/story.ts). Null before any.
   * Absent from batches built elsewhere (attach mode): no story there.
   */
  story?: ActionStory | null;
  /**
   * How many hops {@link story} counts so far (every one the worker recorded, sent or not:
   * story-keep.ts StoryMembers), so that the view can say how many the caps did not keep.
   * Absent without a story (and from batches built elsewhere).
   */
  storyCount?: number;
  /**
   * The large-cluster path (worker/pod-summary.ts): set while the cluster holds more Pods than
   * the threshold — then `changes` carry no Pod at all and the page draws these counts; null
   * once it is back below (the Pods then arrive as ADDED changes). Absent: unchanged since the
   * previous batch (sent on every reset). Absent from attach mode's batches.
   */
  podSummary?: PodSummary | null;
  /** While summarized: the Pods table's capped rows (refreshed every few seconds); absent: unchanged. */
  podSample?: PodSample | null;
  /** Set when the engine threw while running timers; playback is then paused. */
  fault: string | null;
  /**
   * Who the learner's requests are made as (ClusterApi.setActingAs); null: the kubectl user
   * (kubernetes-admin). Sent on every batch; absent from batches built elsewhere (attach mode).
   */
  actingAs?: ActingAs | null;
  /** Containers run the `docker run` way (no API object): the whole list, sent on reset and when it changed. */
  standalone?: StandaloneContainer[];
  /** Scenario steps a tour queued on the live cluster (worker/script.ts). */
  script?: ScriptStatus;
  /** The user controllers (docs/user-controllers.md): the whole list, sent when any status changed. */
  controllers?: UserControllerStatus[];
  /**
   * Set on the batches `importState` rebuilds from the session log: the batches the session
   * would have sent had it run live (the first a reset, then one after each recorded action
   * and one per stretch of simulated time, see cluster-api.ts `IMPORT_FRAME_MS`). The UI folds
   * each into the timeline as a frame of its own (never merged with others) and animates
   * none of them (no pulses); the batches after them are live again.
   */
  replayed?: boolean;
}

/** Which hops the user's relay view shows (the sequence diagram's folds and component filter); `step` stops at the next one. */
export interface StepFilter {
  heartbeats?: boolean;
  admission?: boolean;
  events?: boolean;
  /** Participants unchecked in the component filter: a hop from or to one is not shown. */
  hiddenComponents?: string[];
}

/** A step never runs the clock further than this (one heartbeat period) when no shown hop or deadline comes first. */
export const STEP_MAX_MS = 10_000;

/** Hops beyond this many in one tick are dropped from the batch (oldest first). */
export const MAX_HOPS_PER_BATCH = 2_000;

/** What the worker exposes. Over comlink every method returns a Promise. */
export interface ClusterApi {
  /** Starts pushing batches to `onBatch` (a Comlink.proxy); the first one has `reset: true`. */
  subscribe(onBatch: (batch: TickBatch) => void): void;
  /** `kubectl apply -f -` of a (multi-document) manifest; one result per object. */
  apply(text: string): ApplyResult[];
  play(): void;
  pause(): void;
  setSpeed(speed: number): void;
  /**
   * Pauses, then delivers the next relay hop the user's view shows (`filter`: the sequence
   * diagram's folds; default heartbeats, admission notes and Event writes hidden). Hops of one
   * simulated instant that are not shown yet are held in the worker and revealed one per step
   * (the clock stays); otherwise timers run instant by instant until a shown hop, a known
   * deadline fires, or {@link STEP_MAX_MS} passed (then the clock jumps exactly that far and
   * the heartbeats of the jump are delivered). False when nothing was pending.
   */
  step(filter?: StepFilter): boolean;
  /**
   * Fast-forward: pauses, then runs simulated time instantly until the cluster is quiet
   * (no hop but heartbeats for 10 s) and at least past the next deadline known when it
   * started (e.g. an eviction countdown); at most 15 simulated minutes. Returns the new
   * simulated time (ms since the epoch) and why it stopped.
   */
  fastForward(): { untilMs: number; reason: 'quiet' | 'limit' };
  killNode(name: string): void;
  restoreNode(name: string): void;
  /** Adds a worker node; without a name picks the next free `node-N`. Returns the name. */
  addNode(name?: string): string;
  deletePod(namespace: string, name: string): void;
  /** Decommissions a node: machine off, Node deleted; its Pods are garbage-collected and replaced. */
  removeNode(name: string): void;
  /** Marks an image reference missing in the simulated registry (pulls fail: ErrImagePull), or present again. */
  setImageMissing(image: string, missing: boolean): void;
  /** References currently marked missing, normalized (docker.io/library/nginx:1.161). */
  missingImages(): string[];
  /**
   * "Acting as": from now on the kubectl bar's lines, the editor's Apply (and dry run, Apply -k)
   * and the inspector's Pod delete are made as `as` — the admin impersonating it, as `kubectl
   * --as=USER --as-group=G` does (a line's own `--as` still wins). Null: the admin itself again.
   * Recorded in the session log (op `actAs`); a reset goes back to the admin.
   * @throws Error when `as.user` is empty
   */
  setActingAs(as: ActingAs | null): void;
  /** A fresh cluster (same options). */
  reset(): void;
  /** A fresh cluster with 1 or 3 control-plane nodes (an HA control plane with leader election); resets keep it. */
  setControlPlaneReplicas(replicas: number): void;
  /** `kubectl apply --dry-run=server -f -` of the editor's text: changes nothing; results plus editor markers. */
  dryRun(text: string): { results: ApplyResult[]; markers: EditorMarker[] };
  /** Editor markers (line/column on the offending field) for results of an apply of `text`. */
  markers(text: string, results: ApplyResult[]): EditorMarker[];
  /** `kubectl diff -f -` of `text` against the cluster: unified diff (stdout) and errors (stderr). */
  diff(text: string): DiffOutput;
  /** The session log (cluster options + the user's actions as scenario steps with simulated times) for persistence. */
  exportState(): SessionLog;
  /** Replays a session log on a fresh cluster (same seed ⇒ same state); a version-1 log (saved before steps) too. */
  importState(log: SessionLog | SessionLogV1): void | Promise<void>;
  /** Starts a user controller, or restarts it after an edit (docs/user-controllers.md); recorded in the session log. */
  startController(spec: UserControllerSpec): { status?: UserControllerStatus; error?: string };
  /** Stops a user controller; recorded. */
  stopController(name: string): void;
  /** The user controllers' status. */
  controllers(): UserControllerStatus[];
  /** Test only: crashes the worker (an uncaught error), for the crash-recovery test. */
  __crash(): void;
  /**
   * Answers at once (the UI's watchdog, ui/watchdog): the cluster generation. A worker that
   * does not answer within the watchdog's limit is stuck.
   */
  ping(): number;
  /** Test only: busy-loops for `ms` wall ms (at most 60,000), for the watchdog test. */
  __hang(ms: number): void;
  /**
   * Runs one kubectl command line as the kubectl user (the kubectl bar): stdout, stderr, exit code.
   * A `get … -w` that started watching also carries `watchId` (poll it with `kubectlWatchPoll`);
   * any new command line stops the previous watch (^C).
   */
  kubectl(line: string): KubectlResult & { watchId?: number };
  /** What the `get -w` session `id` printed since the last poll; `open` is false once it stopped (then `output` is ""). */
  kubectlWatchPoll(id: number): { output: string; open: boolean };
  /** ^C: stops the `get -w` session `id` (kubectl prints nothing). */
  kubectlWatchStop(id: number): void;
  /** The scheduler's latest decision record for a Pod ("why this node"), or null when it has none. */
  schedulingDecision(namespace: string, name: string): SchedulingDecision | null;
  /** A node's kube-proxy rules as `iptables-save` prints them, or null when the node runs no kube-proxy. */
  proxyRules(node: string): string | null;
  /**
   * What each container of a Pod listens on, as the kubelet simulates it: `known` for a
   * modelled image (nginx's port 80 and pages), `assumed` when kube-relay assumes what an
   * unknown program serves. Empty when no kubelet runs the Pod.
   */
  podServes(namespace: string, name: string): PodContainerServes[];
  /** `nslookup name` from a Pod in `fromNamespace`, through cluster DNS (CoreDNS). Read-only. */
  dnsLookup(name: string, fromNamespace: string): DnsLookupResult;
  /** Sends `count` HTTP requests (traffic generator); routed by kube-proxy rules; recorded in the session log (it draws from the RNG). */
  sendRequests(request: TrafficRequest): TrafficResult[];
  /** Sets the simulated CPU load of a workload (feeds metrics-server → HPA); recorded in the session log. */
  setLoad(load: WorkloadLoad): void;
  /** The loads set so far. */
  loads(): WorkloadLoad[];
  /** Each value as `kubectl get -o yaml` prints it (sorted keys, go-yaml quoting); read-only. */
  printYAML(values: unknown[]): string[];
  /** Parses a scenario/tour file (YAML text); throws the runner's ScenarioError message. */
  parseTour(text: string): ParsedTour;
  /**
   * Queues scenario steps on the live cluster (tours): actions run at once, `advance` and
   * `settle` wait on the wall clock at the current speed; each executed step is recorded in
   * the session log. Progress comes in the batches' `script`.
   */
  runScenarioSteps(steps: Step[], opts?: { pauseWhenDone?: boolean }): number;
  /** Fast-forwards the queued steps (the rest of the current tour segment). */
  finishScenarioSteps(): void;
  /** Drops queued steps (leaving a tour). */
  cancelScenarioSteps(): void;
  /** A `docker …` line against a machine's engine (`docker -H ssh://node-1 run -d --restart=always --name web nginx`); recorded. */
  docker(line: string): KubectlResult;
  /** Containers run the `docker run` way, on every machine. */
  standaloneContainers(): StandaloneContainer[];
  /**
   * `kubectl apply -k DIR` of the editor's tabs (`files`: tab path → text, e.g.
   * "overlays/prod/kustomization.yaml"; `dir`: "overlays/prod"); recorded in the session log.
   * A kustomize error applies nothing and is the one error result.
   */
  applyKustomize(files: Record<string, string>, dir: string): ApplyResult[];
  /** `kubectl kustomize DIR` of the editor's tabs: the rendered YAML (stdout), warnings/errors (stderr), exit code. Read-only. */
  kustomizeBuild(files: Record<string, string>, dir: string): { stdout: string; stderr: string; code: number };
}

/** The key objects are stored under in the UI: "Kind/namespace/name" or "Kind/name". */
export function objectKey(obj: { kind: string; metadata: { namespace?: string; name: string } }): string {
  const ns = obj.metadata.namespace;
  return ns ? `${obj.kind}/${ns}/${obj.metadata.name}` : `${obj.kind}/${obj.metadata.name}`;
}
