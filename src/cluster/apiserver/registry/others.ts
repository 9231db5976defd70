/**
 * Strategies of the remaining groups: autoscaling (HPA v2 defaults from
 * pkg/apis/autoscaling/v2/defaults.go, validation from pkg/apis/autoscaling/validation),
 * networking.k8s.io (Ingress, IngressClass: pkg/apis/networking/validation), scheduling
 * (PriorityClass: pkg/apis/scheduling/validation), policy (PodDisruptionBudget:
 * pkg/apis/policy/validation), apiextensions (CustomResourceDefinition: essentials of
 * apiextensions-apiserver/pkg/apis/apiextensions/validation) and cluster-scoped RBAC.
 */
import type { FieldError } from '../../api/errors';
import type { KObject } from '../../api/types';
import type { Strategy } from './strategy';
import {
  checkMetaTypes,
  goIntOrString,
  nameIsDNSSubdomain,
  nameIsPathSegment,
  validateLabelSelector,
  validateObjectMeta,
} from './validation/meta';
import { isDNS1035Label, isValidPercent, isValidPortName, isValidPortNum } from '../../api/validation/names';

type Obj = Record<string, any>;

function scaleUpDefaults(r: Obj | undefined): Obj {
  const d = {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
  if (!r) return d;
  if (r.stabilizationWindowSeconds === undefined) r.stabilizationWindowSeconds = d.stabilizationWindowSeconds;
  if (!r.selectPolicy) r.selectPolicy = d.selectPolicy;
  if (!r.policies) r.policies = d.policies;
  return r;
}

function scaleDownDefaults(r: Obj | undefined): Obj {
  const d = { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
  if (!r) return d;
  if (r.stabilizationWindowSeconds === undefined) r.stabilizationWindowSeconds = d.stabilizationWindowSeconds;
  if (!r.selectPolicy) r.selectPolicy = d.selectPolicy;
  if (!r.policies) r.policies = d.policies;
  return r;
}

/** SetDefaults_HorizontalPodAutoscaler (v2; v1 only gets minReplicas). */
export function defaultHPA(obj: KObject): void {
  const s: Obj = (obj.spec = obj.spec && typeof obj.spec === 'object' ? obj.spec : {});
  if (s.minReplicas === undefined) s.minReplicas = 1;
  if (obj.apiVersion === 'autoscaling/v1') return;
  if (!Array.isArray(s.metrics) || s.metrics.length === 0) {
    s.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (s.behavior && typeof s.behavior === 'object') {
    s.behavior.scaleUp = scaleUpDefaults(s.behavior.scaleUp);
    s.behavior.scaleDown = scaleDownDefaults(s.behavior.scaleDown);
  }
}

function validateHPA(obj: KObject): FieldError[] {
  const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
  const s: Obj = obj.spec ?? {};
  const ref = s.scaleTargetRef ?? {};
  if (!ref.kind) errs.push({ type: 'Required', field: 'spec.scaleTargetRef.kind' });
  if (!ref.name) errs.push({ type: 'Required', field: 'spec.scaleTargetRef.name' });
  if (typeof s.minReplicas === 'number' && s.minReplicas < 1)
    errs.push({ type: 'Invalid', field: 'spec.minReplicas', value: s.minReplicas, detail: 'must be greater than or equal to 1' });
  if (!(s.maxReplicas >= 1))
    errs.push({ type: 'Invalid', field: 'spec.maxReplicas', value: s.maxReplicas ?? 0, detail: 'must be greater than 0' });
  if (typeof s.minReplicas === 'number' && s.maxReplicas < s.minReplicas)
    errs.push({
      type: 'Invalid',
      field: 'spec.maxReplicas',
      value: s.maxReplicas,
      detail: 'must be greater than or equal to `minReplicas`',
    });
  if (obj.apiVersion !== 'autoscaling/v1') {
    (s.metrics ?? []).forEach((m: Obj, i: number) => {
      const p = `spec.metrics[${i}]`;
      const types = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
      if (!m.type) errs.push({ type: 'Required', field: `${p}.type`, detail: 'must specify a metric source type' });
      else if (!types.includes(m.type)) errs.push({ type: 'NotSupported', field: `${p}.type`, value: m.type, supported: types });
      const key = m.type ? m.type[0].toLowerCase() + m.type.slice(1) : '';
      if (m.type && types.includes(m.type) && !m[key])
        errs.push({ type: 'Required', field: `${p}.${key}`, detail: `must populate information for the given metric source` });
      const t = m[key]?.target;
      if (m[key] && !t) errs.push({ type: 'Required', field: `${p}.${key}.target`, detail: 'must specify a metric target' });
      if (t && !['Utilization', 'Value', 'AverageValue'].includes(t.type))
        errs.push({
          type: 'NotSupported',
          field: `${p}.${key}.target.type`,
          value: t.type ?? '',
          supported: ['Utilization', 'Value', 'AverageValue'],
        });
    });
    errs.push(...validateBehavior(s.behavior, 'spec.behavior'));
  }
  return errs;
}

/** MaxPeriodSeconds and MaxStabilizationWindowSeconds (pkg/apis/autoscaling/validation). */
const MaxPeriodSeconds = 1800;
const MaxStabilizationWindowSeconds = 3600;

/** validateBehavior / validateScalingRules / validateScalingPolicy (pkg/apis/autoscaling/validation/validation.go). */
function validateBehavior(b: Obj | undefined, path: string): FieldError[] {
  if (!b || typeof b !== 'object') return [];
  const errs: FieldError[] = [];
  for (const dir of ['scaleUp', 'scaleDown']) {
    const r: Obj | undefined = b[dir];
    if (!r || typeof r !== 'object') continue;
    const p = `${path}.${dir}`;
    const w = r.stabilizationWindowSeconds;
    if (typeof w === 'number' && w < 0)
      errs.push({ type: 'Invalid', field: `${p}.stabilizationWindowSeconds`, value: w, detail: 'must be greater than or equal to zero' });
    if (typeof w === 'number' && w > MaxStabilizationWindowSeconds)
      errs.push({
        type: 'Invalid',
        field: `${p}.stabilizationWindowSeconds`,
        value: w,
        detail: `must be less than or equal to ${MaxStabilizationWindowSeconds}`,
      });
    if (r.selectPolicy !== undefined && r.selectPolicy !== null && !['Disabled', 'Max', 'Min'].includes(r.selectPolicy))
      errs.push({ type: 'NotSupported', field: `${p}.selectPolicy`, value: r.selectPolicy, supported: ['Disabled', 'Max', 'Min'] });
    const policies: Obj[] = Array.isArray(r.policies) ? r.policies : [];
    if (policies.length === 0) errs.push({ type: 'Required', field: `${p}.policies`, detail: 'must specify at least one Policy' });
    policies.forEach((pol, i) => {
      const ip = `${p}.policies[${i}]`;
      const type = pol?.type ?? '';
      if (type !== 'Pods' && type !== 'Percent')
        errs.push({ type: 'NotSupported', field: `${ip}.type`, value: type, supported: ['Percent', 'Pods'] });
      const value: number = typeof pol?.value === 'number' ? pol.value : 0;
      if (value <= 0) errs.push({ type: 'Invalid', field: `${ip}.value`, value, detail: 'must be greater than zero' });
      const period: number = typeof pol?.periodSeconds === 'number' ? pol.periodSeconds : 0;
      if (period <= 0) errs.push({ type: 'Invalid', field: `${ip}.periodSeconds`, value: period, detail: 'must be greater than zero' });
      if (period > MaxPeriodSeconds)
        errs.push({
          type: 'Invalid',
          field: `${ip}.periodSeconds`,
          value: period,
          detail: `must be less than or equal to ${MaxPeriodSeconds}`,
        });
    });
  }
  return errs;
}

const hpaStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    obj.status =
      obj.apiVersion === 'autoscaling/v1' ? { currentReplicas: 0, desiredReplicas: 0 } : { currentMetrics: null, desiredReplicas: 0 };
  },
  prepareForUpdate: checkMetaTypes,
  defaults: defaultHPA,
  validate: validateHPA,
  validateUpdate: (obj) => validateHPA(obj),
};

function validateBackend(b: Obj | undefined, path: string): FieldError[] {
  if (!b) return [];
  const errs: FieldError[] = [];
  if (b.service && b.resource)
    errs.push({ type: 'Invalid', field: path, value: '', detail: 'cannot set both resource and service backends' });
  if (!b.service && !b.resource) errs.push({ type: 'Invalid', field: path, value: '', detail: 'resource or service backend is required' });
  if (b.service) {
    if (!b.service.name) errs.push({ type: 'Required', field: `${path}.service.name` });
    else
      for (const m of isDNS1035Label(b.service.name))
        errs.push({ type: 'Invalid', field: `${path}.service.name`, value: b.service.name, detail: m });
    const port = b.service.port ?? {};
    const hasName = !!port.name;
    const hasNum = port.number !== undefined && port.number !== 0;
    if (hasName && hasNum) errs.push({ type: 'Invalid', field: path, value: '', detail: 'cannot set both port name & port number' });
    else if (hasName)
      for (const m of isValidPortName(port.name))
        errs.push({ type: 'Invalid', field: `${path}.service.port.name`, value: port.name, detail: m });
    else if (hasNum)
      for (const m of isValidPortNum(port.number))
        errs.push({ type: 'Invalid', field: `${path}.service.port.number`, value: port.number, detail: m });
    else errs.push({ type: 'Required', field: path, detail: 'port name or number is required' });
  }
  return errs;
}

function validateIngress(obj: KObject): FieldError[] {
  const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
  const s: Obj = obj.spec ?? {};
  if (!s.defaultBackend && !(s.rules?.length > 0))
    errs.push({ type: 'Invalid', field: 'spec.rules', value: '', detail: 'either `defaultBackend` or `rules` must be specified' });
  errs.push(...validateBackend(s.defaultBackend, 'spec.defaultBackend'));
  (s.rules ?? []).forEach((r: Obj, i: number) => {
    (r.http?.paths ?? []).forEach((p: Obj, j: number) => {
      const pp = `spec.rules[${i}].http.paths[${j}]`;
      if (!p.pathType) errs.push({ type: 'Required', field: `${pp}.pathType`, detail: 'pathType must be specified' });
      else if (!['Exact', 'Prefix', 'ImplementationSpecific'].includes(p.pathType))
        errs.push({
          type: 'NotSupported',
          field: `${pp}.pathType`,
          value: p.pathType,
          supported: ['Exact', 'ImplementationSpecific', 'Prefix'],
        });
      if ((p.pathType === 'Exact' || p.pathType === 'Prefix') && !String(p.path ?? '').startsWith('/'))
        errs.push({ type: 'Invalid', field: `${pp}.path`, value: p.path ?? '', detail: 'must be an absolute path' });
      if (p.pathType === 'ImplementationSpecific' && p.path && !String(p.path).startsWith('/'))
        errs.push({ type: 'Invalid', field: `${pp}.path`, value: p.path, detail: 'must be an absolute path' });
      errs.push(...validateBackend(p.backend, `${pp}.backend`));
    });
  });
  if (s.ingressClassName)
    for (const m of nameIsDNSSubdomain(s.ingressClassName, false))
      errs.push({ type: 'Invalid', field: 'spec.ingressClassName', value: s.ingressClassName, detail: m });
  return errs;
}

const ingressStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    obj.status = { loadBalancer: {} };
  },
  prepareForUpdate: checkMetaTypes,
  validate: validateIngress,
  validateUpdate: (obj) => validateIngress(obj),
};

function validatePriorityClass(obj: KObject): FieldError[] {
  const errs = validateObjectMeta(obj, false, nameIsDNSSubdomain);
  const name = obj.metadata.name;
  const system = ['system-node-critical', 'system-cluster-critical'];
  if (name.startsWith('system-') && !system.includes(name))
    errs.push({ type: 'Forbidden', field: 'metadata.name', detail: "priority class names with 'system-' prefix are reserved" });
  if (!system.includes(name) && typeof obj.value === 'number' && obj.value > 1000000000)
    errs.push({ type: 'Forbidden', field: 'value', detail: 'maximum allowed value of a user defined priority is 1000000000' });
  if (obj.preemptionPolicy && !['PreemptLowerPriority', 'Never'].includes(obj.preemptionPolicy))
    errs.push({
      type: 'NotSupported',
      field: 'preemptionPolicy',
      value: obj.preemptionPolicy,
      supported: ['Never', 'PreemptLowerPriority'],
    });
  return errs;
}

const priorityClassStrategy: Strategy = {
  prepareForCreate: checkMetaTypes,
  defaults(obj) {
    if (!obj.preemptionPolicy) obj.preemptionPolicy = 'PreemptLowerPriority';
    if (obj.value === undefined) obj.value = 0;
  },
  validate: validatePriorityClass,
  validateUpdate(obj, old) {
    const errs = validatePriorityClass(obj);
    if (obj.value !== old.value) errs.push({ type: 'Forbidden', field: 'value', detail: 'may not be changed in an update.' });
    if (obj.preemptionPolicy !== old.preemptionPolicy)
      errs.push({ type: 'Invalid', field: 'preemptionPolicy', value: obj.preemptionPolicy, detail: 'field is immutable' });
    return errs;
  },
};

function intOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string')
    return isValidPercent(v).map((m) => ({ type: 'Invalid' as const, field: path, value: v, rawValue: goIntOrString(v), detail: m }));
  if (typeof v === 'number' && v < 0) return [{ type: 'Invalid', field: path, value: v, detail: 'must be greater than or equal to 0' }];
  return [];
}

function validatePDB(obj: KObject): FieldError[] {
  const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
  const s: Obj = obj.spec ?? {};
  if (s.minAvailable !== undefined && s.maxUnavailable !== undefined) {
    errs.push({
      type: 'Invalid',
      field: 'spec',
      value: s,
      rawValue: 'policy.PodDisruptionBudgetSpec{…}',
      detail: 'minAvailable and maxUnavailable cannot be both set',
    });
  }
  errs.push(...intOrPercent(s.minAvailable, 'spec.minAvailable'), ...intOrPercent(s.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(s.selector, 'spec.selector'));
  if (s.unhealthyPodEvictionPolicy && !['AlwaysAllow', 'IfHealthyBudget'].includes(s.unhealthyPodEvictionPolicy)) {
    errs.push({
      type: 'NotSupported',
      field: 'spec.unhealthyPodEvictionPolicy',
      value: s.unhealthyPodEvictionPolicy,
      supported: ['AlwaysAllow', 'IfHealthyBudget'],
    });
  }
  return errs;
}

const pdbStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    // PrepareForCreate: status reset to PodDisruptionBudgetStatus{} (JSON in Go field order)
    obj.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  },
  prepareForUpdate: checkMetaTypes,
  validate: validatePDB,
  validateUpdate: (obj) => validatePDB(obj),
};

function validateCRD(obj: KObject): FieldError[] {
  const errs = validateObjectMeta(obj, false, nameIsDNSSubdomain);
  const s: Obj = obj.spec ?? {};
  const names: Obj = s.names ?? {};
  if (!s.group) errs.push({ type: 'Required', field: 'spec.group' });
  else if (!String(s.group).includes('.'))
    errs.push({ type: 'Invalid', field: 'spec.group', value: s.group, detail: 'should be a domain with at least one dot' });
  if (!names.plural) errs.push({ type: 'Required', field: 'spec.names.plural' });
  if (!names.kind) errs.push({ type: 'Required', field: 'spec.names.kind' });
  if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  if (names.plural && s.group && obj.metadata.name !== `${names.plural}.${s.group}`) {
    errs.push({ type: 'Invalid', field: 'metadata.name', value: obj.metadata.name, detail: 'must be spec.names.plural+"."+spec.group' });
  }
  if (!['Namespaced', 'Cluster'].includes(s.scope))
    errs.push({ type: 'NotSupported', field: 'spec.scope', value: s.scope ?? '', supported: ['Cluster', 'Namespaced'] });
  const versions: Obj[] = s.versions ?? [];
  if (versions.length === 0)
    errs.push({
      type: 'Invalid',
      field: 'spec.versions',
      value: versions,
      rawValue: '[]apiextensions.CustomResourceDefinitionVersion(nil)',
      detail: 'must have exactly one version marked as storage version',
    });
  else if (versions.filter((v) => v.storage).length !== 1)
    errs.push({
      type: 'Invalid',
      field: 'spec.versions',
      value: versions,
      rawValue: '[]apiextensions.CustomResourceDefinitionVersion{…}',
      detail: 'must have exactly one version marked as storage version',
    });
  versions.forEach((v, i) => {
    if (!v.schema?.openAPIV3Schema)
      errs.push({ type: 'Required', field: `spec.versions[${i}].schema.openAPIV3Schema`, detail: 'schemas are required' });
  });
  return errs;
}

const crdStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    // upstream: status cleared but for the storage version; the naming and establishing
    // controllers (apiserver/crd.ts) accept the names and set Established
    checkMetaTypes(obj);
    obj.status = {
      acceptedNames: { kind: '', plural: '' },
      storedVersions: (obj.spec?.versions ?? [])
        .filter((v: Obj) => v.storage)
        .map((v: Obj) => v.name)
        .slice(0, 1),
    };
  },
  defaults(obj) {
    const s: Obj = (obj.spec = obj.spec ?? {});
    s.names = s.names ?? {};
    if (s.names.kind && !s.names.listKind) s.names.listKind = `${s.names.kind}List`;
    if (!s.names.singular && s.names.kind) s.names.singular = String(s.names.kind).toLowerCase();
    if (!s.conversion) s.conversion = { strategy: 'None' };
  },
  validate: validateCRD,
  validateUpdate: (obj) => validateCRD(obj),
};

const clusterScoped = (nameFn = nameIsDNSSubdomain): Strategy => ({
  prepareForCreate: checkMetaTypes,
  prepareForUpdate: checkMetaTypes,
  validate: (obj) => validateObjectMeta(obj, false, nameFn),
  validateUpdate: (obj) => validateObjectMeta(obj, false, nameFn),
});

/** Strategies of autoscaling, networking, scheduling, policy, apiextensions, cluster RBAC. */
export const otherStrategies: Record<string, Strategy> = {
  'horizontalpodautoscalers.autoscaling': hpaStrategy,
  'ingresses.networking.k8s.io': ingressStrategy,
  'ingressclasses.networking.k8s.io': clusterScoped(),
  'networkpolicies.networking.k8s.io': {
    prepareForCreate: checkMetaTypes,
    defaults(obj) {
      const s: Obj = (obj.spec = obj.spec ?? {});
      // SetDefaults_NetworkPolicy: len(policyTypes) == 0 → Ingress, plus Egress when len(egress) != 0
      if (!Array.isArray(s.policyTypes) || s.policyTypes.length === 0)
        s.policyTypes = Array.isArray(s.egress) && s.egress.length ? ['Ingress', 'Egress'] : ['Ingress'];
      for (const r of [...(s.ingress ?? []), ...(s.egress ?? [])]) for (const p of r?.ports ?? []) if (p && !p.protocol) p.protocol = 'TCP';
    },
    validate: (obj) => validateObjectMeta(obj, true, nameIsDNSSubdomain),
  },
  'priorityclasses.scheduling.k8s.io': priorityClassStrategy,
  'poddisruptionbudgets.policy': pdbStrategy,
  'customresourcedefinitions.apiextensions.k8s.io': crdStrategy,
  'clusterroles.rbac.authorization.k8s.io': clusterScoped(nameIsPathSegment),
  'clusterrolebindings.rbac.authorization.k8s.io': clusterScoped(nameIsPathSegment),
  'validatingwebhookconfigurations.admissionregistration.k8s.io': clusterScoped(),
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': clusterScoped(),
  'csidrivers.storage.k8s.io': clusterScoped(),
  'runtimeclasses.node.k8s.io': clusterScoped(),
  // pkg/registry/storage/volumeattachment/strategy.go PrepareForCreate: Status = VolumeAttachmentStatus{}
  // (`attached` has no omitempty: `status: {attached: false}`)
  'volumeattachments.storage.k8s.io': {
    ...clusterScoped(),
    hasStatus: true,
    prepareForCreate(obj) {
      checkMetaTypes(obj);
      obj.status = { attached: false };
    },
  },
  // pkg/registry/certificates/certificates/strategy.go PrepareForCreate: Status = {} (no pre-approved
  // requests); the approval subresource is not served by the engine, so updates may still write status
  'certificatesigningrequests.certificates.k8s.io': {
    ...clusterScoped(),
    prepareForCreate(obj) {
      checkMetaTypes(obj);
      obj.status = {};
    },
  },
};
