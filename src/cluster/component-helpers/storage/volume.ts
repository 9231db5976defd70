/**
 * Helpers shared by the PV controller, the simulated external provisioners and the
 * scheduler's VolumeBinding plugin: annotation names, class lookups, claim ↔ volume
 * matching and binding, PV node affinity.
 *
 * Mirrors k8s.io/component-helpers/storage/volume (pv_helpers.go: AnnBindCompleted,
 * AnnBoundByController, AnnSelectedNode, AnnStorageProvisioner, IsDelayBindingMode,
 * GetBindVolumeToClaim, IsVolumeBoundToClaim, FindMatchingVolume, CheckAccessModes;
 * helpers.go: CheckNodeAffinity), pkg/controller/volume/persistentvolume/index.go
 * (findBestMatchForClaim) and pkg/controller/volume/events/event.go (reasons).
 */
import { bytesOf } from '../../api/quantity';
import { fromLabelSelector, matches } from '../../api/labels';
import { deepCopy, type KObject } from '../../api/types';
import type { Lister } from '../../client/informer';
import { nodeSelectorMatches } from '../scheduling/corev1';

/** pv.kubernetes.io/bind-completed: the claim went through binding. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** pv.kubernetes.io/bound-by-controller: the binding was made by the controller, not the user. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** volume.kubernetes.io/selected-node: the node the scheduler picked for a WaitForFirstConsumer claim. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** volume.kubernetes.io/storage-provisioner: which external provisioner should provision the claim. */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
/** The beta twin of {@link ANN_STORAGE_PROVISIONER}, still set by v1.33. */
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** pv.kubernetes.io/provisioned-by: the provisioner that created a PV. */
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/** The beta class annotation that predates spec.storageClassName. */
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** storageclass.kubernetes.io/is-default-class. */
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
/** The provisioner name of classes that never provision (local PVs made by hand). */
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

/** Event reasons (pkg/controller/volume/events/event.go). */
export const Reasons = {
  FailedBinding: 'FailedBinding',
  VolumeMismatch: 'VolumeMismatch',
  VolumeFailedDelete: 'VolumeFailedDelete',
  ExternalProvisioning: 'ExternalProvisioning',
  ProvisioningFailed: 'ProvisioningFailed',
  ProvisioningSucceeded: 'ProvisioningSucceeded',
  WaitForFirstConsumer: 'WaitForFirstConsumer',
  WaitForPodScheduled: 'WaitForPodScheduled',
} as const;

/** GetPersistentVolumeClaimClass: the beta annotation wins, then spec.storageClassName, else "". */
export function claimClass(claim: KObject): string {
  const beta = claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (beta !== undefined) return beta;
  return claim.spec?.storageClassName ?? '';
}

/** GetPersistentVolumeClass. */
export function volumeClass(pv: KObject): string {
  const beta = pv.metadata.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (beta !== undefined) return beta;
  return pv.spec?.storageClassName ?? '';
}

/** PersistentVolumeClaimHasClass: the class was set at all (even to ""). */
export function claimHasClass(claim: KObject): boolean {
  return claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined || claim.spec?.storageClassName !== undefined;
}

/** "namespace/name" of a claim. */
export function claimKey(claim: { metadata: { namespace?: string; name: string } }): string {
  return `${claim.metadata.namespace ?? ''}/${claim.metadata.name}`;
}

/** "namespace/name" of a PV's claimRef. */
export function claimRefKey(ref: { namespace?: string; name?: string }): string {
  return `${ref.namespace ?? ''}/${ref.name ?? ''}`;
}

/** Requested storage of a claim, bytes (0 when absent). */
export function requestedBytes(claim: KObject): number {
  return bytesOf(claim.spec?.resources?.requests?.storage);
}

/** Capacity of a PV, bytes. */
export function capacityBytes(pv: KObject): number {
  return bytesOf(pv.spec?.capacity?.storage);
}

/**
 * IsDelayBindingMode: the claim's class has volumeBindingMode WaitForFirstConsumer. A claim
 * without a class, or whose class does not exist, binds immediately.
 */
export function isDelayBindingMode(claim: KObject, classes: Lister): boolean {
  const name = claimClass(claim);
  if (!name) return false;
  const sc = classes.get(name);
  return sc?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** IsDelayBindingProvisioning: the scheduler has picked a node for the claim. */
export function isDelayBindingProvisioning(claim: KObject): boolean {
  return claim.metadata.annotations?.[ANN_SELECTED_NODE] !== undefined;
}

/** IsVolumeBoundToClaim: the PV's claimRef names the claim (and its uid, when set). */
export function isVolumeBoundToClaim(pv: KObject, claim: KObject): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || (ref.namespace ?? '') !== (claim.metadata.namespace ?? '')) return false;
  if (ref.uid && ref.uid !== claim.metadata.uid) return false;
  return true;
}

/** CheckAccessModes: the PV offers every access mode the claim asks for. */
export function checkAccessModes(claim: KObject, pv: KObject): boolean {
  const have = new Set<string>(pv.spec?.accessModes ?? []);
  return (claim.spec?.accessModes ?? []).every((m: string) => have.has(m));
}

/** CheckVolumeModeMismatches (nil modes default to Filesystem). */
export function volumeModeMismatch(claim: KObject, pv: KObject): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (pv.spec?.volumeMode ?? 'Filesystem');
}

/** CheckNodeAffinity: a PV without required node affinity fits every node. */
export function pvFitsNode(pv: KObject, node: KObject): boolean {
  const req = pv.spec?.nodeAffinity?.required;
  if (!req) return true;
  return nodeSelectorMatches(req.nodeSelectorTerms, node);
}

/** checkVolumeSatisfyClaim (pv_controller.go): why a pre-bound volume does not fit, or null. */
export function checkVolumeSatisfyClaim(pv: KObject, claim: KObject): string | null {
  if (pv.metadata.deletionTimestamp) return `the volume is marked for deletion "${pv.metadata.name}"`;
  if (capacityBytes(pv) < requestedBytes(claim)) return 'requested PV is too small';
  if (volumeClass(pv) !== claimClass(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, pv)) return 'incompatible volumeMode';
  if (!checkAccessModes(claim, pv)) return 'incompatible accessMode';
  return null;
}

/**
 * FindMatchingVolume: a volume pre-bound to the claim (if big enough), else the smallest
 * Available, unclaimed volume of the claim's class that matches its selector and size.
 * `delayBinding` (PV controller path) skips unbound volumes — the scheduler binds those.
 * `node` (scheduler path) also checks the PV's node affinity and the access modes;
 * `excluded` are volumes already chosen for the pod's other claims.
 */
export function findMatchingVolume(
  claim: KObject,
  volumes: KObject[],
  node: KObject | null,
  excluded: Set<string>,
  delayBinding: boolean,
): KObject | null {
  const requested = requestedBytes(claim);
  const cls = claimClass(claim);
  const selector = claim.spec?.selector ? fromLabelSelector(claim.spec.selector) : null;
  let smallest: KObject | null = null;
  let smallestQty = Infinity;
  for (const pv of volumes) {
    if (excluded.has(pv.metadata.name)) continue;
    if (volumeModeMismatch(claim, pv)) continue;
    if (pv.metadata.deletionTimestamp) continue;
    const nodeOK = node ? pvFitsNode(pv, node) : true;
    const qty = capacityBytes(pv);
    if (isVolumeBoundToClaim(pv, claim)) {
      if (qty < requested) continue;
      return nodeOK ? pv : null;
    }
    if (!node && delayBinding) continue;
    if (pv.status?.phase !== 'Available' || pv.spec?.claimRef) continue;
    if (selector && !matches(selector, pv.metadata.labels)) continue;
    if (volumeClass(pv) !== cls || !nodeOK) continue;
    if (node && !checkAccessModes(claim, pv)) continue;
    if (qty >= requested && qty < smallestQty) {
      smallest = pv;
      smallestQty = qty;
    }
  }
  return smallest;
}

/**
 * persistentVolumeOrderedIndex.findBestMatchForClaim: FindMatchingVolume over the volumes
 * whose access modes include the claim's (the index by access modes), smallest first.
 */
export function findBestMatchForClaim(claim: KObject, volumes: KObject[], delayBinding: boolean): KObject | null {
  const candidates = volumes.filter((pv) => checkAccessModes(claim, pv));
  // the index visits mode sets with the fewest modes first; within each, FindMatchingVolume
  candidates.sort(
    (a, b) => (a.spec?.accessModes?.length ?? 0) - (b.spec?.accessModes?.length ?? 0) || (a.metadata.name < b.metadata.name ? -1 : 1),
  );
  const byModes = new Map<number, KObject[]>();
  for (const pv of candidates) {
    const n = pv.spec?.accessModes?.length ?? 0;
    if (!byModes.has(n)) byModes.set(n, []);
    byModes.get(n)!.push(pv);
  }
  for (const group of byModes.values()) {
    const v = findMatchingVolume(claim, group, null, new Set(), delayBinding);
    if (v) return v;
  }
  return null;
}

/** ref.GetReference(claim): the claimRef a PV carries. */
export function claimReference(claim: KObject): Record<string, string> {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata.namespace ?? '',
    name: claim.metadata.name,
    uid: claim.metadata.uid ?? '',
    resourceVersion: claim.metadata.resourceVersion ?? '',
  };
}

/**
 * GetBindVolumeToClaim: a copy of the PV bound to the claim (claimRef, and
 * bound-by-controller unless the user pre-bound it), and whether anything changed.
 */
export function getBindVolumeToClaim(pv: KObject, claim: KObject): [KObject, boolean] {
  const setBoundByController = !isVolumeBoundToClaim(pv, claim);
  const clone = deepCopy(pv);
  let dirty = false;
  const ref = pv.spec?.claimRef;
  if (!ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || ref.uid !== claim.metadata.uid) {
    clone.spec.claimRef = claimReference(claim);
    dirty = true;
  }
  if (setBoundByController && clone.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === undefined) {
    clone.metadata.annotations = { ...clone.metadata.annotations, [ANN_BOUND_BY_CONTROLLER]: 'yes' };
    dirty = true;
  }
  return [clone, dirty];
}

/** The claim names a pod mounts (persistentVolumeClaim volumes and generic ephemeral volumes). */
export function podClaimNames(pod: KObject): string[] {
  const out: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v?.persistentVolumeClaim?.claimName) out.push(v.persistentVolumeClaim.claimName);
    else if (v?.ephemeral) out.push(`${pod.metadata.name}-${v.name}`);
  }
  return out;
}

/** The pods→PVC index (pkg/controller/volume/common PodPVCIndexFunc): "namespace/claim" keys. */
export function podPVCIndex(pod: KObject): string[] {
  return podClaimNames(pod).map((c) => `${pod.metadata.namespace ?? ''}/${c}`);
}

/** util.IsPodTerminated: phase Failed or Succeeded. */
export function isPodTerminated(pod: KObject): boolean {
  return pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
}

/** Numeric resourceVersion (0 when absent), for "keep the newer copy" caches. */
export function rvOf(o: KObject | undefined): number {
  return Number(o?.metadata.resourceVersion ?? 0) || 0;
}
