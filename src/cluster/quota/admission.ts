/**
 * The ResourceQuota admission plugin, after plugin/pkg/admission/resourcequota/admission.go and
 * k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (CheckRequest): a create or
 * update in a namespace with quotas is measured by the resource's evaluator
 * (quota/evaluators.ts) against every quota whose scopes match it, and refused with 403
 * Forbidden when
 * - a compute quota needs what a container does not state:
 *   `failed quota: <quota>: must specify limits.cpu for: app; requests.memory for: app`;
 * - the quota's usage is not known yet (its controller has not synced status.hard/used):
 *   `status unknown for quota: <quota>, resources: pods`;
 * - the request would exceed it:
 *   `exceeded quota: <quota>, requested: pods=1, used: pods=2, limited: pods=2`.
 * An admitted request is charged at once: the plugin writes the quota's status.used with the
 * new usage (UpdateQuotaStatus), so a burst of creates cannot all pass; the resourcequota
 * controller later recomputes from what is stored (controllers/resourcequota.ts). Dry runs
 * are checked but not charged. Subresource writes and cluster-scoped objects are not checked.
 */
import type { APIServer } from '../apiserver/apiserver';
import { users } from '../client/clientset';
import { newForbidden } from '../api/errors';
import { deepCopy, type KObject } from '../api/types';
import { groupResource, type ResourceInfo } from '../api/resources';
import { evaluatorFor } from './evaluators';
import { hasOwn } from '../api/safe-object';
import {
  add,
  lessThanOrEqual,
  mask,
  negativeNames,
  prettyPrint,
  removeZeros,
  subtractNonNegative,
  usageOf,
  usageToList,
  type Usage,
} from './resources';

/** Relay participant of the plugin's quota status writes. */
export const QUOTA_ADMISSION_PARTICIPANT = 'kube-apiserver';

/** hasUsageStats: every hard name among `interesting` has a used value. */
function hasUsageStats(quota: KObject, interesting: string[]): boolean {
  const hard = Object.keys(quota.status?.hard ?? {});
  return hard.every((h) => !interesting.includes(h) || hasOwn(quota.status?.used, h));
}

/**
 * CheckRequest: the quotas (copies) with their new status.used, or a 403 thrown.
 * @param quotas the namespace's ResourceQuotas as stored
 */
export function checkRequest(
  api: APIServer,
  info: ResourceInfo,
  op: 'create' | 'update',
  obj: KObject,
  old: KObject | undefined,
  quotas: KObject[],
): KObject[] {
  const gr = groupResource(info);
  const evaluator = evaluatorFor(gr);
  if (!evaluator.handles(op)) return [];
  const name = obj.metadata.name || obj.metadata.generateName || 'Unknown';
  const interesting: number[] = [];
  for (let i = 0; i < quotas.length; i++) {
    const q = quotas[i];
    if (!evaluator.matches(q, obj)) continue;
    const restricted = evaluator.matchingResources(Object.keys(q.status?.hard ?? {}));
    const err = evaluator.constraints?.(restricted, obj);
    if (err) throw newForbidden(gr, name, `failed quota: ${q.metadata.name}: ${err}`);
    if (!hasUsageStats(q, restricted))
      throw newForbidden(gr, name, `status unknown for quota: ${q.metadata.name}, resources: ${[...restricted].sort().join(',')}`);
    interesting.push(i);
  }
  if (interesting.length === 0) return [];
  const now = api.clock.now();
  const inputUsage = evaluator.usage(obj, now);
  const negative = negativeNames(inputUsage);
  if (negative.length) throw newForbidden(gr, name, `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
  const deltas = new Map<number, Usage>();
  for (const i of interesting) deltas.set(i, inputUsage);
  if (op === 'update' && old?.metadata.resourceVersion) {
    const delta = subtractNonNegative(inputUsage, evaluator.usage(old, now));
    for (const i of interesting) if (evaluator.matches(quotas[i], old)) deltas.set(i, delta);
  }
  for (const [i, d] of deltas) {
    const nz = removeZeros(d);
    if (nz.size) deltas.set(i, nz);
    else deltas.delete(i);
  }
  const out: KObject[] = [];
  for (const i of interesting) {
    const delta = deltas.get(i);
    if (!delta) continue;
    const q = quotas[i];
    const hard = usageOf(q.status?.hard);
    const used = usageOf(q.status?.used);
    const requested = mask(delta, hard.keys());
    const newUsage = add(used, requested);
    const { allowed, exceeded } = lessThanOrEqual(mask(newUsage, requested.keys()), hard);
    if (!allowed) {
      throw newForbidden(
        gr,
        name,
        `exceeded quota: ${q.metadata.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
      );
    }
    if (!requested.size) continue;
    const copy = deepCopy(q);
    copy.status = { ...copy.status, used: usageToList(newUsage) };
    out.push(copy);
  }
  return out;
}

/** Wires the plugin into an apiserver's validating admission. Call once, after construction. */
export function installResourceQuotaAdmission(api: APIServer): void {
  const rqInfo = api.registry.forResource('', 'resourcequotas')!;
  const writer = users.system(QUOTA_ADMISSION_PARTICIPANT);
  api.validatingAdmission.push((verb, info, obj, old, opts) => {
    if (!info.namespaced || !obj.metadata.namespace) return;
    const ns = obj.metadata.namespace;
    const quotas = api.store.list('resourcequotas', ns).map((e) => e.obj);
    if (quotas.length === 0) return;
    const charged = checkRequest(api, info, verb, obj, old, quotas);
    if (opts?.dryRun) return;
    for (const q of charged) {
      api.update(writer, rqInfo, ns, q, {
        subresource: 'status',
        summary: `ResourceQuota admission: charge ${groupResource(info)} ${obj.metadata.name} to quota ${ns}/${q.metadata.name}`,
      });
    }
  });
}
