/**
 * kube-scheduler: watches unscheduled Pods and Nodes, runs one scheduling cycle per pod on
 * the simulated clock (PreFilter → Filter → PostFilter on failure → PreScore → Score →
 * select host), assumes the pod in its cache, and binds it (pods/binding). Failures get the
 * upstream FailedScheduling event and PodScheduled=False condition; every attempt leaves a
 * {@link SchedulingDecision} ("why this node") and a relay `decision` hop.
 *
 * Mirrors pkg/scheduler/scheduler.go (New, Run), pkg/scheduler/schedule_one.go (ScheduleOne,
 * schedulingCycle, schedulePod, findNodesThatFitPod, evaluateNominatedNode,
 * findNodesThatPassFilters, numFeasibleNodesToFind, prioritizeNodes, selectHost, assume,
 * bindingCycle, handleSchedulingFailure, updatePod, truncateMessage) and
 * pkg/scheduler/eventhandlers.go. One profile: `default-scheduler`.
 */
import type { ComponentContext } from '../component-context';
import type {
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PriorityClass,
  ReplicaSet,
  ReplicationController,
  Service,
  StatefulSet,
  StorageClass,
} from '../api/objects';
import type { PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import { deepCopy } from '../api/types';
import { users, type Client, type ResourceClient } from '../client/clientset';
import { SharedInformer, SharedInformerFactory } from '../client/informer';
import { newListWatchFromClient } from '../client/listwatch';
import { EventsV1Recorder } from '../client/events-recorder';
import type { TimerHandle } from '../sim/clock';
import { SchedulerCache } from './cache';
import { materialize, ResultStore, SCORE_PLUGIN_LABELS, wrapPlugin, type DecisionRecord, type SchedulingDecision } from './decision';
import {
  assignedPod,
  defaultSelector,
  nodeUpdateKinds,
  podUpdateKinds,
  queueablePod,
  schedulerCategorizer,
  DEFAULT_SCHEDULER_NAME,
} from './eventhandlers';
import { fitErrorMessage, Framework, type Diagnosis, type NodePluginScores } from './framework';
import { newPodInfo, type NodeInfo, type PodInfo } from './node-info';
import { defaultPlugins } from './plugins/registry';
import { SchedulingQueue, type QueuedPodInfo } from './scheduling-queue';
import { CycleState, isRejected, type ClusterEvent, type ClusterEventWithHint, type EnqueueExtensions, type Status } from './types';

export type { SchedulingDecision, NodeDecision, PluginScore, FilterResult } from './decision';

/** Decisions kept (most recent pods); older ones are dropped to bound memory. */
export const MAX_DECISIONS = 1_000;

/** The (frozen) empty nominated-pods list of most nodes: no array per node per cycle. */
const NO_PODS: PodInfo[] = Object.freeze([]) as unknown as PodInfo[];

/** minFeasibleNodesToFind. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** minFeasibleNodesPercentageToFind. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
/** ErrNoNodesAvailable's text. */
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** numFeasibleNodesToFind with the adaptive percentageOfNodesToScore (50 − nodes/125, ≥ 5 %). */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let pct = 50 - Math.trunc(numAllNodes / 125);
  if (pct < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) pct = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  const n = Math.trunc((numAllNodes * pct) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

/** truncateMessage: events carry at most 1024 bytes of message. */
export function truncateMessage(message: string): string {
  const limit = 1024;
  if (message.length <= limit) return message;
  const suffix = ' ...';
  return message.slice(0, limit - suffix.length) + suffix;
}

/** The kube-scheduler component. */
export class KubeScheduler {
  readonly client: Client;
  /** The events.k8s.io recorder (cmd/kube-scheduler/app: NewEventBroadcasterAdapter). */
  readonly recorder: EventsV1Recorder;
  readonly factory: SharedInformerFactory;
  readonly podInformer: SharedInformer<Pod>;
  readonly cache: SchedulerCache;
  readonly queue: SchedulingQueue;
  /** The active framework: decorated (recording decisions) or plain. */
  framework: Framework;
  private readonly recordingFramework: Framework;
  private readonly plainFramework: Framework;
  private readonly results = new ResultStore();
  /** The last attempt's record per pod, compact until read ({@link materialize}). */
  private readonly decisions = new Map<string, DecisionRecord>();
  private readonly nominated = new Map<string, Map<string, PodInfo>>();
  private readonly pods: ResourceClient<Pod>;
  private decisionListeners: ((d: SchedulingDecision) => void)[] = [];
  private paused = false;
  private started = false;
  private timer: TimerHandle | null = null;
  private nextStartNodeIndex = 0;

  /** `hostname`: the node kube-scheduler runs on (its Events' reportingInstance is `default-scheduler-<hostname>`). */
  constructor(
    private readonly ctx: ComponentContext,
    hostname = 'control-plane',
  ) {
    this.client = ctx.client(users.scheduler());
    this.recorder = new EventsV1Recorder(this.client, ctx.clock, DEFAULT_SCHEDULER_NAME, hostname);
    this.pods = this.client.resource<Pod>('', 'pods');
    this.factory = new SharedInformerFactory(this.client, schedulerCategorizer);
    // newPodInformer: terminal pods are not watched (they free their node's resources)
    this.podInformer = new SharedInformer<Pod>(
      newListWatchFromClient<Pod>(this.client, '', 'pods', { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' }),
      { categorize: schedulerCategorizer },
    );
    const nodes = this.factory.informerFor<Node>('', 'nodes');
    const priorityClasses = this.factory.informerFor<PriorityClass>('scheduling.k8s.io', 'priorityclasses');
    const spread = {
      services: this.factory.informerFor<Service>('', 'services'),
      replicationControllers: this.factory.informerFor<ReplicationController>('', 'replicationcontrollers'),
      replicaSets: this.factory.informerFor<ReplicaSet>('apps', 'replicasets'),
      statefulSets: this.factory.informerFor<StatefulSet>('apps', 'statefulsets'),
    };
    this.cache = new SchedulerCache((p) => this.priorityOf(p, () => priorityClasses.list()));
    const pvcs = this.factory.informerFor<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    const pvs = this.factory.informerFor<PersistentVolume>('', 'persistentvolumes');
    const storageClasses = this.factory.informerFor<StorageClass>('storage.k8s.io', 'storageclasses');
    const entries = defaultPlugins({
      client: this.client,
      nodes: () => this.cache.list(),
      havePods: {
        withAffinity: () => this.cache.havePodsWithAffinityList(),
        withRequiredAntiAffinity: () => this.cache.havePodsWithRequiredAntiAffinityList(),
      },
      imageNumNodes: (i) => this.cache.imageNumNodes(i),
      defaultSelector: (p) => defaultSelector(p, spread),
      preemption: {
        framework: () => this.framework,
        nodes: () => this.cache.list(),
        nodeInfo: (n) => this.cache.nodeInfo(n),
        preemptVictim: (v, by, node) => this.preemptVictim(v, by, node),
        clearLowerNominations: (node, by) => this.clearLowerNominations(node, by),
      },
      volumes: {
        pvcs,
        pvs,
        classes: storageClasses,
        pods: this.podInformer,
        node: (n) => this.cache.nodeInfo(n)?.node ?? undefined,
        pvcClient: this.client.resource<PersistentVolumeClaim>('', 'persistentvolumeclaims'),
        pvClient: this.client.resource<PersistentVolume>('', 'persistentvolumes'),
        clock: ctx.clock,
      },
    });
    // decoration: every plugin is wrapped to record the decision (wrappedplugin.go)
    this.recordingFramework = new Framework(
      DEFAULT_SCHEDULER_NAME,
      entries.map((e) => ({ plugin: wrapPlugin(e.plugin, e.weight, this.results), weight: e.weight })),
    );
    this.plainFramework = new Framework(DEFAULT_SCHEDULER_NAME, entries);
    for (const fw of [this.recordingFramework, this.plainFramework])
      fw.nominatedPodsForNode = (n) => {
        if (this.nominated.size === 0) return NO_PODS;
        const m = this.nominated.get(n);
        return m ? [...m.values()] : NO_PODS;
      };
    this.framework = this.recordingFramework;
    const eventsByPlugin = new Map<string, ClusterEventWithHint[]>();
    for (const { plugin } of entries) {
      const ee = plugin as unknown as Partial<EnqueueExtensions>;
      if (ee.eventsToRegister) eventsByPlugin.set(plugin.name, ee.eventsToRegister());
    }
    this.queue = new SchedulingQueue(ctx.clock, { eventsByPlugin, onPodReady: () => this.kick() });
    this.podInfoOf = (p) =>
      newPodInfo(
        p,
        this.priorityOf(p, () => priorityClasses.list()),
      );
    this.addAllEventHandlers(nodes);
    this.addStorageEventHandlers(pvcs, pvs, storageClasses);
  }

  private readonly podInfoOf: (p: Pod) => PodInfo;

  /** Pod priority: spec.priority (set by the Priority admission plugin), else its PriorityClass, else the global default, else 0. */
  private priorityOf(p: Pod, listClasses: () => PriorityClass[]): number {
    if (typeof p.spec?.priority === 'number') return p.spec.priority;
    const name = p.spec?.priorityClassName;
    const classes = listClasses();
    const pc = name ? classes.find((c) => c.metadata.name === name) : classes.find((c) => c.globalDefault === true);
    return typeof pc?.value === 'number' ? pc.value : 0;
  }

  private addAllEventHandlers(nodes: SharedInformer<Node>): void {
    const participant = 'kube-scheduler';
    const relay = this.ctx.relay;
    this.podInformer.addEventHandler({
      participant,
      filter: assignedPod,
      onAdd: (p) => {
        this.cache.addPod(p);
        this.unnominate(p);
        this.queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', 'Add'), undefined, p, undefined, relay.currentCause);
      },
      onUpdate: (o, p) => {
        this.cache.updatePod(o, p);
        const kinds = podUpdateKinds(o, p);
        if (kinds.length) this.queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', 'Update', kinds), o, p, undefined, relay.currentCause);
      },
      onDelete: (p) => {
        this.cache.removePod(p);
        this.queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', 'Delete'), p, undefined, undefined, relay.currentCause);
      },
    });
    this.podInformer.addEventHandler({
      participant,
      filter: queueablePod,
      onAdd: (p) => {
        this.syncNomination(p);
        this.queue.add(this.podInfoOf(p), relay.currentCause);
      },
      onUpdate: (_o, p) => {
        if (this.cache.isAssumed(p)) return;
        this.syncNomination(p);
        this.queue.update(this.podInfoOf(p), relay.currentCause);
      },
      onDelete: (p) => {
        this.unnominate(p);
        this.queue.delete(`${p.metadata.namespace}/${p.metadata.name}`);
      },
    });
    nodes.addEventHandler({
      participant,
      onAdd: (n) => {
        this.cache.addOrUpdateNode(n);
        this.queue.moveAllToActiveOrBackoffQueue(ev('Node', 'Add'), undefined, n, undefined, relay.currentCause);
      },
      onUpdate: (o, n) => {
        this.cache.addOrUpdateNode(n);
        const kinds = nodeUpdateKinds(o, n);
        if (kinds.length) this.queue.moveAllToActiveOrBackoffQueue(ev('Node', 'Update', kinds), o, n, undefined, relay.currentCause);
      },
      onDelete: (n) => {
        this.cache.removeNode(n.metadata.name);
        this.queue.moveAllToActiveOrBackoffQueue(ev('Node', 'Delete'), n, undefined, undefined, relay.currentCause);
      },
    });
  }

  /** addAllEventHandlers' storage part: PVC, PV and StorageClass adds/updates may make pods schedulable. */
  private addStorageEventHandlers(
    pvcs: SharedInformer<PersistentVolumeClaim>,
    pvs: SharedInformer<PersistentVolume>,
    classes: SharedInformer<StorageClass>,
  ): void {
    const participant = 'kube-scheduler';
    const relay = this.ctx.relay;
    for (const [inf, resource] of [
      [pvcs, 'PersistentVolumeClaim'],
      [pvs, 'PersistentVolume'],
      [classes, 'StorageClass'],
    ] as const) {
      inf.addEventHandler({
        participant,
        onAdd: (o, initial) => {
          if (!initial) this.queue.moveAllToActiveOrBackoffQueue(ev(resource, 'Add'), undefined, o, undefined, relay.currentCause);
        },
        onUpdate: (o, n) => {
          this.queue.moveAllToActiveOrBackoffQueue(ev(resource, 'Update'), o, n, undefined, relay.currentCause);
        },
      });
    }
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /** Starts the informers (list + watch) and the scheduling loop. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.factory.start();
    this.podInformer.start();
    this.recorder.start();
    this.kick();
  }

  /** Stops watching and scheduling (the component is down); the queue and cache are kept. `summary`: a relay note. */
  pause(summary?: string): void {
    if (this.paused) return;
    this.paused = true;
    if (summary) this.ctx.relay.record({ from: 'kube-scheduler', to: 'kube-scheduler', kind: 'note', summary });
    this.ctx.clock.cancel(this.timer);
    this.timer = null;
    this.factory.stop();
    this.podInformer.stop();
  }

  /** Relists (catching up on everything missed, level-triggered) and resumes scheduling. `summary`: a relay note. */
  resume(summary?: string): void {
    if (!this.paused) return;
    this.paused = false;
    if (summary) this.ctx.relay.record({ from: 'kube-scheduler', to: 'kube-scheduler', kind: 'note', summary });
    this.factory.restart();
    this.podInformer.restart();
    this.kick();
  }

  /** True while paused. */
  get isPaused(): boolean {
    return this.paused;
  }

  /**
   * Turns the per-node decision record on (default) or off. Off, the plugins run undecorated
   * (benchmarks with thousands of nodes); decisions then carry only the outcome.
   */
  setRecordDecisions(on: boolean): void {
    this.framework = on ? this.recordingFramework : this.plainFramework;
  }

  /** The last scheduling decision for a pod, if any. */
  decisionFor(namespace: string, name: string): SchedulingDecision | undefined {
    const r = this.decisions.get(`${namespace}/${name}`);
    return r && materialize(r);
  }

  /** Subscribes to every new decision (the UI's "why this node"). Returns the unsubscribe. */
  onDecision(l: (d: SchedulingDecision) => void): () => void {
    this.decisionListeners.push(l);
    return () => {
      this.decisionListeners = this.decisionListeners.filter((x) => x !== l);
    };
  }

  private kick(): void {
    if (this.paused || !this.started || this.timer || !this.queue.hasPoppable()) return;
    this.timer = this.ctx.clock.setTimer(
      this.ctx.timings.schedulingCycleMs,
      () => {
        this.timer = null;
        this.scheduleOne();
        this.kick();
      },
      { label: 'kube-scheduler: scheduling cycle' },
    );
  }

  // ---- nominator ------------------------------------------------------------------------------

  private syncNomination(p: Pod): void {
    const node = p.status?.nominatedNodeName;
    this.unnominate(p);
    if (node) this.nominate(this.podInfoOf(p), node);
  }

  private nominate(pi: PodInfo, node: string): void {
    let m = this.nominated.get(node);
    if (!m) this.nominated.set(node, (m = new Map()));
    m.set(pi.key, pi);
  }

  private unnominate(p: Pod): void {
    const key = `${p.metadata.namespace}/${p.metadata.name}`;
    for (const [n, m] of this.nominated) if (m.delete(key) && m.size === 0) this.nominated.delete(n);
  }

  // ---- the scheduling cycle -------------------------------------------------------------------

  /** ScheduleOne: pops one pod and runs its scheduling and binding cycles. */
  scheduleOne(): void {
    const q = this.queue.pop();
    if (!q) return;
    const cur = this.podInformer.get(q.pi.key);
    // skipPodSchedule: deleted, being deleted, bound meanwhile, or assumed
    if (!cur || cur.metadata.deletionTimestamp || cur.spec?.nodeName || this.cache.isAssumed(cur)) return;
    this.ctx.relay.withCause(q.cause, () => this.schedulingCycle(q));
  }

  private schedulingCycle(q: QueuedPodInfo): void {
    const pi = q.pi;
    const state = new CycleState();
    const nodes = this.cache.list();
    const d: Diagnosis = { nodeToStatus: { map: new Map() }, unschedulablePlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
    if (nodes.length === 0) return this.fail(q, ERR_NO_NODES_AVAILABLE, 'SchedulerError', d, 0, undefined);
    const pre = this.framework.runPreFilterPlugins(state, pi, nodes);
    let feasible: NodeInfo[] = [];
    if (isRejected(pre)) {
      d.preFilterMsg = pre.reasons.join(', ');
      d.nodeToStatus.absent = pre;
      if (pre.plugin) d.unschedulablePlugins.add(pre.plugin);
    } else if (pre.code !== 'Success') {
      return this.fail(q, pre.reasons.join(', '), 'SchedulerError', d, nodes.length, undefined);
    } else {
      const r = this.findNodesThatFit(state, pi, nodes, d);
      if (typeof r === 'string') return this.fail(q, r, 'SchedulerError', d, nodes.length, undefined);
      feasible = r;
    }
    if (!feasible.length) {
      const post = this.framework.runPostFilterPlugins(state, pi, d.nodeToStatus);
      d.postFilterMsg = post.status.reasons.join(', ');
      return this.fail(q, fitErrorMessage(nodes.length, d), 'Unschedulable', d, nodes.length, post.nominatedNodeName);
    }
    let host: string;
    let hostIdx = -1;
    let tied: string[] | undefined;
    let scores: NodePluginScores | undefined;
    if (feasible.length === 1) host = feasible[0].name;
    else {
      const ps = this.framework.runPreScorePlugins(state, pi, feasible);
      if (ps.code !== 'Success') return this.fail(q, ps.reasons.join(', '), 'SchedulerError', d, nodes.length, undefined);
      scores = this.framework.runScorePlugins(state, pi, feasible);
      [hostIdx, tied] = this.selectHost(scores);
      host = scores.names[hostIdx];
    }
    this.assumeAndBind(q, state, host, nodes.length, feasible.length, scores, hostIdx, tied);
  }

  /**
   * findNodesThatFitPod: the nominated node first (evaluateNominatedNode), then nodes from
   * nextStartNodeIndex round-robin until numFeasibleNodesToFind are feasible. Returns an
   * error string when a filter errors.
   */
  private findNodesThatFit(state: CycleState, pi: PodInfo, nodes: NodeInfo[], d: Diagnosis): NodeInfo[] | string {
    const nom = pi.pod.status?.nominatedNodeName;
    if (nom) {
      const ni = this.cache.nodeInfo(nom);
      if (ni && this.framework.runFilterPluginsWithNominatedPods(state, pi, ni).code === 'Success') return [ni];
    }
    const want = numFeasibleNodesToFind(nodes.length);
    const out: NodeInfo[] = [];
    let processed = 0;
    for (let i = 0; i < nodes.length && out.length < want; i++) {
      const ni = nodes[(this.nextStartNodeIndex + i) % nodes.length];
      processed++;
      const s: Status = this.framework.runFilterPluginsWithNominatedPods(state, pi, ni);
      if (s.code === 'Success') out.push(ni);
      else if (isRejected(s)) {
        d.nodeToStatus.map.set(ni.name, s);
        if (s.plugin) d.unschedulablePlugins.add(s.plugin);
      } else return s.reasons.join(', ');
    }
    this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % nodes.length;
    return out;
  }

  /**
   * selectHost: the highest total; ties broken uniformly at random (seeded RNG, reservoir
   * sampling). Returns the chosen node's index in `scores.names` and, when several nodes share
   * the highest total, their names in score order.
   */
  private selectHost(scores: NodePluginScores): [number, string[] | undefined] {
    let max = -Infinity;
    let selected = -1;
    let cnt = 0;
    const { names, totals } = scores;
    const n = names.length;
    for (let i = 0; i < n; i++) {
      const total = totals[i];
      if (total > max) {
        max = total;
        selected = i;
        cnt = 1;
      } else if (total === max) {
        cnt++;
        if (this.ctx.rng.intn(cnt) === 0) selected = i;
      }
    }
    if (cnt < 2) return [selected, undefined];
    // the tied nodes: every node with the highest total, in score order (one array, built once)
    const tied: string[] = [];
    for (let i = 0; i < n; i++) if (totals[i] === max) tied.push(names[i]);
    return [selected, tied];
  }

  private assumeAndBind(
    q: QueuedPodInfo,
    state: CycleState,
    host: string,
    numAll: number,
    numFeasible: number,
    scores: NodePluginScores | undefined,
    hostIdx: number,
    tied: string[] | undefined,
  ): void {
    const pi = q.pi;
    const relay = this.ctx.relay;
    this.cache.assumePod(pi.pod, host);
    const total = hostIdx >= 0 ? scores!.totals[hostIdx] : undefined;
    const why = total === undefined ? 'only feasible node' : `score ${total} (${this.topReason(scores!, hostIdx, tied)})`;
    const hop = relay.record({
      from: 'kube-scheduler',
      to: 'kube-scheduler',
      kind: 'decision',
      verb: 'schedule',
      resource: 'pods',
      namespace: pi.pod.metadata.namespace ?? null,
      name: pi.pod.metadata.name,
      summary: `${host}: ${why} — ${numFeasible} feasible of ${numAll}`,
      // the reconcile note for the sequence diagram: "filtered 3/4 nodes → node-2 (score 187)"
      reconcile: relay.newReconcile(),
      note: `filtered ${numFeasible}/${numAll} nodes → ${host}${total === undefined ? '' : ` (score ${total})`}`,
    });
    // the binding cycle: PreBind (VolumeBinding may wait for the PV controller), then Bind
    relay.withCause(hop, () =>
      this.framework.runPreBindPlugins(state, pi, host, (pre) =>
        relay.withCause(hop, () => this.bindingCycle(q, state, host, numAll, tied, pre)),
      ),
    );
  }

  /** bindingCycle after PreBind: Bind, the Scheduled event; or the failure of either. */
  private bindingCycle(q: QueuedPodInfo, state: CycleState, host: string, numAll: number, tied: string[] | undefined, pre: Status): void {
    const pi = q.pi;
    if (pre.code !== 'Success') {
      this.cache.forgetPod(pi.pod);
      const d: Diagnosis = { nodeToStatus: { map: new Map() }, unschedulablePlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
      return this.fail(q, pre.reasons.join(', '), 'SchedulerError', d, numAll, undefined);
    }
    const s = this.framework.runBindPlugins(state, pi, host);
    if (s.code !== 'Success') {
      this.cache.forgetPod(pi.pod);
      const d: Diagnosis = { nodeToStatus: { map: new Map() }, unschedulablePlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
      return this.fail(
        q,
        `binding rejected: running Bind plugin "${s.plugin ?? 'DefaultBinder'}": ${s.reasons.join(', ')}`,
        'SchedulerError',
        d,
        numAll,
        undefined,
      );
    }
    this.unnominate(pi.pod);
    const ns = pi.pod.metadata.namespace ?? 'default';
    this.recorder.eventf(pi.pod, null, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${ns}/${pi.pod.metadata.name} to ${host}`);
    this.finishDecision(q, numAll, { result: 'Scheduled', selectedNode: host, tiedNodes: tied });
  }

  /**
   * The score plugin that set the host apart most: the largest gap between the host's score
   * and the average of the other nodes' (scores of `scores.names[host]`, a column index).
   */
  private topReason(scores: NodePluginScores, host: number, tied: string[] | undefined): string {
    if (tied && tied.length > 1) return `tied with ${tied.length - 1} other node(s), picked at random`;
    const n = scores.names.length;
    let best = '';
    let bestGap = -Infinity;
    for (let p = 0; p < scores.plugins.length; p++) {
      const col = scores.scores[p];
      let sum = 0;
      for (let i = 0; i < n; i++) if (i !== host) sum += col[i];
      const avg = sum / Math.max(1, n - 1);
      if (col[host] - avg > bestGap) {
        bestGap = col[host] - avg;
        best = scores.plugins[p];
      }
    }
    return SCORE_PLUGIN_LABELS[best] ?? best;
  }

  private finishDecision(q: QueuedPodInfo, numAll: number, out: Parameters<ResultStore['finish']>[4]): void {
    const rec = this.results.finish(q.pi, q.attempts, this.ctx.clock.now(), numAll, out);
    this.decisions.delete(q.pi.key);
    this.decisions.set(q.pi.key, rec);
    if (this.decisions.size > MAX_DECISIONS) this.decisions.delete(this.decisions.keys().next().value!);
    if (this.decisionListeners.length) {
      const dec = materialize(rec);
      for (const l of this.decisionListeners) l(dec);
    }
  }

  /**
   * handleSchedulingFailure: requeue, FailedScheduling event, PodScheduled=False condition
   * (and status.nominatedNodeName when `nominate` is given: '' clears it).
   */
  private fail(
    q: QueuedPodInfo,
    message: string,
    reason: 'Unschedulable' | 'SchedulerError',
    d: Diagnosis,
    numAll: number,
    nominate: string | undefined,
  ): void {
    const pi = q.pi;
    const relay = this.ctx.relay;
    relay.record({
      from: 'kube-scheduler',
      to: 'kube-scheduler',
      kind: 'decision',
      verb: 'schedule',
      resource: 'pods',
      namespace: pi.pod.metadata.namespace ?? null,
      name: pi.pod.metadata.name,
      summary: `unschedulable: ${message}`,
      reconcile: relay.newReconcile(),
      note: `filtered 0/${numAll} nodes → unschedulable`,
    });
    this.finishDecision(q, numAll, {
      result: reason === 'Unschedulable' ? 'Unschedulable' : 'Error',
      message,
      nominatedNode: nominate || undefined,
    });
    const cur = this.podInformer.get(pi.key);
    if (!cur || cur.spec?.nodeName) return; // deleted or bound meanwhile: not requeued
    if (nominate) this.nominate(pi, nominate);
    else if (nominate === '') this.unnominate(pi.pod);
    this.queue.addUnschedulableIfNotPresent(q, reason === 'Unschedulable' ? d.unschedulablePlugins : new Set());
    this.recorder.eventf(cur, null, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(message));
    this.updatePodStatus(cur, { type: 'PodScheduled', status: 'False', reason, message }, nominate);
  }

  /** updatePod: PodScheduled condition (podutil.UpdatePodCondition) + nominatedNodeName; no write when nothing changes. */
  private updatePodStatus(
    pod: Pod,
    cond: { type: string; status: string; reason: string; message: string },
    nominate: string | undefined,
  ): void {
    const status: PodStatus = deepCopy(pod.status ?? {});
    const conds: PodCondition[] = status.conditions ?? [];
    const i = conds.findIndex((c) => c.type === cond.type);
    const old = i >= 0 ? conds[i] : undefined;
    const next = {
      type: cond.type,
      status: cond.status,
      lastProbeTime: null,
      lastTransitionTime: old && old.status === cond.status ? old.lastTransitionTime : this.ctx.clock.nowRFC3339(),
      reason: cond.reason,
      message: cond.message,
    };
    const condChanged =
      !old ||
      old.status !== next.status ||
      old.reason !== next.reason ||
      old.message !== next.message ||
      old.lastTransitionTime !== next.lastTransitionTime;
    const nnnChanged = nominate !== undefined && (status.nominatedNodeName ?? '') !== nominate;
    if (!condChanged && !nnnChanged) return;
    // Go's zero lastProbeTime marshals as null, which kubernetes-types' Time (a string) cannot say
    if (i >= 0) conds[i] = next as unknown as PodCondition;
    else conds.push(next as unknown as PodCondition);
    status.conditions = conds;
    if (nnnChanged) {
      if (nominate) status.nominatedNodeName = nominate;
      else delete status.nominatedNodeName;
    }
    try {
      this.pods.updateStatus(
        { ...pod, metadata: { ...pod.metadata, resourceVersion: undefined }, status },
        {
          summary: `patch status Pod ${pod.metadata.namespace}/${pod.metadata.name}: PodScheduled=False (${cond.reason})`,
        },
      );
    } catch {
      // the pod may be gone; the next attempt (or none) follows from the watch
    }
  }

  // ---- preemption side effects (preemption.go prepareCandidate) ------------------------------

  private preemptVictim(victim: Pod, by: PodInfo, node: string): void {
    const ns = victim.metadata.namespace ?? 'default';
    try {
      const cur = this.pods.get(ns, victim.metadata.name, { quiet: true });
      const status = deepCopy(cur.status ?? {});
      const conds = (status.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
      // Go's zero lastProbeTime marshals as null, which kubernetes-types' Time (a string) cannot say
      conds.push({
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: this.ctx.clock.nowRFC3339(),
        reason: 'PreemptionByScheduler',
        message: `${by.pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME}: preempting to accommodate a higher priority pod`,
      } as unknown as PodCondition);
      status.conditions = conds;
      this.pods.updateStatus(
        { ...cur, metadata: { ...cur.metadata, resourceVersion: undefined }, status },
        { summary: `patch status Pod ${ns}/${victim.metadata.name}: DisruptionTarget=True (PreemptionByScheduler)` },
      );
      this.pods.delete(ns, victim.metadata.name, { summary: `delete Pod ${ns}/${victim.metadata.name} (preempted by ${by.key})` });
    } catch {
      // already gone
    }
    this.recorder.eventf(victim, by.pod, 'Normal', 'Preempted', 'Preempting', `Preempted by pod ${by.uid} on node ${node}`);
  }

  private clearLowerNominations(node: string, by: PodInfo): void {
    for (const pi of [...(this.nominated.get(node)?.values() ?? [])]) {
      if (pi.uid === by.uid || pi.priority >= by.priority) continue;
      this.unnominate(pi.pod);
      const cur = this.podInformer.get(pi.key);
      if (cur?.status?.nominatedNodeName) {
        const status = deepCopy(cur.status);
        delete status.nominatedNodeName;
        try {
          this.pods.updateStatus({ ...cur, metadata: { ...cur.metadata, resourceVersion: undefined }, status });
        } catch {
          // gone
        }
      }
    }
  }
}

function ev(resource: ClusterEvent['resource'], action: ClusterEvent['action'], updates?: string[]): ClusterEvent {
  return { resource, action, updates, label: `${resource}${action}${updates ? `(${updates.join(',')})` : ''}` };
}
