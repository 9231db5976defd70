/**
 * RoleDescriber and ClusterRoleDescriber (k8s.io/kubectl/pkg/describe/describe.go): the rules
 * broken down to one (group, resource[, resourceName]) or nonResourceURL each
 * (pkg/util/rbac.BreakdownRule), simple ones merged by (group, resource, resourceName) with
 * their verbs appended (CompactRules), sorted by the PolicyRule's generated String()
 * (`&PolicyRule{Verbs:[…],APIGroups:[…],…}`, so effectively by verbs first), printed as the
 * PolicyRule table with CombineResourceGroup's `resource.group/subresource`.
 */
import type { KObject } from '../../api/types';
import { PrefixWriter, printAnnotationsMultiline, printLabelsMultiline } from './describe-util';

/** rbacv1.PolicyRule (undefined lists print as `[]`, like Go's nil slices). */
interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** rbac.BreakdownRule: one rule per group × resource (× resourceName), one per nonResourceURL. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      if (rule.resourceNames?.length)
        for (const n of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: rule.verbs, resourceNames: [n] });
      else out.push({ apiGroups: [group], resources: [resource], verbs: rule.verbs });
    }
  }
  for (const url of rule.nonResourceURLs ?? []) out.push({ nonResourceURLs: [url], verbs: rule.verbs });
  return out;
}

/** rbac.CompactRules: simple rules with the same group/resource/resourceName merged (verbs appended). */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple =
      (r.resourceNames?.length ?? 0) <= 1 && !r.nonResourceURLs?.length && r.apiGroups?.length === 1 && r.resources?.length === 1;
    if (!isSimple) {
      compacted.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], r.resourceNames?.[0] ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(r.verbs ?? [])];
    else simple.set(key, { ...r, verbs: r.verbs ? [...r.verbs] : undefined });
  }
  return [...compacted, ...simple.values()];
}

/** fmt's %v of a []string: `[a b]`. */
const v = (l: string[] | undefined): string => `[${(l ?? []).join(' ')}]`;

/** The generated PolicyRule.String(), the sort key of rbac.SortableRuleSlice. */
function ruleString(r: PolicyRule): string {
  return `&PolicyRule{Verbs:${v(r.verbs)},APIGroups:${v(r.apiGroups)},Resources:${v(r.resources)},ResourceNames:${v(r.resourceNames)},NonResourceURLs:${v(r.nonResourceURLs)},}`;
}

/** describe.CombineResourceGroup: `resource.group/subresource`, "" without resources. */
export function combineResourceGroup(resource: string[] | undefined, group: string[] | undefined): string {
  if (!resource?.length) return '';
  const [res, sub] = resource[0].split(/\/(.*)/s);
  let s = res;
  if (group?.length && group[0] !== '') s += `.${group[0]}`;
  if (sub !== undefined) s += `/${sub}`;
  return s;
}

/** RoleDescriber / ClusterRoleDescriber: Name, Labels, Annotations, the PolicyRule table. */
export function describeRole(role: KObject): string {
  const rules = compactRules(((role.rules ?? []) as PolicyRule[]).flatMap(breakdownRule));
  const keyed = rules.map((r) => [ruleString(r), r] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const w = new PrefixWriter();
  w.write(0, `Name:\t${role.metadata.name}\n`);
  printLabelsMultiline(w, 'Labels', role.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', role.metadata.annotations);
  w.write(0, 'PolicyRule:\n');
  w.write(1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  w.write(1, '---------\t-----------------\t--------------\t-----\n');
  for (const [, r] of keyed)
    w.write(1, `${combineResourceGroup(r.resources, r.apiGroups)}\t${v(r.nonResourceURLs)}\t${v(r.resourceNames)}\t${v(r.verbs)}\n`);
  return w.toString();
}
