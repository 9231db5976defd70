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
import type { KObject } from '../../api/types';
import { MAX_NODE_SCORE } from '../framework';
import { newPodInfo, resourceFromList, type NodeInfo, type PodInfo, type Resource } from '../node-info';
import { newStatus, SUCCESS, type ClusterEvent, type ClusterEventWithHint, type CycleState, type EnqueueExtensions, type FilterPlugin, type PreFilterPlugin, type PreScorePlugin, type ScorePlugin, type Status } from '../types';

interface Insufficient {
  reason: string;
  unresolvable: boolean;
}

/** fitsRequest: what does not fit, in upstream order (pods, cpu, memory, ephemeral-storage, scalars). */
export function fitsRequest(req: Resource, ni: NodeInfo): Insufficient[] {
  const out: Insufficient[] = [];
  const alloc = ni.allocatable;
  if (ni.pods.size + 1 > alloc.allowedPodNumber) out.push({ reason: 'Too many pods', unresolvable: false });
  const scalarNames = Object.keys(req.scalar).filter((k) => req.scalar[k] !== 0);
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && scalarNames.length === 0) return out;
  const used = ni.requested;
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) out.push({ reason: 'Insufficient cpu', unresolvable: req.milliCPU > alloc.milliCPU });
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) out.push({ reason: 'Insufficient memory', unresolvable: req.memory > alloc.memory });
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) {
    out.push({ reason: 'Insufficient ephemeral-storage', unresolvable: req.ephemeralStorage > alloc.ephemeralStorage });
  }
  for (const k of scalarNames) {
    const a = alloc.scalar[k] ?? 0;
    if (req.scalar[k] > a - (used.scalar[k] ?? 0)) out.push({ reason: `Insufficient ${k}`, unresolvable: req.scalar[k] > a });
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
  let score = 0;
  let weights = 0;
  const pairs: [number, number][] = [
    [ni.nonZeroRequested.milliCPU + pod.nonZeroRequests.milliCPU, ni.allocatable.milliCPU],
    [ni.nonZeroRequested.memory + pod.nonZeroRequests.memory, ni.allocatable.memory],
  ];
  for (const [req, cap] of pairs) {
    if (cap === 0) continue;
    score += leastRequestedScore(req, cap);
    weights += 1;
  }
  return weights === 0 ? 0 : Math.trunc(score / weights);
}

/** balancedResourceScorer over cpu and memory fractions (actual requests). */
export function balancedAllocationScore(pod: PodInfo, ni: NodeInfo): number {
  const fractions: number[] = [];
  const pairs: [number, number][] = [
    [ni.requested.milliCPU + pod.requests.milliCPU, ni.allocatable.milliCPU],
    [ni.requested.memory + pod.requests.memory, ni.allocatable.memory],
  ];
  for (const [req, cap] of pairs) {
    if (cap === 0) continue;
    fractions.push(Math.min(1, req / cap));
  }
  let std = 0;
  if (fractions.length === 2) std = Math.abs((fractions[0] - fractions[1]) / 2);
  else if (fractions.length > 2) {
    const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
    std = Math.sqrt(fractions.reduce((s, f) => s + (f - mean) * (f - mean), 0) / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/** isFit for queueing hints: the pod would fit an empty copy of `node`'s allocatable. */
function fitsEmptyNode(pod: KObject, node: KObject): boolean {
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
      { resource: 'Node', actions: ['Add', 'Update'], hint: (pod, _o, n, ev: ClusterEvent) => {
        if (!n) return 'QueueSkip';
        if (ev.action === 'Update' && !ev.updates?.includes('UpdateNodeAllocatable')) return 'QueueSkip';
        return fitsEmptyNode(pod, n) ? 'Queue' : 'QueueSkip';
      } },
      { resource: 'AssignedPod', actions: ['Delete'] },
      { resource: 'AssignedPod', actions: ['Update'], hint: (_pod, _o, _n, ev) => (ev.updates?.includes('UpdatePodScaleDown') ? 'Queue' : 'QueueSkip') },
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
