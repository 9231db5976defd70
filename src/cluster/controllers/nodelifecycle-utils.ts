/**
 * Helpers of the node lifecycle and taint eviction controllers:
 * taints and tolerations (k8s.io/api core/v1 toleration.go ToleratesTaint, pkg/apis/core/v1/
 * helper GetMatchingTolerations, pkg/util/taints), SwapNodeControllerTaint and MarkPodsNotReady
 * (pkg/controller/util/node/controller_utils.go), and a token-bucket rate limiter on the
 * simulated clock (k8s.io/client-go/util/flowcontrol, as NewTokenBucketRateLimiter /
 * NewFakeNeverRateLimiter). Times are simulated ms unless named seconds.
 */
import { deepCopy } from '../api/types';
import type { Node, Pod } from '../api/objects';
import { StatusError } from '../api/errors';
import type { ResourceClient } from '../client/clientset';
import type { EventRecorder } from '../client/record';

import { matchTaint, taintExists, toleratesTaint, type Taint, type Toleration } from '../api/taints';

export { matchTaint, taintExists, toleratesTaint, type Taint, type Toleration };

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** UnreachableTaintTemplate / NotReadyTaintTemplate of node_lifecycle_controller.go. */
export const UNREACHABLE_TAINT: Taint = { key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' };
export const NOT_READY_TAINT: Taint = { key: TAINT_NODE_NOT_READY, effect: 'NoExecute' };

/** GetMatchingTolerations: are all taints tolerated, and by which tolerations. */
export function getMatchingTolerations(taints: Taint[], tolerations: Toleration[]): [boolean, Toleration[]] {
  if (taints.length === 0) return [true, []];
  if (tolerations.length === 0) return [false, []];
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (!t) return [false, []];
    used.push(t);
  }
  return [true, used];
}

/** getMinTolerationTime (taint_eviction.go): seconds, 0 for none, −1 for forever. */
export function getMinTolerationSeconds(tolerations: Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min;
}

/**
 * SwapNodeControllerTaint: removes `remove` and adds `add` (with timeAdded = now) on a fresh
 * copy of the Node, one update with optimistic concurrency, retried once on conflict.
 * @returns true on success (or when nothing had to change).
 */
export function swapNodeControllerTaint(
  nodes: ResourceClient<Node>,
  name: string,
  add: Taint[],
  remove: Taint[],
  nowRFC3339: string,
  summary: string,
): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    let node: Node;
    try {
      node = nodes.get('', name, { quiet: true });
    } catch (err) {
      if (err instanceof StatusError) return false;
      throw err;
    }
    const old: Taint[] = node.spec?.taints ?? [];
    let taints = old.filter((t) => !remove.some((r) => matchTaint(r, t)));
    for (const a of add) if (!taints.some((t) => matchTaint(t, a))) taints = [...taints, { ...a, timeAdded: nowRFC3339 }];
    if (taints.length === old.length && taints.every((t, i) => t === old[i])) return true;
    const next = deepCopy(node);
    next.spec = { ...next.spec };
    if (taints.length) next.spec.taints = taints;
    else delete next.spec.taints;
    try {
      nodes.update(next, { summary });
      return true;
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (err.code !== 409) return false;
    }
  }
  return false;
}

/**
 * MarkPodsNotReady: sets each Pod's Ready condition to False (status update) and records
 * Warning NodeNotReady "Node is not ready" on it.
 */
export function markPodsNotReady(
  pods: ResourceClient<Pod>,
  recorder: EventRecorder,
  list: Pod[],
  nodeName: string,
  nowRFC3339: string,
): void {
  for (const p of list) {
    if (p.spec?.nodeName !== nodeName) continue;
    const conds = p.status?.conditions ?? [];
    const i = conds.findIndex((c) => c.type === 'Ready');
    if (i < 0 || conds[i].status === 'False') continue;
    const next = deepCopy(p);
    // the Ready condition was found above
    next.status!.conditions![i] = { ...conds[i], status: 'False', lastTransitionTime: nowRFC3339 };
    delete next.metadata.resourceVersion;
    try {
      pods.updateStatus(next, { summary: `mark Pod ${p.metadata.namespace}/${p.metadata.name} not ready (node ${nodeName})` });
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) continue;
      throw err;
    }
    recorder.event(p, 'Warning', 'NodeNotReady', 'Node is not ready');
  }
}

/** kube-controller-manager flags of this controller (v1.33 defaults). */
export const NODE_LIFECYCLE_DEFAULTS = {
  evictionLimiterQPS: 0.1,
  secondaryEvictionLimiterQPS: 0.01,
  largeClusterThreshold: 50,
  unhealthyZoneThreshold: 0.55,
  /** scheduler.NodeEvictionPeriod */
  nodeEvictionPeriodMs: 100,
};

/** nodeConditionToTaintKeyStatusMap. */
export const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
export const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

/** topology.GetZoneKey (k8s.io/component-helpers/node/topology): "region:\x00:zone", "" when unlabelled. */
export function getZoneKey(node: Node): string {
  const l = node.metadata.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}
