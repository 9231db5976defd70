/**
 * Which pods a ReplicaSet deletes first when it scales down: controller.ActivePodsWithRanks
 * (kubernetes/kubernetes pkg/controller/controller_utils.go) and getPodsToDelete /
 * getPodsRankedByRelatedPodsOnSameNode (pkg/controller/replicaset/replica_set.go), with the
 * PodDeletionCost and LogarithmicScaleDown behaviour that v1.33 has on by default.
 *
 * A pod that sorts first is deleted first:
 *  1. unassigned < assigned
 *  2. Pending < Unknown < Running
 *  3. not ready < ready
 *  4. lower controller.kubernetes.io/pod-deletion-cost < higher
 *  5. more related pods on the same node < fewer ("doubled up" first)
 *  6. ready for a shorter time < longer (log2 buckets of the age; ties by UID)
 *  7. more container restarts < fewer
 *  8. newer < older (log2 buckets of the age; ties by UID)
 */
import type { Pod } from '../api/objects';
import { isPodActive, isPodReady, readyCondition } from './controller-utils';

/** Annotation read by rule 4 (core/v1 PodDeletionCost). */
export const PodDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

const phaseOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function ordinal(pod: Pod): number {
  return phaseOrdinal[pod.status?.phase ?? ''] ?? 0;
}

function deletionCost(pod: Pod): number {
  const v = pod.metadata.annotations?.[PodDeletionCostAnnotation];
  if (v === undefined) return 0;
  const n = Number(v);
  return Number.isInteger(n) ? n : 0;
}

function readyTimeMs(pod: Pod): number {
  if (!isPodReady(pod)) return 0;
  const t = readyCondition(pod)?.lastTransitionTime;
  return t ? Date.parse(t) : 0;
}

/** afterOrZero: an empty time sorts first, otherwise the later time does. */
function afterOrZero(t1: number, t2: number): boolean {
  if (t1 === 0 || t2 === 0) return t1 === 0;
  return t1 > t2;
}

/** logarithmicRankDiff: difference of floor(log2(age in ns)). */
function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const d1 = (now - t1) * 1e6;
  const d2 = (now - t2) * 1e6;
  const r1 = d1 > 0 ? Math.floor(Math.log2(d1)) : -1;
  const r2 = d2 > 0 ? Math.floor(Math.log2(d2)) : -1;
  return r1 - r2;
}

function maxContainerRestarts(pod: Pod): [number, number] {
  let regular = 0;
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, c.restartCount ?? 0);
  const sidecars = new Set<string>();
  for (const c of pod.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') sidecars.add(c.name);
  let sidecar = 0;
  for (const c of pod.status?.initContainerStatuses ?? []) if (sidecars.has(c.name)) sidecar = Math.max(sidecar, c.restartCount ?? 0);
  return [regular, sidecar];
}

function uidLess(a: Pod, b: Pod): boolean {
  return (a.metadata.uid ?? '') < (b.metadata.uid ?? '');
}

/**
 * ActivePodsWithRanks.Less: true when pod `a` (rank `ra`) should be deleted before pod `b`.
 * `now` is simulated ms.
 */
export function rankedLess(a: Pod, ra: number, b: Pod, rb: number, now: number): boolean {
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '';
  if (ordinal(a) !== ordinal(b)) return ordinal(a) < ordinal(b);
  const ready = isPodReady(a);
  if (ready !== isPodReady(b)) return !ready;
  const ca = deletionCost(a);
  const cb = deletionCost(b);
  if (ca !== cb) return ca < cb;
  if (ra !== rb) return ra > rb;
  if (ready && isPodReady(b)) {
    const t1 = readyTimeMs(a);
    const t2 = readyTimeMs(b);
    if (t1 !== t2) {
      if (t1 === 0 || t2 === 0) return afterOrZero(t1, t2);
      const d = logarithmicRankDiff(t1, t2, now);
      return d === 0 ? uidLess(a, b) : d < 0;
    }
  }
  const [rega, sida] = maxContainerRestarts(a);
  const [regb, sidb] = maxContainerRestarts(b);
  if (rega !== regb) return rega > regb;
  if (sida !== sidb) return sida > sidb;
  const t1 = a.metadata.creationTimestamp ? Date.parse(a.metadata.creationTimestamp) : 0;
  const t2 = b.metadata.creationTimestamp ? Date.parse(b.metadata.creationTimestamp) : 0;
  if (t1 !== t2) {
    if (t1 === 0 || t2 === 0) return afterOrZero(t1, t2);
    const d = logarithmicRankDiff(t1, t2, now);
    return d === 0 ? uidLess(a, b) : d < 0;
  }
  return false;
}

/**
 * getPodsToDelete: the `diff` pods to delete from `filteredPods`, ranked (when not all go)
 * by {@link rankedLess} with each pod's rank = number of active `relatedPods` on its node.
 * `now` is simulated ms. Does not modify its inputs.
 */
export function getPodsToDelete(filteredPods: Pod[], relatedPods: Pod[], diff: number, now: number): Pod[] {
  if (diff >= filteredPods.length) return filteredPods.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of relatedPods) {
    if (!isPodActive(p)) continue;
    const n = p.spec?.nodeName ?? '';
    onNode.set(n, (onNode.get(n) ?? 0) + 1);
  }
  const ranked = filteredPods.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
  ranked.sort((x, y) => (rankedLess(x.pod, x.rank, y.pod, y.rank, now) ? -1 : rankedLess(y.pod, y.rank, x.pod, x.rank, now) ? 1 : 0));
  return ranked.slice(0, diff).map((x) => x.pod);
}
