/**
 * The Pod strategy: pkg/registry/core/pod/strategy.go (PrepareForCreate sets status
 * Pending + qosClass; Validate/ValidateUpdate), with the admission plugins kube-apiserver
 * runs on Pod creation: ServiceAccount (plugin/pkg/admission/serviceaccount),
 * Priority (plugin/pkg/admission/priority) and DefaultTolerationSeconds
 * (plugin/pkg/admission/defaulttolerationseconds/admission.go).
 */
import { newForbidden, type FieldError } from '../../api/errors';
import { deepCopy, deepEqual, type KObject } from '../../api/types';
import type { Strategy, StrategyContext } from './strategy';
import { defaultPod, podQOSClass } from './pod-defaults';
import { checkMetaTypes, nameIsDNSSubdomain, validateObjectMeta } from './validation/meta';
import { checkPodSpecDecode, validatePodSpec } from './validation/podspec';

/** The PriorityClasses every kube-apiserver creates at start-up (pkg/apis/scheduling SystemPriorityClasses). */
export const SYSTEM_PRIORITY_CLASSES: KObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
    preemptionPolicy: 'PreemptLowerPriority',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
    preemptionPolicy: 'PreemptLowerPriority',
  },
];

/** The name admission errors print: the generateName while the name is still to be generated. */
function admissionName(pod: KObject): string {
  const g = pod.metadata.generateName;
  const n = pod.metadata.name;
  if (g && n && n.startsWith(g) && n.length === g.length + 5) return g;
  return n;
}

function lookupPriorityClass(ctx: StrategyContext, name: string): KObject | undefined {
  return ctx.getObject('priorityclasses.scheduling.k8s.io', '', name) ?? SYSTEM_PRIORITY_CLASSES.find((p) => p.metadata.name === name);
}

function defaultPriorityClass(ctx: StrategyContext): KObject | undefined {
  return ctx.listObjects?.('priorityclasses.scheduling.k8s.io').find((p) => p.globalDefault === true);
}

/** Priority admission (create): priorityClassName → priority and preemptionPolicy. @throws 403 */
export function admitPriority(pod: KObject, ctx: StrategyContext): void {
  const spec = pod.spec;
  let priority = 0;
  let policy: string | undefined = 'PreemptLowerPriority';
  if (!spec.priorityClassName) {
    const dpc = defaultPriorityClass(ctx);
    if (dpc) {
      spec.priorityClassName = dpc.metadata.name;
      priority = dpc.value ?? 0;
      policy = dpc.preemptionPolicy;
    }
  } else {
    const pc = lookupPriorityClass(ctx, spec.priorityClassName);
    if (!pc) throw newForbidden('pods', admissionName(pod), `no PriorityClass with name ${spec.priorityClassName} was found`);
    priority = pc.value ?? 0;
    policy = pc.preemptionPolicy ?? 'PreemptLowerPriority';
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    throw newForbidden(
      'pods',
      admissionName(pod),
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  spec.priority = priority;
  if (policy) {
    if (spec.preemptionPolicy && spec.preemptionPolicy !== policy) {
      throw newForbidden(
        'pods',
        admissionName(pod),
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = policy;
  }
}

/** DefaultTolerationSeconds admission: not-ready / unreachable NoExecute tolerations for 300 s. */
export function admitDefaultTolerationSeconds(pod: KObject, seconds = 300): void {
  const ts: Record<string, any>[] = Array.isArray(pod.spec.tolerations) ? pod.spec.tolerations : [];
  let notReady = false;
  let unreachable = false;
  for (const t of ts) {
    const anyEffect = t.effect === 'NoExecute' || !t.effect;
    if ((t.key === 'node.kubernetes.io/not-ready' || !t.key) && anyEffect) notReady = true;
    if ((t.key === 'node.kubernetes.io/unreachable' || !t.key) && anyEffect) unreachable = true;
  }
  if (!notReady) ts.push({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  if (!unreachable) ts.push({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  pod.spec.tolerations = ts;
}

/** DefaultAPITokenMountPath (plugin/pkg/admission/serviceaccount). */
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** ServiceAccountVolumeName: the prefix of the projected token volume's name. */
export const SERVICE_ACCOUNT_VOLUME_NAME = 'kube-api-access';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: 1 h + 7 s. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;

/** TokenVolumeSource: the projected token, the root CA bundle and the namespace file. */
export function tokenVolumeSource(): Record<string, unknown> {
  return {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/**
 * How long ServiceAccount admission keeps looking for a missing `default` ServiceAccount, in
 * seconds: getServiceAccount tries 10 times, 100–199 ms apart, because the serviceaccount
 * controller creates it moments after the namespace. The engine cannot wait inside a request:
 * a Pod in a namespace created at most this long ago (creationTimestamp has whole seconds) is
 * admitted as if a retry had found the account the controller is about to create.
 */
export const DEFAULT_SERVICE_ACCOUNT_GRACE_SECONDS = 1;

/**
 * ServiceAccount admission (plugin/pkg/admission/serviceaccount/admission.go): default the
 * name to "default", require the account to exist — a missing one is 403 `error looking up
 * service account NS/NAME: serviceaccount "NAME" not found`, for `default` too once its
 * namespace is older than {@link DEFAULT_SERVICE_ACCOUNT_GRACE_SECONDS} (upstream's retries) — and — unless
 * automountServiceAccountToken is false on the Pod, or else on the ServiceAccount
 * (shouldAutomount) — mountServiceAccountToken: a `kube-api-access-<5 random>` projected
 * volume (TokenVolumeSource) mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount
 * in every init container and container that has no mount there yet; an existing
 * `kube-api-access-*` volume is reused. Mirror Pods are left alone. The ServiceAccount's
 * imagePullSecrets are copied when the Pod has none. @throws 403
 */
export function admitServiceAccount(pod: KObject, ctx: StrategyContext): void {
  const spec = pod.spec;
  if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || 'default';
  spec.serviceAccount = spec.serviceAccountName;
  const ns = pod.metadata.namespace ?? '';
  const sa = ctx.getObject('serviceaccounts', ns, spec.serviceAccountName);
  if (!sa && !(spec.serviceAccountName === 'default' && namespaceIsNew(ctx, ns))) {
    throw newForbidden(
      'pods',
      admissionName(pod),
      `error looking up service account ${ns}/${spec.serviceAccountName}: serviceaccount "${spec.serviceAccountName}" not found`,
    );
  }
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
  const automount =
    typeof spec.automountServiceAccountToken === 'boolean'
      ? spec.automountServiceAccountToken
      : typeof sa?.automountServiceAccountToken === 'boolean'
        ? sa.automountServiceAccountToken
        : true;
  if (automount) mountServiceAccountToken(pod, () => ctx.serviceAccountVolumeSuffix?.() ?? ctx.randomSuffix(5));
  if (
    !(Array.isArray(spec.imagePullSecrets) && spec.imagePullSecrets.length) &&
    Array.isArray(sa?.imagePullSecrets) &&
    sa.imagePullSecrets.length
  ) {
    spec.imagePullSecrets = sa.imagePullSecrets.map((s: { name?: string }) => ({ name: s?.name }));
  }
}

/** True when namespace `ns` was created at most DEFAULT_SERVICE_ACCOUNT_GRACE_SECONDS ago (or is not stored: no namespace check ran). */
function namespaceIsNew(ctx: StrategyContext, ns: string): boolean {
  const created = ctx.getObject('namespaces', '', ns)?.metadata.creationTimestamp;
  if (!created) return true;
  return Date.parse(ctx.nowRFC3339()) - Date.parse(created) <= DEFAULT_SERVICE_ACCOUNT_GRACE_SECONDS * 1000;
}

/** mountServiceAccountToken: the volume (reused when present) and each container's mount. */
function mountServiceAccountToken(pod: KObject, suffix: () => string): void {
  const spec = pod.spec;
  const volumes: Record<string, any>[] = Array.isArray(spec.volumes) ? spec.volumes : [];
  const existing = volumes.find((v) => typeof v?.name === 'string' && v.name.startsWith(SERVICE_ACCOUNT_VOLUME_NAME + '-'));
  const name: string = existing?.name ?? `${SERVICE_ACCOUNT_VOLUME_NAME}-${suffix()}`;
  let needsTokenVolume = false;
  for (const list of [spec.initContainers, spec.containers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!c || typeof c !== 'object') continue;
      const mounts: Record<string, any>[] = Array.isArray(c.volumeMounts) ? c.volumeMounts : [];
      if (mounts.some((m) => m?.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH }];
      needsTokenVolume = true;
    }
  }
  if (!existing && needsTokenVolume) spec.volumes = [...volumes, { name, projected: tokenVolumeSource() }];
}

const UPDATABLE =
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function diffLines(a: unknown, b: unknown, path: string, out: string[]): void {
  if (deepEqual(a, b)) return;
  const isObj = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
    for (const k of keys) diffLines((a as any)[k], (b as any)[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffLines(x, b[i], `${path}[${i}]`, out));
    return;
  }
  out.push(`- \t${path}: ${JSON.stringify(a)}`);
  out.push(`+ \t${path}: ${JSON.stringify(b)}`);
}

/**
 * ValidatePodUpdate's spec rule. Upstream appends a go-cmp diff of core.PodSpec; the
 * engine prints a field-level diff in the same place (the first line is exact).
 */
export function validatePodSpecUpdate(pod: KObject, old: KObject): FieldError[] {
  const munged = deepCopy(pod.spec ?? {});
  const o = old.spec ?? {};
  (munged.containers ?? []).forEach((c: any, i: number) => {
    if (o.containers?.[i]) c.image = o.containers[i].image;
  });
  (munged.initContainers ?? []).forEach((c: any, i: number) => {
    if (o.initContainers?.[i]) c.image = o.initContainers[i].image;
  });
  if (
    munged.activeDeadlineSeconds !== undefined &&
    (o.activeDeadlineSeconds === undefined || munged.activeDeadlineSeconds <= o.activeDeadlineSeconds)
  ) {
    munged.activeDeadlineSeconds = o.activeDeadlineSeconds;
    if (munged.activeDeadlineSeconds === undefined) delete munged.activeDeadlineSeconds;
  }
  const oldTol: unknown[] = o.tolerations ?? [];
  const newTol: unknown[] = munged.tolerations ?? [];
  if (oldTol.every((t) => newTol.some((n) => deepEqual(n, t)))) {
    munged.tolerations = o.tolerations;
    if (munged.tolerations === undefined) delete munged.tolerations;
  }
  if (o.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = o.terminationGracePeriodSeconds;
  if (deepEqual(munged, o)) return [];
  const lines: string[] = [];
  diffLines(o, munged, '', lines);
  return [
    {
      type: 'Forbidden',
      field: 'spec',
      detail: `pod updates may not change fields other than ${UPDATABLE}\n  core.PodSpec{\n${lines.map((l) => `  ${l}`).join('\n')}\n  }\n`,
    },
  ];
}

/** The pods strategy. */
export const podStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj, ctx) {
    checkMetaTypes(obj);
    obj.spec = obj.spec && typeof obj.spec === 'object' ? obj.spec : {};
    checkPodSpecDecode(obj, obj.spec);
    defaultPod(obj);
    admitServiceAccount(obj, ctx);
    admitPriority(obj, ctx);
    admitDefaultTolerationSeconds(obj);
    obj.status = { phase: 'Pending', qosClass: podQOSClass(obj.spec) };
  },
  defaults(obj) {
    if (obj.spec && typeof obj.spec === 'object') {
      defaultPod(obj);
      if (obj.spec.serviceAccountName) obj.spec.serviceAccount = obj.spec.serviceAccountName;
    }
  },
  prepareForUpdate(obj, old) {
    checkMetaTypes(obj);
    checkPodSpecDecode(obj, obj.spec);
    // DefaultTolerationSeconds admits updates too: an update that drops the defaults gets them back
    if (obj.spec && typeof obj.spec === 'object') admitDefaultTolerationSeconds(obj);
    // fields admission set on create are kept when an update leaves them out
    if (obj.spec && old.spec) {
      for (const k of ['priority', 'preemptionPolicy', 'serviceAccountName', 'serviceAccount', 'nodeName']) {
        if (obj.spec[k] === undefined && old.spec[k] !== undefined) obj.spec[k] = old.spec[k];
      }
    }
  },
  validate(obj) {
    return [...validateObjectMeta(obj, true, nameIsDNSSubdomain), ...validatePodSpec(obj.spec, 'spec')];
  },
  validateUpdate(obj, old) {
    const errs = validatePodSpec(obj.spec, 'spec');
    if (errs.length) return [...validateObjectMeta(obj, true, nameIsDNSSubdomain), ...errs];
    return [...validateObjectMeta(obj, true, nameIsDNSSubdomain), ...validatePodSpecUpdate(obj, old)];
  },
  warnings(obj) {
    return podWarnings(obj.spec, 'spec');
  },
};

/** A few of pkg/api/pod/warnings.go's warnings (deprecated node labels, duplicate ports). */
export function podWarnings(spec: Record<string, any> | undefined, path: string): string[] {
  const out: string[] = [];
  if (!spec) return out;
  const deprecated: Record<string, string> = {
    'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
    'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
    'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
    'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  };
  for (const k of Object.keys(spec.nodeSelector ?? {})) if (deprecated[k]) out.push(`${path}.nodeSelector[${k}]: ${deprecated[k]}`);
  return out;
}
