/**
 * PodDisruptionBudget helpers shared by the disruption controller and the eviction subresource,
 * after k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go (UpdateDisruptionAllowedCondition,
 * ConditionsAreUpToDate) and k8s.io/apimachinery/pkg/api/meta/conditions.go (SetStatusCondition).
 * The condition type and reasons are those of k8s.io/api/policy/v1.
 */
import type { KObject } from './types';

/** policy/v1 DisruptionAllowedCondition. */
export const DisruptionAllowedCondition = 'DisruptionAllowed';
/** policy/v1 SyncFailedReason: the controller could not compute the status. */
export const SyncFailedReason = 'SyncFailed';
/** policy/v1 SufficientPodsReason. */
export const SufficientPodsReason = 'SufficientPods';
/** policy/v1 InsufficientPodsReason. */
export const InsufficientPodsReason = 'InsufficientPods';

/** metav1.Condition in its JSON field order (message has no omitempty); `status` is "True", "False" or "Unknown". */
export interface MetaCondition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/**
 * meta.SetStatusCondition: adds the condition (lastTransitionTime = now) or updates the existing
 * one of its type in place, moving lastTransitionTime only when the status changes.
 * @param now RFC 3339 time of the simulated clock
 */
export function setStatusCondition(
  conditions: MetaCondition[],
  c: Omit<MetaCondition, 'lastTransitionTime'>,
  now: string,
): MetaCondition[] {
  const i = conditions.findIndex((x) => x.type === c.type);
  if (i < 0) return [...conditions, order({ ...c, lastTransitionTime: now })];
  const prev = conditions[i];
  const next = order({ ...c, lastTransitionTime: prev.status !== c.status ? now : prev.lastTransitionTime });
  return conditions.map((x, j) => (j === i ? next : x));
}

function order(c: MetaCondition): MetaCondition {
  const o: MetaCondition = { type: c.type, status: c.status } as MetaCondition;
  if (c.observedGeneration) o.observedGeneration = c.observedGeneration;
  o.lastTransitionTime = c.lastTransitionTime;
  o.reason = c.reason;
  o.message = c.message;
  return o;
}

/**
 * UpdateDisruptionAllowedCondition: DisruptionAllowed True/SufficientPods when
 * status.disruptionsAllowed > 0, else False/InsufficientPods; message "", observedGeneration
 * of the status. Mutates `pdb.status.conditions`.
 */
export function updateDisruptionAllowedCondition(pdb: KObject, now: string): void {
  const st = (pdb.status ??= {});
  const allowed = (st.disruptionsAllowed ?? 0) > 0;
  st.conditions = setStatusCondition(
    st.conditions ?? [],
    {
      type: DisruptionAllowedCondition,
      status: allowed ? 'True' : 'False',
      observedGeneration: st.observedGeneration,
      reason: allowed ? SufficientPodsReason : InsufficientPodsReason,
      message: '',
    },
    now,
  );
}

/** ConditionsAreUpToDate: the DisruptionAllowed condition matches status.disruptionsAllowed of the current generation. */
export function conditionsAreUpToDate(pdb: KObject): boolean {
  const st = pdb.status ?? {};
  const cond = (st.conditions ?? []).find((c: MetaCondition) => c.type === DisruptionAllowedCondition);
  if (!cond) return false;
  if ((st.observedGeneration ?? 0) !== (pdb.metadata.generation ?? 0)) return false;
  if ((st.disruptionsAllowed ?? 0) > 0) return cond.status === 'True' && cond.reason === SufficientPodsReason;
  return cond.status === 'False' && cond.reason === InsufficientPodsReason;
}
