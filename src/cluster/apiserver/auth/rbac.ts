/**
 * The RBAC authorizer, as plugin/pkg/auth/authorizer/rbac/rbac.go (RBACAuthorizer.Authorize,
 * RuleAllows, RulesFor) over pkg/registry/rbac/validation/rule.go (DefaultRuleResolver:
 * VisitRulesFor walks the ClusterRoleBindings, then the RoleBindings of the request's
 * namespace; appliesTo / appliesToUser match subjects; GetRoleReferenceRules resolves the
 * roleRef and reports a missing role as `clusterrole.rbac.authorization.k8s.io "x" not
 * found`) and the rbacv1 helpers (VerbMatches, APIGroupMatches, ResourceMatches with
 * `*` / `*\/subresource`, ResourceNameMatches, NonResourceURLMatches with a trailing `*`).
 *
 * Bindings are indexed by subject (user name, group, ServiceAccount) so a request visits only
 * the bindings that can apply to it, in the order a full walk would (by name); the index is
 * rebuilt lazily after any RBAC write (`invalidate`).
 */
import type { MVCCStore } from '../../storage/mvcc';
import type { KObject } from '../../api/types';
import type { PolicyRule, Subject } from './bootstrap-policy';

/** authorizer.Attributes: what a request asks to do. */
export interface Attributes {
  user: { name: string; groups?: string[] };
  verb: string;
  /** A resource request (else a non-resource `path`). */
  resourceRequest: boolean;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The non-resource path (`/healthz`). */
  path: string;
  /** list/watch `fieldSelector` requirements (the Node authorizer scopes a kubelet's Pod list by spec.nodeName). */
  fieldSelector?: { field: string; op: string; value: string }[];
}

/** An authorizer's decision: allowed, denied (an opinion), or no opinion, and its reason. */
export interface Decision {
  decision: 'allow' | 'deny' | 'noopinion';
  /** The reason upstream returns: `RBAC: allowed by …`, the RBAC errors, a Node authorizer refusal, or "". */
  reason: string;
  /** Which authorizer decided (for the relay): "RBAC", "Node", "system:masters". */
  by?: string;
}

const ROLES = 'roles.rbac.authorization.k8s.io';
const CLUSTER_ROLES = 'clusterroles.rbac.authorization.k8s.io';
const ROLE_BINDINGS = 'rolebindings.rbac.authorization.k8s.io';
const CLUSTER_ROLE_BINDINGS = 'clusterrolebindings.rbac.authorization.k8s.io';
/** Store resources whose writes invalidate the index. */
export const RBAC_RESOURCES: ReadonlySet<string> = new Set([ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS]);

/** rbacv1helpers.VerbMatches. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  for (const v of rule.verbs ?? []) if (v === '*' || v === verb) return true;
  return false;
}
/** rbacv1helpers.APIGroupMatches. */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  for (const g of rule.apiGroups ?? []) if (g === '*' || g === group) return true;
  return false;
}
/** rbacv1helpers.ResourceMatches: `*`, the combined `resource/subresource`, or `*\/subresource`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (!subresource) continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}
/** rbacv1helpers.ResourceNameMatches: no resourceNames matches every name. */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  if (!rule.resourceNames?.length) return true;
  return rule.resourceNames.includes(name);
}
/** rbacv1helpers.NonResourceURLMatches: `*`, equal, or a prefix before a trailing `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** rbac.go RuleAllows. */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.resourceRequest) {
    const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    return (
      verbMatches(rule, a.verb) &&
      apiGroupMatches(rule, a.apiGroup) &&
      resourceMatches(rule, combined, a.subresource) &&
      resourceNameMatches(rule, a.name)
    );
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}

/**
 * Whether the rule would allow the resource request but for its resourceNames: only such a rule
 * can make the object's name change the decision (the authorizer's per-resource cache, below).
 */
function ruleMatchesButName(a: Attributes, rule: PolicyRule): boolean {
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.apiGroup) && resourceMatches(rule, combined, a.subresource);
}

/** rbac.go RulesAllow: any of the rules. */
export function rulesAllow(a: Attributes, rules: readonly PolicyRule[]): boolean {
  for (const r of rules) if (ruleAllows(a, r)) return true;
  return false;
}

/** serviceaccount.MatchesUsername: `system:serviceaccount:<ns>:<name>`. */
function matchesSAUsername(namespace: string, name: string, username: string): boolean {
  return username === `system:serviceaccount:${namespace}:${name}`;
}

/** rule.go appliesToUser. */
export function appliesToUser(user: { name: string; groups?: string[] }, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.name === s.name;
    case 'Group':
      return (user.groups ?? []).includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || namespace;
      if (!ns) return false;
      return matchesSAUsername(ns, s.name, user.name);
    }
    default:
      return false;
  }
}

/** rule.go describeSubject. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}

interface Binding {
  /** position in a full walk (by name), to keep visit order */
  order: number;
  obj: KObject;
  namespace: string;
}

/** A rule found for a request and where it came from (rule.go's sourceDescriber). */
export interface RuleSource {
  /** `ClusterRoleBinding "x" of ClusterRole "y" to Group "z"` (rule.go clusterRoleBindingDescriber / roleBindingDescriber). */
  text: string;
  bindingKind: 'ClusterRoleBinding' | 'RoleBinding';
  binding: string;
  bindingNamespace: string;
  roleKind: string;
  role: string;
}

type Visitor = (source: RuleSource | null, rule: PolicyRule | null, err: string | null) => boolean;

/** Subject index of one kind of binding. */
class SubjectIndex {
  readonly byUser = new Map<string, Binding[]>();
  readonly byGroup = new Map<string, Binding[]>();
  /** "ns/name" of ServiceAccount subjects; an SA without namespace is keyed by the binding's. */
  readonly bySA = new Map<string, Binding[]>();
  add(b: Binding): void {
    const seen = new Set<string>();
    for (const s of (b.obj.subjects ?? []) as Subject[]) {
      const [map, key] =
        s.kind === 'User'
          ? [this.byUser, s.name]
          : s.kind === 'Group'
            ? [this.byGroup, s.name]
            : s.kind === 'ServiceAccount'
              ? [this.bySA, `${s.namespace || b.namespace}/${s.name}`]
              : [null, ''];
      if (!map || seen.has(s.kind + '\0' + key)) continue;
      seen.add(s.kind + '\0' + key);
      const l = map.get(key);
      if (l) l.push(b);
      else map.set(key, [b]);
    }
  }
  /** Bindings that may apply to the user, in walk order. */
  candidates(user: { name: string; groups?: string[] }): Binding[] {
    const out = new Set<Binding>();
    for (const b of this.byUser.get(user.name) ?? []) out.add(b);
    for (const g of user.groups ?? []) for (const b of this.byGroup.get(g) ?? []) out.add(b);
    const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user.name);
    if (sa) for (const b of this.bySA.get(`${sa[1]}/${sa[2]}`) ?? []) out.add(b);
    return [...out].sort((x, y) => x.order - y.order);
  }
}

/**
 * Decisions the authorizer remembers until an RBAC object changes, per cache: a decision that
 * no rule with resourceNames took part in is kept once for all names of its resource; the
 * others name one object, so that cache is a bound, not a working set. Each is emptied when full.
 */
const RBAC_DECISION_CACHE = 8192;

/**
 * DefaultRuleResolver + RBACAuthorizer over the apiserver's store (its listers).
 */
export class RBACAuthorizer {
  private clusterIndex: SubjectIndex | null = null;
  private nsIndex = new Map<string, SubjectIndex>();
  private cache = new Map<string, Decision & { source?: RuleSource }>();
  /**
   * Decisions that hold for every object name (user, groups, verb, group, resource,
   * subresource, namespace): reached without looking at a rule that lists resourceNames.
   */
  private anyNameCache = new Map<string, Decision & { source?: RuleSource }>();

  constructor(private readonly store: MVCCStore) {}

  /** Drops the indexes and cached decisions (call after any write to an RBAC resource). */
  invalidate(): void {
    this.clusterIndex = null;
    this.nsIndex.clear();
    this.cache.clear();
    this.anyNameCache.clear();
  }

  private clusterBindings(): SubjectIndex {
    if (this.clusterIndex) return this.clusterIndex;
    const idx = new SubjectIndex();
    let i = 0;
    for (const e of this.store.list(CLUSTER_ROLE_BINDINGS)) idx.add({ order: i++, obj: e.obj, namespace: '' });
    return (this.clusterIndex = idx);
  }

  private roleBindings(ns: string): SubjectIndex {
    let idx = this.nsIndex.get(ns);
    if (idx) return idx;
    idx = new SubjectIndex();
    let i = 0;
    for (const e of this.store.list(ROLE_BINDINGS, ns)) idx.add({ order: i++, obj: e.obj, namespace: ns });
    this.nsIndex.set(ns, idx);
    return idx;
  }

  /** rule.go GetRoleReferenceRules. @returns the rules, or the not-found error text. */
  getRoleReferenceRules(roleRef: { kind: string; name: string }, namespace: string): PolicyRule[] | string {
    if (roleRef.kind === 'Role') {
      const r = this.store.get(ROLES, `${namespace}/${roleRef.name}`)?.obj;
      return r ? ((r.rules ?? []) as PolicyRule[]) : `role.rbac.authorization.k8s.io "${roleRef.name}" not found`;
    }
    if (roleRef.kind === 'ClusterRole') {
      const r = this.store.get(CLUSTER_ROLES, roleRef.name)?.obj;
      return r ? ((r.rules ?? []) as PolicyRule[]) : `clusterrole.rbac.authorization.k8s.io "${roleRef.name}" not found`;
    }
    return `unsupported role reference kind: "${roleRef.kind}"`;
  }

  /** rule.go VisitRulesFor: cluster bindings, then the namespace's RoleBindings. */
  visitRulesFor(user: { name: string; groups?: string[] }, namespace: string, visitor: Visitor): void {
    for (const b of this.clusterBindings().candidates(user)) {
      const subjects = (b.obj.subjects ?? []) as Subject[];
      const s = subjects.find((x) => appliesToUser(user, x, ''));
      if (!s) continue;
      const ref = b.obj.roleRef as { kind: string; name: string };
      const rules = this.getRoleReferenceRules(ref, '');
      if (typeof rules === 'string') {
        if (!visitor(null, null, rules)) return;
        continue;
      }
      const source: RuleSource = {
        text: `ClusterRoleBinding "${b.obj.metadata.name}" of ${ref.kind} "${ref.name}" to ${describeSubject(s, '')}`,
        bindingKind: 'ClusterRoleBinding',
        binding: b.obj.metadata.name,
        bindingNamespace: '',
        roleKind: ref.kind,
        role: ref.name,
      };
      for (const r of rules) if (!visitor(source, r, null)) return;
    }
    if (!namespace) return;
    for (const b of this.roleBindings(namespace).candidates(user)) {
      const subjects = (b.obj.subjects ?? []) as Subject[];
      const s = subjects.find((x) => appliesToUser(user, x, namespace));
      if (!s) continue;
      const ref = b.obj.roleRef as { kind: string; name: string };
      const rules = this.getRoleReferenceRules(ref, namespace);
      if (typeof rules === 'string') {
        if (!visitor(null, null, rules)) return;
        continue;
      }
      const source: RuleSource = {
        text: `RoleBinding "${b.obj.metadata.name}/${namespace}" of ${ref.kind} "${ref.name}" to ${describeSubject(s, namespace)}`,
        bindingKind: 'RoleBinding',
        binding: b.obj.metadata.name,
        bindingNamespace: namespace,
        roleKind: ref.kind,
        role: ref.name,
      };
      for (const r of rules) if (!visitor(source, r, null)) return;
    }
  }

  /**
   * rbac.go Authorize: allow with `RBAC: allowed by <source>`, or no opinion with the
   * aggregated errors (`RBAC: [e1, e2]`, one error alone without brackets) or "".
   */
  authorize(a: Attributes): Decision & { source?: RuleSource } {
    const who = `${a.user.name}\0${(a.user.groups ?? []).join('\0')}\0${a.verb}`;
    let key: string;
    let anyName: string | undefined;
    if (a.resourceRequest) {
      anyName = `${who}\0${a.apiGroup}\0${a.resource}\0${a.subresource}\0${a.namespace}`;
      const shared = this.anyNameCache.get(anyName);
      if (shared) return shared;
      key = `${anyName}\0${a.name}`;
    } else key = `${who}\0\0path:${a.path}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    let source: RuleSource | undefined;
    const errors: string[] = [];
    // whether a rule naming resourceNames, and matching the request otherwise, was looked at:
    // only then can the object's name change the decision
    let namesSeen = false;
    this.visitRulesFor(a.user, a.namespace, (src, rule, err) => {
      if (rule?.resourceNames?.length && a.resourceRequest && ruleMatchesButName(a, rule)) namesSeen = true;
      if (rule && src && ruleAllows(a, rule)) {
        source = src;
        return false;
      }
      if (err) errors.push(err);
      return true;
    });
    const d: Decision & { source?: RuleSource } = source
      ? { decision: 'allow', reason: `RBAC: allowed by ${source.text}`, by: 'RBAC', source }
      : { decision: 'noopinion', reason: errors.length ? `RBAC: ${aggregate(errors)}` : '', by: 'RBAC' };
    if (anyName !== undefined && !namesSeen) {
      // the same rules, visited in the same order, decide alike for every name of this resource
      if (this.anyNameCache.size >= RBAC_DECISION_CACHE) this.anyNameCache.clear();
      this.anyNameCache.set(anyName, d);
      return d;
    }
    if (this.cache.size >= RBAC_DECISION_CACHE) this.cache.clear();
    this.cache.set(key, d);
    return d;
  }

  /** rule.go RulesFor: every rule that applies to the user in the namespace, and the errors. */
  rulesFor(user: { name: string; groups?: string[] }, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  /**
   * Who a Role or ClusterRole is granted to: the bindings that reference it and their
   * subjects (the inspector's "who gets what").
   */
  bindingsOf(
    kind: 'Role' | 'ClusterRole',
    name: string,
    namespace = '',
  ): { bindingKind: string; binding: string; namespace: string; subjects: Subject[] }[] {
    const out: { bindingKind: string; binding: string; namespace: string; subjects: Subject[] }[] = [];
    if (kind === 'ClusterRole') {
      for (const e of this.store.list(CLUSTER_ROLE_BINDINGS)) {
        const ref = e.obj.roleRef;
        if (ref?.kind === 'ClusterRole' && ref.name === name)
          out.push({ bindingKind: 'ClusterRoleBinding', binding: e.obj.metadata.name, namespace: '', subjects: e.obj.subjects ?? [] });
      }
    }
    for (const e of this.store.list(ROLE_BINDINGS, kind === 'Role' ? namespace : undefined)) {
      const ref = e.obj.roleRef;
      if (ref?.kind === kind && ref.name === name)
        out.push({
          bindingKind: 'RoleBinding',
          binding: e.obj.metadata.name,
          namespace: e.obj.metadata.namespace ?? '',
          subjects: e.obj.subjects ?? [],
        });
    }
    return out;
  }
}

/** utilerrors.NewAggregate(errs).Error(): one error as is, several as `[a, b]`. */
export function aggregate(errs: string[]): string {
  const uniq = [...new Set(errs)];
  return uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`;
}
