/**
 * kube-apiserver's HTTPS port as a process inside a Pod reaches it (`curl -sk -H "Authorization:
 * Bearer $TOKEN" https://kubernetes.default.svc/api/v1/namespaces/default/pods`): the traffic
 * generator (traffic.ts) hands it the request once kube-proxy has DNATed the `kubernetes`
 * Service to an apiserver endpoint (port 6443).
 *
 * Follows the apiserver's handler chain for a GET:
 * - authentication (staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken,
 *   pkg/serviceaccount/jwt.go): `Authorization: Bearer <token>` must be a ServiceAccount token
 *   this apiserver issued and still valid (APIServer.authenticateToken), else 401 `Unauthorized`;
 *   without the header the request is `system:anonymous` (group `system:unauthenticated`), as
 *   kube-apiserver's `--anonymous-auth=true` (the kubeadm default) makes it.
 * - request info (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go):
 *   `/api/v1/[namespaces/NS/]RESOURCE[/NAME]` and `/apis/GROUP/VERSION/…`, a GET is `list`
 *   without a name and `get` with one; then authorization and the registry through a client as
 *   the user (apiserver.ts: the RBAC 403 `pods is forbidden: User
 *   "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the
 *   namespace "default"`, 404 for a missing object). An unknown resource is 404
 *   `the server could not find the requested resource`; `/healthz`, `/livez`, `/readyz` answer
 *   `ok` and `/version` the version.Info document (system:public-info-viewer); discovery —
 *   `/api` (APIVersions), `/apis` (APIGroupList), `/apis/GROUP` (APIGroup), `/api/v1` and
 *   `/apis/GROUP/VERSION` (APIResourceList) — to authenticated users (system:discovery; anonymous
 *   gets 403 `forbidden: User "system:anonymous" cannot get path "/api"`). Other paths and
 *   methods are not modelled: 404 `404 page not found`, 405 for a method other than GET.
 * - the response (responsewriters.WriteObjectNegotiated): curl's User-Agent makes the JSON
 *   pretty-printed (negotiation isPrettyPrint: json.MarshalIndent with two spaces, no trailing
 *   newline), with Go's HTML escaping (`<`, `>`, `&` as \u003c …).
 *
 * Relay: the API request is drawn from the ServiceAccount's user name (as the HTTP server draws
 * a ServiceAccount token's requests), `system:anonymous` without a token.
 */
import type { RequestUser } from '../apiserver/apiserver';
import type { TokenUser } from '../apiserver/authentication/serviceaccount';
import { tokenRequestUser } from '../apiserver/authentication/user';
import { StatusError, type Status } from '../api/errors';
import type { KObject } from '../api/types';
import { VERSION_INFO } from '../api/version';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../apiserver/discovery';
import type { ComponentContext } from '../component-context';

/** The apiserver's bearer-token authenticator (APIServer.authenticateToken). */
export type TokenAuthenticator = (token: string) => { user: TokenUser } | { error: string };

/** One HTTP request as it reaches the apiserver. */
export interface APIServerRequest {
  method: string;
  /** path and query, e.g. `/api/v1/namespaces/default/pods?limit=5` */
  path: string;
  /** request headers, names as sent */
  headers: [string, string][];
  /** the address:port the client connected to (the apiserver endpoint), what /api advertises */
  serverAddress?: string;
}

/** The HTTP answer: status, body (exact bytes) and a one-line summary for the relay. */
export interface APIServerAnswer {
  status: number;
  body: string;
  summary: string;
}

/** The anonymous user (authenticator/request/anonymous). */
export const ANONYMOUS: RequestUser = { name: 'system:anonymous', participant: 'system:anonymous', groups: ['system:unauthenticated'] };

/** json.MarshalIndent(v, "", "  ") with encoding/json's HTML escaping. */
export function goJSONIndent(v: unknown): string {
  return JSON.stringify(v, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function status(code: number, reason: Status['reason'] | 'Unauthorized', message: string, details?: Status['details']): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: reason as Status['reason'],
    ...(details ? { details } : {}),
    code,
  };
}

const statusAnswer = (s: Status): APIServerAnswer => ({ status: s.code, body: goJSONIndent(s), summary: s.message });

/** bearertoken.Authenticator: the second space-separated word of `Authorization: Bearer …`; undefined without one. */
export function bearerToken(headers: [string, string][]): string | undefined {
  const h = headers.find(([n]) => n.toLowerCase() === 'authorization');
  const auth = (h?.[1] ?? '').trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer' || !parts[1]) return undefined;
  return parts[1];
}

/** metav1.ObjectMeta's fields in Go's struct order (what encoding/json writes first). */
const OBJECT_META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/** `o`'s own keys, those of `order` first (in that order), then the rest as stored. A null-prototype copy. */
function ordered(o: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const k of order) if (Object.prototype.hasOwnProperty.call(o, k)) out[k] = o[k];
  for (const k of Object.keys(o)) if (!order.includes(k)) out[k] = o[k];
  return out;
}

/**
 * An object as encoding/json writes its Go struct: kind, apiVersion (TypeMeta, absent in a
 * list's items), metadata (ObjectMeta's order), spec, status, then the other fields as stored.
 */
function goObject(o: KObject, typeMeta: boolean): Record<string, unknown> {
  const r = ordered(o, ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  if (!typeMeta) {
    delete r.kind;
    delete r.apiVersion;
  }
  if (o.metadata && typeof o.metadata === 'object') r.metadata = ordered(o.metadata as Record<string, unknown>, OBJECT_META_ORDER);
  return r;
}

/** A list as kube-apiserver writes it: kind, apiVersion, metadata, items. */
function listBody(list: { apiVersion: string; kind: string; metadata: unknown; items: KObject[] }): unknown {
  return { kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata, items: list.items.map((o) => goObject(o, false)) };
}

/**
 * Serves one request (see the file comment).
 * @param ctx the cluster's component context (a client as the request's user)
 * @param authenticate the apiserver's token authenticator
 */
export function serveAPIServerRequest(ctx: ComponentContext, authenticate: TokenAuthenticator, req: APIServerRequest): APIServerAnswer {
  const token = bearerToken(req.headers);
  let user = ANONYMOUS;
  if (token !== undefined) {
    const a = authenticate(token);
    if (!('user' in a)) return statusAnswer(status(401, 'Unauthorized', 'Unauthorized'));
    user = tokenRequestUser(a.user, a.user.name);
  }
  const path = req.path.split('?')[0];
  if (path === '/healthz' || path === '/livez' || path === '/readyz') return { status: 200, body: 'ok', summary: 'ok' };
  // routes/version.go: WriteRawJSON, json.MarshalIndent with two spaces, no trailing newline
  if (path === '/version')
    return { status: 200, body: JSON.stringify(VERSION_INFO, null, 2), summary: `version ${VERSION_INFO.gitVersion}` };
  const parts = path.split('/').filter((p) => p !== '');
  const discovery = discoveryAnswer(ctx, user, parts, req.serverAddress ?? '');
  if (discovery) return discovery;
  let group: string;
  let rest: string[];
  if (parts[0] === 'api' && parts[1] === 'v1') {
    group = '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    group = parts[1];
    rest = parts.slice(3);
  } else return { status: 404, body: '404 page not found\n', summary: '404 page not found' };
  if (!rest.length) return { status: 404, body: '404 page not found\n', summary: '404 page not found' };
  // requestinfo.go: namespaces/NS/RESOURCE…, except /namespaces and /namespaces/NAME themselves
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource] = rest;
  if (req.method !== 'GET')
    return statusAnswer(status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));
  const client = ctx.client(user);
  const notFound = () => statusAnswer(status(404, 'NotFound', 'the server could not find the requested resource', {}));
  if (subresource !== undefined || rest.length > 3) return notFound();
  let rc;
  try {
    rc = client.resource(group, resource);
  } catch {
    return notFound();
  }
  const info = client.restMapper.forResource(group, resource);
  if (!info || (!info.namespaced && namespace)) return notFound();
  try {
    if (name === undefined) {
      const list = rc.list(info.namespaced && namespace ? namespace : undefined);
      return { status: 200, body: goJSONIndent(listBody(list)), summary: `${list.kind} (${list.items.length} items)` };
    }
    const obj = rc.get(info.namespaced ? namespace : '', name);
    return { status: 200, body: goJSONIndent(goObject(obj, true)), summary: `${obj.kind ?? info.kind} ${name}` };
  } catch (err) {
    if (err instanceof StatusError) return statusAnswer(err.status);
    throw err;
  }
}

/**
 * The discovery documents (apiserver/discovery.ts) for `/api`, `/apis`, `/apis/GROUP`, `/api/v1`
 * and `/apis/GROUP/VERSION`, after the non-resource authorization of the path; undefined for
 * any other path (a resource request).
 */
function discoveryAnswer(ctx: ComponentContext, user: RequestUser, parts: string[], serverAddress: string): APIServerAnswer | undefined {
  const core = parts[0] === 'api';
  if (!core && parts[0] !== 'apis') return undefined;
  if (parts.length > (core ? 2 : 3)) return undefined;
  const client = ctx.client(user);
  const path = `/${parts.join('/')}`;
  try {
    client.authorizePath('get', path);
  } catch (err) {
    if (err instanceof StatusError) return statusAnswer(err.status);
    throw err;
  }
  const reg = client.restMapper;
  let doc: object | undefined;
  if (parts.length === 1) doc = core ? apiVersions(serverAddress) : apiGroupList(reg);
  else if (!core && parts.length === 2) doc = apiGroup(reg, parts[1]);
  else doc = core ? (parts[1] === 'v1' ? apiResourceList(reg, '', 'v1') : undefined) : apiResourceList(reg, parts[1], parts[2]);
  if (!doc) return { status: 404, body: '404 page not found\n', summary: '404 page not found' };
  const kind = (doc as { kind: string }).kind;
  return { status: 200, body: goJSONIndent(doc), summary: `${kind} ${path}` };
}
