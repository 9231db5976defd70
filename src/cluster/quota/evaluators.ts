/**
 * The quota evaluators of kube-apiserver's ResourceQuota admission and kube-controller-manager's
 * resourcequota controller, after pkg/quota/v1/evaluator/core (pods.go, services.go,
 * persistent_volume_claims.go, registry.go's legacy object-count aliases) and
 * pkg/quota/v1/generic (the object-count evaluator, `count/<resource>[.<group>]`).
 *
 * Each evaluator says which quota resource names it tracks (MatchingResources), whether an
 * operation can change usage (Handles), the usage of one object (Usage), whether a quota's
 * scopes cover the object (Matches) and the per-container constraints of compute quotas (Pods'
 * Constraints: `must specify limits.cpu for: app`).
 */
import type { KObject } from '../api/types';
import { add, amountOf, units, type Usage } from './resources';

type Obj = Record<string, any>;

/** One evaluator (quota.Evaluator). */
export interface QuotaEvaluator {
  /** Group-qualified resource ("pods", "deployments.apps"). */
  groupResource: string;
  /** Handles: whether the operation can change tracked usage. */
  handles(op: 'create' | 'update'): boolean;
  /** MatchingResources: the names in `input` this evaluator tracks. */
  matchingResources(input: string[]): string[];
  /** Usage of one object. `nowMs`: simulated now (a Pod past its deletion grace period is not charged). */
  usage(obj: KObject, nowMs: number): Usage;
  /** Matches: whether the quota's scopes and scopeSelector cover the object. */
  matches(quota: KObject, obj: KObject): boolean;
  /** Constraints: an error text when the object lacks what the quota's required names need. */
  constraints?(required: string[], obj: KObject): string | undefined;
}

const COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];
const POD_RESOURCES = [
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
];
/** validationSet of pods.go: the names whose quota makes every container state them. */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** An extended resource name (helper.IsExtendedResourceName): qualified, outside kubernetes.io, not requests.*. */
function isExtendedResourceName(n: string): boolean {
  if (n.startsWith('requests.') || !n.includes('/')) return false;
  const domain = n.slice(0, n.indexOf('/'));
  return domain !== 'kubernetes.io' && !domain.endsWith('.kubernetes.io');
}

/** isExtendedResourceNameForQuota: `requests.<extended resource>`. */
function isExtendedForQuota(n: string): boolean {
  return n.startsWith('requests.') && isExtendedResourceName(n.slice('requests.'.length));
}

/** podComputeUsageHelper: what one requests/limits pair charges. */
function computeUsage(requests: Usage, limits: Usage): Usage {
  const out: Usage = new Map([['pods', units(1)]]);
  for (const r of COMPUTE) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [k, v] of requests) {
    if (k.startsWith('hugepages-')) {
      out.set(k, v);
      out.set(`requests.${k}`, v);
    }
    if (isExtendedResourceName(k)) out.set(`requests.${k}`, v);
  }
  return out;
}

function listOf(v: unknown): Usage {
  const out: Usage = new Map();
  if (!v || typeof v !== 'object') return out;
  for (const [k, q] of Object.entries(v)) {
    const a = amountOf(q);
    if (a) out.set(k, a);
  }
  return out;
}

/** max per key (quota.Max). */
function max(a: Usage, b: Usage): Usage {
  const out: Usage = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    if (!cur || v.milli > cur.milli) out.set(k, v);
  }
  return out;
}

/**
 * resourcehelper.PodRequests / PodLimits: the sum over containers (and sidecars, restartable
 * init containers), the max with each regular init container plus the sidecars started before
 * it, plus the pod overhead.
 */
export function podResources(spec: Obj, which: 'requests' | 'limits'): Usage {
  const cs: Obj[] = Array.isArray(spec?.containers) ? spec.containers : [];
  const inits: Obj[] = Array.isArray(spec?.initContainers) ? spec.initContainers : [];
  let sum: Usage = new Map();
  for (const c of cs) sum = add(sum, listOf(c?.resources?.[which]));
  let sidecars: Usage = new Map();
  let initMax: Usage = new Map();
  for (const c of inits) {
    const r = listOf(c?.resources?.[which]);
    if (c?.restartPolicy === 'Always') {
      sidecars = add(sidecars, r);
      initMax = max(initMax, sidecars);
    } else initMax = max(initMax, add(r, sidecars));
  }
  let out = max(add(sum, sidecars), initMax);
  if (spec?.overhead) out = add(out, listOf(spec.overhead));
  return out;
}

/** QuotaV1Pod: not terminal and not stuck terminating past its grace period. */
export function quotaV1Pod(pod: KObject, nowMs: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const dt = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (dt && typeof grace === 'number' && nowMs > Date.parse(dt) + grace * 1000) return false;
  return true;
}

/** The pod's QoS is BestEffort: no requests or limits for any compute resource. */
function isBestEffort(spec: Obj): boolean {
  const cs: Obj[] = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
  return cs.every((c) => ['requests', 'limits'].every((w) => !['cpu', 'memory'].some((r) => c?.resources?.[w]?.[r] !== undefined)));
}

/** podMatchesScopeFunc for one scope selector requirement. */
function podMatchesScope(req: Obj, pod: KObject): boolean {
  const spec: Obj = pod.spec ?? {};
  switch (req.scopeName) {
    case 'Terminating':
      return typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating':
      return !(typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0);
    case 'BestEffort':
      return isBestEffort(spec);
    case 'NotBestEffort':
      return !isBestEffort(spec);
    case 'PriorityClass': {
      const pc = spec.priorityClassName ?? '';
      const vals: string[] = req.values ?? [];
      if (req.operator === 'Exists') return true;
      if (req.operator === 'DoesNotExist') return false;
      if (req.operator === 'In') return vals.includes(pc);
      if (req.operator === 'NotIn') return !vals.includes(pc);
      return false;
    }
    case 'CrossNamespacePodAffinity':
      return false;
    default:
      return false;
  }
}

/** getScopeSelectorsFromQuota: spec.scopes (as Exists) and spec.scopeSelector.matchExpressions. */
function scopeSelectors(quota: KObject): Obj[] {
  const out: Obj[] = [];
  for (const s of quota.spec?.scopes ?? []) out.push({ scopeName: s, operator: 'Exists' });
  for (const e of quota.spec?.scopeSelector?.matchExpressions ?? []) out.push(e);
  return out;
}

/** Objects other than Pods only match a quota without scopes. */
const noScopes = (quota: KObject): boolean => scopeSelectors(quota).length === 0;

/** The pods evaluator (pods.go). */
export const podEvaluator: QuotaEvaluator = {
  groupResource: 'pods',
  handles: () => true,
  matchingResources(input) {
    return input.filter(
      (n) => POD_RESOURCES.includes(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || isExtendedForQuota(n),
    );
  },
  usage(pod, nowMs) {
    const result: Usage = new Map([['count/pods', units(1)]]);
    if (!quotaV1Pod(pod, nowMs)) return result;
    return add(result, computeUsage(podResources(pod.spec, 'requests'), podResources(pod.spec, 'limits')));
  },
  matches(quota, pod) {
    return scopeSelectors(quota).every((s) => podMatchesScope(s, pod));
  },
  constraints(required, pod) {
    const requiredSet = required.filter((r) => VALIDATION_SET.has(r));
    const missing = new Map<string, Set<string>>();
    const spec: Obj = pod.spec ?? {};
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])] as Obj[]) {
      const have = computeUsage(listOf(c?.resources?.requests), listOf(c?.resources?.limits));
      for (const r of requiredSet) {
        if (have.has(r)) continue;
        if (!missing.has(r)) missing.set(r, new Set());
        missing.get(r)!.add(String(c?.name ?? ''));
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
};

/** The services evaluator (services.go). */
export const serviceEvaluator: QuotaEvaluator = {
  groupResource: 'services',
  handles: () => true,
  matchingResources: (input) =>
    input.filter((n) => ['services', 'count/services', 'services.nodeports', 'services.loadbalancers'].includes(n)),
  usage(svc) {
    const s: Obj = svc.spec ?? {};
    const ports: Obj[] = Array.isArray(s.ports) ? s.ports : [];
    const out: Usage = new Map([
      ['count/services', units(1)],
      ['services', units(1)],
    ]);
    if (s.type === 'NodePort') out.set('services.nodeports', units(ports.length));
    if (s.type === 'LoadBalancer') {
      const n = s.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p?.nodePort).length : ports.length;
      out.set('services.nodeports', units(n));
      out.set('services.loadbalancers', units(1));
    }
    return out;
  },
  matches: noScopes,
};

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

/** The persistentvolumeclaims evaluator (persistent_volume_claims.go). */
export const pvcEvaluator: QuotaEvaluator = {
  groupResource: 'persistentvolumeclaims',
  handles: () => true,
  matchingResources: (input) =>
    input.filter(
      (n) =>
        ['persistentvolumeclaims', 'count/persistentvolumeclaims', 'requests.storage'].includes(n) ||
        (n.includes(STORAGE_CLASS_SUFFIX) && (n.endsWith('/requests.storage') || n.endsWith('/persistentvolumeclaims'))),
    ),
  usage(pvc) {
    const out: Usage = new Map([
      ['count/persistentvolumeclaims', units(1)],
      ['persistentvolumeclaims', units(1)],
    ]);
    const cls: string = pvc.spec?.storageClassName ?? '';
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, units(1));
    const req = amountOf(pvc.spec?.resources?.requests?.storage);
    const allocated = amountOf(pvc.status?.allocatedResources?.storage);
    const storage = req && allocated && allocated.milli > req.milli ? allocated : req;
    if (storage) {
      out.set('requests.storage', storage);
      if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
  matches: noScopes,
};

/** registry.go legacyObjectCountAliases. */
const LEGACY_ALIASES = new Map([
  ['configmaps', 'configmaps'],
  ['resourcequotas', 'resourcequotas'],
  ['replicationcontrollers', 'replicationcontrollers'],
  ['secrets', 'secrets'],
]);

/** generic.NewObjectCountEvaluator: `count/<resource>[.<group>]` (and the legacy alias), charged on create. */
export function objectCountEvaluator(groupResource: string): QuotaEvaluator {
  const names = [`count/${groupResource}`, ...(LEGACY_ALIASES.has(groupResource) ? [LEGACY_ALIASES.get(groupResource)!] : [])];
  return {
    groupResource,
    handles: (op) => op === 'create',
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    usage: () => new Map(names.map((n) => [n, units(1)])),
    matches: noScopes,
  };
}

const CORE_EVALUATORS = new Map<string, QuotaEvaluator>([
  ['pods', podEvaluator],
  ['services', serviceEvaluator],
  ['persistentvolumeclaims', pvcEvaluator],
]);

/** The evaluator for a group-qualified resource (a core one, else an object counter). */
export function evaluatorFor(groupResource: string): QuotaEvaluator {
  return CORE_EVALUATORS.get(groupResource) ?? objectCountEvaluator(groupResource);
}

/**
 * The group-qualified resources a quota's hard names need counted: the core three for their
 * names, `count/<gr>` for any other, the legacy aliases.
 */
export function trackedGroupResources(hard: string[]): string[] {
  const out = new Set<string>();
  for (const [gr, ev] of CORE_EVALUATORS) if (ev.matchingResources(hard).length) out.add(gr);
  for (const n of hard) {
    if (n.startsWith('count/')) out.add(n.slice('count/'.length));
    if (LEGACY_ALIASES.has(n)) out.add(n);
  }
  return [...out];
}
