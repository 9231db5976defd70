/**
 * Storage strategies: PersistentVolumeClaim, PersistentVolume (pkg/registry/core/
 * persistentvolume[claim]/strategy.go, pkg/apis/core/v1/defaults.go,
 * pkg/apis/core/validation ValidatePersistentVolume[Claim]) and StorageClass
 * (pkg/apis/storage/v1/defaults.go, pkg/apis/storage/validation), plus the
 * DefaultStorageClass admission plugin (plugin/pkg/admission/storage/storageclass/setdefault).
 */
import type { FieldError } from '../../api/errors';
import { deepEqual, type KObject } from '../../api/types';
import type { Strategy, StrategyContext } from './strategy';
import { defaultResourceList, defaultVolumeSources, VOLUME_SOURCE_KEYS } from './pod-defaults';
import { parseQuantity } from './quantity';
import { checkMetaTypes, nameIsDNSSubdomain, validateLabelSelector, validateObjectMeta } from './validation/meta';
import { isQualifiedName } from '../../api/validation/names';

type Obj = Record<string, any>;

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const DEFAULT_CLASS_ANN = 'storageclass.kubernetes.io/is-default-class';
const BETA_CLASS_ANN = 'volume.beta.kubernetes.io/storage-class';

/** SetDefaults_PersistentVolumeClaimSpec (+ SetDefaults_ResourceList of its resources). */
export function defaultPVCSpec(spec: Obj): void {
  if (!spec.volumeMode) spec.volumeMode = 'Filesystem';
  if (spec.resources === undefined) spec.resources = {};
  if (spec.resources && typeof spec.resources === 'object') {
    defaultResourceList(spec.resources.limits);
    defaultResourceList(spec.resources.requests);
  }
}

/** The default StorageClass, as the admission plugin picks it (newest, then name). */
export function defaultStorageClass(ctx: StrategyContext): KObject | undefined {
  const all = (ctx.listObjects?.('storageclasses.storage.k8s.io') ?? []).filter(
    (c) =>
      c.metadata.annotations?.[DEFAULT_CLASS_ANN] === 'true' ||
      c.metadata.annotations?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true',
  );
  all.sort((a, b) => {
    const ta = a.metadata.creationTimestamp ?? '';
    const tb = b.metadata.creationTimestamp ?? '';
    if (ta !== tb) return ta > tb ? -1 : 1;
    return a.metadata.name < b.metadata.name ? -1 : 1;
  });
  return all[0];
}

function validateAccessModes(modes: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ms: string[] = Array.isArray(modes) ? modes : [];
  if (ms.length === 0) errs.push({ type: 'Required', field: path, detail: 'at least 1 access mode is required' });
  for (const m of ms) if (!ACCESS_MODES.includes(m)) errs.push({ type: 'NotSupported', field: path, value: m, supported: ACCESS_MODES });
  if (ms.includes('ReadWriteOncePod') && ms.length > 1)
    errs.push({ type: 'Forbidden', field: path, detail: 'may not use ReadWriteOncePod with other access modes' });
  return errs;
}

function validateStorage(q: unknown, path: string, required: boolean): FieldError[] {
  if (q === undefined) return required ? [{ type: 'Required', field: path }] : [];
  const v = parseQuantity(q);
  if (v !== undefined && v <= 0) return [{ type: 'Invalid', field: path, value: String(q), detail: 'must be greater than zero' }];
  return [];
}

/** ValidatePersistentVolumeClaimSpec (the essentials). */
export function validatePVCSpec(spec: Obj, path: string): FieldError[] {
  const errs = validateAccessModes(spec.accessModes, `${path}.accessModes`);
  errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  errs.push(...validateStorage(spec.resources?.requests?.storage, `${path}.resources[storage]`, !spec.dataSource && !spec.dataSourceRef));
  if (spec.volumeMode && spec.volumeMode !== 'Block' && spec.volumeMode !== 'Filesystem') {
    errs.push({ type: 'NotSupported', field: `${path}.volumeMode`, value: spec.volumeMode, supported: ['Block', 'Filesystem'] });
  }
  if (spec.storageClassName)
    for (const m of nameIsDNSSubdomain(spec.storageClassName, false))
      errs.push({ type: 'Invalid', field: `${path}.storageClassName`, value: spec.storageClassName, detail: m });
  return errs;
}

const pvcStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj, ctx) {
    checkMetaTypes(obj);
    obj.spec = obj.spec ?? {};
    obj.status = { phase: 'Pending' };
    // DefaultStorageClass admission
    if (obj.spec.storageClassName === undefined && !obj.metadata.annotations?.[BETA_CLASS_ANN]) {
      const dc = defaultStorageClass(ctx);
      if (dc) obj.spec.storageClassName = dc.metadata.name;
    }
  },
  defaults(obj) {
    obj.spec = obj.spec ?? {};
    defaultPVCSpec(obj.spec);
    defaultResourceList(obj.status?.capacity);
    defaultResourceList(obj.status?.allocatedResources);
  },
  validate(obj) {
    return [...validateObjectMeta(obj, true, nameIsDNSSubdomain), ...validatePVCSpec(obj.spec, 'spec')];
  },
  validateUpdate(obj, old) {
    const errs = [...validateObjectMeta(obj, true, nameIsDNSSubdomain), ...validatePVCSpec(obj.spec, 'spec')];
    const a = { ...obj.spec, resources: undefined, volumeAttributesClassName: undefined };
    const b = { ...old.spec, resources: undefined, volumeAttributesClassName: undefined };
    if (!old.spec?.volumeName) b.volumeName = a.volumeName; // binding sets it once
    if (old.spec?.storageClassName === undefined) b.storageClassName = a.storageClassName; // retroactive default class
    if (!deepEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))) {
      errs.push({
        type: 'Forbidden',
        field: 'spec',
        detail: 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      });
    }
    return errs;
  },
};

const pvStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    obj.status = { phase: 'Pending' };
  },
  defaults(obj) {
    const s = (obj.spec = obj.spec ?? {});
    if (!s.persistentVolumeReclaimPolicy) s.persistentVolumeReclaimPolicy = 'Retain';
    if (!s.volumeMode) s.volumeMode = 'Filesystem';
    if (s.hostPath && s.hostPath.type === undefined) s.hostPath.type = '';
    defaultVolumeSources(s);
    defaultResourceList(s.capacity);
  },
  validate(obj) {
    const s: Obj = obj.spec ?? {};
    const errs = validateObjectMeta(obj, false, nameIsDNSSubdomain);
    errs.push(...validateAccessModes(s.accessModes, 'spec.accessModes'));
    if (!s.capacity || Object.keys(s.capacity).length === 0) errs.push({ type: 'Required', field: 'spec.capacity' });
    else errs.push(...validateStorage(s.capacity.storage, 'spec.capacity[storage]', true));
    const prp = s.persistentVolumeReclaimPolicy;
    if (prp && !['Delete', 'Recycle', 'Retain'].includes(prp))
      errs.push({
        type: 'NotSupported',
        field: 'spec.persistentVolumeReclaimPolicy',
        value: prp,
        supported: ['Delete', 'Recycle', 'Retain'],
      });
    const srcs = VOLUME_SOURCE_KEYS.filter(
      (k) =>
        s[k] !== undefined &&
        s[k] !== null &&
        !['emptyDir', 'secret', 'configMap', 'downwardAPI', 'projected', 'persistentVolumeClaim', 'ephemeral', 'gitRepo', 'image'].includes(
          k,
        ),
    );
    if (s.local) srcs.push('local');
    if (srcs.length === 0) errs.push({ type: 'Required', field: 'spec', detail: 'must specify a volume type' });
    else if (srcs.length > 1) errs.push({ type: 'Forbidden', field: `spec.${srcs[1]}`, detail: 'may not specify more than 1 volume type' });
    if (s.hostPath && !s.hostPath.path) errs.push({ type: 'Required', field: 'spec.hostPath.path' });
    if (s.storageClassName)
      for (const m of nameIsDNSSubdomain(s.storageClassName, false))
        errs.push({ type: 'Invalid', field: 'spec.storageClassName', value: s.storageClassName, detail: m });
    return errs;
  },
  validateUpdate(obj, old) {
    const errs = pvStrategy.validate!(obj, undefined as never);
    const a = {
      ...obj.spec,
      claimRef: undefined,
      capacity: undefined,
      persistentVolumeReclaimPolicy: undefined,
      mountOptions: undefined,
      nodeAffinity: undefined,
      storageClassName: undefined,
      accessModes: undefined,
      volumeAttributesClassName: undefined,
    };
    const b = {
      ...old.spec,
      claimRef: undefined,
      capacity: undefined,
      persistentVolumeReclaimPolicy: undefined,
      mountOptions: undefined,
      nodeAffinity: undefined,
      storageClassName: undefined,
      accessModes: undefined,
      volumeAttributesClassName: undefined,
    };
    if (!deepEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))) {
      errs.push({
        type: 'Forbidden',
        field: 'spec.persistentvolumesource',
        detail: 'spec.persistentvolumesource is immutable after creation',
      });
    }
    return errs;
  },
};

const scStrategy: Strategy = {
  prepareForCreate(obj) {
    checkMetaTypes(obj);
  },
  defaults(obj) {
    if (!obj.reclaimPolicy) obj.reclaimPolicy = 'Delete';
    if (!obj.volumeBindingMode) obj.volumeBindingMode = 'Immediate';
  },
  validate(obj) {
    const errs = validateObjectMeta(obj, false, nameIsDNSSubdomain);
    if (!obj.provisioner) errs.push({ type: 'Required', field: 'provisioner' });
    else
      for (const m of isQualifiedName(String(obj.provisioner).toLowerCase()))
        errs.push({ type: 'Invalid', field: 'provisioner', value: String(obj.provisioner).toLowerCase(), detail: m });
    if (!['Delete', 'Retain'].includes(obj.reclaimPolicy))
      errs.push({ type: 'NotSupported', field: 'reclaimPolicy', value: obj.reclaimPolicy, supported: ['Delete', 'Retain'] });
    if (!['Immediate', 'WaitForFirstConsumer'].includes(obj.volumeBindingMode))
      errs.push({
        type: 'NotSupported',
        field: 'volumeBindingMode',
        value: obj.volumeBindingMode,
        supported: ['Immediate', 'WaitForFirstConsumer'],
      });
    return errs;
  },
  validateUpdate(obj, old) {
    const errs = scStrategy.validate!(obj, undefined as never);
    if (!deepEqual(obj.parameters, old.parameters))
      errs.push({ type: 'Forbidden', field: 'parameters', detail: 'updates to parameters are forbidden.' });
    if (obj.provisioner !== old.provisioner)
      errs.push({ type: 'Forbidden', field: 'provisioner', detail: 'updates to provisioner are forbidden.' });
    if (obj.reclaimPolicy !== old.reclaimPolicy)
      errs.push({ type: 'Forbidden', field: 'reclaimPolicy', detail: 'updates to reclaimPolicy are forbidden.' });
    if (obj.volumeBindingMode !== old.volumeBindingMode)
      errs.push({ type: 'Invalid', field: 'volumeBindingMode', value: obj.volumeBindingMode, detail: 'field is immutable' });
    return errs;
  },
};

/** Storage strategies by group-qualified resource. */
export const storageStrategies: Record<string, Strategy> = {
  persistentvolumeclaims: pvcStrategy,
  persistentvolumes: pvStrategy,
  'storageclasses.storage.k8s.io': scStrategy,
};
