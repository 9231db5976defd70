/**
 * ClusterHost: adapts the engine's `Cluster` facade into the {@link ClusterApi} the worker
 * exposes, and runs the wall-clock loop that moves simulated time while playing.
 *
 * The loop: every tick (≈ 50 wall ms) simulated time advances by elapsed wall ms × speed,
 * but a tick never runs timers for longer than {@link TICK_BUDGET_MS} of wall time — when
 * the engine cannot keep up, simulated time slips rather than the worker freezing. After
 * the timers, one batch goes to the UI (see protocol.ts), only when something changed.
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
import { PaceMeter, SLICE_MS } from './time-slice';
import {
  controllerStep,
  isSessionLog,
  migrateSessionLog,
  type ActingAs,
  type LoggedStep,
  type SessionLog,
  type SessionLogV1,
} from './session';
import {
  MAX_HOPS_PER_BATCH,
  SPEEDS,
  STEP_MAX_MS,
  objectKey,
  type ActionStory,
  type ClusterApi,
  type StepFilter,
  type TickBatch,
} from './protocol';
import type { DnsLookupResult, TrafficRequest, TrafficResult, WorkloadLoad } from '../cluster/userland/traffic-types';
import { parse as parseYaml } from 'yaml';
import { parseScenario, type Step } from '../cluster/scenario/scenario';
import { playContext, playStep, type PlayContext, type Played, type StepKind, type StepOf } from '../cluster/scenario/play';
import type { StandaloneContainer } from '../cluster/docker/standalone';
import { ScriptPlayer } from './script';
import { PodTally, SUMMARY_ENTER_PODS, SUMMARY_LEAVE_PODS } from './pod-summary';
import { FramedRun, importStride } from './import-frames';
import type { ParsedTour, PodContainerServes } from './protocol';
import type { ClusterLike, HostDeps } from './host-types';
import { ToolCalls } from './tool-calls';
import type { EditorMarker } from './markers';
import type { DiffOutput } from './diff';
import type { UserControllerSpec, UserControllerStatus } from '../cluster/user-controller/types';

export type { ClusterLike, HostClusterOptions, HostDeps } from './host-types';
export { KUBECTL_BAR_MAX_LINES, capOutput } from './tool-calls';

export const TICK_MS = 50;
/** Most wall time one tick may spend running simulated timers. */
export const TICK_BUDGET_MS = 35;
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
/** A tick after a long stall (tab in background) advances at most this much wall time. */
const MAX_TICK_WALL_MS = 250;
/** Fast-forward stops after this much simulated quiet (no hop but heartbeats)… */
const FAST_FORWARD_QUIET_MS = 10_000;
/** …or, when no deadline showed up, this much (longer than the 50 s node-monitor-grace-period)… */
const FAST_FORWARD_IDLE_MS = 60_000;
/** …or after this much simulated time. */
const FAST_FORWARD_LIMIT_MS = 15 * 60_000;
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

/** Whether the user's relay view (`f`, see {@link StepFilter}) shows hop `h`. */
export function stepShows(h: RelayHop, f: StepFilter): boolean {
  if (h.category === 'heartbeat' && !f.heartbeats) return false;
  if (h.category === 'admission' && !f.admission) return false;
  if (h.category === 'event' && !f.events) return false;
  return !f.hiddenComponents?.length || !(f.hiddenComponents.includes(h.from) || f.hiddenComponents.includes(h.to));
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
  private running = true;
  private speed = 1;
  private fault: string | null = null;
  private applySeq: number | null = null;
  private onBatch: ((b: TickBatch) => unknown) | null = null;
  /** At most one batch in flight to the UI (back-pressure.ts). */
  private gate: BatchGate | null = null;
  /** The simulated ms the current tick runs to, pursued by continuation slices (time-slice.ts). */
  private sliceTarget: number | null = null;
  private sliceScheduled = false;
  /** Simulated ms per wall ms actually reached (sent as `pace`). */
  private readonly paceMeter = new PaceMeter();
  /** The latest user action that wrote to the cluster (protocol.ts ActionStory). */
  private story: ActionStory | null = null;
  /** Which hops are {@link story}'s, kept up to date batch by batch (story-keep.ts). */
  private storyMembers: StoryMembers | null = null;
  /** Pause the clock the moment the queued scenario steps are done (a tour's narration waits for the reader). */
  private pauseWhenScriptDone = false;
  private timer: unknown = null;
  private lastWall: number;
  /** Simulated time owed but not yet run: the engine's clock moves in whole milliseconds. */
  private owedMs = 0;
  /** The user's actions since the last reset as scenario steps, for persistence and crash recovery (session.ts). */
  private log: LoggedStep[] = [];
  /** What the steps played on this cluster share (play.ts): who they act as ("Acting as"), the snapshots. */
  private ctx: PlayContext = playContext(NO_FILES);
  /** Scenario steps a tour queued on the live cluster (script.ts); each executed step is recorded. */
  private readonly script = new ScriptPlayer((step) => {
    this.record(step);
    this.playHere(step);
    this.dirty = true;
  });
  /** docker engines' version last sent to the UI (-1: send on the next batch). */
  private dockerVersion = -1;
  /** Batches `importState` rebuilt before anyone subscribed (sent first on subscribe); null otherwise. */
  private importBatches: TickBatch[] | null = null;
  /**
   * While stepping: the last relay hop sent to the UI; later hops (of the instant the last step
   * ran) are held and revealed one shown hop per step. Null: every hop is sent.
   */
  private heldAfter: number | null = null;
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
  /** True while `importState` replays a log with user controllers (asynchronously): the loop does not tick meanwhile. */
  private replaying = false;
  /** Resolved when a held reconcile ends (the async replay waits on it). */
  private idleWaiters: (() => void)[] = [];
  /** A continuation after a held reconcile ended is scheduled. */
  private resumeScheduled = false;
  /** Control-plane nodes of the cluster (setControlPlaneReplicas); kept across reset and in the session log. */
  private controlPlaneReplicas = 1;
  /** The cluster options the session log names (the worker's `createCluster` uses the same). */
  private get sessionCluster(): SessionLog['cluster'] {
    return this.controlPlaneReplicas === 1
      ? { seed: 1, nodes: 3 }
      : { seed: 1, nodes: 3, controlPlane: { replicas: this.controlPlaneReplicas } };
  }

  constructor(private readonly deps: HostDeps) {
    this.lastWall = deps.wallNow();
    this.boot();
  }

  private boot(): void {
    this.unlisten?.();
    this.fault = null;
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
    if (this.cluster.userControllers) this.cluster.userControllers.onIdle = () => this.onEngineIdle();
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
        this.tally.update(c.type, objectKey(c.object), c.object);
        if (!this.summarized) this.objects.add(c.type, c.resource, c.object);
      }
    });
    this.lastSeq = 0;
    this.needReset = true;
    this.log = [];
    this.heldAfter = null;
    this.script?.cancel();
    this.dockerVersion = -1;
  }

  /** Appends a user action to the session log: its step, at the simulated time before it runs (or `at`). */
  private record(step: Step, at = this.cluster.now()): void {
    this.heldAfter = null; // any action releases the hops a step held back
    this.log.push({ at, step });
  }

  /** Records a user action's step and plays it ({@link playHere}); `throws`: a failure reaches the caller. */
  private perform<K extends StepKind>(step: StepOf<K>, opts: { throws?: boolean } = {}): Played<K> {
    this.record(step);
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
    const imported = this.importBatches;
    this.importBatches = null;
    if (imported?.length) for (const b of imported) onBatch(b);
    else this.needReset = true;
    this.lastWall = this.deps.wallNow();
    if (this.timer === null) this.timer = this.deps.setInterval(() => this.tick(), TICK_MS);
    this.flush();
  }

  /** Stops the loop (tests; the worker lives until terminated). */
  dispose(): void {
    if (this.timer !== null) this.deps.clearInterval(this.timer);
    this.timer = null;
    this.unlisten?.();
  }

  /**
   * One loop iteration: advance while playing, then push a batch. With `setTimeout` injected
   * (the worker), timers run in slices of {@link SLICE_MS} wall ms with a yield between them,
   * until this tick's target or the next tick (which drops what is left: simulated time slips
   * rather than piling up a debt); without it, one slice of {@link TICK_BUDGET_MS}.
   */
  tick(): void {
    if (this.replaying) return;
    const wall = this.deps.wallNow();
    const dt = Math.min(wall - this.lastWall, MAX_TICK_WALL_MS);
    this.lastWall = wall;
    // a held clock (a reconcile awaiting its sandbox) stands still: no time is owed meanwhile
    if (this.running && dt > 0 && !this.held()) this.owedMs += dt * this.speed;
    const whole = Math.floor(this.owedMs);
    if (this.running && whole > 0) {
      this.owedMs -= whole;
      this.sliceTarget = this.script.limit(this.cluster.now() + whole);
      this.runSlice(this.deps.setTimeout ? SLICE_MS : TICK_BUDGET_MS);
    }
    if (this.running) this.paceMeter.record(wall, this.cluster.now());
    if (this.script.status.pending) {
      this.pumpScript();
      this.pauseIfScriptDone();
    }
    this.flush(true);
  }

  /** Runs timers toward `sliceTarget` for at most `budgetMs` wall ms; schedules the next slice when not there yet. */
  private runSlice(budgetMs: number): void {
    const target = this.sliceTarget;
    if (target === null || !this.running) return;
    const budgetEnd = this.deps.wallNow() + budgetMs;
    try {
      if (this.cluster.clock.runUntil(target, () => this.deps.wallNow() > budgetEnd)) this.sliceTarget = null;
    } catch (e) {
      // an engine bug: stop the loop (rather than crash the worker) and say what happened
      this.running = false;
      this.sliceTarget = null;
      this.fault = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      this.dirty = true;
    }
    // held: the end of the reconcile resumes the slice (onEngineIdle)
    if (this.sliceTarget !== null && this.deps.setTimeout && !this.sliceScheduled && !this.held()) {
      this.sliceScheduled = true;
      this.deps.setTimeout(() => {
        this.sliceScheduled = false;
        this.runSlice(SLICE_MS);
      }, 0);
    }
  }

  /** True while the engine's clock is held (sim/clock.ts `hold`). */
  private held(): boolean {
    return this.cluster.clock.held === true;
  }

  /**
   * A held reconcile ended: the async replay goes on, and the live loop carries on with the
   * slice it was running (after the current message: never inside the engine's call).
   */
  private onEngineIdle(): void {
    this.dirty = true;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
    if (this.replaying || this.resumeScheduled || !this.deps.setTimeout) return;
    this.resumeScheduled = true;
    this.deps.setTimeout(() => {
      this.resumeScheduled = false;
      if (this.replaying) return;
      if (this.sliceTarget !== null && this.running && !this.sliceScheduled) this.runSlice(SLICE_MS);
      this.flush();
    }, 0);
  }

  /** Resolves once the clock is not held (at once when it is not). */
  private whenIdle(): Promise<void> {
    if (!this.held()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
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
      this.fault = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
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
    this.heldAfter = null;
    this.running = true;
    this.fault = null;
    this.lastWall = this.deps.wallNow();
    this.dirty = true;
    this.flush();
  }

  pause(): void {
    this.running = false;
    this.owedMs = 0;
    this.sliceTarget = null;
    this.paceMeter.clear();
    this.dirty = true;
    this.flush();
  }

  setSpeed(speed: number): void {
    if (!(SPEEDS as readonly number[]).includes(speed)) throw new Error(`unsupported speed ${speed}`);
    this.speed = speed;
    this.paceMeter.clear();
    this.dirty = true;
    this.flush();
  }

  step(filter: StepFilter = {}): boolean {
    this.running = false;
    this.owedMs = 0;
    const shows = (h: RelayHop) => stepShows(h, filter);
    const c = this.cluster;
    // a shown hop already run but held back: reveal it, the clock stays
    if (this.heldAfter !== null) {
      const next = c.relay.since(this.heldAfter).find(shows);
      this.heldAfter = null;
      if (next) {
        this.holdAfter(next.seq, shows);
        this.dirty = true;
        this.flush();
        return true;
      }
    }
    const before = c.relay.lastSeq;
    const start = c.now();
    const fired = this.stepTimers(shows);
    // logged as the time it ran (replay runs the clock there: the same timers in order)
    if (c.now() > start || c.relay.lastSeq > before) this.record({ kind: 'advance', ms: c.now() - start }, start);
    const first = c.relay.since(before).find(shows);
    if (first) this.holdAfter(first.seq, shows);
    this.dirty = true;
    this.flush();
    return fired;
  }

  /** Sends hops up to `seq`; holds the rest when another shown hop follows (else sends them all). */
  private holdAfter(seq: number, shows: (h: RelayHop) => boolean): void {
    this.heldAfter = this.cluster.relay.since(seq).some(shows) ? seq : null;
  }

  fastForward(): { untilMs: number; reason: 'quiet' | 'limit' } {
    this.heldAfter = null;
    this.running = false;
    this.owedMs = 0;
    const c = this.cluster;
    const start = c.now();
    // the next deadline: the earliest one seen during the run (a killed node's grace period
    // is armed only once its heartbeats stop); passed once the clock reaches it
    let next = Infinity;
    let seen = c.relay.lastSeq;
    let lastActive = start;
    let reason: 'quiet' | 'limit' = 'limit';
    while (c.now() - start < FAST_FORWARD_LIMIT_MS) {
      if (next === Infinity || c.now() < next) next = Math.min(next, c.deadlines().find((d) => d.at > start)?.at ?? Infinity);
      c.clock.runUntil(c.now() + 1000);
      if (this.held()) break; // a reconcile awaits its sandbox: fast-forward ends at this instant
      if (c.relay.lastSeq > seen && c.relay.since(seen).some((h) => h.category !== 'heartbeat')) lastActive = c.now();
      seen = c.relay.lastSeq;
      // no deadline seen yet: wait longer (a timer may still be armed, e.g. a silent node's grace period)
      const quietFor = next === Infinity ? FAST_FORWARD_IDLE_MS : FAST_FORWARD_QUIET_MS;
      if (c.now() - lastActive >= quietFor && (next === Infinity || c.now() >= next)) {
        reason = 'quiet';
        break;
      }
    }
    // logged as the time it ran: replay runs the clock there, the same timers in order
    this.record({ kind: 'advance', ms: c.now() - start }, start);
    this.dirty = true;
    this.flush();
    return { untilMs: c.now(), reason };
  }

  /**
   * Runs timers one simulated instant at a time (always whole instants, so a replay can run
   * the clock to the same `until`) until a hop `shows`, a known deadline's instant ran (the
   * next thing that happens: never skipped), or the next timer lies more than
   * {@link STEP_MAX_MS} ahead — then the clock moves exactly that far. False when no timer is pending.
   */
  private stepTimers(shows: (h: RelayHop) => boolean): boolean {
    const c = this.cluster;
    const before = c.relay.lastSeq;
    const cap = c.now() + STEP_MAX_MS;
    let fired = false;
    for (;;) {
      const at = c.clock.nextAt();
      if (at === undefined) break;
      fired = true;
      if (at > cap) {
        c.clock.runUntil(cap);
        break;
      }
      const deadline = c.clock.nextDeadlineAt() === at;
      c.clock.runUntil(at);
      if (this.held()) break; // a reconcile awaits its sandbox: the instant goes on after it
      if (deadline || (c.relay.lastSeq > before && c.relay.since(before).some(shows))) break;
    }
    return fired;
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
    this.running = false;
    this.owedMs = 0;
    this.dirty = true;
  }

  cancelScenarioSteps(): void {
    this.script.cancel();
    this.pauseWhenScriptDone = false;
    this.dirty = true;
    this.flush();
  }

  /** The session log: cluster options plus the user's actions with their simulated times. */
  exportState(): SessionLog {
    return {
      format: 'kube-relay-session',
      version: 2,
      cluster: { ...this.sessionCluster },
      steps: this.log.slice(),
      now: this.cluster.now(),
      running: this.running,
      speed: this.speed,
    };
  }

  /**
   * Replays a session log on a fresh cluster: each action at its simulated time, then time
   * runs on to the log's `now`. Actions that failed when they were made fail again the same
   * way (and are kept in the log). Throws on something that is not a session log.
   *
   * Meanwhile it sends the batches the session would have sent live, flagged `replayed`
   * (import-frames.ts): a reset of the fresh cluster, one after each action, one per stride of
   * simulated time; held until `subscribe` when nobody is subscribed yet (a page load). The
   * batches after them are live.
   */
  importState(saved: SessionLog | SessionLogV1): void | Promise<void> {
    if (!isSessionLog(saved)) throw new Error('not a kube-relay session');
    const log = migrateSessionLog(saved);
    const r = log.cluster?.controlPlane?.replicas;
    this.controlPlaneReplicas = r === 3 ? 3 : 1;
    // a user controller (started by the user or by a tour's step) may hold the clock: wait for its sandbox
    if (log.steps.some((e) => e.step.kind === 'controller')) return this.importAsync(log);
    this.boot();
    this.importBatches = this.onBatch ? null : [];
    const c = this.cluster;
    this.replayFrame(); // the fresh cluster (a reset)
    const run = new FramedRun(c, c.now(), importStride(log.now - c.now()), () => this.replayFrame());
    for (const e of log.steps) {
      run.runTo(e.at);
      this.log.push(e);
      // the timeline's time runs in frames; every other step plays (a failure failed the first time too)
      if (e.step.kind === 'advance') run.runTo(c.now() + e.step.ms);
      else this.playHere(e.step);
      run.catchUp();
      this.replayFrame();
    }
    run.runTo(log.now);
    this.running = log.running;
    if ((SPEEDS as readonly number[]).includes(log.speed)) this.speed = log.speed;
    this.owedMs = 0;
    this.lastWall = this.deps.wallNow();
    this.dirty = true;
    this.flush();
  }

  /**
   * {@link importState} of a log with user controllers: the same replay, but each time a
   * reconcile holds the clock it waits for the sandbox's answer, then goes on with the rest of
   * that instant (import-frames.ts `runTo` with `resume`). The loop does not tick meanwhile.
   */
  private async importAsync(log: SessionLog): Promise<void> {
    this.boot();
    this.replaying = true;
    try {
      this.importBatches = this.onBatch ? null : [];
      const c = this.cluster;
      this.replayFrame();
      const run = new FramedRun(c, c.now(), importStride(log.now - c.now()), () => this.replayFrame());
      const runTo = async (t: number) => {
        let resume = false;
        while (!run.runTo(t, resume)) {
          await this.whenIdle();
          resume = true;
        }
      };
      for (const e of log.steps) {
        await runTo(e.at);
        this.log.push(e);
        if (e.step.kind === 'advance') await runTo(c.now() + e.step.ms);
        else this.playHere(e.step);
        run.catchUp();
        this.replayFrame();
      }
      await runTo(log.now);
      await this.whenIdle();
    } finally {
      this.replaying = false;
    }
    this.running = log.running;
    if ((SPEEDS as readonly number[]).includes(log.speed)) this.speed = log.speed;
    this.owedMs = 0;
    this.lastWall = this.deps.wallNow();
    this.dirty = true;
    this.flush();
  }

  /** Sends (or, before any subscriber, holds) the next batch flagged `replayed`. */
  private replayFrame(): void {
    const b = this.nextBatch(Infinity); // a timeline frame is whole, never split
    if (!b) return;
    b.replayed = true;
    if (this.onBatch) this.onBatch(b);
    else this.importBatches?.push(b);
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
    const upTo = this.heldAfter ?? c.relay.lastSeq;
    let hops = c.relay.since(this.lastSeq);
    if (this.heldAfter !== null) hops = hops.filter((h) => h.seq <= upTo);
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
      running: this.running,
      speed: this.speed,
      pace: this.running ? this.paceMeter.pace() : null,
      profile: c.timings.profile,
      applySeq: this.applySeq,
      story: this.story,
      ...(members ? { storyCount: members.count } : {}),
      fault: this.fault,
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
