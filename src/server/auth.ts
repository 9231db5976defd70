/**
 * Who a request is, as kube-apiserver's filters decide it:
 *
 * - authentication (staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken and
 *   pkg/endpoints/filters/authentication.go): `Authorization: Bearer <token>` must carry the
 *   token this server made at start (node:crypto, 256 bits) and wrote into its kubeconfig; it
 *   authenticates the kubeconfig's user, kubernetes-admin (groups kubeadm:cluster-admins,
 *   system:masters via kubeadm's binding, system:authenticated). Any other token is tried as a
 *   ServiceAccount token the engine issued (TokenRequest, APIServer.authenticateToken): it
 *   authenticates `system:serviceaccount:NS:NAME` while valid. A wrong token is 401 everywhere.
 *   Without credentials, only /healthz, /livez, /readyz and /version answer (as anonymous, the
 *   paths an AuthenticationConfiguration's `anonymous.conditions` and RBAC's
 *   system:public-info-viewer open); elsewhere 401 `Unauthorized`. Identity never comes from the
 *   User-Agent.
 * - impersonation (pkg/endpoints/filters/impersonation.go): each requested piece must be allowed
 *   the `impersonate` verb (the admin's cluster-admin allows all); `Impersonate-User` (a `system:serviceaccount:NS:NAME` user gets its
 *   service-account groups), `Impersonate-Group`, `Impersonate-Uid`, `Impersonate-Extra-*` make
 *   the request's user; group, uid or extra without a user is refused as upstream refuses it
 *   (500 `Internal Server Error: "<uri>": requested [...] without impersonating a user`).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIServer, RequestUser } from '../cluster/apiserver/apiserver';
import { tokenRequestUser } from '../cluster/apiserver/authentication/user';
import { users } from '../cluster/client/clientset';
import type { AuthorizerChain } from '../cluster/apiserver/auth/authorizer';
import { impersonateUser } from '../cluster/apiserver/auth/impersonation';
import { statusError } from './http-util';
import type { StatusError } from '../cluster/api/errors';

/** A fresh bearer token: 32 random bytes, base64url (43 characters). */
export function newBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Paths anonymous requests may reach (system:public-info-viewer). */
export const ANONYMOUS_PATHS: ReadonlySet<string> = new Set(['/healthz', '/livez', '/readyz', '/version']);

/** 401 as genericapifilters.Unauthorized writes it. */
export function newUnauthorized(): StatusError {
  return statusError(401, 'Unauthorized', 'Unauthorized');
}

/** What authentication decided. */
export type AuthResult = { kind: 'user'; user: RequestUser } | { kind: 'anonymous' };

/**
 * The bearer token of a request as bearertoken.Authenticator reads it (trimmed header, scheme
 * case-insensitive, the token is the second space-separated word); undefined without one.
 */
export function bearerTokenOf(req: IncomingMessage): string | undefined {
  const auth = (req.headers.authorization ?? '').trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer' || !parts[1]) return undefined;
  return parts[1];
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Authenticates a request against the server's token, then (with `api`) as a ServiceAccount token.
 * @param path the decoded request path (request-info.ts).
 * @throws StatusError 401.
 */
export function authenticate(req: IncomingMessage, path: string, token: string, api?: Pick<APIServer, 'authenticateToken'>): AuthResult {
  const presented = bearerTokenOf(req);
  if (presented !== undefined) {
    if (sameToken(presented, token)) return { kind: 'user', user: users.kubectl('kubectl') };
    // the ServiceAccount token authenticator (a TokenRequest's token): user system:serviceaccount:NS:NAME
    const sa = api?.authenticateToken(presented);
    // drawn under its own name in the relay, not as the admin's kubectl
    if (sa && 'user' in sa) return { kind: 'user', user: tokenRequestUser(sa.user, sa.user.name) };
    throw newUnauthorized();
  }
  if (ANONYMOUS_PATHS.has(path)) return { kind: 'anonymous' };
  throw newUnauthorized();
}

/** A refusal the impersonation filter writes as plain text (responsewriters.InternalError). */
export class ImpersonationError extends Error {}

interface ObjectReference {
  kind: string;
  namespace?: string;
  name: string;
  apiVersion?: string;
  fieldPath?: string;
}

/** Go's %v of a v1.ObjectReference: its seven fields in order, space-separated. */
function goRef(r: ObjectReference): string {
  return `{${[r.kind, r.namespace ?? '', r.name, '', r.apiVersion ?? '', '', r.fieldPath ?? ''].join(' ')}}`;
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) out.push(raw[i + 1]);
  return out;
}

/**
 * Applies `Impersonate-*` headers for the (system:masters) admin.
 * @returns the impersonated user (participant kept: the relay draws who holds the credential),
 *   or `user` unchanged when no such header is present.
 * @throws ImpersonationError for a group, uid or extra without a user.
 */
export function impersonate(req: IncomingMessage, user: RequestUser, chain: AuthorizerChain | null = null): RequestUser {
  const requests: ObjectReference[] = [];
  const requestedUser = headerValues(req, 'impersonate-user')[0] ?? '';
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(requestedUser);
  if (requestedUser) requests.push(sa ? { kind: 'ServiceAccount', namespace: sa[1], name: sa[2] } : { kind: 'User', name: requestedUser });
  const groups = headerValues(req, 'impersonate-group');
  for (const g of groups) requests.push({ kind: 'Group', name: g });
  const extra = new Map<string, string[]>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const h = req.rawHeaders[i].toLowerCase();
    if (!h.startsWith('impersonate-extra-')) continue;
    let key = h.slice('impersonate-extra-'.length);
    try {
      key = decodeURIComponent(key);
    } catch {
      // unescapeExtraKey keeps a key it cannot unescape
    }
    extra.set(key, [...(extra.get(key) ?? []), req.rawHeaders[i + 1]]);
    requests.push({ kind: 'UserExtra', apiVersion: 'authentication.k8s.io/v1', name: req.rawHeaders[i + 1], fieldPath: key });
  }
  const uid = headerValues(req, 'impersonate-uid')[0] ?? '';
  if (uid) requests.push({ kind: 'UID', name: uid, apiVersion: 'authentication.k8s.io/v1' });
  if (!requests.length) return user;
  if (!requestedUser) throw new ImpersonationError(`requested [${requests.map(goRef).join(' ')}] without impersonating a user`);
  // each piece authorized with the `impersonate` verb (cluster/apiserver/auth/impersonation.ts)
  return impersonateUser(chain, user, { user: requestedUser, groups, uid: uid || undefined, extra });
}
