/**
 * "Why this node": the decision record of each scheduling attempt, collected by decoration.
 * Every plugin is wrapped; each extension point calls the original and writes what it
 * returned (filter reason, raw score, normalized score) into a {@link ResultStore}. The
 * scheduling algorithm never sees the store.
 *
 * Mirrors kubernetes-sigs/kube-scheduler-simulator simulator/scheduler/plugin/wrappedplugin.go
 * (one wrapper per plugin, per extension point, with the plugin's weight) and
 * plugin/resultstore/store.go (results accumulated per pod, then handed over once the pod is
 * bound or rejected).
 */
import type { BindPlugin, CycleState, FilterPlugin, NodeScore, NodeToStatus, Plugin, PostFilterPlugin, PreBindPlugin, PreFilterPlugin, PreScorePlugin, ScorePlugin, Status } from './types';
import type { NodeInfo, PodInfo } from './node-info';

/** One plugin's score for one node. `final` = normalized × weight (what the total adds). */
export interface PluginScore {
  plugin: string;
  raw: number;
  /** After NormalizeScore (equal to raw for plugins without ScoreExtensions). */
  normalized: number;
  weight: number;
  final: number;
}

/** A filter plugin's verdict on a node. */
export interface FilterResult {
  plugin: string;
  passed: boolean;
  code?: Status['code'];
  reasons?: string[];
}

/** Everything the scheduler decided about one node in one attempt. */
export interface NodeDecision {
  node: string;
  /**
   * The failing filter verdict (empty when every filter passed). Filters run in profile
   * order and stop at the first failure, so every plugin before the failing one passed.
   */
  filters: FilterResult[];
  feasible: boolean;
  /** The failing plugin and its reasons (when not feasible). */
  failedPlugin?: string;
  reasons?: string[];
  /** Scores (feasible nodes, when scoring ran). */
  scores?: PluginScore[];
  total?: number;
}

/** The record of one scheduling attempt of one pod (exported for the UI). */
export interface SchedulingDecision {
  namespace: string;
  name: string;
  uid: string;
  /** 1-based attempt number. */
  attempt: number;
  /** Simulated time of the attempt, ms since the epoch. */
  time: number;
  result: 'Scheduled' | 'Unschedulable' | 'Error';
  /** Node chosen (Scheduled) or nominated by preemption. */
  selectedNode?: string;
  nominatedNode?: string;
  numAllNodes: number;
  /** Nodes that passed every filter. */
  feasibleNodes: number;
  /** Per node, in evaluation order. */
  nodes: NodeDecision[];
  /** PreFilter verdicts that were not plain success (Skip or rejection). */
  preFilter: { plugin: string; code: Status['code']; reasons: string[] }[];
  /** Score plugins skipped by PreScore. */
  skippedScorePlugins: string[];
  /** Nodes tied for the top score (the host was picked at random among them). */
  tiedNodes?: string[];
  /** PostFilter (preemption) outcome. */
  postFilter?: { plugin: string; code: Status['code']; message: string; nominatedNode?: string; victims?: string[] };
  /** The FailedScheduling message, or the error. */
  message?: string;
}

interface Pending {
  nodes: Map<string, NodeDecision>;
  preFilter: SchedulingDecision['preFilter'];
  skippedScore: string[];
  postFilter?: SchedulingDecision['postFilter'];
  /** Inside PostFilter: filter calls are what-ifs and are not recorded. */
  inPostFilter: boolean;
}

/** resultstore.Store: accumulates per-pod results until the attempt ends. */
export class ResultStore {
  private pending = new Map<string, Pending>();

  private entry(uid: string): Pending {
    let e = this.pending.get(uid);
    if (!e) this.pending.set(uid, (e = { nodes: new Map(), preFilter: [], skippedScore: [], inPostFilter: false }));
    return e;
  }

  private node(uid: string, node: string): NodeDecision {
    const e = this.entry(uid);
    let n = e.nodes.get(node);
    if (!n) e.nodes.set(node, (n = { node, filters: [], feasible: true }));
    return n;
  }

  recordPreFilter(uid: string, plugin: string, s: Status): void {
    if (s.code !== 'Success') this.entry(uid).preFilter.push({ plugin, code: s.code, reasons: s.reasons });
  }

  recordFilter(uid: string, node: string, plugin: string, s: Status): void {
    const e = this.entry(uid);
    if (e.inPostFilter) return;
    const n = this.node(uid, node);
    if (s.code === 'Success') {
      // RunFilterPluginsWithNominatedPods may run a filter twice: the last verdict counts
      if (n.failedPlugin === plugin) {
        n.feasible = true;
        n.failedPlugin = undefined;
        n.reasons = undefined;
        n.filters = [];
      }
      return;
    }
    n.feasible = false;
    n.failedPlugin = plugin;
    n.reasons = s.reasons;
    n.filters = [{ plugin, passed: false, code: s.code, reasons: s.reasons }];
  }

  setInPostFilter(uid: string, v: boolean): void {
    this.entry(uid).inPostFilter = v;
  }

  recordPostFilter(uid: string, plugin: string, code: Status['code'], message: string, nominatedNode?: string, victims?: string[]): void {
    this.entry(uid).postFilter = { plugin, code, message, nominatedNode, victims };
  }

  recordPreScore(uid: string, plugin: string, s: Status): void {
    if (s.code === 'Skip') this.entry(uid).skippedScore.push(plugin);
  }

  recordScore(uid: string, node: string, plugin: string, raw: number, weight: number): void {
    const n = this.node(uid, node);
    (n.scores ??= []).push({ plugin, raw, normalized: raw, weight, final: raw * weight });
  }

  recordNormalized(uid: string, plugin: string, scores: NodeScore[]): void {
    for (const s of scores) {
      const ps = this.node(uid, s.name).scores?.find((x) => x.plugin === plugin);
      if (ps) {
        ps.normalized = s.score;
        ps.final = s.score * ps.weight;
      }
    }
  }

  /** Ends the attempt: assembles and forgets the pending record. */
  finish(pi: PodInfo, attempt: number, time: number, numAllNodes: number, out: Pick<SchedulingDecision, 'result' | 'selectedNode' | 'nominatedNode' | 'message' | 'tiedNodes'>): SchedulingDecision {
    const e = this.entry(pi.uid);
    this.pending.delete(pi.uid);
    const nodes = [...e.nodes.values()];
    for (const n of nodes) if (n.scores) n.total = n.scores.reduce((s, x) => s + x.final, 0);
    return {
      namespace: pi.pod.metadata.namespace ?? '',
      name: pi.pod.metadata.name,
      uid: pi.uid,
      attempt,
      time,
      numAllNodes,
      feasibleNodes: nodes.filter((n) => n.feasible).length,
      nodes,
      preFilter: e.preFilter,
      skippedScorePlugins: e.skippedScore,
      postFilter: e.postFilter,
      ...out,
    };
  }

  /** Drops what was collected for a pod (attempt abandoned). */
  discard(uid: string): void {
    this.pending.delete(uid);
  }
}

type AnyPlugin = Plugin & Partial<PreFilterPlugin & FilterPlugin & PostFilterPlugin & PreScorePlugin & ScorePlugin & PreBindPlugin & BindPlugin>;

/**
 * Wraps a plugin: the wrapper implements exactly the extension points the plugin does,
 * calls the original and records the outcome in `store` (wrappedplugin.go's NewWrappedPlugin).
 */
export function wrapPlugin<P extends Plugin>(plugin: P, weight: number, store: ResultStore): P {
  const p = plugin as unknown as AnyPlugin;
  const w: AnyPlugin & Record<string, unknown> = { name: p.name };
  if (p.preFilter) {
    w.preFilter = (state: CycleState, pod: PodInfo, nodes: NodeInfo[]) => {
      const s = p.preFilter!(state, pod, nodes);
      store.recordPreFilter(pod.uid, p.name, s);
      return s;
    };
  }
  if (p.addPod) w.addPod = p.addPod.bind(p);
  if (p.removePod) w.removePod = p.removePod.bind(p);
  if (p.filter) {
    w.filter = (state: CycleState, pod: PodInfo, ni: NodeInfo) => {
      const s = p.filter!(state, pod, ni);
      store.recordFilter(pod.uid, ni.name, p.name, s);
      return s;
    };
  }
  if (p.postFilter) {
    w.postFilter = (state: CycleState, pod: PodInfo, m: NodeToStatus) => {
      store.setInPostFilter(pod.uid, true);
      try {
        const r = p.postFilter!(state, pod, m);
        store.recordPostFilter(pod.uid, p.name, r.status.code, r.status.reasons.join(', '), r.nominatedNodeName, r.victims);
        return r;
      } finally {
        store.setInPostFilter(pod.uid, false);
      }
    };
  }
  if (p.preScore) {
    w.preScore = (state: CycleState, pod: PodInfo, nodes: NodeInfo[]) => {
      const s = p.preScore!(state, pod, nodes);
      store.recordPreScore(pod.uid, p.name, s);
      return s;
    };
  }
  if (p.score) {
    w.score = (state: CycleState, pod: PodInfo, ni: NodeInfo) => {
      const v = p.score!(state, pod, ni);
      store.recordScore(pod.uid, ni.name, p.name, v, weight);
      return v;
    };
  }
  if (p.normalizeScore) {
    w.normalizeScore = (state: CycleState, pod: PodInfo, scores: NodeScore[]) => {
      p.normalizeScore!(state, pod, scores);
      store.recordNormalized(pod.uid, p.name, scores);
    };
  }
  if (p.preBind) w.preBind = p.preBind.bind(p);
  if (p.bind) w.bind = p.bind.bind(p);
  // queueing hints and anything else pass through untouched
  const rest = p as unknown as { eventsToRegister?: () => unknown };
  if (rest.eventsToRegister) w.eventsToRegister = rest.eventsToRegister.bind(p);
  return w as unknown as P;
}

/** Short names for the relay summary of the plugin that decided. */
export const SCORE_PLUGIN_LABELS: Record<string, string> = {
  NodeResourcesFit: 'least allocated',
  NodeResourcesBalancedAllocation: 'balanced allocation',
  TaintToleration: 'taint toleration',
  NodeAffinity: 'node affinity',
  PodTopologySpread: 'topology spread',
  InterPodAffinity: 'inter-pod affinity',
  ImageLocality: 'image locality',
};
