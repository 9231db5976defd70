/**
 * pods/eviction (POST a policy/v1 Eviction), as pkg/registry/core/pod/storage/eviction.go
 * (EvictionREST.Create) of v1.33: a Pod that is not Running-and-counted (Pending, Succeeded,
 * Failed, or already terminating) is deleted at once (canIgnorePDB). Two budgets selecting the
 * Pod → 500 "This pod has more than one PodDisruptionBudget, which the eviction subresource
 * does not support.". With one budget:
 * - an unready Pod is deleted without touching the budget when its
 *   unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget, the default) when
 *   status.currentHealthy >= status.desiredHealthy > 0 — with the Pod's resourceVersion as a
 *   precondition;
 * - otherwise checkAndDecrement reads the budget's status, kept by the disruption controller
 *   (controllers/disruption.ts): observedGeneration behind metadata.generation → 429 "The
 *   disruption budget NAME is still being processed by the server." (retry after 10 s);
 *   disruptionsAllowed 0 → 429 "The disruption budget NAME needs D healthy pods and has C
 *   currently"; else disruptionsAllowed is decremented (the DisruptionAllowed condition
 *   recomputed when it reaches 0), the Pod is added to status.disruptedPods with the current
 *   time, and the status is written before the Pod is deleted (dry-run: nothing written).
 */
import type { APIServer, RequestUser } from './apiserver';
import type { ResourceInfo } from '../api/resources';
import { nodeRestriction } from './auth/node-authorizer';
import { StatusError, newBadRequest, newConflict, newForbidden, newNotFound, type Status } from '../api/errors';
import { fromLabelSelector, matches } from '../api/labels';
import { deepCopy, type KObject } from '../api/types';
import { updateDisruptionAllowedCondition } from '../api/poddisruptionbudget';

/** MaxDisruptedPodSize: more unconfirmed evictions than this are refused. */
export const MaxDisruptedPodSize = 2000;
const VIOLATES = "Cannot evict pod as it would violate the pod's disruption budget.";

/** The body of POST pods/{name}/eviction (policy/v1 Eviction). */
export interface Eviction {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  deleteOptions?: { gracePeriodSeconds?: number; dryRun?: string[]; preconditions?: { uid?: string; resourceVersion?: string } };
}

function tooManyRequests(message: string, retryAfterSeconds: number, cause: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'TooManyRequests' as Status['reason'],
    details: { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds ? { retryAfterSeconds } : {}) },
    code: 429,
  });
}

/** podutil.IsPodReady: the Ready condition is True. */
function isReady(p: KObject): boolean {
  return (p.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
}

/**
 * checkAndDecrement: refuses (429/403) or takes one disruption from the budget and records the
 * Pod in status.disruptedPods, writing the status (not on a dry run).
 */
function checkAndDecrement(api: APIServer, user: RequestUser, podName: string, pdb: KObject, dryRun: boolean): void {
  const st = pdb.status ?? {};
  const name = pdb.metadata.name;
  if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0))
    throw tooManyRequests(VIOLATES, 10, `The disruption budget ${name} is still being processed by the server.`);
  const allowed: number = st.disruptionsAllowed ?? 0;
  if (allowed < 0) throw newForbidden('poddisruptionbudget.policy', name, 'pdb disruptions allowed is negative');
  if (Object.keys(st.disruptedPods ?? {}).length > MaxDisruptedPodSize)
    throw newForbidden(
      'poddisruptionbudget.policy',
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  if (allowed === 0)
    throw tooManyRequests(
      VIOLATES,
      0,
      `The disruption budget ${name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently`,
    );
  const next = deepCopy(pdb);
  next.status = { ...next.status, disruptionsAllowed: allowed - 1 };
  if (allowed - 1 === 0) updateDisruptionAllowedCondition(next, api.nowRFC3339());
  if (dryRun) return;
  next.status.disruptedPods = { ...next.status.disruptedPods, [podName]: api.nowRFC3339() };
  const info = api.registry.forResource('policy', 'poddisruptionbudgets')!;
  api.update(user, info, pdb.metadata.namespace ?? '', next, {
    subresource: 'status',
    summary: `PodDisruptionBudget ${pdb.metadata.namespace}/${name}: disruptionsAllowed ${allowed} → ${allowed - 1}, disruptedPods += ${podName}`,
  });
}

/**
 * Evicts a Pod. Returns the metav1.Status kube-apiserver answers (Success, 201).
 * @throws StatusError 400 (name mismatch), 404, 429 (budget), 500 (two budgets).
 */
export function evictPod(api: APIServer, user: RequestUser, namespace: string, name: string, body: Eviction): Status {
  if (body.metadata?.name && body.metadata.name !== name) throw newBadRequest('name in URL does not match name in Eviction object');
  const info = api.registry.forResource('', 'pods')!;
  api.authorizeRequest(user, 'create', info, namespace, name, 'eviction');
  const pod = api.getObject('pods', namespace, name);
  if (!pod) throw newNotFound('pods', name);
  const nodeErr = api.authorizer ? nodeRestriction(user, 'create', 'pods', 'eviction', name, undefined, pod) : null;
  if (nodeErr) throw nodeErr;
  return api.asAuthorized(() => evictAuthorized(api, user, namespace, name, body, info, pod));
}

function evictAuthorized(
  api: APIServer,
  user: RequestUser,
  namespace: string,
  name: string,
  body: Eviction,
  info: ResourceInfo,
  pod: KObject,
): Status {
  const dryRun = !!body.deleteOptions?.dryRun?.includes('All');
  // addConditionAndDeletePod: DisruptionTarget=True "EvictionByEvictionAPI" on the status (the
  // UID/resourceVersion preconditions checked against the latest Pod first), then the delete
  // with the resourceVersion precondition moved to the one the condition update produced
  const del = (preconditions = body.deleteOptions?.preconditions) => {
    if (!dryRun) {
      const cur = deepCopy(api.getObject('pods', namespace, name) ?? pod);
      if (preconditions?.uid && preconditions.uid !== cur.metadata.uid) {
        throw newConflict(
          'Pod',
          name,
          `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${cur.metadata.uid}). The object might have been deleted and then recreated`,
        );
      }
      if (preconditions?.resourceVersion && preconditions.resourceVersion !== cur.metadata.resourceVersion) {
        throw newConflict(
          'Pod',
          name,
          `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${cur.metadata.resourceVersion}). The object might have been modified`,
        );
      }
      const conds: { type: string; status: string; lastTransitionTime?: string }[] = cur.status?.conditions ?? [];
      const prev = conds.find((c) => c.type === 'DisruptionTarget');
      const cond = {
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : api.nowRFC3339(),
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
      };
      cur.status = { ...cur.status, conditions: prev ? conds.map((c) => (c === prev ? cond : c)) : [...conds, cond] };
      const updated = api.update(user, info, namespace, cur, {
        subresource: 'status',
        summary: `Pod ${namespace}/${name}: DisruptionTarget (EvictionByEvictionAPI)`,
      });
      if (preconditions?.resourceVersion) preconditions = { ...preconditions, resourceVersion: updated.object.metadata.resourceVersion };
    }
    api.delete(user, info, namespace, name, {
      gracePeriodSeconds: body.deleteOptions?.gracePeriodSeconds,
      preconditions,
      dryRun,
      summary: `evict Pod ${namespace}/${name}`,
    });
  };
  const phase = pod.status?.phase;
  const success = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as Status;
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp) {
    del();
    return success;
  }
  const budgets = api.listObjects('poddisruptionbudgets.policy', namespace).filter((b) => {
    try {
      return matches(fromLabelSelector(b.spec?.selector), pod.metadata.labels);
    } catch {
      return false; // an invalid selector matches no Pod
    }
  });
  if (budgets.length > 1) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      reason: 'InternalError',
      code: 500,
    });
  }
  if (budgets.length === 1) {
    const b = budgets[0];
    const st = b.status ?? {};
    const unhealthyOk =
      !isReady(pod) &&
      (b.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' ||
        ((st.currentHealthy ?? 0) >= (st.desiredHealthy ?? 0) && (st.desiredHealthy ?? 0) > 0));
    if (unhealthyOk) {
      // the Pod must not have become ready since: its resourceVersion as a precondition
      const rv = body.deleteOptions?.preconditions?.resourceVersion;
      try {
        del({ ...body.deleteOptions?.preconditions, resourceVersion: rv ?? pod.metadata.resourceVersion });
      } catch (err) {
        if (err instanceof StatusError && err.status.code === 409 && !rv)
          throw tooManyRequests(VIOLATES, 10, `The disruption budget ${b.metadata.name} is still being processed by the server.`);
        throw err;
      }
      return success;
    }
    checkAndDecrement(api, user, name, b, dryRun);
  }
  del();
  return success;
}
