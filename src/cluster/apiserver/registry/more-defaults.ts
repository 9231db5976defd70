/**
 * SetDefaults_* of the served kinds the other strategy files did not cover, as v1.33's
 * defaulters set them:
 * - core/v1 (pkg/apis/core/v1/defaults.go): SetDefaults_ReplicationController (selector and
 *   labels from the template, replicas 1, and the pod template's defaults),
 *   SetDefaults_EndpointPort (protocol TCP), SetDefaults_LimitRangeItem (a Container item's
 *   default from max, defaultRequest from default, then from min);
 * - discovery/v1: SetDefaults_EndpointPort (name "", protocol TCP);
 * - rbac/v1: SetDefaults_RoleBinding / ClusterRoleBinding (roleRef.apiGroup
 *   rbac.authorization.k8s.io), SetDefaults_Subject (apiGroup rbac.authorization.k8s.io for
 *   User and Group, "" for ServiceAccount);
 * - storage/v1: SetDefaults_CSIDriver (attachRequired true, podInfoOnMount false,
 *   storageCapacity false, fsGroupPolicy ReadWriteOnceWithFSType, volumeLifecycleModes
 *   [Persistent], requiresRepublish false, seLinuxMount false — SELinuxMountReadWriteOncePod is on);
 * - admissionregistration/v1: SetDefaults_ValidatingWebhook / MutatingWebhook (failurePolicy
 *   Fail, matchPolicy Equivalent, namespaceSelector and objectSelector {}, timeoutSeconds 10,
 *   reinvocationPolicy Never), SetDefaults_Rule (scope "*"), SetDefaults_ServiceReference (port
 *   443), SetDefaults_ValidatingAdmissionPolicySpec (failurePolicy Fail) and MatchResources;
 * - networking/v1: SetDefaults_IngressClass (parameters.scope Cluster);
 * - flowcontrol/v1: SetDefaults_FlowSchemaSpec (matchingPrecedence 1000),
 *   SetDefaults_LimitedPriorityLevelConfiguration (nominalConcurrencyShares 30, lendablePercent
 *   0), SetDefaults_QueuingConfiguration (handSize 8, queues 64, queueLengthLimit 50).
 * PodTemplates get their template's pod defaults (SetObjectDefaults_PodTemplate).
 * Plus the ReplicationController strategy (pkg/registry/core/replicationcontroller/strategy.go:
 * status cleared on create, status subresource; ValidateReplicationController's selector and
 * template rules).
 */
import type { FieldError } from '../../api/errors';
import type { KObject } from '../../api/types';
import type { Strategy, StrategyTable } from './strategy';
import { defaultPodTemplate, defaultResourceList } from './pod-defaults';
import { workload } from './apps';
import { nameIsDNSSubdomain, nonNegative } from './validation/meta';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const RBAC = 'rbac.authorization.k8s.io';
/** Sets a user-named key as an own data property (never the prototype, whatever the key). */
const put = (o: Obj, k: string, v: unknown): void => {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
};
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** SetDefaults_ReplicationController (+ the template's pod defaults). */
export function defaultReplicationController(obj: KObject): void {
  const s: Obj = (obj.spec = isObj(obj.spec) ? obj.spec : {});
  const labels =
    isObj(s.template) && isObj(s.template.metadata) && isObj(s.template.metadata.labels) ? s.template.metadata.labels : undefined;
  if (labels) {
    if (!isObj(s.selector) || Object.keys(s.selector).length === 0) s.selector = { ...labels };
    if (!isObj(obj.metadata.labels) || Object.keys(obj.metadata.labels).length === 0) obj.metadata.labels = { ...labels };
  }
  if (s.replicas === undefined || s.replicas === null) s.replicas = 1;
  if (isObj(s.template)) defaultPodTemplate(s.template);
}

/** ValidateReplicationControllerSpec: selector non-empty, template present and matching, counts ≥ 0. */
function validateReplicationControllerSpec(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const selector = isObj(s.selector) ? s.selector : {};
  if (Object.keys(selector).length === 0) errs.push({ type: 'Required', field: 'spec.selector' });
  errs.push(...nonNegative(s.replicas, 'spec.replicas'), ...nonNegative(s.minReadySeconds, 'spec.minReadySeconds'));
  if (!isObj(s.template)) errs.push({ type: 'Required', field: 'spec.template' });
  else {
    const labels: Obj = isObj(s.template.metadata?.labels) ? s.template.metadata.labels : {};
    const matches = Object.keys(selector).every((k) => has(labels, k) && labels[k] === selector[k]);
    if (Object.keys(selector).length && !matches)
      errs.push({
        type: 'Invalid',
        field: 'spec.template.metadata.labels',
        value: labels,
        detail: '`selector` does not match template `labels`',
      });
    const rp = s.template.spec?.restartPolicy;
    if (rp !== undefined && rp !== 'Always')
      errs.push({ type: 'NotSupported', field: 'spec.template.spec.restartPolicy', value: rp, supported: ['Always'] });
  }
  return errs;
}

/** The ReplicationController strategy (rcStrategy). */
export const replicationControllerStrategy: Strategy = workload(
  defaultReplicationController,
  validateReplicationControllerSpec,
  nameIsDNSSubdomain,
  () => [],
);

/** core/v1 SetDefaults_EndpointPort over an Endpoints' subsets. */
function defaultEndpoints(obj: KObject): void {
  for (const ss of list(obj.subsets)) for (const p of list(ss.ports)) if (!p.protocol) p.protocol = 'TCP';
}

/** discovery/v1 SetDefaults_EndpointPort. */
function defaultEndpointSlice(obj: KObject): void {
  for (const p of list(obj.ports)) {
    if (p.name === undefined || p.name === null) p.name = '';
    if (p.protocol === undefined || p.protocol === null) p.protocol = 'TCP';
  }
}

/** SetDefaults_LimitRangeItem: only Container items get default / defaultRequest. */
function defaultLimitRange(obj: KObject): void {
  for (const item of list(obj.spec?.limits)) {
    for (const k of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) defaultResourceList(item[k]);
    if (item.type !== 'Container') continue;
    const def: Obj = isObj(item.default) ? item.default : {};
    const req: Obj = isObj(item.defaultRequest) ? item.defaultRequest : {};
    for (const [k, v] of Object.entries(isObj(item.max) ? item.max : {})) if (!has(def, k)) put(def, k, v);
    for (const [k, v] of Object.entries(def)) if (!has(req, k)) put(req, k, v);
    for (const [k, v] of Object.entries(isObj(item.min) ? item.min : {})) if (!has(req, k)) put(req, k, v);
    // empty ResourceLists are omitted (omitempty)
    if (Object.keys(def).length) item.default = def;
    if (Object.keys(req).length) item.defaultRequest = req;
  }
}

/** rbac/v1 SetDefaults_RoleBinding / ClusterRoleBinding and SetDefaults_Subject. */
function defaultBinding(obj: KObject): void {
  const o = obj as Obj;
  if (isObj(o.roleRef) && !o.roleRef.apiGroup) o.roleRef.apiGroup = RBAC;
  for (const s of list(o.subjects)) {
    if (s.apiGroup) continue;
    // a ServiceAccount's "" is omitted (apiGroup,omitempty): nothing to write
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC;
  }
}

/** storage/v1 SetDefaults_CSIDriver. */
function defaultCSIDriver(obj: KObject): void {
  const s: Obj = (obj.spec = isObj(obj.spec) ? obj.spec : {});
  const set = (k: string, v: unknown) => {
    if (s[k] === undefined || s[k] === null) s[k] = v;
  };
  set('attachRequired', true);
  set('podInfoOnMount', false);
  set('storageCapacity', false);
  set('fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (!Array.isArray(s.volumeLifecycleModes) || s.volumeLifecycleModes.length === 0) s.volumeLifecycleModes = ['Persistent'];
  set('requiresRepublish', false);
  set('seLinuxMount', false);
}

/** admissionregistration/v1 SetDefaults_{Validating,Mutating}Webhook, _Rule, _ServiceReference. */
function defaultWebhooks(mutating: boolean): (obj: KObject) => void {
  return (obj) => {
    for (const w of list((obj as Obj).webhooks)) {
      if (w.failurePolicy == null) w.failurePolicy = 'Fail';
      if (w.matchPolicy == null) w.matchPolicy = 'Equivalent';
      if (w.namespaceSelector == null) w.namespaceSelector = {};
      if (w.objectSelector == null) w.objectSelector = {};
      if (w.timeoutSeconds == null) w.timeoutSeconds = 10;
      if (mutating && w.reinvocationPolicy == null) w.reinvocationPolicy = 'Never';
      for (const r of list(w.rules)) if (r.scope == null) r.scope = '*';
      if (isObj(w.clientConfig) && isObj(w.clientConfig.service) && w.clientConfig.service.port == null) w.clientConfig.service.port = 443;
    }
  };
}

/** SetDefaults_MatchResources and the rules' scope. */
function defaultMatchResources(m: Obj): void {
  if (m.matchPolicy == null) m.matchPolicy = 'Equivalent';
  if (m.namespaceSelector == null) m.namespaceSelector = {};
  if (m.objectSelector == null) m.objectSelector = {};
  for (const r of [...list(m.resourceRules), ...list(m.excludeResourceRules)]) if (r.scope == null) r.scope = '*';
}

/** SetDefaults_ValidatingAdmissionPolicySpec (+ its matchConstraints). */
function defaultValidatingAdmissionPolicy(obj: KObject): void {
  const s: Obj = (obj.spec = isObj(obj.spec) ? obj.spec : {});
  if (s.failurePolicy == null) s.failurePolicy = 'Fail';
  if (isObj(s.matchConstraints)) defaultMatchResources(s.matchConstraints);
}

/** SetDefaults of a ValidatingAdmissionPolicyBinding's matchResources. */
function defaultValidatingAdmissionPolicyBinding(obj: KObject): void {
  if (isObj(obj.spec?.matchResources)) defaultMatchResources(obj.spec.matchResources);
}

/** networking/v1 SetDefaults_IngressClass. */
function defaultIngressClass(obj: KObject): void {
  const p = obj.spec?.parameters;
  if (isObj(p) && p.scope == null) p.scope = 'Cluster';
}

/** flowcontrol/v1 SetDefaults_FlowSchemaSpec. */
function defaultFlowSchema(obj: KObject): void {
  const s: Obj = (obj.spec = isObj(obj.spec) ? obj.spec : {});
  if (s.matchingPrecedence == null) s.matchingPrecedence = 1000;
}

/** flowcontrol/v1 SetDefaults_LimitedPriorityLevelConfiguration + SetDefaults_QueuingConfiguration. */
function defaultPriorityLevelConfiguration(obj: KObject): void {
  const l = obj.spec?.limited;
  if (!isObj(l)) return;
  if (l.nominalConcurrencyShares == null) l.nominalConcurrencyShares = 30;
  if (l.lendablePercent == null) l.lendablePercent = 0;
  const q = l.limitResponse?.queuing;
  if (isObj(q)) {
    if (q.handSize == null) q.handSize = 8;
    if (q.queues == null) q.queues = 64;
    if (q.queueLengthLimit == null) q.queueLengthLimit = 50;
  }
}

/** Defaulters by group-qualified resource, chained after the resource's own. */
const EXTRA_DEFAULTS: Record<string, (obj: KObject) => void> = {
  // SetObjectDefaults_PodTemplate: the template's pod spec defaults
  podtemplates: (obj) => defaultPodTemplate(isObj(obj.template) ? obj.template : undefined),
  endpoints: defaultEndpoints,
  limitranges: defaultLimitRange,
  'endpointslices.discovery.k8s.io': defaultEndpointSlice,
  'rolebindings.rbac.authorization.k8s.io': defaultBinding,
  'clusterrolebindings.rbac.authorization.k8s.io': defaultBinding,
  'csidrivers.storage.k8s.io': defaultCSIDriver,
  'validatingwebhookconfigurations.admissionregistration.k8s.io': defaultWebhooks(false),
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': defaultWebhooks(true),
  'validatingadmissionpolicies.admissionregistration.k8s.io': defaultValidatingAdmissionPolicy,
  'validatingadmissionpolicybindings.admissionregistration.k8s.io': defaultValidatingAdmissionPolicyBinding,
  'ingressclasses.networking.k8s.io': defaultIngressClass,
  'flowschemas.flowcontrol.apiserver.k8s.io': defaultFlowSchema,
  'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io': defaultPriorityLevelConfiguration,
};

/** `table` with the ReplicationController strategy and the extra defaulters chained in. */
export function withMoreDefaults(table: StrategyTable): StrategyTable {
  const out: StrategyTable = { ...table, replicationcontrollers: table.replicationcontrollers ?? replicationControllerStrategy };
  for (const [gr, fn] of Object.entries(EXTRA_DEFAULTS)) {
    const s = out[gr] ?? {};
    const own = s.defaults;
    out[gr] = {
      ...s,
      defaults: (obj, ctx) => {
        own?.(obj, ctx);
        fn(obj);
      },
    };
  }
  return out;
}
