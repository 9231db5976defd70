/**
 * Shared predicates of the scheduler plugins: taint/toleration matching and node selector
 * (nodeSelector + required node affinity) matching.
 *
 * Mirrors k8s.io/api/core/v1 toleration.go (Toleration.ToleratesTaint),
 * k8s.io/component-helpers/scheduling/corev1 (FindMatchingUntoleratedTaint,
 * nodeaffinity.GetRequiredNodeAffinity / NodeSelector.Match: terms ORed, expressions and
 * fields ANDed; In, NotIn, Exists, DoesNotExist, Gt, Lt) and
 * pkg/scheduler/framework/plugins/helper/taint.go (DoNotScheduleTaintsFilterFunc).
 */
import type { KObject } from '../../api/types';

import { tolerationsTolerateTaint, type Taint, type Toleration } from '../../api/taints';

export { toleratesTaint, tolerationsTolerateTaint, type Taint, type Toleration } from '../../api/taints';

/** FindMatchingUntoleratedTaint: the first taint passing `filter` that no toleration tolerates. */
export function findUntoleratedTaint(
  taints: Taint[] | undefined,
  tols: Toleration[] | undefined,
  filter: (t: Taint) => boolean,
): Taint | undefined {
  for (const t of taints ?? []) {
    if (!filter(t)) continue;
    if (!tolerationsTolerateTaint(tols, t)) return t;
  }
  return undefined;
}

/** helper.DoNotScheduleTaintsFilterFunc: NoSchedule and NoExecute taints. */
export const doNotScheduleTaints = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const has = value !== undefined;
  const vals = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && vals.includes(value!);
    case 'NotIn':
      return !has || !vals.includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || vals.length !== 1) return false;
      const a = Number(value);
      const b = Number(vals[0]);
      if (!Number.isInteger(a) || !Number.isInteger(b)) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** One NodeSelectorTerm: an empty term matches nothing; otherwise all requirements hold. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: KObject): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  for (const r of exprs)
    if (!requirementMatches(r, Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined)) return false;
  for (const r of fields) if (!requirementMatches(r, r.key === 'metadata.name' ? node.metadata.name : undefined)) return false;
  return true;
}

/** NodeSelector.Match: any term matches. */
export function nodeSelectorMatches(terms: NodeSelectorTerm[] | undefined, node: KObject): boolean {
  return (terms ?? []).some((t) => nodeSelectorTermMatches(t, node));
}

/**
 * GetRequiredNodeAffinity(pod).Match(node): spec.nodeSelector (every label equal) and
 * requiredDuringSchedulingIgnoredDuringExecution (when set).
 */
export function podMatchesNodeSelectorAndAffinity(pod: KObject, node: KObject): boolean {
  const sel: Record<string, string> | undefined = pod.spec?.nodeSelector;
  if (sel) {
    const labels = node.metadata.labels ?? {};
    for (const [k, v] of Object.entries(sel)) if (labels[k] !== v) return false;
  }
  const req = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (req) return nodeSelectorMatches(req.nodeSelectorTerms, node);
  return true;
}
