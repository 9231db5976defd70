/**
 * The inspector's RBAC tab, as data (pure; rbac-view.test.ts): who a Role/ClusterRole grants
 * what, and what a RoleBinding/ClusterRoleBinding grants whom. Bindings are matched to roles
 * the way the RBAC authorizer resolves them (plugin/pkg/auth/authorizer/rbac/rbac.go and
 * pkg/registry/rbac/validation/rule.go GetRoleReferenceRules): a RoleBinding's `Role` is the
 * Role of the binding's own namespace, a `ClusterRole` is cluster-scoped for RoleBindings and
 * ClusterRoleBindings alike.
 */
import type { KObject, StoredObject } from '../store/types';

/** The RBAC kinds the tab is shown for. */
export const RBAC_KINDS: ReadonlySet<string> = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** One PolicyRule (rbac/v1), every list as written (empty: not set). */
export interface RuleRow {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

/** One Subject of a binding; `namespace` empty when not set. */
export interface SubjectRow {
  kind: string;
  name: string;
  namespace: string;
}

/** A binding that refers to a role, with its subjects; `key` is its store key (for a link). */
export interface BindingRow {
  key: string;
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  namespace: string;
  name: string;
  subjects: SubjectRow[];
}

/** An aggregationRule's selectors, each as `key=value` / `key In (a, b)` requirements. */
export type AggregationRow = string[];

export type RbacView =
  | { kind: 'role'; rules: RuleRow[]; aggregation: AggregationRow[] | null; bindings: BindingRow[] }
  | {
      kind: 'binding';
      subjects: SubjectRow[];
      roleRef: { kind: string; name: string; key: string };
      /** the role's rules; null when it does not exist (RBAC then grants nothing) */
      rules: RuleRow[] | null;
      aggregation: AggregationRow[] | null;
    };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);

function rulesOf(role: KObject): RuleRow[] {
  const rules = (role as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) return [];
  return rules.map((r: Record<string, unknown>) => ({
    verbs: strings(r?.verbs),
    apiGroups: strings(r?.apiGroups),
    resources: strings(r?.resources),
    resourceNames: strings(r?.resourceNames),
    nonResourceURLs: strings(r?.nonResourceURLs),
  }));
}

/** The label selector requirements of metav1.LabelSelector, as kubectl describe words them. */
function selectorText(sel: Record<string, unknown> | undefined): string[] {
  const out: string[] = [];
  const labels = (sel?.matchLabels ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(labels).sort()) out.push(`${k}=${String(labels[k])}`);
  const exprs = Array.isArray(sel?.matchExpressions) ? (sel.matchExpressions as Record<string, unknown>[]) : [];
  for (const e of exprs) {
    const values = strings(e?.values);
    out.push(`${String(e?.key)} ${String(e?.operator)}${values.length ? ` (${values.join(', ')})` : ''}`);
  }
  return out;
}

function aggregationOf(role: KObject | undefined): AggregationRow[] | null {
  const rule = (role as { aggregationRule?: { clusterRoleSelectors?: unknown } } | undefined)?.aggregationRule;
  if (!rule) return null;
  const sels = Array.isArray(rule.clusterRoleSelectors) ? (rule.clusterRoleSelectors as Record<string, unknown>[]) : [];
  return sels.map((s) => selectorText(s));
}

function subjectsOf(binding: KObject): SubjectRow[] {
  const subjects = (binding as { subjects?: unknown }).subjects;
  if (!Array.isArray(subjects)) return [];
  return subjects.map((s: Record<string, unknown>) => ({
    kind: String(s?.kind ?? ''),
    name: String(s?.name ?? ''),
    namespace: s?.namespace ? String(s.namespace) : '',
  }));
}

function roleRefOf(binding: KObject): { kind: string; name: string } {
  const ref = ((binding as { roleRef?: Record<string, unknown> }).roleRef ?? {}) as Record<string, unknown>;
  return { kind: String(ref.kind ?? ''), name: String(ref.name ?? '') };
}

/** The store key of the role a binding refers to (Role: the binding's namespace). */
export function roleKeyOf(binding: KObject): string {
  const ref = roleRefOf(binding);
  return ref.kind === 'Role' ? `Role/${binding.metadata.namespace ?? ''}/${ref.name}` : `ClusterRole/${ref.name}`;
}

/** Bindings ordered ClusterRoleBindings first, then RoleBindings by namespace, each by name. */
function byBindingOrder(a: BindingRow, b: BindingRow): number {
  if (a.kind !== b.kind) return a.kind === 'ClusterRoleBinding' ? -1 : 1;
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The RBAC view of `obj` over the store's objects; null for other kinds.
 * @param objects the UI store's objects by key (`Kind/ns/name`, `Kind/name` cluster-scoped)
 */
export function rbacView(obj: KObject, objects: ReadonlyMap<string, StoredObject>): RbacView | null {
  if (obj.kind === 'Role' || obj.kind === 'ClusterRole') {
    const bindings: BindingRow[] = [];
    for (const o of objects.values()) {
      const b = o.object;
      if (b.kind !== 'RoleBinding' && b.kind !== 'ClusterRoleBinding') continue;
      const ref = roleRefOf(b);
      if (ref.kind !== obj.kind || ref.name !== obj.metadata.name) continue;
      if (obj.kind === 'Role' && (b.kind !== 'RoleBinding' || b.metadata.namespace !== obj.metadata.namespace)) continue;
      bindings.push({ key: o.key, kind: b.kind, namespace: b.metadata.namespace ?? '', name: b.metadata.name, subjects: subjectsOf(b) });
    }
    bindings.sort(byBindingOrder);
    return { kind: 'role', rules: rulesOf(obj), aggregation: aggregationOf(obj), bindings };
  }
  if (obj.kind === 'RoleBinding' || obj.kind === 'ClusterRoleBinding') {
    const key = roleKeyOf(obj);
    const role = objects.get(key)?.object;
    return {
      kind: 'binding',
      subjects: subjectsOf(obj),
      roleRef: { ...roleRefOf(obj), key },
      rules: role ? rulesOf(role) : null,
      aggregation: aggregationOf(role),
    };
  }
  return null;
}
