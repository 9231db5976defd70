/**
 * `npm run gen:k8s` (second step): generates src/cluster/apimachinery/go-types.generated.ts, the
 * Go type of every field of every built-in kind the engine serves, for the apiserver's
 * decode-time type check (src/cluster/apiserver/decode.ts) and strict unknown-field detection.
 *
 * Source: the kubernetes-types declaration files (k8s.io/api field names and nesting, v1.30),
 * read as text (loadModule). The declarations lose what only Go knows, so three
 * tables below restore it from k8s.io/api v1.33 (types.go of each group):
 * - INT64: fields declared `int64`/`*int64` (every other integer is int32);
 * - NAMED: fields of a named Go type (`PullPolicy string`, `ResourceList map[…]Quantity`,
 *   `[]byte`), printed by encoding/json with their name;
 * - EXTRA: fields added after v1.30 that the engine serves.
 * Structures with their own JSON decoding (JSONSchemaProps, RawExtension, FieldsV1, JSON) are
 * opaque (`any`).
 *
 * Type expression grammar of the output (one string per field):
 *   expr := Name '=' expr | '[]' expr | 'map[string]' expr | prim | structKey
 *   prim := string | bool | int32 | int64 | []byte | resource.Quantity | intstr.IntOrString
 *         | v1.Time | v1.MicroTime | any
 *   structKey := <dir>/<version>.<Name>, e.g. core/v1.Container (Go prints v1.Container)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILTIN_RESOURCES } from '../cluster/api/resources';

const root = fileURLToPath(new URL('../../node_modules/kubernetes-types/', import.meta.url));
const out = fileURLToPath(new URL('../cluster/apimachinery/go-types.generated.ts', import.meta.url));

/** Fields whose Go type is int64 (k8s.io/api v1.33), by StructName.field. */
const INT64 = new Set([
  'ObjectMeta.generation',
  'ObjectMeta.deletionGracePeriodSeconds',
  'Condition.observedGeneration',
  'PodSpec.terminationGracePeriodSeconds',
  'PodSpec.activeDeadlineSeconds',
  'Probe.terminationGracePeriodSeconds',
  'PodSecurityContext.runAsUser',
  'PodSecurityContext.runAsGroup',
  'PodSecurityContext.fsGroup',
  'PodSecurityContext.supplementalGroups',
  'SecurityContext.runAsUser',
  'SecurityContext.runAsGroup',
  'Toleration.tolerationSeconds',
  'ServiceAccountTokenProjection.expirationSeconds',
  'ReplicationControllerStatus.observedGeneration',
  'PodCondition.observedGeneration',
  'PodStatus.observedGeneration',
  'DeploymentStatus.observedGeneration',
  'ReplicaSetStatus.observedGeneration',
  'StatefulSetStatus.observedGeneration',
  'DaemonSetStatus.observedGeneration',
  'ControllerRevision.revision',
  'JobSpec.activeDeadlineSeconds',
  'CronJobSpec.startingDeadlineSeconds',
  'HorizontalPodAutoscalerStatus.observedGeneration',
  'PodDisruptionBudgetStatus.observedGeneration',
  'TokenRequest.expirationSeconds',
  'TokenRequestSpec.expirationSeconds',
  'ValidatingAdmissionPolicyStatus.observedGeneration',
]);

/** Fields of a named Go type (or []byte), by StructName.field: the whole type expression. */
const NAMED: Record<string, string> = {
  'ObjectMeta.uid': 'types.UID=string',
  'OwnerReference.uid': 'types.UID=string',
  'ObjectReference.uid': 'types.UID=string',
  'ManagedFieldsEntry.operation': 'v1.ManagedFieldsOperationType=string',
  'LabelSelectorRequirement.operator': 'v1.LabelSelectorOperator=string',
  'Condition.status': 'v1.ConditionStatus=string',
  'Container.imagePullPolicy': 'v1.PullPolicy=string',
  'Container.terminationMessagePolicy': 'v1.TerminationMessagePolicy=string',
  'Container.restartPolicy': 'v1.ContainerRestartPolicy=string',
  'EphemeralContainer.imagePullPolicy': 'v1.PullPolicy=string',
  'EphemeralContainer.terminationMessagePolicy': 'v1.TerminationMessagePolicy=string',
  'EphemeralContainer.restartPolicy': 'v1.ContainerRestartPolicy=string',
  'ContainerResizePolicy.resourceName': 'v1.ResourceName=string',
  'ContainerResizePolicy.restartPolicy': 'v1.ResourceResizeRestartPolicy=string',
  'ContainerPort.protocol': 'v1.Protocol=string',
  'ServicePort.protocol': 'v1.Protocol=string',
  'EndpointPort.protocol': 'v1.Protocol=string',
  'NetworkPolicyPort.protocol': 'v1.Protocol=string',
  'PortStatus.protocol': 'v1.Protocol=string',
  'PodSpec.restartPolicy': 'v1.RestartPolicy=string',
  'PodSpec.dnsPolicy': 'v1.DNSPolicy=string',
  'PodSpec.preemptionPolicy': 'v1.PreemptionPolicy=string',
  'PodSpec.overhead': 'v1.ResourceList=map[string]resource.Quantity',
  'ResourceRequirements.limits': 'v1.ResourceList=map[string]resource.Quantity',
  'ResourceRequirements.requests': 'v1.ResourceList=map[string]resource.Quantity',
  'VolumeResourceRequirements.limits': 'v1.ResourceList=map[string]resource.Quantity',
  'VolumeResourceRequirements.requests': 'v1.ResourceList=map[string]resource.Quantity',
  'PersistentVolumeSpec.capacity': 'v1.ResourceList=map[string]resource.Quantity',
  'PersistentVolumeClaimStatus.capacity': 'v1.ResourceList=map[string]resource.Quantity',
  'PersistentVolumeClaimStatus.allocatedResources': 'v1.ResourceList=map[string]resource.Quantity',
  'NodeStatus.capacity': 'v1.ResourceList=map[string]resource.Quantity',
  'NodeStatus.allocatable': 'v1.ResourceList=map[string]resource.Quantity',
  'ResourceQuotaSpec.hard': 'v1.ResourceList=map[string]resource.Quantity',
  'ResourceQuotaStatus.hard': 'v1.ResourceList=map[string]resource.Quantity',
  'ResourceQuotaStatus.used': 'v1.ResourceList=map[string]resource.Quantity',
  'ContainerStatus.allocatedResources': 'v1.ResourceList=map[string]resource.Quantity',
  'LimitRangeItem.type': 'v1.LimitType=string',
  'LimitRangeItem.max': 'v1.ResourceList=map[string]resource.Quantity',
  'LimitRangeItem.min': 'v1.ResourceList=map[string]resource.Quantity',
  'LimitRangeItem.default': 'v1.ResourceList=map[string]resource.Quantity',
  'LimitRangeItem.defaultRequest': 'v1.ResourceList=map[string]resource.Quantity',
  'LimitRangeItem.maxLimitRequestRatio': 'v1.ResourceList=map[string]resource.Quantity',
  'Toleration.operator': 'v1.TolerationOperator=string',
  'Toleration.effect': 'v1.TaintEffect=string',
  'Taint.effect': 'v1.TaintEffect=string',
  'NodeSelectorRequirement.operator': 'v1.NodeSelectorOperator=string',
  'TopologySpreadConstraint.whenUnsatisfiable': 'v1.UnsatisfiableConstraintAction=string',
  'TopologySpreadConstraint.nodeAffinityPolicy': 'v1.NodeInclusionPolicy=string',
  'TopologySpreadConstraint.nodeTaintsPolicy': 'v1.NodeInclusionPolicy=string',
  'ServiceSpec.type': 'v1.ServiceType=string',
  'ServiceSpec.sessionAffinity': 'v1.ServiceAffinity=string',
  'ServiceSpec.externalTrafficPolicy': 'v1.ServiceExternalTrafficPolicy=string',
  'ServiceSpec.internalTrafficPolicy': 'v1.ServiceInternalTrafficPolicy=string',
  'ServiceSpec.ipFamilies': '[]v1.IPFamily=string',
  'ServiceSpec.ipFamilyPolicy': 'v1.IPFamilyPolicy=string',
  'LoadBalancerIngress.ipMode': 'v1.LoadBalancerIPMode=string',
  'PersistentVolumeClaimSpec.accessModes': '[]v1.PersistentVolumeAccessMode=string',
  'PersistentVolumeClaimSpec.volumeMode': 'v1.PersistentVolumeMode=string',
  'PersistentVolumeSpec.accessModes': '[]v1.PersistentVolumeAccessMode=string',
  'PersistentVolumeSpec.volumeMode': 'v1.PersistentVolumeMode=string',
  'PersistentVolumeSpec.persistentVolumeReclaimPolicy': 'v1.PersistentVolumeReclaimPolicy=string',
  'PersistentVolumeClaimStatus.accessModes': '[]v1.PersistentVolumeAccessMode=string',
  'PersistentVolumeClaimStatus.phase': 'v1.PersistentVolumeClaimPhase=string',
  'PersistentVolumeStatus.phase': 'v1.PersistentVolumePhase=string',
  'HostPathVolumeSource.type': 'v1.HostPathType=string',
  'EmptyDirVolumeSource.medium': 'v1.StorageMedium=string',
  'Secret.type': 'v1.SecretType=string',
  'Secret.data': 'map[string][]byte',
  'ConfigMap.binaryData': 'map[string][]byte',
  'SecurityContext.procMount': 'v1.ProcMountType=string',
  'Capabilities.add': '[]v1.Capability=string',
  'Capabilities.drop': '[]v1.Capability=string',
  'SeccompProfile.type': 'v1.SeccompProfileType=string',
  'AppArmorProfile.type': 'v1.AppArmorProfileType=string',
  'PodSecurityContext.fsGroupChangePolicy': 'v1.PodFSGroupChangePolicy=string',
  'PodSecurityContext.supplementalGroupsPolicy': 'v1.SupplementalGroupsPolicy=string',
  'PodSecurityContext.seLinuxChangePolicy': 'v1.PodSELinuxChangePolicy=string',
  'VolumeMount.mountPropagation': 'v1.MountPropagationMode=string',
  'VolumeMount.recursiveReadOnly': 'v1.RecursiveReadOnlyMode=string',
  'PodOS.name': 'v1.OSName=string',
  'PodStatus.phase': 'v1.PodPhase=string',
  'PodStatus.qosClass': 'v1.PodQOSClass=string',
  'PodCondition.type': 'v1.PodConditionType=string',
  'PodCondition.status': 'v1.ConditionStatus=string',
  'NamespaceSpec.finalizers': '[]v1.FinalizerName=string',
  'NamespaceStatus.phase': 'v1.NamespacePhase=string',
  'NodeCondition.type': 'v1.NodeConditionType=string',
  'NodeCondition.status': 'v1.ConditionStatus=string',
  'NodeAddress.type': 'v1.NodeAddressType=string',
  'NodeStatus.phase': 'v1.NodePhase=string',
  'DeploymentStrategy.type': 'v1.DeploymentStrategyType=string',
  'DeploymentCondition.type': 'v1.DeploymentConditionType=string',
  'DeploymentCondition.status': 'v1.ConditionStatus=string',
  'ReplicaSetCondition.status': 'v1.ConditionStatus=string',
  'ReplicaSetCondition.type': 'v1.ReplicaSetConditionType=string',
  'StatefulSetSpec.podManagementPolicy': 'v1.PodManagementPolicyType=string',
  'StatefulSetUpdateStrategy.type': 'v1.StatefulSetUpdateStrategyType=string',
  'StatefulSetPersistentVolumeClaimRetentionPolicy.whenDeleted': 'v1.PersistentVolumeClaimRetentionPolicyType=string',
  'StatefulSetPersistentVolumeClaimRetentionPolicy.whenScaled': 'v1.PersistentVolumeClaimRetentionPolicyType=string',
  'DaemonSetUpdateStrategy.type': 'v1.DaemonSetUpdateStrategyType=string',
  'JobSpec.completionMode': 'v1.CompletionMode=string',
  'JobSpec.podReplacementPolicy': 'v1.PodReplacementPolicy=string',
  'JobCondition.type': 'v1.JobConditionType=string',
  'JobCondition.status': 'v1.ConditionStatus=string',
  'PodFailurePolicyRule.action': 'v1.PodFailurePolicyAction=string',
  'PodFailurePolicyOnExitCodesRequirement.operator': 'v1.PodFailurePolicyOnExitCodesOperator=string',
  'CronJobSpec.concurrencyPolicy': 'v1.ConcurrencyPolicy=string',
  'HTTPIngressPath.pathType': 'v1.PathType=string',
  'NetworkPolicySpec.policyTypes': '[]v1.PolicyType=string',
  'MetricSpec.type': 'v2.MetricSourceType=string',
  'MetricStatus.type': 'v2.MetricSourceType=string',
  'MetricTarget.type': 'v2.MetricTargetType=string',
  'ResourceMetricSource.name': 'v1.ResourceName=string',
  'ContainerResourceMetricSource.name': 'v1.ResourceName=string',
  'ResourceMetricStatus.name': 'v1.ResourceName=string',
  'ContainerResourceMetricStatus.name': 'v1.ResourceName=string',
  'HPAScalingPolicy.type': 'v2.HPAScalingPolicyType=string',
  'HPAScalingRules.selectPolicy': 'v2.ScalingPolicySelect=string',
  'HorizontalPodAutoscalerCondition.type': 'v2.HorizontalPodAutoscalerConditionType=string',
  'HorizontalPodAutoscalerCondition.status': 'v1.ConditionStatus=string',
  'PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy': 'v1.UnhealthyPodEvictionPolicyType=string',
  'StorageClass.reclaimPolicy': 'v1.PersistentVolumeReclaimPolicy=string',
  'StorageClass.volumeBindingMode': 'v1.VolumeBindingMode=string',
  'EndpointSlice.addressType': 'v1.AddressType=string',
};

/** Fields served by v1.33 that kubernetes-types 1.30 lacks: StructName.field → type expression. */
const EXTRA: Record<string, string> = {
  'PodSpec.resources': 'core/v1.ResourceRequirements',
  'PodCondition.observedGeneration': 'int64',
  'PodStatus.observedGeneration': 'int64',
  'Volume.image': 'any', // ImageVolumeSource {reference, pullPolicy} (v1.31+)
  'HPAScalingRules.tolerance': 'resource.Quantity',
  'Lifecycle.stopSignal': 'v1.Signal=string',
  'ServiceSpec.trafficDistribution': 'string',
  'PodSecurityContext.supplementalGroupsPolicy': 'v1.SupplementalGroupsPolicy=string',
  'PodSecurityContext.seLinuxChangePolicy': 'v1.PodSELinuxChangePolicy=string',
  'JobSpec.successPolicy': 'batch/v1.SuccessPolicy',
  'JobSpec.managedBy': 'string',
  // Rule's fields, embedded inline in Go (`Rule `json:",inline"``); kubernetes-types drops them
  'RuleWithOperations.resources': '[]string',
  'RuleWithOperations.scope': 'v1.ScopeType=string',
  'NamedRuleWithOperations.resources': '[]string',
  'NamedRuleWithOperations.scope': 'v1.ScopeType=string',
};

/** Types decoded by their own UnmarshalJSON that accept any JSON (or that the engine leaves alone). */
const OPAQUE = new Set(['RawExtension', 'FieldsV1', 'JSON', 'JSONSchemaProps']);
/** Well-known types by module and name. */
const WELL_KNOWN: Record<string, string> = {
  'api/resource.Quantity': 'resource.Quantity',
  'meta/v1.Time': 'v1.Time',
  'meta/v1.MicroTime': 'v1.MicroTime',
};

interface Module {
  dir: string; // "core/v1"
  imports: Map<string, string>; // local name → module dir
  /** interface name → member name → type text; alias name → type text */
  interfaces: Map<string, [string, string][]>;
  aliases: Map<string, string>;
}

const modules = new Map<string, Module>();
/**
 * Reads one kubernetes-types declaration file. The files are regular (generated): imports,
 * `export interface X { name?: Type; … }` closed by a `}` at column 0, `export type X = T;`.
 * (TypeScript 7's compiler has no JS API, so this reads the text itself.)
 */
function loadModule(dir: string): Module {
  const have = modules.get(dir);
  if (have) return have;
  const text = readFileSync(`${root}${dir}.d.ts`, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const m: Module = { dir, imports: new Map(), interfaces: new Map(), aliases: new Map() };
  for (const [, names, spec] of text.matchAll(/^import \{([^}]*)\} from "([^"]+)";/gm)) {
    const target = new URL(spec, `file:///${dir}`).pathname.slice(1);
    for (const n of names
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean))
      m.imports.set(n, target);
  }
  for (const [, name, body] of text.matchAll(/^export interface (\w+) \{([\s\S]*?)^\}/gm)) {
    const members: [string, string][] = [];
    let depth = 0;
    let cur = '';
    for (const ch of body) {
      if (ch === '{') depth++;
      if (ch === '}') depth--;
      if (ch === ';' && depth === 0) {
        const mm = cur
          .trim()
          .replace(/^readonly /, '')
          .match(/^"?([\w$-]+)"?\??:\s*([\s\S]+)$/);
        if (mm) members.push([mm[1], mm[2].replace(/\s+/g, ' ').trim()]);
        cur = '';
      } else cur += ch;
    }
    m.interfaces.set(name, members);
  }
  for (const [, name, t] of text.matchAll(/^export type (\w+) = ([^;]+);/gm)) m.aliases.set(name, t.trim());
  modules.set(dir, m);
  return m;
}

const structs = new Map<string, Record<string, string>>();
const queue: string[] = [];

/** Struct key of a type name referenced in module m. */
function refKey(m: Module, name: string): string {
  const dir = m.interfaces.has(name) || m.aliases.has(name) ? m.dir : m.imports.get(name);
  if (!dir) throw new Error(`${m.dir}: unresolved type ${name}`);
  return `${dir}.${name}`;
}

/** Go type expression of a TypeScript type text. */
function typeExpr(m: Module, t: string, where: string): string {
  t = t.trim();
  if (t === 'string') return 'string';
  if (t === 'boolean') return 'bool';
  if (t === 'number') return INT64.has(where) ? 'int64' : 'int32';
  if (t === 'any' || t === 'unknown' || t === 'object') return 'any';
  if (t === 'number | string' || t === 'string | number') return 'intstr.IntOrString';
  if (/^"[^"]*"$/.test(t)) return 'string'; // apiVersion/kind literals
  if (t.endsWith('[]')) return `[]${typeExpr(m, t.slice(0, -2), where)}`;
  const arr = t.match(/^Array<(.+)>$/);
  if (arr) return `[]${typeExpr(m, arr[1], where)}`;
  const map = t.match(/^\{ ?\[\w+: string\]: (.+?);? ?\}$/);
  if (map) return `map[string]${typeExpr(m, map[1], where)}`;
  if (/^\w+$/.test(t)) {
    if (OPAQUE.has(t)) return 'any';
    const key = refKey(m, t);
    if (WELL_KNOWN[key]) return WELL_KNOWN[key];
    const cut = key.lastIndexOf('.');
    const mod = loadModule(key.slice(0, cut));
    const alias = mod.aliases.get(t);
    if (alias !== undefined) return typeExpr(mod, alias, where);
    if (!structs.has(key) && !queue.includes(key)) queue.push(key);
    return key;
  }
  throw new Error(`${where}: unsupported type ${t}`);
}

function visit(key: string): void {
  const cut = key.lastIndexOf('.');
  const dir = key.slice(0, cut);
  const name = key.slice(cut + 1);
  const m = loadModule(dir);
  const members = m.interfaces.get(name);
  if (!members) throw new Error(`${key}: not an interface`);
  const fields: Record<string, string> = {};
  structs.set(key, fields);
  for (const [f, t] of members) {
    const where = `${name}.${f}`;
    fields[f] = NAMED[where] ?? typeExpr(m, t, where);
  }
  for (const [w, expr] of Object.entries(EXTRA)) {
    const [s, f] = w.split('.');
    if (s === name && !(f in fields)) {
      fields[f] = expr;
      for (const ref of expr.match(/[a-z]+\/v\d\w*\.\w+/g) ?? []) if (!structs.has(ref) && !queue.includes(ref)) queue.push(ref);
    }
  }
}

/** kubernetes-types module of an API group ("" → core, "rbac.authorization.k8s.io" → rbac). */
const groupDir = (group: string) => (group === '' ? 'core' : group.split('.')[0]);

/** Kinds that are no stored resource but bodies the apiserver decodes (serviceaccounts/token's TokenRequest). */
const BODY_KINDS = [{ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }];

const kinds: Record<string, string> = {};
for (const r of [...BUILTIN_RESOURCES, ...BODY_KINDS]) {
  const dir = `${groupDir(r.group)}/${r.version}`;
  const m = loadModule(dir);
  if (!m.interfaces.has(r.kind)) {
    console.warn(`skipped ${r.group}/${r.version} ${r.kind}: not in ${dir}`);
    continue;
  }
  const key = `${dir}.${r.kind}`;
  kinds[`${r.group ? `${r.group}/` : ''}${r.version}/${r.kind}`] = key;
  if (!queue.includes(key)) queue.push(key);
}
while (queue.length) {
  const key = queue.shift()!;
  if (!structs.has(key)) visit(key);
}

// every hand-written entry must name a real field (a typo would silently do nothing)
const seen = new Set([...structs].flatMap(([k, f]) => Object.keys(f).map((x) => `${k.slice(k.lastIndexOf('.') + 1)}.${x}`)));
for (const w of [...INT64, ...Object.keys(NAMED), ...Object.keys(EXTRA)])
  if (!seen.has(w)) console.warn(`note: ${w} is not a field of any served struct`);

const keys = [...structs.keys()].sort();
const body = keys
  .map(
    (k) =>
      `  '${k}': '${Object.entries(structs.get(k)!)
        .map(([f, t]) => `${f}:${t}`)
        .join(' ')}',`,
  )
  .join('\n');
const kindLines = Object.keys(kinds)
  .sort()
  .map((k) => `  '${k}': '${kinds[k]}',`)
  .join('\n');
const text = `/**
 * GENERATED by \`npm run gen:k8s\` (src/cli/gen-go-types.ts) from kubernetes-types; do not edit.
 * The Go type of every field of every built-in kind the engine serves (k8s.io/api v1.33 field
 * types; grammar in src/cli/gen-go-types.ts), for src/cluster/apiserver/decode.ts.
 */

/** Struct key (\`core/v1.Container\`) → space-separated \`field:typeExpr\` pairs. */
export const GO_STRUCTS: Record<string, string> = {
${body}
};

/** "group/version/Kind" (core: "v1/Kind") → struct key of the kind's Go type. */
export const GO_KINDS: Record<string, string> = {
${kindLines}
};
`;
writeFileSync(out, text);
console.log(`wrote ${out}: ${Object.keys(kinds).length} kinds, ${keys.length} structs, ${(text.length / 1024).toFixed(0)} KB`);
