/**
 * The StorageObjectInUseProtection admission plugin: every new PersistentVolumeClaim gets the
 * kubernetes.io/pvc-protection finalizer and every new PersistentVolume the
 * kubernetes.io/pv-protection finalizer, so that the pvc-protection and pv-protection
 * controllers (controllers/volume-protection.ts) decide when they may really go.
 *
 * Follows plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go (Admit on
 * Create only; the finalizer is appended unless present).
 *
 * Installed on an apiserver with {@link installStorageObjectInUseProtection}. The apiserver has
 * no mutating-admission hook list, so the plugin runs in its admission list (which sees the
 * object after defaulting and validation, before storage) and only mutates.
 */
import type { APIServer } from './apiserver';

/** Finalizer of PersistentVolumeClaims. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
/** Finalizer of PersistentVolumes. */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** Wires the plugin into an apiserver. Call once, after construction. */
export function installStorageObjectInUseProtection(api: APIServer): void {
  api.validatingAdmission.push((verb, info, obj) => {
    if (verb !== 'create' || info.group !== '') return;
    const finalizer =
      info.resource === 'persistentvolumeclaims'
        ? PVC_PROTECTION_FINALIZER
        : info.resource === 'persistentvolumes'
          ? PV_PROTECTION_FINALIZER
          : undefined;
    if (!finalizer) return;
    const fs = obj.metadata.finalizers ?? [];
    if (!fs.includes(finalizer)) obj.metadata.finalizers = [...fs, finalizer];
  });
}
