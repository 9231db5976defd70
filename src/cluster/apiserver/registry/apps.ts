/**
 * apps/v1 strategies: Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision.
 * Defaults from pkg/apis/apps/v1/defaults.go, validation from
 * pkg/apis/apps/validation/validation.go, update rules from
 * pkg/registry/apps/<kind>/strategy.go (selector immutable in apps/v1).
 */
import type { FieldError } from '../../api/errors';
import { deepEqual, type KObject } from '../../api/types';
import { labelSelectorMismatch } from '../../api/labels';
import type { Strategy } from './strategy';
import { defaultPodTemplate } from './pod-defaults';
import { defaultPVCSpec } from './storage';
import {
  checkMetaTypes,
  goIntOrString,
  goLabelSelector,
  goStringMap,
  immutable,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nonNegative,
  selectorParses,
  validateAnnotations,
  validateLabelSelector,
  validateLabels,
  validateObjectMeta,
} from './validation/meta';
import { isValidPercent } from '../../api/validation/names';
import { checkPodSpecDecode, validatePodTemplateSpec } from './validation/podspec';

type Obj = Record<string, any>;

function specOf(obj: KObject): Obj {
  if (!obj.spec || typeof obj.spec !== 'object') obj.spec = {};
  return obj.spec;
}

/** SetDefaults_Deployment. */
export function defaultDeployment(obj: KObject): void {
  const s = specOf(obj);
  if (s.replicas === undefined || s.replicas === null) s.replicas = 1;
  s.strategy = s.strategy && typeof s.strategy === 'object' ? s.strategy : {};
  if (!s.strategy.type) s.strategy.type = 'RollingUpdate';
  if (s.strategy.type === 'RollingUpdate') {
    s.strategy.rollingUpdate = s.strategy.rollingUpdate ?? {};
    if (s.strategy.rollingUpdate.maxUnavailable === undefined) s.strategy.rollingUpdate.maxUnavailable = '25%';
    if (s.strategy.rollingUpdate.maxSurge === undefined) s.strategy.rollingUpdate.maxSurge = '25%';
  }
  if (s.revisionHistoryLimit === undefined || s.revisionHistoryLimit === null) s.revisionHistoryLimit = 10;
  if (s.progressDeadlineSeconds === undefined || s.progressDeadlineSeconds === null) s.progressDeadlineSeconds = 600;
  defaultPodTemplate((s.template = s.template ?? {}));
}

/** SetDefaults_ReplicaSet. */
export function defaultReplicaSet(obj: KObject): void {
  const s = specOf(obj);
  if (s.replicas === undefined || s.replicas === null) s.replicas = 1;
  defaultPodTemplate((s.template = s.template ?? {}));
}

/** SetDefaults_StatefulSet (StatefulSetAutoDeletePVC is GA: retention policy Retain/Retain). */
export function defaultStatefulSet(obj: KObject): void {
  const s = specOf(obj);
  if (!s.podManagementPolicy) s.podManagementPolicy = 'OrderedReady';
  s.updateStrategy = s.updateStrategy ?? {};
  if (!s.updateStrategy.type) {
    s.updateStrategy.type = 'RollingUpdate';
    if (!s.updateStrategy.rollingUpdate) s.updateStrategy.rollingUpdate = {};
  }
  if (
    s.updateStrategy.type === 'RollingUpdate' &&
    s.updateStrategy.rollingUpdate &&
    s.updateStrategy.rollingUpdate.partition === undefined
  ) {
    s.updateStrategy.rollingUpdate.partition = 0;
  }
  s.persistentVolumeClaimRetentionPolicy = s.persistentVolumeClaimRetentionPolicy ?? {};
  if (!s.persistentVolumeClaimRetentionPolicy.whenDeleted) s.persistentVolumeClaimRetentionPolicy.whenDeleted = 'Retain';
  if (!s.persistentVolumeClaimRetentionPolicy.whenScaled) s.persistentVolumeClaimRetentionPolicy.whenScaled = 'Retain';
  if (s.replicas === undefined || s.replicas === null) s.replicas = 1;
  if (s.revisionHistoryLimit === undefined || s.revisionHistoryLimit === null) s.revisionHistoryLimit = 10;
  defaultPodTemplate((s.template = s.template ?? {}));
  for (const vct of Array.isArray(s.volumeClaimTemplates) ? s.volumeClaimTemplates : []) {
    if (!vct || typeof vct !== 'object') continue;
    vct.apiVersion = vct.apiVersion ?? 'v1';
    vct.kind = vct.kind ?? 'PersistentVolumeClaim';
    vct.metadata = vct.metadata ?? {};
    if (!('creationTimestamp' in vct.metadata)) vct.metadata.creationTimestamp = null;
    vct.spec = vct.spec ?? {};
    defaultPVCSpec(vct.spec);
    if (!vct.status) vct.status = { phase: 'Pending' };
  }
}

/** SetDefaults_DaemonSet. */
export function defaultDaemonSet(obj: KObject): void {
  const s = specOf(obj);
  s.updateStrategy = s.updateStrategy ?? {};
  if (!s.updateStrategy.type) s.updateStrategy.type = 'RollingUpdate';
  if (s.updateStrategy.type === 'RollingUpdate') {
    s.updateStrategy.rollingUpdate = s.updateStrategy.rollingUpdate ?? {};
    if (s.updateStrategy.rollingUpdate.maxUnavailable === undefined) s.updateStrategy.rollingUpdate.maxUnavailable = 1;
    if (s.updateStrategy.rollingUpdate.maxSurge === undefined) s.updateStrategy.rollingUpdate.maxSurge = 0;
  }
  if (s.revisionHistoryLimit === undefined || s.revisionHistoryLimit === null) s.revisionHistoryLimit = 10;
  defaultPodTemplate((s.template = s.template ?? {}));
}

/** ValidatePositiveIntOrPercent. */
function positiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string')
    return isValidPercent(v).map((m) => ({ type: 'Invalid' as const, field: path, value: v, rawValue: goIntOrString(v), detail: m }));
  if (typeof v === 'number') return nonNegative(v, path);
  return [];
}

function intOrPercentValue(v: unknown): number {
  if (typeof v === 'string') return isValidPercent(v).length ? 0 : Number(v.slice(0, -1));
  return typeof v === 'number' ? v : 0;
}

function notMoreThan100(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string' && !isValidPercent(v).length && Number(v.slice(0, -1)) > 100) {
    return [{ type: 'Invalid', field: path, value: v, rawValue: goIntOrString(v), detail: 'must not be greater than 100%' }];
  }
  return [];
}

/**
 * The selector + template part shared by Deployment and ReplicaSet
 * (ValidatePodTemplateSpecForReplicaSet), and DaemonSet.
 */
function selectorAndTemplate(s: Obj, kindWord: string, forKind: string): FieldError[] {
  const errs: FieldError[] = [];
  if (s.selector === undefined || s.selector === null) errs.push({ type: 'Required', field: 'spec.selector' });
  else {
    errs.push(...validateLabelSelector(s.selector, 'spec.selector'));
    if (Object.keys(s.selector.matchLabels ?? {}).length + (s.selector.matchExpressions ?? []).length === 0) {
      errs.push({
        type: 'Invalid',
        field: 'spec.selector',
        value: s.selector,
        rawValue: goLabelSelector(s.selector),
        detail: `empty selector is invalid for ${kindWord}`,
      });
    }
  }
  if (!selectorParses(s.selector)) {
    errs.push({
      type: 'Invalid',
      field: 'spec.selector',
      value: s.selector,
      rawValue: goLabelSelector(s.selector),
      detail: 'invalid label selector',
    });
    return errs;
  }
  const tpl = s.template ?? {};
  const labels = tpl.metadata?.labels;
  const emptySel = s.selector && Object.keys(s.selector.matchLabels ?? {}).length + (s.selector.matchExpressions ?? []).length === 0;
  if (!emptySel && labelSelectorMismatch(s.selector, labels)) {
    errs.push({
      type: 'Invalid',
      field: 'spec.template.metadata.labels',
      value: labels,
      rawValue: goStringMap(labels),
      detail: '`selector` does not match template `labels`',
    });
  }
  errs.push(...validatePodTemplateSpec(tpl, 'spec.template'));
  const rp = tpl.spec?.restartPolicy;
  if (rp !== 'Always')
    errs.push({ type: 'NotSupported', field: 'spec.template.spec.restartPolicy', value: rp ?? '', supported: ['Always'] });
  if (tpl.spec?.activeDeadlineSeconds !== undefined && tpl.spec?.activeDeadlineSeconds !== null) {
    errs.push({
      type: 'Forbidden',
      field: 'spec.template.spec.activeDeadlineSeconds',
      detail: `activeDeadlineSeconds in ${forKind} is not Supported`,
    });
  }
  return errs;
}

/** ValidateDeploymentSpec. */
export function validateDeploymentSpec(s: Obj): FieldError[] {
  const errs: FieldError[] = [...nonNegative(s.replicas, 'spec.replicas')];
  errs.push(...selectorAndTemplate(s, 'deployment', 'ReplicaSet'));
  const st = s.strategy ?? {};
  if (st.type === 'Recreate') {
    if (st.rollingUpdate)
      errs.push({
        type: 'Forbidden',
        field: 'spec.strategy.rollingUpdate',
        detail: "may not be specified when strategy `type` is 'Recreate'",
      });
  } else if (st.type === 'RollingUpdate') {
    const ru = st.rollingUpdate;
    if (!ru) errs.push({ type: 'Required', field: 'spec.strategy.rollingUpdate', detail: 'this should be defaulted and never be nil' });
    else {
      errs.push(...positiveIntOrPercent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable'));
      errs.push(...positiveIntOrPercent(ru.maxSurge, 'spec.strategy.rollingUpdate.maxSurge'));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push({
          type: 'Invalid',
          field: 'spec.strategy.rollingUpdate.maxUnavailable',
          value: ru.maxUnavailable,
          rawValue: goIntOrString(ru.maxUnavailable),
          detail: 'may not be 0 when `maxSurge` is 0',
        });
      }
      errs.push(...notMoreThan100(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable'));
    }
  } else {
    errs.push({
      type: 'NotSupported',
      field: 'spec.strategy',
      value: st,
      rawValue: `apps.DeploymentStrategy{Type:${JSON.stringify(st.type ?? '')}, RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}`,
      supported: ['Recreate', 'RollingUpdate'],
    });
  }
  errs.push(...nonNegative(s.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...nonNegative(s.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof s.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative(s.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (s.progressDeadlineSeconds <= (s.minReadySeconds ?? 0)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.progressDeadlineSeconds',
        value: s.progressDeadlineSeconds,
        detail: 'must be greater than minReadySeconds',
      });
    }
  }
  return errs;
}

/** ValidateReplicaSetSpec. */
export function validateReplicaSetSpec(s: Obj): FieldError[] {
  return [
    ...nonNegative(s.replicas, 'spec.replicas'),
    ...nonNegative(s.minReadySeconds, 'spec.minReadySeconds'),
    ...selectorAndTemplate(s, 'deployment', 'ReplicaSet'),
  ];
}

/** ValidateStatefulSetSpec (the template's pod spec is not validated, as upstream). */
export function validateStatefulSetSpec(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const pmp = s.podManagementPolicy;
  if (!pmp) errs.push({ type: 'Required', field: 'spec.podManagementPolicy' });
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel')
    errs.push({ type: 'Invalid', field: 'spec.podManagementPolicy', value: pmp, detail: "must be 'OrderedReady' or 'Parallel'" });
  const us = s.updateStrategy ?? {};
  if (!us.type) errs.push({ type: 'Required', field: 'spec.updateStrategy' });
  else if (us.type === 'OnDelete') {
    if (us.rollingUpdate)
      errs.push({
        type: 'Invalid',
        field: 'spec.updateStrategy.rollingUpdate',
        value: us.rollingUpdate,
        detail: "only allowed for updateStrategy 'RollingUpdate'",
      });
  } else if (us.type === 'RollingUpdate') {
    if (us.rollingUpdate) errs.push(...nonNegative(us.rollingUpdate.partition, 'spec.updateStrategy.rollingUpdate.partition'));
  } else errs.push({ type: 'Invalid', field: 'spec.updateStrategy', value: us, detail: "must be 'RollingUpdate' or 'OnDelete'" });
  for (const k of ['whenDeleted', 'whenScaled']) {
    const v = s.persistentVolumeClaimRetentionPolicy?.[k];
    if (v !== undefined && v !== 'Retain' && v !== 'Delete')
      errs.push({
        type: 'NotSupported',
        field: `spec.persistentVolumeClaimRetentionPolicy.${k}`,
        value: v,
        supported: ['Retain', 'Delete'],
      });
  }
  errs.push(...nonNegative(s.replicas, 'spec.replicas'), ...nonNegative(s.minReadySeconds, 'spec.minReadySeconds'));
  if (s.selector === undefined || s.selector === null) errs.push({ type: 'Required', field: 'spec.selector' });
  else {
    errs.push(...validateLabelSelector(s.selector, 'spec.selector'));
    if (Object.keys(s.selector.matchLabels ?? {}).length + (s.selector.matchExpressions ?? []).length === 0) {
      errs.push({
        type: 'Invalid',
        field: 'spec.selector',
        value: s.selector,
        rawValue: goLabelSelector(s.selector),
        detail: 'empty selector is invalid for statefulset',
      });
    }
  }
  const tpl = s.template ?? {};
  if (selectorParses(s.selector)) {
    const empty = s.selector && Object.keys(s.selector.matchLabels ?? {}).length + (s.selector.matchExpressions ?? []).length === 0;
    if (!empty && labelSelectorMismatch(s.selector, tpl.metadata?.labels)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.template.metadata.labels',
        value: tpl.metadata?.labels,
        rawValue: goStringMap(tpl.metadata?.labels),
        detail: '`selector` does not match template `labels`',
      });
    }
    errs.push(
      ...validateLabels(tpl.metadata?.labels, 'spec.template.labels'),
      ...validateAnnotations(tpl.metadata?.annotations, 'spec.template.annotations'),
    );
  }
  if (tpl.spec?.restartPolicy !== 'Always')
    errs.push({
      type: 'NotSupported',
      field: 'spec.template.spec.restartPolicy',
      value: tpl.spec?.restartPolicy ?? '',
      supported: ['Always'],
    });
  if (tpl.spec?.activeDeadlineSeconds !== undefined && tpl.spec?.activeDeadlineSeconds !== null) {
    errs.push({
      type: 'Forbidden',
      field: 'spec.template.spec.activeDeadlineSeconds',
      detail: 'activeDeadlineSeconds in StatefulSet is not Supported',
    });
  }
  return errs;
}

/** ValidateDaemonSetSpec. */
export function validateDaemonSetSpec(s: Obj): FieldError[] {
  const errs: FieldError[] = validateLabelSelector(s.selector, 'spec.selector');
  const tpl = s.template ?? {};
  if (selectorParses(s.selector)) {
    const sel = s.selector;
    const empty = !sel || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0;
    if (labelSelectorMismatch(sel, tpl.metadata?.labels) && !(sel && empty)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.template.metadata.labels',
        value: tpl.metadata?.labels,
        rawValue: goStringMap(tpl.metadata?.labels),
        detail: '`selector` does not match template `labels`',
      });
    }
    if (sel && empty)
      errs.push({
        type: 'Invalid',
        field: 'spec.selector',
        value: sel,
        rawValue: goLabelSelector(sel),
        detail: 'empty selector is invalid for daemonset',
      });
  }
  errs.push(...validatePodTemplateSpec(tpl, 'spec.template'));
  if (tpl.spec?.restartPolicy !== 'Always')
    errs.push({
      type: 'NotSupported',
      field: 'spec.template.spec.restartPolicy',
      value: tpl.spec?.restartPolicy ?? '',
      supported: ['Always'],
    });
  if (tpl.spec?.activeDeadlineSeconds !== undefined && tpl.spec?.activeDeadlineSeconds !== null) {
    errs.push({
      type: 'Forbidden',
      field: 'spec.template.spec.activeDeadlineSeconds',
      detail: 'activeDeadlineSeconds in DaemonSet is not Supported',
    });
  }
  errs.push(...nonNegative(s.minReadySeconds, 'spec.minReadySeconds'));
  const us = s.updateStrategy ?? {};
  if (us.type === 'RollingUpdate') {
    const ru = us.rollingUpdate;
    if (!ru) errs.push({ type: 'Required', field: 'spec.updateStrategy.rollingUpdate' });
    else {
      const p = 'spec.updateStrategy.rollingUpdate';
      errs.push(...positiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`), ...positiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`));
      errs.push(...notMoreThan100(ru.maxUnavailable, `${p}.maxUnavailable`), ...notMoreThan100(ru.maxSurge, `${p}.maxSurge`));
      const hu = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hs = intOrPercentValue(ru.maxSurge) !== 0;
      if (hu && hs)
        errs.push({
          type: 'Invalid',
          field: `${p}.maxSurge`,
          value: ru.maxSurge,
          rawValue: goIntOrString(ru.maxSurge),
          detail: 'may not be set when maxUnavailable is non-zero',
        });
      else if (!hu && !hs) errs.push({ type: 'Required', field: `${p}.maxUnavailable`, detail: 'cannot be 0 when maxSurge is 0' });
    }
  } else if (us.type !== 'OnDelete') {
    errs.push({
      type: 'NotSupported',
      field: 'spec.updateStrategy',
      value: us,
      rawValue: `apps.DaemonSetUpdateStrategy{Type:${JSON.stringify(us.type ?? '')}, RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}`,
      supported: ['RollingUpdate', 'OnDelete'],
    });
  }
  errs.push(...nonNegative(s.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

function selectorImmutable(obj: KObject, old: KObject): FieldError[] {
  return immutable(
    !deepEqual(obj.spec?.selector, old.spec?.selector),
    'spec.selector',
    obj.spec?.selector,
    goLabelSelector(obj.spec?.selector),
  );
}

/**
 * The strategy shape the pod-template workloads share (apps strategies and rcStrategy): status
 * reset on create, meta and Pod-spec decode checks, defaults, spec validation, and an update
 * rule (the selector is immutable unless `extraUpdate` says otherwise).
 */
export function workload(
  defaults: (o: KObject) => void,
  validateSpec: (s: Obj) => FieldError[],
  nameFn = nameIsDNSSubdomain,
  extraUpdate?: (o: KObject, old: KObject) => FieldError[],
): Strategy {
  const updateRule = extraUpdate ?? selectorImmutable;
  return {
    hasStatus: true,
    prepareForCreate(obj) {
      checkMetaTypes(obj);
      checkPodSpecDecode(obj, obj.spec?.template?.spec);
      obj.status = {};
    },
    prepareForUpdate(obj) {
      checkMetaTypes(obj);
      checkPodSpecDecode(obj, obj.spec?.template?.spec);
    },
    defaults,
    validate(obj) {
      return [...validateObjectMeta(obj, true, nameFn), ...validateSpec(specOf(obj))];
    },
    validateUpdate(obj, old) {
      return [...validateObjectMeta(obj, true, nameFn), ...validateSpec(specOf(obj)), ...updateRule(obj, old)];
    },
  };
}

function statefulSetUpdate(obj: KObject, old: KObject): FieldError[] {
  const a = { ...obj.spec };
  const b = { ...old.spec };
  for (const k of ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy']) {
    delete a[k];
    delete b[k];
  }
  if (deepEqual(a, b)) return [];
  return [
    {
      type: 'Forbidden',
      field: 'spec',
      detail:
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    },
  ];
}

/** Strategies of the apps group. */
export const appsStrategies: Record<string, Strategy> = {
  'deployments.apps': workload(defaultDeployment, validateDeploymentSpec),
  'replicasets.apps': workload(defaultReplicaSet, validateReplicaSetSpec),
  'statefulsets.apps': workload(defaultStatefulSet, validateStatefulSetSpec, nameIsDNSLabel, statefulSetUpdate),
  'daemonsets.apps': workload(defaultDaemonSet, validateDaemonSetSpec),
  'controllerrevisions.apps': {
    validate(obj) {
      const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
      if (obj.data === undefined || obj.data === null) errs.push({ type: 'Required', field: 'data', detail: 'data is mandatory' });
      return [...errs, ...nonNegative(obj.revision, 'revision')];
    },
  },
};
