/**
 * pods/eviction (POST a policy/v1 Eviction), as pkg/registry/core/pod/storage/eviction.go
 * (EvictionREST.Create) of v1.33: a Pod that is not Running-and-counted (Pending, Succeeded,
 * Failed, or already terminating) is deleted at once; otherwise the one PodDisruptionBudget
 * selecting it must allow a disruption, or the answer is 429 TooManyRequests "Cannot evict
 * pod as it would violate the pod's disruption budget." with the DisruptionBudget cause.
 * Two budgets → 500 "This pod has more than one PodDisruptionBudget, which the eviction
 * subresource does not support.".
 *
 * kube-relay runs no disruption controller, so a budget without status (observedGeneration)
 * is evaluated here from the Pods it selects, as the disruption controller would compute
 * currentHealthy / desiredHealthy (pkg/controller/disruption/disruption.go); the number of
 * expected Pods is the number selected.
 */
import type { APIServer, RequestUser } from './apiserver';
import { StatusError, newBadRequest, newNotFound, type Status } from '../api/errors';
import { fromLabelSelector, matches } from '../api/labels';
import { deepCopy, type KObject } from '../api/types';

/** The body of POST pods/{name}/eviction (policy/v1 Eviction). */
export interface Eviction {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  deleteOptions?: { gracePeriodSeconds?: number; dryRun?: string[]; preconditions?: { uid?: string; resourceVersion?: string } };
}

function tooManyRequests(message: string, retryAfterSeconds: number, cause: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message,
    reason: 'TooManyRequests' as Status['reason'],
    details: { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds ? { retryAfterSeconds } : {}) },
    code: 429,
  });
}

function isReady(p: KObject): boolean {
  return p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
}

/** intstr.GetScaledValueFromIntOrPercent, rounding up. */
function scaled(v: number | string, total: number): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  return m ? Math.ceil((Number(m[1]) * total) / 100) : Number(v) || 0;
}

/** currentHealthy / desiredHealthy / disruptionsAllowed of a budget, from its Pods. */
export function budgetStatus(pdb: KObject, pods: KObject[]): { currentHealthy: number; desiredHealthy: number; disruptionsAllowed: number } {
  if (pdb.status?.observedGeneration !== undefined && pdb.status?.disruptionsAllowed !== undefined) {
    return { currentHealthy: pdb.status.currentHealthy ?? 0, desiredHealthy: pdb.status.desiredHealthy ?? 0, disruptionsAllowed: pdb.status.disruptionsAllowed };
  }
  const sel = fromLabelSelector(pdb.spec?.selector);
  const selected = pods.filter((p) => matches(sel, p.metadata.labels) && !p.metadata.deletionTimestamp);
  const expected = selected.length;
  const currentHealthy = selected.filter(isReady).length;
  let desiredHealthy = 0;
  if (pdb.spec?.minAvailable !== undefined) desiredHealthy = scaled(pdb.spec.minAvailable, expected);
  else if (pdb.spec?.maxUnavailable !== undefined) desiredHealthy = Math.max(0, expected - scaled(pdb.spec.maxUnavailable, expected));
  return { currentHealthy, desiredHealthy, disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy) };
}

/**
 * Evicts a Pod. Returns the metav1.Status kube-apiserver answers (Success, 201).
 * @throws StatusError 400 (name mismatch), 404, 429 (budget), 500 (two budgets).
 */
export function evictPod(api: APIServer, user: RequestUser, namespace: string, name: string, body: Eviction): Status {
  if (body.metadata?.name && body.metadata.name !== name) throw newBadRequest('name in URL does not match name in Eviction object');
  const info = api.registry.forResource('', 'pods')!;
  const pod = api.getObject('pods', namespace, name);
  if (!pod) throw newNotFound('pods', name);
  const dryRun = !!body.deleteOptions?.dryRun?.includes('All');
  // addConditionAndDeletePod: DisruptionTarget=True "EvictionByEvictionAPI" on the status, then the delete
  const del = () => {
    if (!dryRun) {
      const cur = deepCopy(api.getObject('pods', namespace, name) ?? pod);
      const conds: { type: string; status: string; lastTransitionTime?: string }[] = cur.status?.conditions ?? [];
      const prev = conds.find((c) => c.type === 'DisruptionTarget');
      const cond = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : api.nowRFC3339(), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
      cur.status = { ...cur.status, conditions: prev ? conds.map((c) => (c === prev ? cond : c)) : [...conds, cond] };
      api.update(user, info, namespace, cur, { subresource: 'status', summary: `Pod ${namespace}/${name}: DisruptionTarget (EvictionByEvictionAPI)` });
    }
    api.delete(user, info, namespace, name, { gracePeriodSeconds: body.deleteOptions?.gracePeriodSeconds, preconditions: body.deleteOptions?.preconditions, dryRun, summary: `evict Pod ${namespace}/${name}` });
  };
  const phase = pod.status?.phase;
  const success = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as Status;
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp) {
    del();
    return success;
  }
  const pods = api.listObjects('pods', namespace);
  const budgets = api.listObjects('poddisruptionbudgets.policy', namespace).filter((b) => matches(fromLabelSelector(b.spec?.selector), pod.metadata.labels));
  if (budgets.length > 1) {
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', reason: 'InternalError', code: 500 });
  }
  if (budgets.length === 1) {
    const b = budgets[0];
    if (b.status?.observedGeneration !== undefined && b.status.observedGeneration < (b.metadata.generation ?? 0)) {
      throw tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10, `The disruption budget ${b.metadata.name} is still being processed by the server.`);
    }
    const s = budgetStatus(b, pods);
    if (s.disruptionsAllowed <= 0) {
      throw tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0, `The disruption budget ${b.metadata.name} needs ${s.desiredHealthy} healthy pods and has ${s.currentHealthy} currently`);
    }
  }
  del();
  return success;
}
