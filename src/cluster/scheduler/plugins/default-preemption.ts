/**
 * DefaultPreemption (PostFilter): when no node fits, find nodes where evicting pods of lower
 * priority would make the pod fit, pick the best, delete its victims (after marking them with
 * a DisruptionTarget condition and a `Preempted` event) and nominate the node
 * (status.nominatedNodeName). When nothing helps, the message explains per node why.
 *
 * Mirrors pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
 * (PodEligibleToPreemptOthers, SelectVictimsOnNode) and pkg/scheduler/framework/preemption/
 * preemption.go (Evaluator.Preempt, findCandidates, nodesWherePreemptionMightHelp,
 * dryRunPreemption, pickOneNodeForPreemption, prepareCandidate). PodDisruptionBudgets are
 * not consulted yet (every victim counts as non-violating).
 */
import type { Pod } from '../../api/objects';
import type { Framework } from '../framework';
import { fitErrorMessage } from '../framework';
import type { NodeInfo, PodInfo } from '../node-info';
import { newStatus, type CycleState, type NodeToStatus, type PostFilterPlugin, type PostFilterResult, type Status } from '../types';

/** What preemption needs from the scheduler. */
export interface PreemptionHandle {
  framework(): Framework;
  nodes(): NodeInfo[];
  nodeInfo(name: string): NodeInfo | undefined;
  /** Marks (DisruptionTarget), deletes and records `Preempted` for a victim. */
  preemptVictim(victim: Pod, preemptor: PodInfo, nodeName: string): void;
  /** Clears status.nominatedNodeName of lower-priority pods nominated to the node. */
  clearLowerNominations(nodeName: string, preemptor: PodInfo): void;
}

/** "Preemption is not helpful for scheduling". */
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
/** "No preemption victims found for incoming pod". */
export const NO_VICTIMS = 'No preemption victims found for incoming pod';

/** podTerminatingByPreemption: deleting, with DisruptionTarget reason PreemptionByScheduler. */
function terminatingByPreemption(p: Pod): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  return (p.status?.conditions ?? []).some(
    (c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'PreemptionByScheduler',
  );
}

function startTime(p: Pod): number {
  const t = p.status?.startTime ?? p.metadata.creationTimestamp;
  return t ? Date.parse(t) : 0;
}

/** util.MoreImportantPod: higher priority, then the earlier start. */
function moreImportant(a: PodInfo, b: PodInfo): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  return startTime(a.pod) < startTime(b.pod);
}

/** Whether a pod of the node has a priority below `priority` (a possible victim). */
function hasLowerPriorityPod(ni: NodeInfo, priority: number): boolean {
  for (const p of ni.pods.values()) if (p.priority < priority) return true;
  return false;
}

interface Candidate {
  node: string;
  victims: PodInfo[];
}

/** The DefaultPreemption PostFilter plugin. */
export class DefaultPreemption implements PostFilterPlugin {
  readonly name = 'DefaultPreemption';
  constructor(private readonly h: PreemptionHandle) {}

  /** PodEligibleToPreemptOthers. */
  eligible(pod: PodInfo, nominatedStatus: Status | undefined): [boolean, string] {
    if (pod.pod.spec?.preemptionPolicy === 'Never') return [false, 'not eligible due to preemptionPolicy=Never.'];
    const nom = pod.pod.status?.nominatedNodeName;
    if (nom) {
      if (nominatedStatus?.code === 'UnschedulableAndUnresolvable') return [true, ''];
      const ni = this.h.nodeInfo(nom);
      if (ni) {
        for (const p of ni.pods.values()) {
          if (p.priority < pod.priority && terminatingByPreemption(p.pod))
            return [false, 'not eligible due to a terminating pod on the nominated node.'];
        }
      }
    }
    return [true, ''];
  }

  postFilter(state: CycleState, pod: PodInfo, m: NodeToStatus): PostFilterResult {
    const statusOf = (n: string) => m.map.get(n) ?? m.absent ?? newStatus('Success');
    const [ok, why] = this.eligible(pod, pod.pod.status?.nominatedNodeName ? statusOf(pod.pod.status.nominatedNodeName) : undefined);
    if (!ok) return { status: newStatus('Unschedulable', `preemption: ${why}`) };
    const all = this.h.nodes();
    const statuses = new Map<string, Status>();
    const potential: NodeInfo[] = [];
    for (const ni of all) {
      if (statusOf(ni.name).code === 'UnschedulableAndUnresolvable')
        statuses.set(ni.name, newStatus('UnschedulableAndUnresolvable', PREEMPTION_NOT_HELPFUL));
      else potential.push(ni);
    }
    const candidates: Candidate[] = [];
    for (const ni of potential) {
      // what selectVictimsOnNode answers for a node without a lower-priority pod, without the
      // copies of the cycle state and the node's Pod map it would make to find that out (200,000
      // Pending Pods of one priority each ran it on every node for every attempt)
      if (!hasLowerPriorityPod(ni, pod.priority)) {
        statuses.set(ni.name, newStatus('UnschedulableAndUnresolvable', NO_VICTIMS));
        continue;
      }
      const r = this.selectVictimsOnNode(state.clone(), pod, ni.clone());
      if ('victims' in r) candidates.push({ node: ni.name, victims: r.victims });
      else statuses.set(ni.name, r.status);
    }
    if (!candidates.length) {
      const msg = fitErrorMessage(all.length, {
        nodeToStatus: { map: statuses, absent: newStatus('UnschedulableAndUnresolvable', PREEMPTION_NOT_HELPFUL) },
        unschedulablePlugins: new Set(),
        preFilterMsg: '',
        postFilterMsg: '',
      });
      // NewPostFilterResultWithNominatedNode(""): clears a stale nomination
      return { status: newStatus('Unschedulable', `preemption: ${msg}`), nominatedNodeName: '' };
    }
    const best = pickOneNodeForPreemption(candidates);
    for (const v of best.victims) this.h.preemptVictim(v.pod, pod, best.node);
    this.h.clearLowerNominations(best.node, pod);
    return { status: newStatus('Success'), nominatedNodeName: best.node, victims: best.victims.map((v) => v.key) };
  }

  /** SelectVictimsOnNode: the fewest lower-priority pods whose removal lets the pod fit. */
  selectVictimsOnNode(state: CycleState, pod: PodInfo, ni: NodeInfo): { victims: PodInfo[] } | { status: Status } {
    const fw = this.h.framework();
    const potential: PodInfo[] = [];
    for (const p of [...ni.pods.values()]) {
      if (p.priority < pod.priority) {
        potential.push(p);
        ni.removePod(p.uid);
        fw.runPreFilterExtensionRemovePod(state, pod, p, ni);
      }
    }
    if (!potential.length) return { status: newStatus('UnschedulableAndUnresolvable', NO_VICTIMS) };
    const s = fw.runFilterPluginsWithNominatedPods(state, pod, ni);
    if (s.code !== 'Success') return { status: s };
    potential.sort((a, b) => (moreImportant(a, b) ? -1 : moreImportant(b, a) ? 1 : 0));
    const victims: PodInfo[] = [];
    for (const p of potential) {
      ni.addPod(p);
      fw.runPreFilterExtensionAddPod(state, pod, p, ni);
      if (fw.runFilterPluginsWithNominatedPods(state, pod, ni).code !== 'Success') {
        ni.removePod(p.uid);
        fw.runPreFilterExtensionRemovePod(state, pod, p, ni);
        victims.push(p);
      }
    }
    return { victims };
  }
}

/**
 * pickOneNodeForPreemption: the lowest highest-victim priority, then the lowest sum of
 * victim priorities, then the fewest victims, then the latest start of the highest-priority
 * victims, then the first.
 */
export function pickOneNodeForPreemption(cs: Candidate[]): Candidate {
  const keyed = cs.map((c) => {
    const top = c.victims.length ? Math.max(...c.victims.map((v) => v.priority)) : -Infinity;
    const sum = c.victims.reduce((s, v) => s + v.priority + 2147483648, 0);
    const topStart = c.victims.filter((v) => v.priority === top).reduce((t, v) => Math.min(t, startTime(v.pod)), Infinity);
    return { c, top, sum, n: c.victims.length, topStart };
  });
  keyed.sort((a, b) => a.top - b.top || a.sum - b.sum || a.n - b.n || b.topStart - a.topStart);
  return keyed[0].c;
}
