/**
 * Impersonation as staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go
 * (WithImpersonation) decides it: every requested identity piece — the user (or
 * ServiceAccount), each group, each extra value, the uid — must be allowed the verb
 * `impersonate` on `users` / `serviceaccounts` (namespaced) / `groups` (core group), or
 * `userextras/<key>` / `uids` (authentication.k8s.io) for the requesting user; a refusal is
 * the 403 of that check (`users "bob" is forbidden: User "jane" cannot impersonate resource
 * "users" in API group "" at the cluster scope`). The impersonated user gets
 * system:authenticated (a ServiceAccount without requested groups also its
 * system:serviceaccounts groups).
 */
import type { RequestUser } from '../apiserver';
import type { AuthorizerChain } from './authorizer';
import { forbidden } from './authorizer';
import type { Attributes } from './rbac';

/** What a client asks to act as (kubectl --as / --as-group / --as-uid, Impersonate-* headers). */
export interface ImpersonationRequest {
  user: string;
  groups?: string[];
  uid?: string;
  extra?: Map<string, string[]>;
}

/** Parses `system:serviceaccount:<ns>:<name>`. */
export function serviceAccountOf(name: string): { namespace: string; name: string } | null {
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
  return m ? { namespace: m[1], name: m[2] } : null;
}

/**
 * The user a request acts as. The relay participant stays the requester's (the relay draws
 * who holds the credential).
 * @throws StatusError 403 when the requester may not impersonate one of the pieces.
 */
export function impersonateUser(chain: AuthorizerChain | null, requester: RequestUser, req: ImpersonationRequest): RequestUser {
  const check = (a: Omit<Attributes, 'user' | 'verb' | 'resourceRequest' | 'path'>): void => {
    if (!chain) return;
    const attrs: Attributes = { ...a, user: requester, verb: 'impersonate', resourceRequest: true, path: '' };
    const d = chain.authorize(attrs);
    if (d.decision !== 'allow') throw forbidden(attrs, d.reason);
  };
  const sa = serviceAccountOf(req.user);
  if (sa) check({ apiGroup: '', resource: 'serviceaccounts', subresource: '', namespace: sa.namespace, name: sa.name });
  else check({ apiGroup: '', resource: 'users', subresource: '', namespace: '', name: req.user });
  for (const g of req.groups ?? []) check({ apiGroup: '', resource: 'groups', subresource: '', namespace: '', name: g });
  for (const [k, vs] of req.extra ?? new Map<string, string[]>())
    for (const v of vs) check({ apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: k, namespace: '', name: v });
  if (req.uid) check({ apiGroup: 'authentication.k8s.io', resource: 'uids', subresource: '', namespace: '', name: req.uid });
  let groups = [...(req.groups ?? [])];
  if (sa && !groups.length) groups = ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`];
  if (req.user === 'system:anonymous') {
    if (!groups.includes('system:unauthenticated')) groups.push('system:unauthenticated');
  } else if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) groups.push('system:authenticated');
  const out: RequestUser = { name: req.user, participant: requester.participant, groups };
  if (req.uid) (out as RequestUser & { uid?: string }).uid = req.uid;
  return out;
}
