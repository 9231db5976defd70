/**
 * The shared pod informer's index by controller UID, used by every controller that owns Pods
 * (ReplicaSet, Deployment, DaemonSet, Job) to list a controller's Pods and a namespace's orphans.
 * Follows pkg/controller/controller_utils.go (PodControllerUIDIndex, AddPodControllerUIDIndexer,
 * OrphanPodIndexKeyForNamespace, FilterPodsByOwner).
 */
import type { SharedInformer } from '../client/informer';
import { getControllerOf } from '../api/types';
import type { APIObject, Pod } from '../api/objects';

/** Name of the pod informer index by controller UID (controller.PodControllerUIDIndex). */
export const PodControllerUIDIndex = 'podControllerUID';

/** Index value of orphan pods in a namespace (controller.OrphanPodIndexKeyForNamespace). */
export function orphanPodIndexKey(namespace: string): string {
  return `_ORPHAN_POD/${namespace}`;
}

/** Adds the controller-UID index to a shared pod informer (idempotent). */
export function ensurePodControllerUIDIndex(pods: SharedInformer<Pod>): void {
  pods.addIndexer(PodControllerUIDIndex, (p) => {
    const ref = getControllerOf(p);
    return [ref ? ref.uid : orphanPodIndexKey(p.metadata.namespace ?? '')];
  });
}

/** controller.FilterPodsByOwner: pods owned by `owner`, plus the namespace's orphans if asked. */
export function filterPodsByOwner(pods: SharedInformer<Pod>, owner: APIObject, includeOrphans: boolean): Pod[] {
  const out = pods.byIndex(PodControllerUIDIndex, owner.metadata.uid ?? '');
  if (includeOrphans) out.push(...pods.byIndex(PodControllerUIDIndex, orphanPodIndexKey(owner.metadata.namespace ?? '')));
  return out;
}
