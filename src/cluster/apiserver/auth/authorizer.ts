/**
 * kube-apiserver's authorizer chain as kubeadm configures it (`--authorization-mode=Node,RBAC`),
 * behind the privileged-group authorizer every kube-apiserver puts first
 * (authorizerfactory.NewPrivilegedGroups(system:masters)): union.go's unionAuthzHandler —
 * the first allow or deny wins; the no-opinion reasons are joined with "\n".
 *
 * Also the 403 text of a denial, as
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
 * (forbiddenMessage + Forbidden) writes it.
 */
import type { MVCCStore } from '../../storage/mvcc';
import { newForbidden, StatusError } from '../../api/errors';
import { RBACAuthorizer, type Attributes, type Decision, type RuleSource } from './rbac';
import { NodeAuthorizer } from './node-authorizer';
import type { PolicyRule } from './bootstrap-policy';

/** user.SystemPrivilegedGroup. */
export const SYSTEM_MASTERS = 'system:masters';

/** A decision of the chain, with the RBAC rule source when RBAC allowed. */
export type ChainDecision = Decision & { source?: RuleSource };

/** The union of the privileged-group, Node and RBAC authorizers over one store. */
export class AuthorizerChain {
  readonly rbac: RBACAuthorizer;
  readonly node: NodeAuthorizer;
  constructor(store: MVCCStore) {
    this.rbac = new RBACAuthorizer(store);
    this.node = new NodeAuthorizer(store);
  }

  /** union.go Authorize. */
  authorize(a: Attributes): ChainDecision {
    if ((a.user.groups ?? []).includes(SYSTEM_MASTERS)) return { decision: 'allow', reason: '', by: SYSTEM_MASTERS };
    const reasons: string[] = [];
    const n = this.node.authorize(a);
    if (n.decision !== 'noopinion') return n;
    if (n.reason) reasons.push(n.reason);
    const r = this.rbac.authorize(a);
    if (r.decision !== 'noopinion') return r;
    if (r.reason) reasons.push(r.reason);
    return { decision: 'noopinion', reason: reasons.join('\n') };
  }

  /**
   * The rules the chain can enumerate for a user in a namespace (SelfSubjectRulesReview):
   * everything for system:masters; the Node authorizer cannot enumerate (incomplete); RBAC's
   * rules. `errors` make the review incomplete.
   */
  rulesFor(user: { name: string; groups?: string[] }, namespace: string): { rules: PolicyRule[]; errors: string[]; incomplete: boolean } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    let incomplete = false;
    if ((user.groups ?? []).includes(SYSTEM_MASTERS)) {
      rules.push({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] });
    }
    if (user.name.startsWith('system:node:') && (user.groups ?? []).includes('system:nodes')) {
      incomplete = true;
      errors.push('node authorizer does not support user rule resolution');
    }
    const r = this.rbac.rulesFor(user, namespace);
    rules.push(...r.rules);
    if (r.errors.length) {
      incomplete = true;
      errors.push(...r.errors);
    }
    return { rules, errors, incomplete };
  }
}

/** responsewriters.forbiddenMessage: `User "u" cannot VERB resource "r[/sub]" in API group "g" in the namespace "ns"` / `at the cluster scope` / `cannot VERB path "/p"`. */
export function forbiddenMessage(a: Attributes): string {
  if (!a.resourceRequest) return `User "${a.user.name}" cannot ${a.verb} path "${a.path}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  if (a.namespace)
    return `User "${a.user.name}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" in the namespace "${a.namespace}"`;
  return `User "${a.user.name}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" at the cluster scope`;
}

/** responsewriters.Forbidden: the 403 StatusError (`<gr> "<name>" is forbidden: <message>[: <reason>]`). */
export function forbidden(a: Attributes, reason: string): StatusError {
  const msg = forbiddenMessage(a) + (reason ? `: ${reason}` : '');
  if (!a.resourceRequest) {
    return new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `forbidden: ${msg}`,
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
  }
  const gr = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  if (a.name) return newForbidden(gr, a.name, msg);
  // apierrors.NewForbidden without a name: `<gr> is forbidden: …`
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${gr} is forbidden: ${msg}`,
    reason: 'Forbidden',
    details: { ...(a.apiGroup ? { group: a.apiGroup } : {}), kind: a.resource },
    code: 403,
  });
}

/** A short readable line of who allowed a request (the relay's admission note). */
export function allowedBy(d: ChainDecision): string {
  if (d.by === SYSTEM_MASTERS) return 'by group system:masters';
  if (d.source)
    return `by ${d.source.bindingKind} ${d.source.bindingNamespace ? `${d.source.bindingNamespace}/` : ''}${d.source.binding} → ${d.source.roleKind} ${d.source.role}`;
  if (d.by === 'Node') return 'by the Node authorizer';
  return '';
}
