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
import type {
  BindPlugin,
  CycleState,
  FilterPlugin,
  NodeScore,
  NodeToStatus,
  Plugin,
  PostFilterPlugin,
  PreBindPlugin,
  PreFilterPlugin,
  PreScorePlugin,
  ScorePlugin,
  Status,
} from './types';
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

/** One score plugin's calls in one attempt, in call order (the framework scores node by node). */
interface PendingScores {
  plugin: string;
  weight: number;
  /** Scored nodes, by call (may be the previous plugin's list, shared when equal). */
  nodes: string[];
  /** Raw scores by the same index; `count` of them are set. */
  raw: number[];
  count: number;
  /** After NormalizeScore, by the same index (undefined: the plugin has no ScoreExtensions). */
  normalized?: number[];
}

/** A failing filter verdict. */
interface FailedFilter {
  plugin: string;
  code: Status['code'];
  reasons: string[];
}

/**
 * What an attempt collected, kept by column (plain numbers and names, no object per node per
 * plugin): most records are never read, so {@link materialize} builds the per-node view only
 * when the UI asks.
 */
interface Pending {
  /**
   * Nodes in evaluation order, as filtered: a node's filters run back to back, so a node is
   * appended when it differs from the last one; repeats (the nominated node, evaluated first
   * and again in turn) are dropped by {@link materialize}.
   */
  order: string[];
  failed: Map<string, FailedFilter>;
  scores: PendingScores[];
  preFilter: SchedulingDecision['preFilter'];
  skippedScore: string[];
  postFilter?: SchedulingDecision['postFilter'];
  /** Inside PostFilter: filter calls are what-ifs and are not recorded. */
  inPostFilter: boolean;
}

/** A finished attempt: the outcome now, the per-node record on demand ({@link materialize}). */
export interface DecisionRecord {
  head: Omit<SchedulingDecision, 'nodes' | 'feasibleNodes' | 'preFilter' | 'skippedScorePlugins' | 'postFilter'>;
  pending: Pending;
  built?: SchedulingDecision;
}

/** The {@link SchedulingDecision} of a finished attempt (built once, then kept). */
export function materialize(r: DecisionRecord): SchedulingDecision {
  if (r.built) return r.built;
  const e = r.pending;
  const byNode = new Map<string, NodeDecision>();
  const nodes: NodeDecision[] = [];
  const add = (node: string): NodeDecision => {
    const f = e.failed.get(node);
    const n: NodeDecision = f
      ? {
          node,
          filters: [{ plugin: f.plugin, passed: false, code: f.code, reasons: f.reasons }],
          feasible: false,
          failedPlugin: f.plugin,
          reasons: f.reasons,
        }
      : { node, filters: [], feasible: true };
    byNode.set(node, n);
    nodes.push(n);
    return n;
  };
  for (const node of e.order) if (!byNode.has(node)) add(node);
  for (const ps of e.scores) {
    for (let i = 0; i < ps.count; i++) {
      const raw = ps.raw[i];
      const normalized = ps.normalized ? ps.normalized[i] : raw;
      const n = byNode.get(ps.nodes[i]) ?? add(ps.nodes[i]);
      (n.scores ??= []).push({ plugin: ps.plugin, raw, normalized, weight: ps.weight, final: normalized * ps.weight });
    }
  }
  for (const n of nodes) if (n.scores) n.total = n.scores.reduce((s, x) => s + x.final, 0);
  const { namespace, name, uid, attempt, time, numAllNodes, ...out } = r.head;
  r.built = {
    namespace,
    name,
    uid,
    attempt,
    time,
    numAllNodes,
    feasibleNodes: nodes.length - e.failed.size,
    nodes,
    preFilter: e.preFilter,
    skippedScorePlugins: e.skippedScore,
    postFilter: e.postFilter,
    ...out,
  };
  return r.built;
}

/** resultstore.Store: accumulates per-pod results until the attempt ends. */
export class ResultStore {
  private pending = new Map<string, Pending>();
  /** The entry of the last call (calls come in runs for one pod). */
  private lastUid = '';
  private last: Pending | undefined;

  private entry(uid: string): Pending {
    if (uid === this.lastUid && this.last) return this.last;
    let e = this.pending.get(uid);
    if (!e) this.pending.set(uid, (e = { order: [], failed: new Map(), scores: [], preFilter: [], skippedScore: [], inPostFilter: false }));
    this.lastUid = uid;
    this.last = e;
    return e;
  }

  recordPreFilter(uid: string, plugin: string, s: Status): void {
    if (s.code !== 'Success') this.entry(uid).preFilter.push({ plugin, code: s.code, reasons: s.reasons });
  }

  recordFilter(uid: string, node: string, plugin: string, s: Status): void {
    const e = this.entry(uid);
    if (e.inPostFilter) return;
    if (e.order[e.order.length - 1] !== node) e.order.push(node);
    if (s.code === 'Success') {
      // RunFilterPluginsWithNominatedPods may run a filter twice: the last verdict counts
      if (e.failed.get(node)?.plugin === plugin) e.failed.delete(node);
      return;
    }
    e.failed.set(node, { plugin, code: s.code, reasons: s.reasons });
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
    const e = this.entry(uid);
    let ps = e.scores[e.scores.length - 1];
    if (!ps || ps.plugin !== plugin || ps.normalized) {
      // every plugin scores the same nodes in the same order: share the previous plugin's node
      // list (copied on the first difference)
      const prev = ps;
      e.scores.push((ps = { plugin, weight, nodes: prev ? prev.nodes : [], raw: [], count: 0 }));
    }
    const i = ps.count++;
    if (ps.nodes[i] !== node) {
      if (e.scores.length > 1 && ps.nodes === e.scores[e.scores.length - 2].nodes) ps.nodes = ps.nodes.slice(0, i);
      ps.nodes[i] = node;
    }
    ps.raw[i] = raw;
  }

  recordNormalized(uid: string, plugin: string, scores: NodeScore[]): void {
    const e = this.entry(uid);
    let ps: PendingScores | undefined;
    for (let i = e.scores.length - 1; i >= 0 && !ps; i--) if (e.scores[i].plugin === plugin) ps = e.scores[i];
    if (!ps) return;
    const out: number[] = ps.raw.slice(0, ps.count);
    for (let i = 0; i < scores.length; i++) {
      const s = scores[i];
      // NormalizeScore rewrites the list in place, in the order it was scored
      const at = ps.nodes[i] === s.name ? i : ps.nodes.indexOf(s.name);
      if (at >= 0 && at < ps.count) out[at] = s.score;
    }
    ps.normalized = out;
  }

  /** Ends the attempt: hands over (and forgets) the pending record; see {@link materialize}. */
  finish(
    pi: PodInfo,
    attempt: number,
    time: number,
    numAllNodes: number,
    out: Pick<SchedulingDecision, 'result' | 'selectedNode' | 'nominatedNode' | 'message' | 'tiedNodes'>,
  ): DecisionRecord {
    const e = this.entry(pi.uid);
    this.discard(pi.uid);
    return {
      head: { namespace: pi.pod.metadata.namespace ?? '', name: pi.pod.metadata.name, uid: pi.uid, attempt, time, numAllNodes, ...out },
      pending: e,
    };
  }

  /** Drops what was collected for a pod (attempt abandoned). */
  discard(uid: string): void {
    this.pending.delete(uid);
    if (uid === this.lastUid) this.last = undefined;
  }
}

type AnyPlugin = Plugin &
  Partial<PreFilterPlugin & FilterPlugin & PostFilterPlugin & PreScorePlugin & ScorePlugin & PreBindPlugin & BindPlugin>;

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
