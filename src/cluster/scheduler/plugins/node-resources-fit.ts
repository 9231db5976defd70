/**
 * NodeResourcesFit and NodeResourcesBalancedAllocation.
 *
 * Fit's filter checks the pod count and each requested resource against allocatable minus
 * what the node's pods request ("Too many pods", "Insufficient cpu", "Insufficient memory",
 * "Insufficient ephemeral-storage", "Insufficient <extended>"); a request larger than the
 * node's whole allocatable makes the rejection UnschedulableAndUnresolvable (preemption
 * cannot help). Its score is LeastAllocated over cpu and memory (weight 1 each), using
 * non-zero requests (100m / 200Mi for containers without requests).
 * BalancedAllocation scores 100 · (1 − std of the cpu and memory fractions), using actual
 * requests, and skips best-effort pods.
 *
 * Mirrors pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest),
 * least_allocated.go (leastResourceScorer, leastRequestedScore),
 * balanced_allocation.go (balancedResourceScorer) and resource_allocation.go.
 * Units: millicores and bytes.
 */
import type { Node, Pod } from '../../api/objects';
import { MAX_NODE_SCORE } from '../framework';
import { newPodInfo, resourceFromList, type NodeInfo, type PodInfo, type Resource } from '../node-info';
import {
  newStatus,
  SUCCESS,
  type ClusterEvent,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
  type Status,
} from '../types';

interface Insufficient {
  reason: string;
  unresolvable: boolean;
}

const NONE: Insufficient[] = [];

/** `out` plus `i`: a new array when `out` is the shared empty {@link NONE}, else `out` itself. */
function withInsufficient(out: Insufficient[], i: Insufficient): Insufficient[] {
  if (out === NONE) return [i];
  out.push(i);
  return out;
}

/** fitsRequest: what does not fit, in upstream order (pods, cpu, memory, ephemeral-storage, scalars). */
export function fitsRequest(req: Resource, ni: NodeInfo): Insufficient[] {
  // the common case (everything fits) allocates nothing: NONE is shared and never mutated
  let out: Insufficient[] = NONE;
  if (ni.numPods + 1 > ni.allowedPodNumber) out = withInsufficient(out, { reason: 'Too many pods', unresolvable: false });
  let scalarNames: string[] | undefined;
  for (const k in req.scalar) if (req.scalar[k] !== 0) (scalarNames ??= []).push(k);
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && !scalarNames) return out;
  const cpuCap = ni.allocMilliCPU;
  if (req.milliCPU > 0 && req.milliCPU > cpuCap - ni.reqMilliCPU)
    out = withInsufficient(out, { reason: 'Insufficient cpu', unresolvable: req.milliCPU > cpuCap });
  const memCap = ni.allocMemory;
  if (req.memory > 0 && req.memory > memCap - ni.reqMemory)
    out = withInsufficient(out, { reason: 'Insufficient memory', unresolvable: req.memory > memCap });
  const esCap = ni.allocEphemeralStorage;
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > esCap - ni.reqEphemeralStorage) {
    out = withInsufficient(out, { reason: 'Insufficient ephemeral-storage', unresolvable: req.ephemeralStorage > esCap });
  }
  for (const k of scalarNames ?? []) {
    const a = ni.allocatable.scalar[k] ?? 0;
    if (req.scalar[k] > a - (ni.reqScalar[k] ?? 0))
      out = withInsufficient(out, { reason: `Insufficient ${k}`, unresolvable: req.scalar[k] > a });
  }
  return out;
}

/** leastRequestedScore: (capacity − requested) · 100 / capacity, 0 when over capacity. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** leastResourceScorer over cpu and memory, weight 1 each. */
export function leastAllocatedScore(pod: PodInfo, ni: NodeInfo): number {
  // cpu then memory, without temporaries (runs once per pod per feasible node)
  let score = 0;
  let weights = 0;
  const cpuCap = ni.allocMilliCPU;
  if (cpuCap !== 0) {
    score += leastRequestedScore(ni.nonZeroMilliCPU + pod.nonZeroRequests.milliCPU, cpuCap);
    weights += 1;
  }
  const memCap = ni.allocMemory;
  if (memCap !== 0) {
    score += leastRequestedScore(ni.nonZeroMemory + pod.nonZeroRequests.memory, memCap);
    weights += 1;
  }
  return weights === 0 ? 0 : Math.trunc(score / weights);
}

/** balancedResourceScorer over cpu and memory fractions (actual requests). */
export function balancedAllocationScore(pod: PodInfo, ni: NodeInfo): number {
  // two resources (cpu, memory): the std of two fractions is |f1 − f2| / 2; with one or none
  // it is 0 (balanced_allocation.go's len(fractions) == 2 / > 2 branches), no temporaries
  const cpuCap = ni.allocMilliCPU;
  const memCap = ni.allocMemory;
  let std = 0;
  if (cpuCap !== 0 && memCap !== 0) {
    const cpu = Math.min(1, (ni.reqMilliCPU + pod.requests.milliCPU) / cpuCap);
    const mem = Math.min(1, (ni.reqMemory + pod.requests.memory) / memCap);
    std = Math.abs((cpu - mem) / 2);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/** isFit for queueing hints: the pod would fit an empty copy of `node`'s allocatable. */
function fitsEmptyNode(pod: Pod, node: Node): boolean {
  const req = newPodInfo(pod).requests;
  const alloc = resourceFromList(node.status?.allocatable);
  return req.milliCPU <= alloc.milliCPU && req.memory <= alloc.memory && req.ephemeralStorage <= alloc.ephemeralStorage;
}

/** The NodeResourcesFit plugin (PreFilter, Filter, PreScore, Score with LeastAllocated). */
export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = 'NodeResourcesFit';

  preFilter(): Status {
    return SUCCESS;
  }

  filter(_s: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    const bad = fitsRequest(pod.requests, ni);
    if (!bad.length) return SUCCESS;
    const code = bad.some((b) => b.unresolvable) ? 'UnschedulableAndUnresolvable' : 'Unschedulable';
    return newStatus(code, ...bad.map((b) => b.reason));
  }

  preScore(): Status {
    return SUCCESS;
  }

  score(_s: CycleState, pod: PodInfo, ni: NodeInfo): number {
    return leastAllocatedScore(pod, ni);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        resource: 'Node',
        actions: ['Add', 'Update'],
        hint: (pod, _o, n, ev: ClusterEvent) => {
          if (!n) return 'QueueSkip';
          if (ev.action === 'Update' && !ev.updates?.includes('UpdateNodeAllocatable')) return 'QueueSkip';
          return fitsEmptyNode(pod, n) ? 'Queue' : 'QueueSkip';
        },
      },
      { resource: 'AssignedPod', actions: ['Delete'] },
      {
        resource: 'AssignedPod',
        actions: ['Update'],
        hint: (_pod, _o, _n, ev) => (ev.updates?.includes('UpdatePodScaleDown') ? 'Queue' : 'QueueSkip'),
      },
    ];
  }
}

/** The NodeResourcesBalancedAllocation plugin (PreScore, Score). */
export class NodeResourcesBalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = 'NodeResourcesBalancedAllocation';

  /** Skips best-effort pods (kubernetes/kubernetes#129138). */
  preScore(_s: CycleState, pod: PodInfo): Status {
    return pod.requests.milliCPU === 0 && pod.requests.memory === 0 ? newStatus('Skip') : SUCCESS;
  }

  score(_s: CycleState, pod: PodInfo, ni: NodeInfo): number {
    return balancedAllocationScore(pod, ni);
  }
}
