/**
 * InterPodAffinity (basic): required pod affinity / anti-affinity of the incoming pod,
 * required anti-affinity of existing pods (symmetry), and scoring of preferred terms —
 * the incoming pod's, and existing pods' preferred and required affinity toward it (weight 2).
 * Namespaces: term.namespaces, else the pod's own namespace; an empty namespaceSelector ({})
 * selects all namespaces (other namespaceSelectors are not evaluated yet).
 *
 * Mirrors pkg/scheduler/framework/plugins/interpodaffinity/{filtering.go, scoring.go}
 * (hardPodAffinityWeight 1).
 */
import type { Node, Pod } from '../../api/objects';
import type { PodAffinityTerm, WeightedPodAffinityTerm } from 'kubernetes-types/core/v1';
import { fromLabelSelector, matches, type Selector } from '../../api/labels';
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

/** ErrReasonExistingAntiAffinityRulesNotMatch. */
export const ERR_REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
/** ErrReasonAffinityRulesNotMatch. */
export const ERR_REASON_AFFINITY = "node(s) didn't match pod affinity rules";
/** ErrReasonAntiAffinityRulesNotMatch. */
export const ERR_REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";

interface Term {
  topologyKey: string;
  selector: Selector;
  namespaces: Set<string> | 'all';
  weight: number;
}

/** `raw` holds WeightedPodAffinityTerms when `weighted`, else PodAffinityTerms. */
function terms(pod: Pod, raw: readonly (PodAffinityTerm | WeightedPodAffinityTerm)[] | undefined, weighted: boolean): Term[] {
  return (raw ?? []).map((t) => {
    const term = weighted ? (t as WeightedPodAffinityTerm).podAffinityTerm : (t as PodAffinityTerm);
    const nsSel = term.namespaceSelector;
    const all = nsSel && !(nsSel.matchLabels && Object.keys(nsSel.matchLabels).length) && !(nsSel.matchExpressions ?? []).length;
    const namespaces: Set<string> | 'all' = all
      ? 'all'
      : new Set(term.namespaces?.length ? term.namespaces : [pod.metadata.namespace ?? '']);
    return {
      topologyKey: term.topologyKey,
      selector: fromLabelSelector(term.labelSelector),
      namespaces,
      weight: weighted ? ((t as WeightedPodAffinityTerm).weight ?? 0) : 1,
    };
  });
}

function termMatches(t: Term, p: Pod): boolean {
  if (t.namespaces !== 'all' && !t.namespaces.has(p.metadata.namespace ?? '')) return false;
  return matches(t.selector, p.metadata.labels);
}

function pair(k: string, v: string): string {
  return `${k}\u0000${v}`;
}

class FilterState implements StateData {
  constructor(
    public affinity: Term[],
    public antiAffinity: Term[],
    public existingAnti: Map<string, number>,
    public affinityCounts: Map<string, number>,
    public antiCounts: Map<string, number>,
  ) {}
  clone(): FilterState {
    return new FilterState(
      this.affinity,
      this.antiAffinity,
      new Map(this.existingAnti),
      new Map(this.affinityCounts),
      new Map(this.antiCounts),
    );
  }
}

function add(m: Map<string, number>, k: string, d: number): void {
  m.set(k, (m.get(k) ?? 0) + d);
}

/** Adds ±weight to the topology pair of `labels` the term's key names (processExistingPod). */
function scoreTerm(topo: Map<string, number>, labels: Record<string, string>, t: Term, sign: number): void {
  if (t.topologyKey in labels) add(topo, pair(t.topologyKey, labels[t.topologyKey]), sign * t.weight);
}

/** The InterPodAffinity plugin. */
export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = 'InterPodAffinity';
  /**
   * @param allNodes every NodeInfo (the snapshot)
   * @param havePods the snapshot's HavePodsWithAffinityList / HavePodsWithRequiredAntiAffinityList:
   * when the incoming pod has no terms, only those nodes can contribute (as upstream, the walks
   * then visit only them); by default every node is visited
   */
  constructor(
    private readonly allNodes: () => NodeInfo[],
    private readonly havePods?: { withAffinity(): NodeInfo[]; withRequiredAntiAffinity(): NodeInfo[] },
  ) {}

  private account(s: FilterState, pod: Pod, existing: PodInfo, node: Node, d: number): void {
    const labels = node.metadata.labels ?? {};
    for (const t of terms(
      existing.pod,
      existing.pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      false,
    )) {
      if (termMatches(t, pod) && t.topologyKey in labels) add(s.existingAnti, pair(t.topologyKey, labels[t.topologyKey]), d);
    }
    if (s.affinity.length && s.affinity.every((t) => termMatches(t, existing.pod))) {
      for (const t of s.affinity) if (t.topologyKey in labels) add(s.affinityCounts, pair(t.topologyKey, labels[t.topologyKey]), d);
    }
    for (const t of s.antiAffinity)
      if (termMatches(t, existing.pod) && t.topologyKey in labels) add(s.antiCounts, pair(t.topologyKey, labels[t.topologyKey]), d);
  }

  preFilter(state: CycleState, pod: PodInfo, nodes: NodeInfo[]): Status {
    const aff = pod.pod.spec?.affinity;
    const affinity = terms(pod.pod, aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, false);
    const anti = terms(pod.pod, aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, false);
    const s = new FilterState(affinity, anti, new Map(), new Map(), new Map());
    let found = false;
    for (const ni of !affinity.length && !anti.length && this.havePods ? this.havePods.withRequiredAntiAffinity() : nodes) {
      if (affinity.length || anti.length) {
        for (const p of ni.pods.values()) this.account(s, pod.pod, p, ni.node!, 1);
        found = true;
      } else if (ni.podsWithRequiredAntiAffinity.size) {
        for (const p of ni.podsWithRequiredAntiAffinity.values()) this.account(s, pod.pod, p, ni.node!, 1);
        found = true;
      }
    }
    if (!found) return newStatus('Skip');
    state.write('PreFilterInterPodAffinity', s);
    return SUCCESS;
  }

  addPod(state: CycleState, pod: PodInfo, toAdd: PodInfo, ni: NodeInfo): void {
    const s = state.read<FilterState>('PreFilterInterPodAffinity');
    if (s && ni.node) this.account(s, pod.pod, toAdd, ni.node, 1);
  }

  removePod(state: CycleState, pod: PodInfo, toRemove: PodInfo, ni: NodeInfo): void {
    const s = state.read<FilterState>('PreFilterInterPodAffinity');
    if (s && ni.node) this.account(s, pod.pod, toRemove, ni.node, -1);
  }

  filter(state: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    const s = state.read<FilterState>('PreFilterInterPodAffinity');
    if (!s) return SUCCESS;
    const labels = ni.node!.metadata.labels ?? {};
    for (const [k, v] of Object.entries(labels)) {
      if ((s.existingAnti.get(pair(k, v)) ?? 0) > 0) return newStatus('Unschedulable', ERR_REASON_EXISTING_ANTI_AFFINITY);
    }
    if (s.affinity.length) {
      let podsExist = true;
      for (const t of s.affinity) {
        if (!(t.topologyKey in labels)) return newStatus('UnschedulableAndUnresolvable', ERR_REASON_AFFINITY);
        if ((s.affinityCounts.get(pair(t.topologyKey, labels[t.topologyKey])) ?? 0) <= 0) podsExist = false;
      }
      if (!podsExist) {
        const noneAnywhere = [...s.affinityCounts.values()].every((n) => n <= 0);
        if (!(noneAnywhere && s.affinity.every((t) => termMatches(t, pod.pod))))
          return newStatus('UnschedulableAndUnresolvable', ERR_REASON_AFFINITY);
      }
    }
    for (const t of s.antiAffinity) {
      if (t.topologyKey in labels && (s.antiCounts.get(pair(t.topologyKey, labels[t.topologyKey])) ?? 0) > 0)
        return newStatus('Unschedulable', ERR_REASON_ANTI_AFFINITY);
    }
    return SUCCESS;
  }

  preScore(state: CycleState, pod: PodInfo): Status {
    const aff = pod.pod.spec?.affinity;
    const pref = terms(pod.pod, aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, true);
    const prefAnti = terms(pod.pod, aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, true);
    const has = pref.length > 0 || prefAnti.length > 0;
    const topo = new Map<string, number>();
    for (const ni of !has && this.havePods ? this.havePods.withAffinity() : this.allNodes()) {
      const labels = ni.node!.metadata.labels ?? {};
      const pods = has ? ni.pods.values() : ni.podsWithAffinity.values();
      for (const ex of pods) {
        for (const t of pref) if (termMatches(t, ex.pod)) scoreTerm(topo, labels, t, 1);
        for (const t of prefAnti) if (termMatches(t, ex.pod)) scoreTerm(topo, labels, t, -1);
        const ea = ex.pod.spec?.affinity;
        if (!ea) continue;
        for (const t of terms(ex.pod, ea.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, false))
          if (termMatches(t, pod.pod)) scoreTerm(topo, labels, t, 1);
        for (const t of terms(ex.pod, ea.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, true))
          if (termMatches(t, pod.pod)) scoreTerm(topo, labels, t, 1);
        for (const t of terms(ex.pod, ea.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, true))
          if (termMatches(t, pod.pod)) scoreTerm(topo, labels, t, -1);
      }
    }
    if (topo.size === 0) return newStatus('Skip');
    state.write('PreScoreInterPodAffinity', {
      topo,
      clone() {
        return this;
      },
    } as StateData);
    return SUCCESS;
  }

  score(state: CycleState, _pod: PodInfo, ni: NodeInfo): number {
    const s = state.read<StateData & { topo: Map<string, number> }>('PreScoreInterPodAffinity');
    if (!s) return 0;
    let sum = 0;
    for (const [k, v] of Object.entries(ni.node!.metadata.labels ?? {})) sum += s.topo.get(pair(k, v)) ?? 0;
    return sum;
  }

  normalizeScore(_s: CycleState, _p: PodInfo, scores: NodeScore[]): void {
    let min = Infinity;
    let max = -Infinity;
    for (const s of scores) {
      if (s.score > max) max = s.score;
      if (s.score < min) min = s.score;
    }
    const diff = max - min;
    for (const s of scores) s.score = diff > 0 ? Math.trunc((MAX_NODE_SCORE * (s.score - min)) / diff) : 0;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { resource: 'AssignedPod', actions: ['Add', 'Update', 'Delete'] },
      { resource: 'Node', actions: ['Add', 'Update'] },
    ];
  }
}
