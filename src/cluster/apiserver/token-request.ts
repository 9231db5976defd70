/**
 * serviceaccounts/token (POST an authentication.k8s.io/v1 TokenRequest), as
 * pkg/registry/core/serviceaccount/storage/token.go (TokenREST.Create) with the defaulting of
 * pkg/apis/authentication/v1/defaults.go (expirationSeconds 3600) and the static validation of
 * pkg/apis/authentication/validation/validation.go (ValidateTokenRequest), and the bearer-token
 * half of pkg/serviceaccount/jwt.go (JWTTokenAuthenticator.AuthenticateToken).
 *
 * The body is an authentication.k8s.io/v1 TokenRequest: over HTTP another kind or version is
 * create.go's 400 (src/server/body.ts decodeKindBody), and a field of the wrong JSON type is the
 * decoder's 400 (`json: cannot unmarshal string into Go struct field
 * TokenRequestSpec.spec.expirationSeconds of type int64`, decode.ts, checked by
 * APIServer.createToken after authorization).
 *
 * Order of the checks (token.go): the body's metadata.name/namespace must match the URL's (422),
 * the ServiceAccount must exist (404 `serviceaccounts "x" not found`), then the static
 * validation (422 `TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds:
 * Invalid value: 60: may not specify a duration less than 10 minutes`), then the bound object:
 * a Pod (which must run as that ServiceAccount: 400), a Secret or a Node (ServiceAccountTokenNodeBinding,
 * on in v1.33) must exist (404), a given uid must match (409); any other kind is 400
 * `cannot bind token to object of type /v1, Kind=ConfigMap`. Audiences default to the
 * apiserver's (`https://kubernetes.default.svc.cluster.local`). A Pod-bound token carries the
 * Pod's node (ServiceAccountTokenPodNodeInfo) and, for the kubelet's 3607 s request with the
 * apiserver's audience, is extended to a year with `warnafter` (extend-token-expiration).
 * Nothing is stored: the answer is the TokenRequest with status.token and
 * status.expirationTimestamp (now + spec.expirationSeconds).
 *
 * Randomness: the signing key and every jti come from streams derived from the apiserver's RNG
 * (`rng.derive`), so issuing tokens shifts no uid or generated name.
 */
import type { KObject } from '../api/types';
import type { Rng } from '../sim/rng';
import { newBadRequest, newConflict, newInvalid, newNotFound, type FieldError } from '../api/errors';
import {
  API_SERVER_AUDIENCE,
  ExpirationExtensionSeconds,
  TokenSigner,
  claims,
  userInfo,
  validate,
  type MetaObject,
  type TokenUser,
} from './authentication/serviceaccount';

/** validation.go MinTokenAgeSec: ten minutes, in seconds. */
export const MinTokenAgeSec = 10 * 60;
/** The largest expirationSeconds ValidateTokenRequest accepts: 2^32 seconds. */
export const MaxTokenAgeSec = 2 ** 32;
/** defaults.go SetDefaults_TokenRequestSpec: one hour, in seconds. */
export const DefaultTokenExpirationSeconds = 60 * 60;
/** pkg/serviceaccount WarnOnlyBoundTokenExpirationSeconds: the kubelet's projected-token request (3607 s). */
export const WarnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;

/** authentication.k8s.io/v1 BoundObjectReference. */
export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

/** authentication.k8s.io/v1 TokenRequest (the body and the answer). */
export interface TokenRequest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; creationTimestamp?: string | null };
  spec?: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: BoundObjectReference };
  status?: { token: string; expirationTimestamp: string };
}

const GROUP_KIND = 'TokenRequest.authentication.k8s.io';

/** The kind serviceaccounts/token decodes its body into (token.go TokenREST.New: authentication.k8s.io/v1 TokenRequest). */
export const TOKEN_REQUEST_KIND = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' } as const;

/** What the registry reads: the stored objects (APIServer.getObject; undefined when absent). */
export interface ObjectGetter {
  getObject(resource: string, namespace: string, name: string): KObject | undefined;
}

/** The apiserver's token issuer: the signer (keyed from a derived RNG stream) and its jti stream. */
export class TokenIssuer {
  readonly signer: TokenSigner;
  private readonly jtis: Rng;
  constructor(rng: Rng) {
    this.signer = new TokenSigner(rng.derive('serviceaccount-token-key').string(32));
    this.jtis = rng.derive('serviceaccount-token-jti');
  }
  /** A new token id (uuid.New in jwt.go's claims). */
  nextJTI(): string {
    return this.jtis.uuid();
  }
}

/** schema.FromAPIVersionAndKind(...).String(): `group/version, Kind=kind` (empty group: `/v1, Kind=Pod`). */
function gvkString(apiVersion: string, kind: string): string {
  const i = apiVersion.indexOf('/');
  const [group, version] = i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

/**
 * TokenREST.Create, already authorized as `create serviceaccounts/token`.
 * @param nowSec seconds since the epoch (simulated clock)
 * @returns the TokenRequest with its status
 * @throws StatusError 404, 400, 409, 422 with token.go's texts (see the file comment)
 */
export function createToken(
  api: ObjectGetter,
  issuer: TokenIssuer,
  namespace: string,
  name: string,
  body: TokenRequest,
  nowSec: number,
): TokenRequest {
  const meta = body.metadata ?? {};
  if (meta.name && meta.name !== name)
    throw newInvalid(GROUP_KIND, name, [
      { type: 'Invalid', field: 'metadata.name', value: meta.name, detail: 'must match the service account name if specified' },
    ]);
  if (meta.namespace && meta.namespace !== namespace)
    throw newInvalid(GROUP_KIND, name, [
      {
        type: 'Invalid',
        field: 'metadata.namespace',
        value: meta.namespace,
        detail: 'must match the service account namespace if specified',
      },
    ]);
  const sa = api.getObject('serviceaccounts', namespace, name);
  if (!sa) throw newNotFound('serviceaccounts', name);
  const spec = body.spec ?? {};
  const audiences = spec.audiences?.length ? [...spec.audiences] : [API_SERVER_AUDIENCE];
  const exp = spec.expirationSeconds ?? DefaultTokenExpirationSeconds;
  const errs: FieldError[] = [];
  if (exp < MinTokenAgeSec)
    errs.push({ type: 'Invalid', field: 'spec.expirationSeconds', value: exp, detail: 'may not specify a duration less than 10 minutes' });
  if (exp > MaxTokenAgeSec)
    errs.push({
      type: 'Invalid',
      field: 'spec.expirationSeconds',
      value: exp,
      detail: 'may not specify a duration larger than 2^32 seconds',
    });
  if (errs.length) throw newInvalid(GROUP_KIND, '', errs);

  const bound: { pod?: MetaObject; secret?: MetaObject; node?: { name: string; uid?: string } } = {};
  const ref = spec.boundObjectRef;
  if (ref) {
    const apiVersion = ref.apiVersion ?? '';
    const kind = ref.kind ?? '';
    const refName = ref.name ?? '';
    // schema.FromAPIVersionAndKind: no slash ("v1", "") is the core group, as token.go compares groups
    const core = !apiVersion.includes('/');
    let uid = '';
    if (core && kind === 'Pod') {
      const pod = api.getObject('pods', namespace, refName);
      if (!pod) throw newNotFound('pods', refName);
      if ((pod.spec?.serviceAccountName ?? '') !== name)
        throw newBadRequest(
          `cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`,
        );
      bound.pod = pod as MetaObject;
      uid = pod.metadata.uid ?? '';
      const nodeName: string = pod.spec?.nodeName ?? '';
      if (nodeName) {
        const node = api.getObject('nodes', '', nodeName);
        bound.node = node?.metadata.uid ? { name: nodeName, uid: node.metadata.uid } : { name: nodeName };
      }
    } else if (core && kind === 'Secret') {
      const secret = api.getObject('secrets', namespace, refName);
      if (!secret) throw newNotFound('secrets', refName);
      bound.secret = secret as MetaObject;
      uid = secret.metadata.uid ?? '';
    } else if (core && kind === 'Node') {
      const node = api.getObject('nodes', '', refName);
      if (!node) throw newNotFound('nodes', refName);
      bound.node = { name: refName, uid: node.metadata.uid ?? '' };
      uid = node.metadata.uid ?? '';
    } else throw newBadRequest(`cannot bind token to object of type ${gvkString(apiVersion, kind)}`);
    if (ref.uid && ref.uid !== uid)
      throw newConflict(
        kind,
        refName,
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
  }
  let tokenExp = exp;
  let warnafter = 0;
  if (bound.pod && exp === WarnOnlyBoundTokenExpirationSeconds && audiences.every((a) => a === API_SERVER_AUDIENCE)) {
    warnafter = exp;
    tokenExp = ExpirationExtensionSeconds;
  }
  const c = claims(sa as MetaObject, bound, tokenExp, warnafter, audiences, nowSec, issuer.nextJTI());
  const token = issuer.signer.generateToken(c);
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    // out := req.DeepCopy(): the request's metadata, its name and namespace filled
    metadata: { ...meta, name, namespace, creationTimestamp: new Date(nowSec * 1000).toISOString().replace('.000Z', 'Z') },
    spec: {
      audiences,
      expirationSeconds: exp,
      ...(ref ? { boundObjectRef: { ...ref } } : {}),
    },
    status: { token, expirationTimestamp: new Date((nowSec + exp) * 1000).toISOString().replace('.000Z', 'Z') },
  };
}

/**
 * JWTTokenAuthenticator.AuthenticateToken for this apiserver's ServiceAccount tokens: the
 * signature, the audience (one of the apiserver's), then validator.Validate against the live
 * objects.
 * @param nowSec seconds since the epoch
 * @returns the user, or an error text (the request is then 401 Unauthorized)
 */
export function authenticateServiceAccountToken(
  api: ObjectGetter,
  issuer: TokenIssuer,
  token: string,
  nowSec: number,
): { user: TokenUser } | { error: string } {
  const c = issuer.signer.verify(token);
  if (!c) return { error: 'invalid bearer token' };
  if (!Array.isArray(c.aud) || !c.aud.includes(API_SERVER_AUDIENCE)) return { error: 'token audiences is invalid' };
  const get = (resource: string, ns: string, n: string) => api.getObject(resource, ns, n) as MetaObject | undefined;
  try {
    const info = validate(c, nowSec, {
      getServiceAccount: (ns, n) => get('serviceaccounts', ns, n),
      getPod: (ns, n) => get('pods', ns, n),
      getSecret: (ns, n) => get('secrets', ns, n),
      getNode: (n) => get('nodes', '', n),
    });
    return { user: userInfo(info) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
