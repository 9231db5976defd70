/**
 * Pure ReplicaSet status helpers, after kubernetes/kubernetes
 * pkg/controller/replicaset/replica_set_utils.go: calculateStatus, updateReplicaSetStatus and
 * the ReplicaFailure condition helpers. Status objects follow the JSON of apps/v1
 * ReplicaSetStatus: `replicas` is always present, the other counters are omitted when 0
 * (omitempty), as is an empty `conditions`.
 */
import type { ResourceClient } from '../client/clientset';
import { deepCopy, deepEqual } from '../api/types';
import type { Pod, ReplicaSet } from '../api/objects';
import type * as apps from 'kubernetes-types/apps/v1';
import { matches, type Selector } from '../api/labels';
import { errorMessage, isPodAvailable, isPodReady } from './controller-utils';

/** A ReplicaSetCondition (apps/v1; `status` is "True", "False" or "Unknown"). */
export type ReplicaSetCondition = apps.ReplicaSetCondition;

/** apps/v1 ReplicaSetStatus. */
export type ReplicaSetStatus = apps.ReplicaSetStatus;

/** apps.ReplicaSetReplicaFailure. */
export const ReplicaSetReplicaFailure = 'ReplicaFailure';

/** statusUpdateRetries: one extra attempt after a failed status update. */
export const statusUpdateRetries = 1;

/** The status of an RS read with defaults (all counters numeric). */
export function readStatus(rs: ReplicaSet): Required<Omit<ReplicaSetStatus, 'conditions'>> & { conditions: ReplicaSetCondition[] } {
  const s: Partial<ReplicaSetStatus> = rs.status ?? {};
  return {
    replicas: s.replicas ?? 0,
    fullyLabeledReplicas: s.fullyLabeledReplicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    observedGeneration: s.observedGeneration ?? 0,
    conditions: s.conditions ?? [],
  };
}

/** Builds a status object with omitempty applied. */
export function normalizeStatus(s: {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}): ReplicaSetStatus {
  const out: ReplicaSetStatus = { replicas: s.replicas };
  if (s.fullyLabeledReplicas) out.fullyLabeledReplicas = s.fullyLabeledReplicas;
  if (s.readyReplicas) out.readyReplicas = s.readyReplicas;
  if (s.availableReplicas) out.availableReplicas = s.availableReplicas;
  if (s.observedGeneration) out.observedGeneration = s.observedGeneration;
  if (s.conditions && s.conditions.length) out.conditions = s.conditions;
  return out;
}

/** NewReplicaSetCondition, stamped with `nowRFC3339`. */
export function newReplicaSetCondition(
  type: string,
  status: ReplicaSetCondition['status'],
  reason: string,
  message: string,
  nowRFC3339: string,
): ReplicaSetCondition {
  return { type, status, lastTransitionTime: nowRFC3339, reason, message };
}

/** GetCondition. */
export function getCondition(conditions: ReplicaSetCondition[] | undefined, type: string): ReplicaSetCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * SetCondition: replaces the condition of that type, keeping lastTransitionTime when the status
 * did not change; a condition equal in status and reason is left alone.
 */
export function setCondition(conditions: ReplicaSetCondition[], cond: ReplicaSetCondition): ReplicaSetCondition[] {
  const cur = getCondition(conditions, cond.type);
  if (cur && cur.status === cond.status && cur.reason === cond.reason) return conditions;
  const next = { ...cond };
  if (cur && cur.status === cond.status) next.lastTransitionTime = cur.lastTransitionTime;
  return [...conditions.filter((c) => c.type !== cond.type), next];
}

/** RemoveCondition. */
export function removeCondition(conditions: ReplicaSetCondition[], type: string): ReplicaSetCondition[] {
  return conditions.filter((c) => c.type !== type);
}

/**
 * calculateStatus: counts the active pods the RS owns — all (`replicas`), those whose labels
 * match the template's (`fullyLabeledReplicas`), Ready ones, and Ready for minReadySeconds
 * (`availableReplicas`) — and sets/removes the ReplicaFailure condition
 * (reason FailedCreate/FailedDelete, message = the manageReplicas error).
 * `observedGeneration` is carried over; {@link updateReplicaSetStatus} sets it.
 * @param nowMs simulated now, for availability @param nowRFC3339 for condition times
 */
export function calculateStatus(
  rs: ReplicaSet,
  filteredPods: Pod[],
  manageReplicasErr: unknown,
  nowMs: number,
  nowRFC3339: string,
): ReplicaSetStatus {
  const templateLabels: Record<string, string> = rs.spec?.template?.metadata?.labels ?? {};
  const templateSel: Selector = {
    requirements: Object.keys(templateLabels).map((k) => ({ key: k, op: '=' as const, values: [templateLabels[k]] })),
  };
  const minReadySeconds: number = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of filteredPods) {
    if (matches(templateSel, pod.metadata.labels)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, nowMs)) available++;
    }
  }
  return calculateStatusFromCounts(rs, { replicas: filteredPods.length, fullyLabeled, ready, available }, manageReplicasErr, nowRFC3339);
}

/**
 * The second half of {@link calculateStatus}, from the counts over the filtered pods (the
 * sync's fast path counts them incrementally, see replicaset-pods.ts).
 */
export function calculateStatusFromCounts(
  rs: ReplicaSet,
  counts: { replicas: number; fullyLabeled: number; ready: number; available: number },
  manageReplicasErr: unknown,
  nowRFC3339: string,
): ReplicaSetStatus {
  const prev = readStatus(rs);
  let conditions = deepCopy(prev.conditions);
  const failureCond = getCondition(conditions, ReplicaSetReplicaFailure);
  if (manageReplicasErr !== undefined && manageReplicasErr !== null && !failureCond) {
    const diff = counts.replicas - (rs.spec?.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    conditions = setCondition(
      conditions,
      newReplicaSetCondition(ReplicaSetReplicaFailure, 'True', reason, errorMessage(manageReplicasErr), nowRFC3339),
    );
  } else if ((manageReplicasErr === undefined || manageReplicasErr === null) && failureCond) {
    conditions = removeCondition(conditions, ReplicaSetReplicaFailure);
  }
  return normalizeStatus({
    replicas: counts.replicas,
    fullyLabeledReplicas: counts.fullyLabeled,
    readyReplicas: counts.ready,
    availableReplicas: counts.available,
    observedGeneration: prev.observedGeneration,
    conditions,
  });
}

/**
 * updateReplicaSetStatus: writes `newStatus` (with observedGeneration = generation) through the
 * status subresource unless nothing changed; on failure re-reads and retries once.
 * `kind` names the object in the relay summary (ReplicationController through replication.ts's adapters).
 * @returns the stored RS. @throws StatusError from the last attempt.
 */
export function updateReplicaSetStatus(
  rc: Pick<ResourceClient<ReplicaSet>, 'get' | 'updateStatus'>,
  rs: ReplicaSet,
  newStatus: ReplicaSetStatus,
  kind = 'ReplicaSet',
): ReplicaSet {
  const cur = readStatus(rs);
  const gen = rs.metadata.generation ?? 0;
  if (
    cur.replicas === newStatus.replicas &&
    cur.fullyLabeledReplicas === (newStatus.fullyLabeledReplicas ?? 0) &&
    cur.readyReplicas === (newStatus.readyReplicas ?? 0) &&
    cur.availableReplicas === (newStatus.availableReplicas ?? 0) &&
    gen === cur.observedGeneration &&
    deepEqual(cur.conditions, newStatus.conditions ?? [])
  ) {
    return rs;
  }
  const status = normalizeStatus({ ...newStatus, observedGeneration: gen });
  let target = rs;
  for (let i = 0; ; i++) {
    const next = { ...target, status };
    try {
      return rc.updateStatus(next, {
        summary: `update status ${kind} ${rs.metadata.namespace}/${rs.metadata.name}: replicas ${status.replicas}, ready ${status.readyReplicas ?? 0}, available ${status.availableReplicas ?? 0}`,
      });
    } catch (err) {
      if (i >= statusUpdateRetries) throw err;
      target = rc.get(rs.metadata.namespace ?? '', rs.metadata.name, { quiet: true });
    }
  }
}
