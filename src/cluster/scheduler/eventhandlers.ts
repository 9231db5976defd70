/**
 * Informer event handlers of kube-scheduler and the pure helpers they use: which pods the
 * scheduler is responsible for, how a node or pod update is classified into cluster events
 * (UpdateNodeLabel, UpdateNodeTaint, UpdateNodeAllocatable, UpdatePodLabel,
 * UpdatePodScaleDown…), and helper.DefaultSelector for PodTopologySpread's system defaults.
 *
 * Mirrors pkg/scheduler/eventhandlers.go (addAllEventHandlers, assignedPod,
 * responsibleForPod, addPodToCache, updatePodInCache, deletePodFromCache,
 * addNodeToCache, updateNodeInCache, nodeSchedulingPropertiesChange),
 * pkg/scheduler/framework/events.go (extractPodLabelsChange, extractPodScaleDown) and
 * pkg/scheduler/framework/plugins/helper/spread.go (DefaultSelector).
 */
import type { WatchEvent } from '../api/types';
import type { APIObject, Node, Pod, ReplicaSet, ReplicationController, Service, StatefulSet } from '../api/objects';
import { deepEqual } from '../api/types';
import { fromLabelSelector, matches, type Requirement, type Selector } from '../api/labels';
import type { Lister } from '../client/informer';
import type { HopCategory } from '../relay/relay-event';
import { podRequests } from './node-info';

/** The name of the default profile (spec.schedulerName). */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** assignedPod: spec.nodeName is set. */
export function assignedPod(p: Pod): boolean {
  return !!p.spec?.nodeName;
}

/** responsibleForPod: schedulerName is ours (or unset, which defaulting makes ours). */
export function responsibleForPod(p: Pod): boolean {
  const n = p.spec?.schedulerName;
  return !n || n === DEFAULT_SCHEDULER_NAME;
}

/** The unscheduled pods the queue takes: unassigned, ours, not terminating. */
export function queueablePod(p: Pod): boolean {
  return !assignedPod(p) && responsibleForPod(p) && !p.metadata.deletionTimestamp;
}

/**
 * nodeSchedulingPropertiesChange: the update kinds of a node update that can make pods
 * schedulable. Empty for heartbeats (only lastHeartbeatTime / resourceVersion changed).
 */
export function nodeUpdateKinds(oldNode: Node, newNode: Node): string[] {
  const out: string[] = [];
  if (!!oldNode.spec?.unschedulable !== !!newNode.spec?.unschedulable) out.push('UpdateNodeTaint');
  if (!deepEqual(oldNode.status?.allocatable, newNode.status?.allocatable)) out.push('UpdateNodeAllocatable');
  if (!deepEqual(oldNode.metadata.labels ?? {}, newNode.metadata.labels ?? {})) out.push('UpdateNodeLabel');
  if (!deepEqual(oldNode.spec?.taints ?? [], newNode.spec?.taints ?? []) && !out.includes('UpdateNodeTaint')) out.push('UpdateNodeTaint');
  const conds = (n: Node) => (n.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',');
  if (conds(oldNode) !== conds(newNode)) out.push('UpdateNodeCondition');
  if (!deepEqual(oldNode.metadata.annotations ?? {}, newNode.metadata.annotations ?? {})) out.push('UpdateNodeAnnotation');
  return out;
}

/** The update kinds of an assigned pod's update that matter to rejected pods. */
export function podUpdateKinds(oldPod: Pod, newPod: Pod): string[] {
  const out: string[] = [];
  if (!deepEqual(oldPod.metadata.labels ?? {}, newPod.metadata.labels ?? {})) out.push('UpdatePodLabel');
  const a = podRequests(oldPod);
  const b = podRequests(newPod);
  if (b.milliCPU < a.milliCPU || b.memory < a.memory || b.ephemeralStorage < a.ephemeralStorage) out.push('UpdatePodScaleDown');
  return out;
}

/**
 * The relay category of a watch event the scheduler receives: node updates that change
 * nothing the scheduler cares about (heartbeats) are "heartbeat" hops, hidden by default.
 */
export function schedulerCategorizer(ev: WatchEvent<APIObject>): HopCategory {
  if (ev.object.kind === 'Lease') return 'heartbeat';
  if (
    ev.object.kind === 'Node' &&
    ev.type === 'MODIFIED' &&
    ev.oldObject &&
    nodeUpdateKinds(ev.oldObject as Node, ev.object as Node).length === 0
  )
    return 'heartbeat';
  return undefined;
}

/** Listers DefaultSelector reads. */
export interface SpreadListers {
  services: Lister<Service>;
  replicationControllers: Lister<ReplicationController>;
  replicaSets: Lister<ReplicaSet>;
  statefulSets: Lister<StatefulSet>;
}

/**
 * helper.DefaultSelector: the union of the selectors of the Services, ReplicationControllers,
 * ReplicaSets and StatefulSets (in the pod's namespace) that select the pod; null if none.
 */
export function defaultSelector(pod: Pod, l: SpreadListers): Selector | null {
  const ns = pod.metadata.namespace ?? '';
  const labels = pod.metadata.labels ?? {};
  const set = new Map<string, string>();
  const addSet = (sel: Record<string, string> | undefined) => {
    if (!sel || !Object.keys(sel).length) return;
    for (const [k, v] of Object.entries(sel)) if (labels[k] !== v) return;
    for (const [k, v] of Object.entries(sel)) set.set(k, v);
  };
  for (const s of l.services.list(ns)) addSet(s.spec?.selector);
  for (const rc of l.replicationControllers.list(ns)) addSet(rc.spec?.selector);
  const reqs: Requirement[] = [];
  for (const o of [...l.replicaSets.list(ns), ...l.statefulSets.list(ns)]) {
    const sel = fromLabelSelector(o.spec?.selector);
    if (sel.nothing || !sel.requirements.length || !matches(sel, labels)) continue;
    reqs.push(...sel.requirements);
  }
  const all: Requirement[] = [
    ...[...set].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => ({ key: k, op: '=' as const, values: [v] })),
    ...reqs,
  ];
  return all.length ? { requirements: all } : null;
}
