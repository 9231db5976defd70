/**
 * PodTopologySpread: DoNotSchedule constraints filter (matching pods per topology domain +
 * self-match − global minimum must not exceed maxSkew); ScheduleAnyway constraints — or,
 * for pods without constraints that belong to a Service/ReplicaSet/StatefulSet/RC, the
 * system defaults (hostname maxSkew 3, zone maxSkew 5) — score (weight 2).
 *
 * Mirrors pkg/scheduler/framework/plugins/podtopologyspread/{filtering.go, scoring.go,
 * common.go, plugin.go} (nodeAffinityPolicy Honor and nodeTaintsPolicy Ignore by default,
 * matchLabelKeys, minDomains) and pkg/scheduler/apis/config/v1 (systemDefaultConstraints).
 */
import type { Node, Pod } from '../../api/objects';
import type { TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { fromLabelSelector, matches, selectorString, type Selector } from '../../api/labels';
import { MAX_NODE_SCORE } from '../framework';
import type { NodeInfo, PodInfo } from '../node-info';
import {
  newStatus,
  SUCCESS,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type NodeScore,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
  type StateData,
  type Status,
} from '../types';
import { StringIntern } from '../../util/intern';
import { doNotScheduleTaints, findUntoleratedTaint, podMatchesNodeSelectorAndAffinity } from '../../component-helpers/scheduling/corev1';

/** ErrReasonConstraintsNotMatch. */
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
/** ErrReasonNodeLabelNotMatch. */
export const ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + ' (missing required label)';

const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

interface Constraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  selectorKey: string;
  minDomains: number;
  honorAffinity: boolean;
  honorTaints: boolean;
}

/**
 * The constraints' count-cache keys, pooled: every cycle of a Deployment's Pods builds the same
 * key, and NodeInfo.countMatching compares the pooled copy by identity (one load per node).
 */
const SELECTOR_KEYS = new StringIntern(1024);

function buildConstraints(pod: Pod, raw: TopologySpreadConstraint[] | undefined, action: string): Constraint[] {
  const out: Constraint[] = [];
  for (const c of raw ?? []) {
    if (c.whenUnsatisfiable !== action) continue;
    const sel = fromLabelSelector(c.labelSelector);
    const reqs = [...sel.requirements];
    for (const k of c.matchLabelKeys ?? []) {
      const v = pod.metadata.labels?.[k];
      if (v !== undefined) reqs.push({ key: k, op: 'in', values: [v] });
    }
    const selector: Selector = { requirements: reqs, nothing: sel.nothing };
    out.push({
      maxSkew: c.maxSkew ?? 1,
      topologyKey: c.topologyKey,
      selector,
      selectorKey: SELECTOR_KEYS.intern(`${pod.metadata.namespace ?? ''}\u0000${sel.nothing ? '<nothing>' : selectorString(selector)}`),
      minDomains: c.minDomains ?? 1,
      honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorTaints: c.nodeTaintsPolicy === 'Honor',
    });
  }
  return out;
}

function includesNode(c: Constraint, pod: Pod, node: Node): boolean {
  if (c.honorAffinity && !podMatchesNodeSelectorAndAffinity(pod, node)) return false;
  if (c.honorTaints && findUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaints)) return false;
  return true;
}

function hasAllKeys(node: Node, cs: Constraint[]): boolean {
  const l = node.metadata.labels ?? {};
  return cs.every((c) => Object.prototype.hasOwnProperty.call(l, c.topologyKey));
}

/**
 * preFilterState: per constraint, the matching pods per topology value; its global minimum
 * (the critical paths' minimum, recomputed only after AddPod/RemovePod changed the counts) and
 * whether the incoming pod matches its own selector (the same for every node).
 */
class FilterState implements StateData {
  /** Per constraint: min over the counts (or 0 below minDomains); null when a count changed since. */
  private mins: number[] | null = null;
  constructor(
    public constraints: Constraint[],
    public counts: Map<string, number>[],
    public selfMatch: number[],
  ) {}
  /** The global minimum matching count of constraint `i`, as filter compares against. */
  minMatch(i: number): number {
    if (!this.mins) {
      this.mins = this.constraints.map((c, j) => {
        const m = this.counts[j];
        let min = 2147483647;
        for (const v of m.values()) if (v < min) min = v;
        return m.size < c.minDomains ? 0 : min;
      });
    }
    return this.mins[i];
  }
  /** Counts changed (AddPod/RemovePod): the minimums are recomputed on the next read. */
  changed(): void {
    this.mins = null;
  }
  clone(): FilterState {
    return new FilterState(
      this.constraints,
      this.counts.map((m) => new Map(m)),
      this.selfMatch,
    );
  }
}

class ScoreState implements StateData {
  constructor(
    public constraints: Constraint[],
    public ignored: Set<string>,
    public pairCounts: Map<string, number>[],
    public weights: number[],
  ) {}
  clone(): ScoreState {
    return this;
  }
}

const FILTER_KEY = 'PreFilterPodTopologySpread';
const SCORE_KEY = 'PreScorePodTopologySpread';

/** The PodTopologySpread plugin. */
export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = 'PodTopologySpread';

  /**
   * @param allNodes every node of the snapshot
   * @param defaultSelector helper.DefaultSelector: the union of the selectors of Services,
   *   ReplicationControllers, ReplicaSets and StatefulSets that select the pod (null if none)
   */
  constructor(
    private readonly allNodes: () => NodeInfo[],
    private readonly defaultSelector: (pod: Pod) => Selector | null,
  ) {}

  preFilter(state: CycleState, pod: PodInfo): Status {
    const cs = buildConstraints(pod.pod, pod.pod.spec?.topologySpreadConstraints, 'DoNotSchedule');
    if (!cs.length) return newStatus('Skip');
    const counts = cs.map(() => new Map<string, number>());
    for (const ni of this.allNodes()) {
      const node = ni.node!;
      if (!hasAllKeys(node, cs)) continue;
      cs.forEach((c, i) => {
        if (!includesNode(c, pod.pod, node)) return;
        const v = node.metadata.labels![c.topologyKey];
        counts[i].set(v, (counts[i].get(v) ?? 0) + ni.countMatching(c.selector, pod.pod.metadata.namespace ?? '', c.selectorKey));
      });
    }
    const selfMatch = cs.map((c) => (matches(c.selector, pod.pod.metadata.labels) ? 1 : 0));
    state.write(FILTER_KEY, new FilterState(cs, counts, selfMatch));
    return SUCCESS;
  }

  private update(state: CycleState, pod: PodInfo, other: PodInfo, ni: NodeInfo, delta: number): void {
    const s = state.read<FilterState>(FILTER_KEY);
    if (!s || !ni.node || !hasAllKeys(ni.node, s.constraints)) return;
    if (other.pod.metadata.namespace !== pod.pod.metadata.namespace) return;
    s.constraints.forEach((c, i) => {
      if (!includesNode(c, pod.pod, ni.node!) || !matches(c.selector, other.pod.metadata.labels)) return;
      const v = ni.node!.metadata.labels![c.topologyKey];
      s.counts[i].set(v, (s.counts[i].get(v) ?? 0) + delta);
    });
    s.changed();
  }

  addPod(state: CycleState, pod: PodInfo, toAdd: PodInfo, ni: NodeInfo): void {
    this.update(state, pod, toAdd, ni, 1);
  }

  removePod(state: CycleState, pod: PodInfo, toRemove: PodInfo, ni: NodeInfo): void {
    this.update(state, pod, toRemove, ni, -1);
  }

  filter(state: CycleState, _pod: PodInfo, ni: NodeInfo): Status {
    const s = state.read<FilterState>(FILTER_KEY);
    if (!s) return SUCCESS;
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i];
      const value = ni.label(c.topologyKey);
      if (value === undefined) return newStatus('UnschedulableAndUnresolvable', ERR_REASON_NODE_LABEL_NOT_MATCH);
      const count = s.counts[i].get(value) ?? 0;
      if (count + s.selfMatch[i] - s.minMatch(i) > c.maxSkew) return newStatus('Unschedulable', ERR_REASON_CONSTRAINTS_NOT_MATCH);
    }
    return SUCCESS;
  }

  preScore(state: CycleState, pod: PodInfo, filtered: NodeInfo[]): Status {
    const all = this.allNodes();
    if (!filtered.length || !all.length) return newStatus('Skip');
    const own = (pod.pod.spec?.topologySpreadConstraints ?? []).length > 0;
    let cs: Constraint[];
    if (own) cs = buildConstraints(pod.pod, pod.pod.spec.topologySpreadConstraints, 'ScheduleAnyway');
    else {
      const sel = this.defaultSelector(pod.pod);
      if (!sel || sel.requirements.length === 0) return newStatus('Skip');
      const key = SELECTOR_KEYS.intern(`${pod.pod.metadata.namespace ?? ''}\u0000${selectorString(sel)}`);
      cs = [
        { maxSkew: 3, topologyKey: HOSTNAME, selector: sel, selectorKey: key, minDomains: 1, honorAffinity: true, honorTaints: false },
        { maxSkew: 5, topologyKey: ZONE, selector: sel, selectorKey: key, minDomains: 1, honorAffinity: true, honorTaints: false },
      ];
    }
    if (!cs.length) return newStatus('Skip');
    const requireAll = own; // system defaults: nodes without a zone still get hostname spreading
    const ignored = new Set<string>();
    const pairCounts = cs.map(() => new Map<string, number>());
    const topoSize = cs.map(() => 0);
    // whether a scored node carries the constraint's key: if none does, Score never reads the
    // constraint's pair counts, so the walk over all nodes below is skipped for it
    const keyed = cs.map(() => false);
    // plain loops, no closure per node: this runs for every feasible node of every attempt
    const ns = pod.pod.metadata.namespace ?? '';
    for (const ni of filtered) {
      if (requireAll && !hasAllKeys(ni.node!, cs)) {
        ignored.add(ni.name);
        continue;
      }
      for (let i = 0; i < cs.length; i++) {
        const c = cs[i];
        if (c.topologyKey === HOSTNAME) continue;
        const value = ni.label(c.topologyKey);
        if (!keyed[i] && value !== undefined) keyed[i] = true;
        const v = value ?? '';
        if (!pairCounts[i].has(v)) {
          pairCounts[i].set(v, 0);
          topoSize[i]++;
        }
      }
    }
    if (cs.some((c, i) => c.topologyKey !== HOSTNAME && keyed[i])) {
      for (const ni of all) {
        const node = ni.node!;
        if (requireAll && !hasAllKeys(node, cs)) continue;
        for (let i = 0; i < cs.length; i++) {
          const c = cs[i];
          if (c.topologyKey === HOSTNAME || !keyed[i]) continue;
          // nodes without the key add nothing any scored node reads (Score skips them)
          const v = ni.label(c.topologyKey);
          if (v === undefined || !includesNode(c, pod.pod, node)) continue;
          const cur = pairCounts[i].get(v);
          if (cur === undefined) continue;
          pairCounts[i].set(v, cur + ni.countMatching(c.selector, ns, c.selectorKey));
        }
      }
    }
    const weights = cs.map((c, i) => Math.log((c.topologyKey === HOSTNAME ? filtered.length - ignored.size : topoSize[i]) + 2));
    state.write(SCORE_KEY, new ScoreState(cs, ignored, pairCounts, weights));
    return SUCCESS;
  }

  score(state: CycleState, pod: PodInfo, ni: NodeInfo): number {
    const s = state.read<ScoreState>(SCORE_KEY);
    // ignored is empty unless the pod's own constraints name keys some nodes lack: then no
    // node's name is hashed (each a string of its own, a likely cache miss at 5,000 nodes)
    if (!s || (s.ignored.size !== 0 && s.ignored.has(ni.name))) return 0;
    // a node without labels scores 0: every constraint is skipped below
    let score = 0;
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i];
      const value = ni.label(c.topologyKey);
      if (value === undefined) continue;
      const cnt =
        c.topologyKey === HOSTNAME
          ? ni.countMatching(c.selector, pod.pod.metadata.namespace ?? '', c.selectorKey)
          : (s.pairCounts[i].get(value) ?? 0);
      score += cnt * s.weights[i] + (c.maxSkew - 1);
    }
    return Math.round(score);
  }

  normalizeScore(state: CycleState, _pod: PodInfo, scores: NodeScore[]): void {
    const s = state.read<ScoreState>(SCORE_KEY);
    if (!s) return;
    let min = Infinity;
    let max = 0;
    const ignoreAny = s.ignored.size !== 0;
    for (const sc of scores) {
      if (ignoreAny && s.ignored.has(sc.name)) continue;
      if (sc.score < min) min = sc.score;
      if (sc.score > max) max = sc.score;
    }
    for (const sc of scores) {
      if (ignoreAny && s.ignored.has(sc.name)) sc.score = 0;
      else if (max === 0) sc.score = MAX_NODE_SCORE;
      else sc.score = Math.trunc((MAX_NODE_SCORE * (max + min - sc.score)) / max);
    }
  }

  eventsToRegister(): ClusterEventWithHint[] {
    const samePodNs = (pod: Pod, o?: Pod, n?: Pod) => ((n ?? o)?.metadata.namespace === pod.metadata.namespace ? 'Queue' : 'QueueSkip');
    return [
      { resource: 'AssignedPod', actions: ['Add', 'Update', 'Delete'], hint: samePodNs },
      { resource: 'Node', actions: ['Add', 'Update', 'Delete'] },
    ];
  }
}
