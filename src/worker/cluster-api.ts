/**
 * ClusterHost: adapts the engine's `Cluster` facade into the {@link ClusterApi} the worker
 * exposes. It composes its parts — the time loop (time-loop.ts: clock, speed, slicing, step,
 * fast-forward), the session log (session-log.ts: record, export, import by replay) and the
 * tool calls (tool-calls.ts) — and keeps what they share: the cluster and its reset, the
 * player of steps (`playHere`: the relay's story), tours (script.ts) and the batches to the UI
 * (one per tick, only when something changed: see protocol.ts).
 *
 * Timers and the wall clock are injected so tests can drive the loop by hand.
 */
import type { KObject } from '../cluster/api/types';
import type { RelayHop } from '../cluster/relay/relay-event';
import type { ApplyResult } from '../cluster/kubectl/apply';
import type { ResourceRow } from '../cluster/kubectl/printers';
import type { KubectlResult } from '../cluster/kubectl/command';
import type { SchedulingDecision } from '../cluster/scheduler/decision';
import { reconcilersOf } from '../cluster/reconcilers';
import { StoryMembers, keepHeadAndNewest } from '../cluster/relay/sequence/story-keep';
import type { Cluster } from '../cluster/cluster';
import { ChangeBatcher } from './batch';
import { BatchGate } from './back-pressure';
import { controllerStep, type ActingAs, type SessionLog, type SessionLogV1 } from './session';
import { MAX_HOPS_PER_BATCH, type ActionStory, type ClusterApi, type StepFilter, type TickBatch } from './protocol';
import type { DnsLookupResult, TrafficRequest, TrafficResult, WorkloadLoad } from '../cluster/userland/traffic-types';
import { parse as parseYaml } from 'yaml';
import { parseScenario, type Step } from '../cluster/scenario/scenario';
import { playContext, playStep, type PlayContext, type Played, type StepKind, type StepOf } from '../cluster/scenario/play';
import type { StandaloneContainer } from '../cluster/docker/standalone';
import { ScriptPlayer } from './script';
import { PodTally, SUMMARY_ENTER_PODS, SUMMARY_LEAVE_PODS } from './pod-summary';
import type { ParsedTour, PodContainerServes } from './protocol';
import type { ClusterLike, HostDeps } from './host-types';
import { ToolCalls } from './tool-calls';
import { TimeLoop } from './time-loop';
import { SessionRecorder } from './session-log';
import type { EditorMarker } from './markers';
import type { DiffOutput } from './diff';
import type { UserControllerSpec, UserControllerStatus } from '../cluster/user-controller/types';

export type { ClusterLike, HostClusterOptions, HostDeps } from './host-types';
export { KUBECTL_BAR_MAX_LINES, capOutput } from './tool-calls';
export { TICK_BUDGET_MS, TICK_MS, stepShows } from './time-loop';

/** Most object changes (and, separately, Event changes) one batch carries; the rest follow in the next batches. */
export const MAX_CHANGES_PER_BATCH = 500;
/** While summarized, the Pods table's sample rows are rebuilt at most this often (wall ms). */
export const SAMPLE_REFRESH_MS = 2_000;
/**
 * While summarized, Event changes waiting for the page beyond this many are dropped, oldest
 * first, and a batch carries at most this many (the page keeps 1,000 Events; a large rollout
 * writes several per Pod, and deserializing them is the page's largest cost per batch).
 */
export const SUMMARY_MAX_PENDING_EVENTS = 100;
/** While summarized, the loop sends at most one batch per this many wall ms (the page re-renders the relay, events and counts per batch); a user action's batch goes at once. */
export const SUMMARY_BATCH_MS = 250;
/** While summarized, a batch carries at most this many relay hops (the newest), instead of {@link MAX_HOPS_PER_BATCH}. */
export const SUMMARY_MAX_HOPS_PER_BATCH = 300;
/** Scenario steps that only let time pass (or look): never a story's start. */
const TIME_STEPS = new Set<string>(['advance', 'settle', 'fireTimers', 'snapshot', 'note']);

/** The story's label of a step, where it is not the step's kind (the labels the UI's own actions always had). */
const STORY_LABELS: Partial<Record<StepKind, string>> = { killNode: 'kill', restoreNode: 'restore', applyKustomize: 'apply' };

/** Steps whose writes are "the apply" the editor's results point at (`applySeq`). */
const APPLY_STEPS = new Set<string>(['apply', 'applyFile', 'applyKustomize']);

/** The browser has no files: a tour's `applyFile` fails with this. */
const NO_FILES = {
  readFile(path: string): string {
    throw new Error(`applyFile ${path}: files are not available in the browser; use an inline apply step`);
  },
};

/** A Node as a story subject (a machine powered off or on is the Node of the same name). */
function nodeSubject(name: string): ActionStory['subjects'][number] {
  return { resource: 'nodes', namespace: '', name };
}

/** The story's subjects of a step: the Node a node step powered off or on, added or removed (`target`: the node a killNode picked). */
function storySubjects(step: Step, target: unknown): ActionStory['subjects'] {
  switch (step.kind) {
    case 'killNode':
      return typeof target === 'string' ? [nodeSubject(target)] : typeof step.node === 'string' ? [nodeSubject(step.node)] : [];
    case 'restoreNode':
    case 'removeNode':
      return [nodeSubject(step.node)];
    case 'addNode':
      return [nodeSubject(step.node.name)];
    default:
      return [];
  }
}

export class ClusterHost implements ClusterApi {
  private cluster!: ClusterLike;
  private unlisten: (() => void) | null = null;
  private objects = new ChangeBatcher();
  private eventChanges = new ChangeBatcher();
  /** Pod counts per node and owner, always kept (pod-summary.ts). */
  private tally = new PodTally();
  /** True while the page gets Pod counts instead of Pod changes (the large-cluster path). */
  private summarized = false;
  /** tally.version last sent (-1: send the summary with the next batch). */
  private summarySent = -1;
  /** Wall ms the last batch was sent (pacing while summarized). */
  private lastBatchWall = -Infinity;
  /** Wall ms the sample rows were last sent, and the tally.version they showed. */
  private sampleSentAt = -Infinity;
  private sampleVersion = -1;
  private lastSeq = 0;
  private lastSimSent = -1;
  private gen = 0;
  private needReset = true;
  private dirty = true;
  private applySeq: number | null = null;
  private onBatch: ((b: TickBatch) => unknown) | null = null;
  /** At most one batch in flight to the UI (back-pressure.ts). */
  private gate: BatchGate | null = null;
  /** The latest user action that wrote to the cluster (protocol.ts ActionStory). */
  private story: ActionStory | null = null;
  /** Which hops are {@link story}'s, kept up to date batch by batch (story-keep.ts). */
  private storyMembers: StoryMembers | null = null;
  /** Pause the clock the moment the queued scenario steps are done (a tour's narration waits for the reader). */
  private pauseWhenScriptDone = false;
  /** What the steps played on this cluster share (play.ts): who they act as ("Acting as"), the snapshots. */
  private ctx: PlayContext = playContext(NO_FILES);
  /** Scenario steps a tour queued on the live cluster (script.ts); each executed step is recorded. */
  private readonly script = new ScriptPlayer((step) => {
    this.session.record(step);
    this.playHere(step);
    this.dirty = true;
  });
  /** docker engines' version last sent to the UI (-1: send on the next batch). */
  private dockerVersion = -1;
  /** The kubectl bar, the editor's tools, docker lines and the network tools (tool-calls.ts). */
  private readonly tools: ToolCalls = ((h: ClusterHost) =>
    new ToolCalls({
      get cluster() {
        return h.cluster;
      },
      get ctx() {
        return h.ctx;
      },
      engine: () => h.engine(),
      asOpts: () => h.asOpts(),
      perform: <K extends StepKind>(step: StepOf<K>, opts?: { throws?: boolean }) => h.perform(step, opts),
      flush: () => h.flush(),
      changed: () => {
        h.dirty = true;
        h.flush();
      },
    }))(this);
  /** User controllers' status version last sent to the UI (-1: send on the next batch). */
  private controllersVersion = -1;
  /** Control-plane nodes of the cluster (setControlPlaneReplicas); kept across reset and in the session log. */
  private controlPlaneReplicas = 1;
  /** The cluster options the session log names (the worker's `createCluster` uses the same). */
  private get sessionCluster(): SessionLog['cluster'] {
    return this.controlPlaneReplicas === 1
      ? { seed: 1, nodes: 3 }
      : { seed: 1, nodes: 3, controlPlane: { replicas: this.controlPlaneReplicas } };
  }

  /** The clock: play / pause, speed, time slicing, step, fast-forward (time-loop.ts). */
  private readonly loop: TimeLoop;
  /** The user's actions as scenario steps: record, export, import (session-log.ts). */
  private readonly session: SessionRecorder;

  constructor(private readonly deps: HostDeps) {
    this.loop = ClusterHost.timeLoop(this, deps);
    this.session = ClusterHost.sessionRecorder(this);
    this.boot();
  }

  /** The time loop's view of host `h` (host-types.ts TimeHost). */
  private static timeLoop(h: ClusterHost, deps: HostDeps): TimeLoop {
    return new TimeLoop(
      {
        get cluster() {
          return h.cluster;
        },
        get replaying() {
          return h.session.replaying;
        },
        record: (step, at) => h.session.record(step, at),
        scriptLimit: (untilMs) => h.script.limit(untilMs),
        pumpScript: () => {
          if (!h.script.status.pending) return;
          h.pumpScript();
          h.pauseIfScriptDone();
        },
        markDirty: () => {
          h.dirty = true;
        },
        flush: (paced) => h.flush(paced),
      },
      deps,
    );
  }

  /** The session log's view of host `h` (host-types.ts SessionHost); after its time loop. */
  private static sessionRecorder(h: ClusterHost): SessionRecorder {
    return new SessionRecorder({
      get cluster() {
        return h.cluster;
      },
      loop: h.loop,
      get sessionCluster() {
        return h.sessionCluster;
      },
      get subscribed() {
        return h.onBatch !== null;
      },
      setReplicas: (replicas) => {
        h.controlPlaneReplicas = replicas;
      },
      boot: () => h.boot(),
      playHere: (step) => {
        h.playHere(step);
      },
      releaseHeld: () => {
        h.loop.heldAfter = null;
      },
      nextBatch: (limit) => h.nextBatch(limit),
      send: (b) => {
        if (!h.onBatch) return false;
        h.onBatch(b);
        return true;
      },
      changed: () => {
        h.dirty = true;
        h.flush();
      },
    });
  }

  private boot(): void {
    this.unlisten?.();
    this.loop.fault = null;
    this.applySeq = null;
    this.story = null;
    this.ctx = playContext(NO_FILES);
    this.pauseWhenScriptDone = false;
    this.tools.stopWatch();
    (this.cluster as ClusterLike | undefined)?.userControllers?.stopAll();
    this.cluster =
      this.controlPlaneReplicas === 1
        ? this.deps.createCluster()
        : this.deps.createCluster({ controlPlaneReplicas: this.controlPlaneReplicas });
    if (this.cluster.userControllers) this.cluster.userControllers.onIdle = () => this.loop.onEngineIdle();
    this.controllersVersion = -1;
    this.gen++;
    this.objects = new ChangeBatcher();
    this.eventChanges = new ChangeBatcher();
    this.tally = new PodTally();
    this.summarized = false;
    this.summarySent = -1;
    this.sampleSentAt = -Infinity;
    this.sampleVersion = -1;
    this.unlisten = this.cluster.onChange((c) => {
      if (c.object.kind === 'Event') this.eventChanges.add(c.type, c.resource, c.object);
      else if (c.object.kind !== 'Pod') this.objects.add(c.type, c.resource, c.object);
      else {
        this.tally.update(c.type, c.object);
        if (!this.summarized) this.objects.add(c.type, c.resource, c.object);
      }
    });
    this.lastSeq = 0;
    this.needReset = true;
    this.session.clear();
    this.loop.heldAfter = null;
    this.script?.cancel();
    this.dockerVersion = -1;
  }

  /** Records a user action's step and plays it ({@link playHere}); `throws`: a failure reaches the caller. */
  private perform<K extends StepKind>(step: StepOf<K>, opts: { throws?: boolean } = {}): Played<K> {
    this.session.record(step);
    return this.playHere(step, opts);
  }

  /**
   * Plays one step on the cluster through the shared player (cluster/scenario/play.ts): the live
   * user actions, a tour's steps and the session log's replay all come here. When the step wrote
   * to the cluster (a hop to etcd) it becomes the story the relay tells (protocol.ts
   * ActionStory); time steps never do, nor does a read (`kubectl get`).
   */
  private playHere<K extends StepKind>(step: StepOf<K>, opts: { throws?: boolean } = {}): Played<K> {
    const first = this.cluster.relay.lastSeq + 1;
    if (APPLY_STEPS.has(step.kind)) this.applySeq = first;
    let played: Played<K> | undefined;
    try {
      played = playStep(this.engine(), step, 0, this.ctx, opts);
      return played;
    } finally {
      if (!TIME_STEPS.has(step.kind)) this.markStory(STORY_LABELS[step.kind] ?? step.kind, first, storySubjects(step, played?.value));
    }
  }

  subscribe(onBatch: (batch: TickBatch) => unknown): void {
    this.onBatch = onBatch;
    this.gate = new BatchGate(onBatch, () => this.flush(true));
    // an import before the first subscriber: its replayed batches (a reset first) come first
    const imported = this.session.takeImportBatches();
    if (imported?.length) for (const b of imported) onBatch(b);
    else this.needReset = true;
    this.loop.start();
    this.flush();
  }

  /** Stops the loop (tests; the worker lives until terminated). */
  dispose(): void {
    this.loop.stop();
    this.unlisten?.();
  }

  // ── the time loop (time-loop.ts) ──
  /** One loop iteration (time-loop.ts `tick`); the loop's timer calls it every TICK_MS. */
  tick(): void {
    this.loop.tick();
  }

  // ── user controllers (docs/user-controllers.md) ──
  /**
   * Starts a user controller, or restarts it with an edited source; recorded in the session
   * log (a failed start too: it fails again the same way on replay). Returns its status, or
   * `{error}` with the reason it could not start.
   */
  startController(spec: UserControllerSpec): { status?: UserControllerStatus; error?: string } {
    const clean: UserControllerSpec = {
      name: String(spec.name),
      source: String(spec.source),
      ...(spec.code !== undefined ? { code: String(spec.code) } : {}),
      ...(spec.for ? { for: String(spec.for) } : {}),
      ...(spec.owns ? { owns: spec.owns.map(String) } : {}),
    };
    let out: { status?: UserControllerStatus; error?: string };
    try {
      out = { status: this.perform(controllerStep(clean) as StepOf<'controller'>, { throws: true }).value };
    } catch (e) {
      out = { error: e instanceof Error ? e.message : String(e) };
    }
    this.dirty = true;
    this.flush();
    return out;
  }

  /** Stops a user controller; recorded. */
  stopController(name: string): void {
    this.perform({ kind: 'stopController', name: String(name) }, { throws: true });
    this.dirty = true;
    this.flush();
  }

  /** Every user controller started since the reset, with its queue depth and last error. */
  controllers(): UserControllerStatus[] {
    return this.cluster.userControllers?.list() ?? [];
  }

  /** Runs the tour's next steps once its wait is over (an engine error pauses, as in tick). */
  private pumpScript(): void {
    try {
      this.script.pump(this.engine());
    } catch (e) {
      this.script.cancel();
      this.loop.fault = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    this.dirty = true;
  }

  /** The `as` option of an engine call: who the learner acts as (an `actAs` step), or nothing. */
  private asOpts(): { as?: ActingAs } {
    return this.ctx.actingAs ? { as: this.ctx.actingAs } : {};
  }

  setActingAs(as: ActingAs | null): void {
    let next: ActingAs | null = null;
    if (as) {
      const user = String(as.user ?? '').trim();
      if (!user) throw new Error('a user name is required');
      next = { user, groups: (Array.isArray(as.groups) ? as.groups : []).map((g) => String(g).trim()).filter((g) => g !== '') };
    }
    this.perform({ kind: 'actAs', as: next }, { throws: true });
    this.dirty = true;
    this.flush();
  }

  play(): void {
    this.loop.play();
  }

  pause(): void {
    this.loop.pause();
  }

  setSpeed(speed: number): void {
    this.loop.setSpeed(speed);
  }

  step(filter: StepFilter = {}): boolean {
    return this.loop.step(filter);
  }

  fastForward(): { untilMs: number; reason: 'quiet' | 'limit' } {
    return this.loop.fastForward();
  }

  killNode(name: string): void {
    this.perform({ kind: 'killNode', node: name }, { throws: true });
    this.flush();
  }

  restoreNode(name: string): void {
    this.perform({ kind: 'restoreNode', node: name }, { throws: true });
    this.flush();
  }

  addNode(name?: string): string {
    let n = name;
    if (!n) {
      const taken = new Set(
        this.cluster
          .objects()
          .filter((o) => o.kind === 'Node')
          .map((o) => o.metadata.name),
      );
      let i = 1;
      while (taken.has(`node-${i}`)) i++;
      n = `node-${i}`;
    }
    this.perform({ kind: 'addNode', node: { name: n } }, { throws: true });
    this.flush();
    return n;
  }

  removeNode(name: string): void {
    this.perform({ kind: 'removeNode', node: name }, { throws: true });
    this.flush();
  }

  /** Marks an image reference missing in (or back present in) the simulated registry. */
  setImageMissing(image: string, missing: boolean): void {
    this.perform({ kind: 'setImageMissing', image, missing }, { throws: true });
  }

  /** The simulated registry: references marked missing (normalized, e.g. docker.io/library/nginx:1.161). */
  missingImages(): string[] {
    return this.cluster.images.missingImages();
  }

  deletePod(namespace: string, name: string): void {
    this.perform({ kind: 'deletePod', pod: { namespace, name }, via: 'api' }, { throws: true });
    this.flush();
  }

  reset(): void {
    this.boot();
    this.flush();
  }

  /**
   * A fresh cluster with `replicas` control-plane nodes (1, or 3: an HA control plane whose
   * kube-controller-manager and kube-scheduler elect leaders; control-plane.ts). Like
   * {@link reset}, it starts over; later resets keep the choice. @throws Error for another count.
   */
  setControlPlaneReplicas(replicas: number): void {
    if (replicas !== 1 && replicas !== 3) throw new Error(`unsupported control-plane replicas ${replicas} (1 or 3)`);
    this.controlPlaneReplicas = replicas;
    this.reset();
  }

  // ── network tools (issue 5): traffic/*.ts ──
  // ── tours and `docker run` (issue 6 §6–§7): script.ts, cluster/docker ──
  /** Parses a tour file: the scenario (scenario.ts) and its `title: {en, ko}` (the UI never parses YAML). */
  parseTour(text: string): ParsedTour {
    const doc = parseYaml(text) as Record<string, unknown>;
    const scenario = parseScenario(doc);
    const t = doc?.title;
    const title =
      t && typeof t === 'object' ? Object.fromEntries(Object.entries(t).map(([k, v]) => [k, String(v)])) : { en: scenario.name };
    return { scenario, title };
  }

  /**
   * Queues scenario steps on the live cluster (a tour's, worker/script.ts). With `pauseWhenDone`
   * the clock pauses at the simulated moment the last of them is done (an `advance` ends
   * exactly on time), so that what the next narration says is what the screen shows.
   */
  runScenarioSteps(steps: Step[], opts: { pauseWhenDone?: boolean } = {}): number {
    this.pauseWhenScriptDone = opts.pauseWhenDone ?? false;
    this.script.enqueue(this.engine(), steps);
    this.pauseIfScriptDone();
    this.dirty = true;
    this.flush();
    return this.script.status.enqueued;
  }

  finishScenarioSteps(): void {
    this.script.finish(this.engine());
    this.pauseIfScriptDone();
    this.dirty = true;
    this.flush();
  }

  /** Ends a `pauseWhenDone` run once nothing is queued: the clock stops where the steps left it. */
  private pauseIfScriptDone(): void {
    if (!this.pauseWhenScriptDone || this.script.status.pending > 0) return;
    this.pauseWhenScriptDone = false;
    this.loop.halt();
    this.dirty = true;
  }

  cancelScenarioSteps(): void {
    this.script.cancel();
    this.pauseWhenScriptDone = false;
    this.dirty = true;
    this.flush();
  }

  // ── the session log (session-log.ts) ──
  /** The session log: cluster options plus the user's actions with their simulated times. */
  exportState(): SessionLog {
    return this.session.exportState();
  }

  /** Replays a session log on a fresh cluster (session-log.ts `importState`); throws on something that is not a session log. */
  importState(saved: SessionLog | SessionLogV1): void | Promise<void> {
    return this.session.importState(saved);
  }

  // ── tool calls (tool-calls.ts) ──
  apply(text: string): ApplyResult[] {
    return this.tools.apply(text);
  }

  kubectl(line: string): KubectlResult & { watchId?: number } {
    return this.tools.kubectl(line);
  }

  kubectlWatchPoll(id: number): { output: string; open: boolean } {
    return this.tools.kubectlWatchPoll(id);
  }

  kubectlWatchStop(id: number): void {
    return this.tools.kubectlWatchStop(id);
  }

  schedulingDecision(namespace: string, name: string): SchedulingDecision | null {
    return this.tools.schedulingDecision(namespace, name);
  }

  printYAML(values: unknown[]): string[] {
    return this.tools.printYAML(values);
  }

  proxyRules(node: string): string | null {
    return this.tools.proxyRules(node);
  }

  podServes(namespace: string, name: string): PodContainerServes[] {
    return this.tools.podServes(namespace, name);
  }

  dnsLookup(name: string, fromNamespace: string): DnsLookupResult {
    return this.tools.dnsLookup(name, fromNamespace);
  }

  sendRequests(request: TrafficRequest): TrafficResult[] {
    return this.tools.sendRequests(request);
  }

  setLoad(load: WorkloadLoad): void {
    return this.tools.setLoad(load);
  }

  loads(): WorkloadLoad[] {
    return this.tools.loads();
  }

  docker(line: string): KubectlResult {
    return this.tools.docker(line);
  }

  standaloneContainers(): StandaloneContainer[] {
    return this.tools.standaloneContainers();
  }

  applyKustomize(files: Record<string, string>, dir: string): ApplyResult[] {
    return this.tools.applyKustomize(files, dir);
  }

  kustomizeBuild(files: Record<string, string>, dir: string): { stdout: string; stderr: string; code: number } {
    return this.tools.kustomizeBuild(files, dir);
  }

  dryRun(text: string): { results: ApplyResult[]; markers: EditorMarker[] } {
    return this.tools.dryRun(text);
  }

  markers(text: string, results: ApplyResult[]): EditorMarker[] {
    return this.tools.markers(text, results);
  }

  diff(text: string): DiffOutput {
    return this.tools.diff(text);
  }

  /** Test only: makes the worker crash (an uncaught error outside any call). */
  ping(): number {
    return this.gen;
  }

  __hang(ms: number): void {
    const end = this.deps.wallNow() + Math.min(Math.max(Number(ms) || 0, 0), 60_000);
    while (this.deps.wallNow() < end) {
      // stuck on purpose (the watchdog test)
    }
  }

  __crash(): void {
    setTimeout(() => {
      throw new Error('kube-relay test crash');
    }, 0);
  }

  /** Makes hops `first`… (recorded by one action) the story's start when one of them wrote to etcd. */
  private markStory(label: string, first: number, subjects: ActionStory['subjects']): void {
    const end = this.cluster.relay.lastSeq;
    if (end < first) return;
    const wrote = this.cluster.relay.since(first - 1).some((h) => h.to === 'etcd' && h.category !== 'heartbeat' && h.category !== 'event');
    if (wrote) this.story = { seq: first, endSeq: end, label, subjects };
  }

  private engine(): Cluster {
    return this.cluster as unknown as Cluster;
  }

  /**
   * Pushes one batch when anything changed since the last one — unless the previous batch is
   * not acknowledged yet (back-pressure.ts): then it goes once the UI took that one. `paced`
   * (the loop's and the acknowledgement's flushes): while summarized, at most one batch per
   * {@link SUMMARY_BATCH_MS}; the changes keep folding meanwhile.
   */
  flush(paced = false): void {
    if (!this.onBatch || !this.gate) return;
    // the large-cluster path: the loop's batches at most every SUMMARY_BATCH_MS (a user action's go at once)
    if (paced && this.summarized && this.deps.wallNow() - this.lastBatchWall < SUMMARY_BATCH_MS) return;
    if (this.gate.offer(() => this.nextBatch()) && this.summarized) this.lastBatchWall = this.deps.wallNow();
    // changes beyond one batch's share: the next batch right after the acknowledgement
    if (this.objects.size || this.eventChanges.size) this.gate.again();
  }

  /** The batch of what changed since the last one (drains the batchers); null when nothing did. */
  private nextBatch(limit = MAX_CHANGES_PER_BATCH): TickBatch | null {
    const c = this.cluster;
    const simMs = c.now() - this.deps.startMs;
    const reset = this.needReset;
    const modeChanged = this.switchMode();
    let changes;
    let events;
    if (reset) {
      // a full snapshot replaces whatever the UI had; pending deltas are part of it. It goes
      // in shares of MAX_CHANGES_PER_BATCH: the reset batch empties the UI and carries the
      // first share, the next batches add the rest as ADDED (folded with later changes)
      this.objects = new ChangeBatcher();
      this.eventChanges = new ChangeBatcher();
      for (const o of c.objects()) if (!(this.summarized && o.kind === 'Pod')) this.objects.add('ADDED', this.deps.resourceOf(o), o);
      for (const o of c.events()) this.eventChanges.add('ADDED', this.deps.resourceOf(o), o);
    }
    if (this.summarized && this.eventChanges.size > SUMMARY_MAX_PENDING_EVENTS) this.eventChanges.keepLast(SUMMARY_MAX_PENDING_EVENTS);
    const summary = this.summaryBatch(reset || modeChanged);
    changes = this.objects.drain((o) => this.row(o), limit);
    events = this.eventChanges.drain(() => null, this.summarized ? Math.min(limit, SUMMARY_MAX_PENDING_EVENTS) : limit);
    for (const ch of changes) if (ch.type !== 'DELETED') ch.controllers = reconcilersOf(ch.object.kind);
    // a step holds back the hops after the one it revealed (step)
    const upTo = this.loop.heldAfter ?? c.relay.lastSeq;
    let hops = c.relay.since(this.lastSeq);
    if (this.loop.heldAfter !== null) hops = hops.filter((h) => h.seq <= upTo);
    const maxHops = this.summarized && limit !== Infinity ? SUMMARY_MAX_HOPS_PER_BATCH : MAX_HOPS_PER_BATCH;
    // the story's first hops go first, the newest fill the rest (story-keep.ts)
    const members = this.storyMembersUpTo(upTo, hops);
    if (hops.length > maxHops)
      hops = members ? keepHeadAndNewest(hops, maxHops, (h) => members.inHead(h.seq)) : hops.slice(hops.length - maxHops);
    this.lastSeq = Math.max(this.lastSeq, upTo);
    if (
      !reset &&
      !this.dirty &&
      simMs === this.lastSimSent &&
      !changes.length &&
      !events.length &&
      !hops.length &&
      !('podSummary' in summary) &&
      !('podSample' in summary)
    )
      return null;
    this.needReset = false;
    this.dirty = false;
    this.lastSimSent = simMs;
    return {
      gen: this.gen,
      reset,
      simMs,
      startMs: this.deps.startMs,
      changes,
      events,
      hops,
      deadlines: c.deadlines(),
      running: this.loop.running,
      speed: this.loop.speed,
      pace: this.loop.running ? this.loop.paceMeter.pace() : null,
      profile: c.timings.profile,
      applySeq: this.applySeq,
      story: this.story,
      ...(members ? { storyCount: members.count } : {}),
      fault: this.loop.fault,
      ...this.dockerBatch(),
      ...summary,
      ...this.controllersBatch(),
      script: this.script.status,
      actingAs: this.ctx.actingAs,
    };
  }

  /**
   * The current story's membership (story-keep.ts StoryMembers), fed every hop up to `upTo`:
   * `pending` (the hops since the last batch) when it was fed up to there, else from the
   * recorder. Null without a story; a new story starts a new one.
   */
  private storyMembersUpTo(upTo: number, pending: readonly RelayHop[]): StoryMembers | null {
    if (!this.story) return (this.storyMembers = null);
    if (this.storyMembers?.story !== this.story) this.storyMembers = new StoryMembers(this.story);
    const m = this.storyMembers;
    if (m.fedUpTo < this.lastSeq)
      m.feed(
        this.cluster.relay.since(m.fedUpTo).filter((h) => h.seq <= upTo),
        upTo,
      );
    else m.feed(pending, upTo);
    return m;
  }

  /**
   * The large-cluster switch (pod-summary.ts): summarized beyond SUMMARY_ENTER_PODS Pods,
   * back below SUMMARY_LEAVE_PODS. Entering drops the Pod changes not sent yet (the page
   * drops its Pods when the first summary comes); leaving queues every Pod as ADDED.
   * Returns whether the mode changed.
   */
  private switchMode(): boolean {
    if (!this.summarized && this.tally.size > SUMMARY_ENTER_PODS) {
      this.summarized = true;
      this.objects.discard((key) => key.startsWith('Pod/'));
      return true;
    }
    if (this.summarized && this.tally.size < SUMMARY_LEAVE_PODS) {
      this.summarized = false;
      for (const o of this.cluster.objects()) if (o.kind === 'Pod') this.objects.add('ADDED', this.deps.resourceOf(o), o);
      return true;
    }
    return false;
  }

  /** The batch's `podSummary` / `podSample` fields: present when they changed (always on a reset or a switch). */
  private summaryBatch(force: boolean): Pick<TickBatch, 'podSummary' | 'podSample'> {
    if (!this.summarized) return force ? { podSummary: null, podSample: null } : {};
    const out: Pick<TickBatch, 'podSummary' | 'podSample'> = {};
    if (force || this.tally.version !== this.summarySent) {
      this.summarySent = this.tally.version;
      out.podSummary = this.tally.snapshot();
    }
    const wall = this.deps.wallNow();
    if (force || (wall - this.sampleSentAt >= SAMPLE_REFRESH_MS && this.tally.version !== this.sampleVersion)) {
      this.sampleSentAt = wall;
      this.sampleVersion = this.tally.version;
      const controllers = reconcilersOf('Pod');
      out.podSample = { rows: this.tally.sample((o) => this.row(o)).map((r) => ({ ...r, controllers })), total: this.tally.size };
    }
    return out;
  }

  /** `{controllers}` when a user controller's status changed since the last batch (always after a reset, once any exists). */
  private controllersBatch(): { controllers?: UserControllerStatus[] } {
    const uc = this.cluster.userControllers;
    if (!uc || uc.version === this.controllersVersion) return {};
    this.controllersVersion = uc.version;
    return { controllers: uc.list() };
  }

  /** `{standalone}` when the docker engines changed since the last batch (always after a reset). */
  private dockerBatch(): { standalone?: StandaloneContainer[] } {
    const d = (this.cluster as Partial<Cluster>).docker;
    if (!d || d.version === this.dockerVersion) return {};
    this.dockerVersion = d.version;
    return { standalone: d.list() };
  }

  private row(o: KObject): ResourceRow | null {
    try {
      return this.deps.describeRow(o, this.cluster.now());
    } catch {
      return null;
    }
  }
}
