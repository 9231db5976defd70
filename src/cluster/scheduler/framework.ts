/**
 * The scheduling framework: runs a profile's plugins at each extension point (PreFilter,
 * Filter, PostFilter, PreScore, Score + NormalizeScore with weights, Bind), and formats the
 * FitError message of a failed attempt.
 *
 * Mirrors pkg/scheduler/framework/runtime/framework.go (RunPreFilterPlugins,
 * RunFilterPlugins — stops at the first rejecting plugin and names it —,
 * RunFilterPluginsWithNominatedPods, RunPostFilterPlugins, RunPreScorePlugins,
 * RunScorePlugins, RunBindPlugins) and pkg/scheduler/framework/types.go (FitError.Error()).
 *
 * The framework knows nothing about tracing: the decision record comes from wrapped plugins
 * (decision.ts), as kube-scheduler-simulator's wrappedplugin.go does.
 */
import {
  isRejected,
  newStatus,
  SUCCESS,
  type BindPlugin,
  type CycleState,
  type FilterPlugin,
  type NodeToStatus,
  type Plugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreBindPlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
  type Status,
  type NodeScore,
} from './types';
import type { NodeInfo, PodInfo } from './node-info';
import { StringIntern } from '../util/intern';

/** framework.MaxNodeScore. */
export const MAX_NODE_SCORE = 100;

/** One enabled plugin of a profile with its score weight (MultiPoint config). */
export interface PluginEntry {
  plugin: Plugin;
  weight: number;
}

/**
 * Every node's scores from every score plugin, weighted, and their totals
 * (framework.NodePluginScores of all nodes, stored by column: plain numbers, no object per node
 * per plugin). The framework reuses one for every cycle: it is valid until the next
 * RunScorePlugins call, and only the first `names.length` entries of each column are the
 * cycle's (the buffers keep the largest cycle's length).
 */
export interface NodePluginScores {
  /** The scored nodes' names, in the order given to RunScorePlugins. */
  names: string[];
  /** The score plugins that ran (not skipped by PreScore), in profile order. */
  plugins: string[];
  /** `scores[p][i]`: plugin `plugins[p]`'s normalized score × weight for node `names[i]`. */
  scores: Float64Array[];
  /** `totals[i]`: the sum over plugins for node `names[i]`. */
  totals: Float64Array;
}

/** frameworkImpl for one profile ("default-scheduler"). */
export class Framework {
  readonly preFilterPlugins: PreFilterPlugin[] = [];
  readonly filterPlugins: FilterPlugin[] = [];
  readonly postFilterPlugins: PostFilterPlugin[] = [];
  readonly preScorePlugins: PreScorePlugin[] = [];
  readonly scorePlugins: { plugin: ScorePlugin; weight: number }[] = [];
  readonly preBindPlugins: PreBindPlugin[] = [];
  readonly bindPlugins: BindPlugin[] = [];
  /** Pods nominated to a node (the PodNominator), for RunFilterPluginsWithNominatedPods. */
  nominatedPodsForNode: (nodeName: string) => PodInfo[] = () => [];
  /** RunScorePlugins' NodeScore list, reused by every cycle (its length is the cycle's node count). */
  private readonly scoreList: NodeScore[] = [];
  /** RunScorePlugins' result, reused by every cycle (its columns grow to the largest cycle's node count). */
  private readonly nodeScores: NodePluginScores = { names: [], plugins: [], scores: [], totals: new Float64Array(0) };

  /** Registers each plugin at every extension point it implements, in order (MultiPoint). */
  constructor(
    readonly profileName: string,
    entries: PluginEntry[],
  ) {
    for (const { plugin, weight } of entries) {
      const p = plugin as Plugin &
        Partial<PreFilterPlugin & FilterPlugin & PostFilterPlugin & PreScorePlugin & ScorePlugin & PreBindPlugin & BindPlugin>;
      if (p.preFilter) this.preFilterPlugins.push(p as PreFilterPlugin);
      if (p.filter) this.filterPlugins.push(p as FilterPlugin);
      if (p.postFilter) this.postFilterPlugins.push(p as PostFilterPlugin);
      if (p.preScore) this.preScorePlugins.push(p as PreScorePlugin);
      if (p.score) this.scorePlugins.push({ plugin: p as ScorePlugin, weight });
      if (p.preBind) this.preBindPlugins.push(p as PreBindPlugin);
      if (p.bind) this.bindPlugins.push(p as BindPlugin);
    }
  }

  /** Every registered plugin name, in order (for the queue's event registrations). */
  plugins(): Plugin[] {
    const seen = new Map<string, Plugin>();
    for (const list of [
      this.preFilterPlugins,
      this.filterPlugins,
      this.postFilterPlugins,
      this.preScorePlugins,
      this.scorePlugins.map((s) => s.plugin),
      this.preBindPlugins,
      this.bindPlugins,
    ]) {
      for (const p of list) if (!seen.has(p.name)) seen.set(p.name, p);
    }
    return [...seen.values()];
  }

  /**
   * RunPreFilterPlugins. Skip adds the plugin to state.skipFilterPlugins; a rejection ends
   * the run and is returned with the plugin's name.
   */
  runPreFilterPlugins(state: CycleState, pod: PodInfo, nodes: NodeInfo[]): Status {
    state.activeFilterPlugins = undefined;
    for (const p of this.preFilterPlugins) {
      const s = p.preFilter(state, pod, nodes);
      if (s.code === 'Skip') {
        state.skipFilterPlugins.add(p.name);
        continue;
      }
      if (s.code !== 'Success') return { ...s, plugin: p.name };
    }
    return SUCCESS;
  }

  /** RunPreFilterExtensionAddPod: lets PreFilter state see a pod added to a node (what-ifs). */
  runPreFilterExtensionAddPod(state: CycleState, pod: PodInfo, toAdd: PodInfo, nodeInfo: NodeInfo): void {
    for (const p of this.preFilterPlugins) if (!state.skipFilterPlugins.has(p.name)) p.addPod?.(state, pod, toAdd, nodeInfo);
  }

  /** RunPreFilterExtensionRemovePod. */
  runPreFilterExtensionRemovePod(state: CycleState, pod: PodInfo, toRemove: PodInfo, nodeInfo: NodeInfo): void {
    for (const p of this.preFilterPlugins) if (!state.skipFilterPlugins.has(p.name)) p.removePod?.(state, pod, toRemove, nodeInfo);
  }

  /** RunFilterPlugins: the first non-success status, naming its plugin; Success otherwise. */
  runFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status {
    // the plugins PreFilter did not skip, listed once per cycle (this runs for every node)
    let active = state.activeFilterPlugins as FilterPlugin[] | undefined;
    if (!active) state.activeFilterPlugins = active = this.filterPlugins.filter((p) => !state.skipFilterPlugins.has(p.name));
    for (let i = 0; i < active.length; i++) {
      const p = active[i];
      const s = p.filter(state, pod, nodeInfo);
      if (s.code !== 'Success') return { ...(isRejected(s) ? s : newStatus('Error', ...s.reasons)), plugin: p.name };
    }
    return SUCCESS;
  }

  /**
   * RunFilterPluginsWithNominatedPods: when pods of equal or higher priority are nominated
   * to the node, the filters run once with them added (they will be there) and, if that
   * passes, once without them (they might not come); both must pass.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status {
    const all = this.nominatedPodsForNode(nodeInfo.name);
    const nominated = all.length ? all.filter((n) => n.uid !== pod.uid && n.priority >= pod.priority) : all;
    if (nominated.length) {
      const stateOut = state.clone();
      const niOut = nodeInfo.clone();
      for (const n of nominated) {
        niOut.addPod(n);
        this.runPreFilterExtensionAddPod(stateOut, pod, n, niOut);
      }
      const s = this.runFilterPlugins(stateOut, pod, niOut);
      if (s.code !== 'Success') return s;
    }
    return this.runFilterPlugins(state, pod, nodeInfo);
  }

  /** RunPostFilterPlugins: the first plugin that succeeds wins; otherwise the last rejection. */
  runPostFilterPlugins(state: CycleState, pod: PodInfo, m: NodeToStatus): PostFilterResult {
    let last: PostFilterResult = { status: newStatus('Unschedulable') };
    for (const p of this.postFilterPlugins) {
      const r = p.postFilter(state, pod, m);
      if (r.status.code === 'Success') return r;
      last = { ...r, status: { ...r.status, plugin: p.name } };
    }
    return last;
  }

  /** RunPreScorePlugins: Skip adds the plugin to state.skipScorePlugins. */
  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: NodeInfo[]): Status {
    for (const p of this.preScorePlugins) {
      const s = p.preScore(state, pod, nodes);
      if (s.code === 'Skip') {
        state.skipScorePlugins.add(p.name);
        continue;
      }
      if (s.code !== 'Success') return { ...s, plugin: p.name };
    }
    return SUCCESS;
  }

  /**
   * RunScorePlugins: raw scores per node, NormalizeScore per plugin, then × weight; the
   * total is the sum (prioritizeNodes).
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: NodeInfo[]): NodePluginScores {
    const n = nodes.length;
    const out = this.nodeScores;
    // one NodeScore list and one set of columns for every cycle, refilled for each plugin
    // (NormalizeScore's input; nothing keeps either past the cycle): no allocation per node
    const list = this.scoreList;
    const names = out.names;
    if (list.length > n) list.length = n;
    names.length = n;
    for (let i = 0; i < n; i++) {
      const name = nodes[i].name;
      names[i] = name;
      if (i < list.length) list[i].name = name;
      else list.push({ name, score: 0 });
    }
    if (out.totals.length < n) {
      out.totals = new Float64Array(n);
      out.scores.length = 0;
    } else out.totals.fill(0, 0, n);
    const totals = out.totals;
    out.plugins.length = 0;
    let p = 0;
    for (const { plugin, weight } of this.scorePlugins) {
      if (state.skipScorePlugins.has(plugin.name)) continue;
      for (let i = 0; i < n; i++) list[i].score = plugin.score(state, pod, nodes[i]);
      plugin.normalizeScore?.(state, pod, list);
      if (p === out.scores.length) out.scores.push(new Float64Array(totals.length));
      const col = out.scores[p++];
      for (let i = 0; i < n; i++) {
        const s = list[i].score * weight;
        col[i] = s;
        totals[i] += s;
      }
      out.plugins.push(plugin.name);
    }
    return out;
  }

  /**
   * RunPreBindPlugins: each plugin in turn (each may finish later); the first failure ends the
   * run as `running PreBind plugin "<name>": <reason>`. `done` is called exactly once.
   */
  runPreBindPlugins(state: CycleState, pod: PodInfo, nodeName: string, done: (s: Status) => void): void {
    const next = (i: number): void => {
      if (i >= this.preBindPlugins.length) return done(SUCCESS);
      const p = this.preBindPlugins[i];
      p.preBind(state, pod, nodeName, (s) => {
        if (s.code === 'Success' || s.code === 'Skip') return next(i + 1);
        done({ ...newStatus('Error', `running PreBind plugin "${p.name}": ${s.reasons.join(', ')}`), plugin: p.name });
      });
    };
    next(0);
  }

  /** RunBindPlugins: the first plugin that does not Skip binds. */
  runBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status {
    for (const p of this.bindPlugins) {
      const s = p.bind(state, pod, nodeName);
      if (s.code === 'Skip') continue;
      return s.code === 'Success' ? s : { ...s, plugin: p.name };
    }
    return newStatus('Error', 'no bind plugin bound the pod');
  }
}

/** framework.Diagnosis: why an attempt failed. */
export interface Diagnosis {
  nodeToStatus: NodeToStatus;
  unschedulablePlugins: Set<string>;
  preFilterMsg: string;
  postFilterMsg: string;
}

/** framework.NoNodeAvailableMsg. */
export const NO_NODE_AVAILABLE_MSG = '0/%v nodes are available';

/**
 * FitError.Error(): "0/N nodes are available: <PreFilterMsg>. <counted reasons, sorted>. <PostFilterMsg>"
 * — each reason of each rejected node counted, formatted "<count> <reason>", sorted as strings
 * (Go's sort.Strings: byte order), joined with ", ".
 */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  return FIT_ERRORS.intern(buildFitErrorMessage(numAllNodes, d));
}

/**
 * The messages of Pods that fail alike are equal: one pooled string serves every PodScheduled
 * condition and FailedScheduling Event that carries it (util/intern.ts).
 */
const FIT_ERRORS = new StringIntern(1024);

function buildFitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg) msg += ` ${d.preFilterMsg}.`;
  if (!d.preFilterMsg) {
    const reasons = new Map<string, number>();
    for (const s of d.nodeToStatus.map.values()) for (const r of s.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    const absent = numAllNodes - d.nodeToStatus.map.size;
    if (absent > 0 && d.nodeToStatus.absent) for (const r of d.nodeToStatus.absent.reasons) reasons.set(r, (reasons.get(r) ?? 0) + absent);
    const sorted = [...reasons].map(([r, n]) => `${n} ${r}`).sort(goStringLess);
    if (sorted.length) msg += ` ${sorted.join(', ')}.`;
  }
  if (d.postFilterMsg) msg += ` ${d.postFilterMsg}`;
  return msg;
}

/** Byte-wise comparison, as Go's sort.Strings. */
export function goStringLess(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** framework.DefaultNormalizeScore: scales to 0..maxPriority by the max; `reverse` flips. */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return;
  }
  for (const s of scores) {
    let v = Math.trunc((maxPriority * s.score) / maxCount);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
}
