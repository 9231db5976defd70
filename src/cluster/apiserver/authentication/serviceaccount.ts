/**
 * ServiceAccount tokens: the claims kube-apiserver puts in a bound token, the JWT it signs, and
 * the validator that turns a presented token back into the ServiceAccount's user.
 *
 * Follows pkg/serviceaccount/claims.go (Claims, validator.Validate), pkg/serviceaccount/jwt.go
 * (JWTTokenGenerator.GenerateToken, JWTTokenAuthenticator.AuthenticateToken) and
 * staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go (MakeUsername,
 * MakeGroupNames, ServiceAccountInfo.UserInfo, CredentialIDForJTI).
 *
 * A token is a real compact JWS: `base64url(header).base64url(claims).base64url(signature)`,
 * header `{"alg":"RS256","kid":KID}`, claims in the order Go's encoding/json writes go-jose's
 * merged map (keys sorted: aud, exp, iat, iss, jti, kubernetes.io, nbf, sub; inside
 * kubernetes.io: namespace, node, pod, secret, serviceaccount, warnafter). Times are seconds
 * since the epoch from the simulated clock.
 *
 * Where kube-relay differs: the engine has no RSA. The "signature" is a deterministic keyed
 * hash — SHA-256 over `key|i|signingInput` for i = 0..7, concatenated to 256 bytes (the size
 * of an RS256 signature over a 2048-bit key) — with a key drawn from the cluster's seeded RNG.
 * It is not a cryptographic signature (anyone who knows the seed can forge one); it only makes
 * the engine refuse tokens it did not issue or that were altered. The `kid` is base64url of
 * SHA-256 of that key, standing in for upstream's hash of the public key's DER.
 */
import { sha256, sha256Each, utf8 } from '../../util/hash';
import { base64RawURL as base64url, base64RawURLDecode } from '../../util/base64';

/** kube-apiserver's default `--api-audiences` / `--service-account-issuer` of a kubeadm cluster. */
export const API_SERVER_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';
/** The issuer (`iss`) of the tokens this apiserver signs. */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** pkg/serviceaccount ExpirationExtensionSeconds: one year, for a pod-bound 3607 s token (extend-token-expiration). */
export const ExpirationExtensionSeconds = 24 * 365 * 60 * 60;
/** jwt.DefaultLeeway (go-jose): one minute of clock skew, in seconds. */
export const DefaultLeewaySeconds = 60;

/** The `kubernetes.io` claim's object reference (claims.go ref). */
export interface ClaimRef {
  name: string;
  uid: string;
}

/** The private claims (claims.go privateClaims.Kubernetes). */
export interface KubernetesClaims {
  namespace: string;
  node?: Partial<ClaimRef>;
  pod?: ClaimRef;
  secret?: ClaimRef;
  serviceaccount: ClaimRef;
  /** seconds since the epoch */
  warnafter?: number;
}

/** All claims of a token (public: RFC 7519; private: `kubernetes.io`). Times in seconds since the epoch. */
export interface TokenClaims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  'kubernetes.io': KubernetesClaims;
  nbf: number;
  sub: string;
}

/** Minimal object shape the claims need (name, namespace, uid). */
export interface MetaObject {
  metadata: { name: string; namespace?: string; uid?: string; deletionTimestamp?: string };
}

/** apiserverserviceaccount.MakeUsername: `system:serviceaccount:NS:NAME`. */
export function makeUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** apiserverserviceaccount.MakeGroupNames: system:serviceaccounts, system:serviceaccounts:NS. */
export function makeGroupNames(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** serviceaccount.CredentialIDForJTI: `JTI=<jti>` (empty for an empty jti). */
export function credentialIDForJTI(jti: string): string {
  return jti ? `JTI=${jti}` : '';
}

/**
 * claims.go Claims: the claims of a token for `sa`, bound to a Pod (with its node, when the
 * Pod is scheduled: ServiceAccountTokenPodNodeInfo), a Secret or a Node.
 * @param nowSec seconds since the epoch (simulated clock)
 * @param expirationSeconds lifetime in seconds
 * @param warnafter seconds after now to warn at, 0 for none
 * @throws Error `internal error, token can only be bound to one object type` for a Secret with a Pod or Node.
 */
export function claims(
  sa: MetaObject,
  bound: { pod?: MetaObject; secret?: MetaObject; node?: { name: string; uid?: string } },
  expirationSeconds: number,
  warnafter: number,
  audience: string[],
  nowSec: number,
  jti: string,
): TokenClaims {
  const ns = sa.metadata.namespace ?? '';
  const k: KubernetesClaims = { namespace: ns, serviceaccount: { name: sa.metadata.name, uid: sa.metadata.uid ?? '' } };
  if (bound.secret && (bound.pod || bound.node)) throw new Error('internal error, token can only be bound to one object type');
  if (bound.pod) {
    k.pod = { name: bound.pod.metadata.name, uid: bound.pod.metadata.uid ?? '' };
    if (bound.node) k.node = bound.node.uid ? { name: bound.node.name, uid: bound.node.uid } : { name: bound.node.name };
  } else if (bound.secret) {
    k.secret = { name: bound.secret.metadata.name, uid: bound.secret.metadata.uid ?? '' };
  } else if (bound.node) {
    k.node = { name: bound.node.name, uid: bound.node.uid ?? '' };
  }
  if (warnafter) k.warnafter = nowSec + warnafter;
  return {
    aud: [...audience],
    exp: nowSec + expirationSeconds,
    iat: nowSec,
    iss: SERVICE_ACCOUNT_ISSUER,
    jti,
    'kubernetes.io': k,
    nbf: nowSec,
    sub: makeUsername(ns, sa.metadata.name),
  };
}

/** base64.RawURLEncoding decode to a UTF-8 string; null when `s` is not raw base64url or not UTF-8. */
export function base64urlDecodeText(s: string): string | null {
  const bytes = base64RawURLDecode(s);
  if (!bytes) return null;
  try {
    // decodeURIComponent of %XX escapes: UTF-8 with invalid sequences refused (URIError)
    return decodeURIComponent(Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
  } catch {
    return null;
  }
}

/** The claims as JSON, keys in encoding/json's sorted-map order. */
function claimsJSON(c: TokenClaims): string {
  const k = c['kubernetes.io'];
  const ref = (r: Partial<ClaimRef>) => ({ ...(r.name ? { name: r.name } : {}), ...(r.uid ? { uid: r.uid } : {}) });
  const kube = {
    ...(k.namespace ? { namespace: k.namespace } : {}),
    ...(k.node ? { node: ref(k.node) } : {}),
    ...(k.pod ? { pod: ref(k.pod) } : {}),
    ...(k.secret ? { secret: ref(k.secret) } : {}),
    serviceaccount: ref(k.serviceaccount),
    ...(k.warnafter ? { warnafter: k.warnafter } : {}),
  };
  return JSON.stringify({
    aud: c.aud,
    exp: c.exp,
    iat: c.iat,
    iss: c.iss,
    ...(c.jti ? { jti: c.jti } : {}),
    'kubernetes.io': kube,
    nbf: c.nbf,
    sub: c.sub,
  });
}

/**
 * The signer and verifier of ServiceAccount tokens (jwt.go JWTTokenGenerator and the
 * signature half of JWTTokenAuthenticator), keyed by a secret string (see the file comment:
 * a keyed hash, not RSA).
 */
export class TokenSigner {
  /** The header's key id (43 base64url characters). */
  readonly kid: string;
  /** `key|i|` for i = 0..7: the prefixes of the signature's eight hashed strings. */
  private readonly prefixes: readonly string[];
  /** The token's first part, the same for every token: base64url of `{"alg":"RS256","kid":KID}`. */
  private readonly header: string;
  constructor(key: string) {
    this.kid = base64url(sha256(`kid|${key}`));
    this.prefixes = Array.from({ length: 8 }, (_, i) => `${key}|${i}|`);
    this.header = base64url(utf8(JSON.stringify({ alg: 'RS256', kid: this.kid })));
  }

  /** The 256-byte keyed hash of the file comment, base64url: SHA-256 of `key|i|signingInput` for i = 0..7, concatenated. */
  private signature(signingInput: string): string {
    return base64url(sha256Each(this.prefixes, signingInput));
  }

  /** GenerateToken: the compact JWS of `c`. */
  generateToken(c: TokenClaims): string {
    const input = `${this.header}.${base64url(utf8(claimsJSON(c)))}`;
    return `${input}.${this.signature(input)}`;
  }

  /**
   * Parses and verifies a token this signer issued.
   * @returns the claims, or null when `token` is not a JWT, not from this issuer or its signature does not verify
   *   (AuthenticateToken then answers "no opinion"/invalid: the request is 401).
   */
  verify(token: string): TokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const header = base64urlDecodeText(parts[0]);
    const body = base64urlDecodeText(parts[1]);
    if (header === null || body === null) return null;
    let h: unknown, c: unknown;
    try {
      h = JSON.parse(header);
      c = JSON.parse(body);
    } catch {
      return null;
    }
    if (!h || typeof h !== 'object' || (h as { alg?: unknown }).alg !== 'RS256') return null;
    if (!c || typeof c !== 'object' || (c as { iss?: unknown }).iss !== SERVICE_ACCOUNT_ISSUER) return null;
    if (this.signature(`${parts[0]}.${parts[1]}`) !== parts[2]) return null;
    const claims = c as TokenClaims;
    const k = claims['kubernetes.io'];
    if (!k || typeof k !== 'object' || !k.serviceaccount || typeof k.serviceaccount.name !== 'string') return null;
    return claims;
  }
}

/** apiserverserviceaccount.ServiceAccountInfo. */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName: string;
  podUID: string;
  nodeName: string;
  nodeUID: string;
  credentialID: string;
}

/** What the validator reads (claims.go ServiceAccountTokenGetter): the live objects, or undefined when absent. */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): MetaObject | undefined;
  getPod(namespace: string, name: string): MetaObject | undefined;
  getSecret(namespace: string, name: string): MetaObject | undefined;
  getNode(name: string): MetaObject | undefined;
}

/** An RFC 3339 timestamp → seconds since the epoch. */
const seconds = (ts: string): number => Date.parse(ts) / 1000;

/**
 * claims.go validator.Validate: time claims against the simulated clock (with go-jose's one
 * minute leeway), then the ServiceAccount and the bound Pod, Secret or Node must still exist
 * with the uid of the claim and not have been deleted before now − leeway.
 * @param nowSec seconds since the epoch
 * @throws Error with upstream's text: `service account token has expired`,
 *   `service account token is not valid yet`, `service account token is issued in the future`,
 *   `serviceaccounts "x" not found`, `service account UID (a) does not match claim (b)`,
 *   `service account NS/NAME has been deleted`, `pods "x" not found`,
 *   `pod UID (a) does not match claim (b)`, `pod NS/NAME has been deleted` (and the same for
 *   secrets and nodes).
 */
export function validate(c: TokenClaims, nowSec: number, getter: ServiceAccountTokenGetter): ServiceAccountInfo {
  // jwt.Claims.ValidateWithLeeway (go-jose/v4 jwt/validation.go), in its order
  if (typeof c.nbf === 'number' && nowSec + DefaultLeewaySeconds < c.nbf) throw new Error('service account token is not valid yet');
  if (typeof c.exp === 'number' && nowSec - DefaultLeewaySeconds > c.exp) throw new Error('service account token has expired');
  if (typeof c.iat === 'number' && nowSec + DefaultLeewaySeconds < c.iat) throw new Error('service account token is issued in the future');
  const invalidIfDeletedBefore = nowSec - DefaultLeewaySeconds;
  const deleted = (o: MetaObject) => !!o.metadata.deletionTimestamp && seconds(o.metadata.deletionTimestamp) < invalidIfDeletedBefore;
  const k = c['kubernetes.io'];
  const namespace = k.namespace ?? '';
  const saref = k.serviceaccount;
  const sa = getter.getServiceAccount(namespace, saref.name);
  if (!sa) throw new Error(`serviceaccounts "${saref.name}" not found`);
  if ((sa.metadata.uid ?? '') !== saref.uid)
    throw new Error(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${saref.uid})`);
  if (deleted(sa)) throw new Error(`service account ${namespace}/${saref.name} has been deleted`);
  if (k.secret) {
    const s = getter.getSecret(namespace, k.secret.name);
    if (!s) throw new Error(`secrets "${k.secret.name}" not found`);
    if ((s.metadata.uid ?? '') !== k.secret.uid)
      throw new Error(`secret UID (${s.metadata.uid ?? ''}) does not match claim (${k.secret.uid})`);
    if (deleted(s)) throw new Error(`secret ${namespace}/${k.secret.name} has been deleted`);
  }
  let podName = '',
    podUID = '';
  if (k.pod) {
    const p = getter.getPod(namespace, k.pod.name);
    if (!p) throw new Error(`pods "${k.pod.name}" not found`);
    if ((p.metadata.uid ?? '') !== k.pod.uid) throw new Error(`pod UID (${p.metadata.uid ?? ''}) does not match claim (${k.pod.uid})`);
    if (deleted(p)) throw new Error(`pod ${namespace}/${k.pod.name} has been deleted`);
    podName = k.pod.name;
    podUID = k.pod.uid;
  }
  let nodeName = '',
    nodeUID = '';
  if (k.node) {
    if (k.pod) {
      // pod-bound: the node claims are only extracted (ServiceAccountTokenPodNodeInfo)
      nodeName = k.node.name ?? '';
      nodeUID = k.node.uid ?? '';
    } else {
      const n = getter.getNode(k.node.name ?? '');
      if (!n) throw new Error(`nodes "${k.node.name ?? ''}" not found`);
      if ((n.metadata.uid ?? '') !== (k.node.uid ?? ''))
        throw new Error(`node UID (${n.metadata.uid ?? ''}) does not match claim (${k.node.uid ?? ''})`);
      if (deleted(n)) throw new Error(`node ${k.node.name ?? ''} has been deleted`);
      nodeName = k.node.name ?? '';
      nodeUID = k.node.uid ?? '';
    }
  }
  return {
    namespace,
    name: saref.name,
    uid: saref.uid,
    podName,
    podUID,
    nodeName,
    nodeUID,
    credentialID: credentialIDForJTI(typeof c.jti === 'string' ? c.jti : ''),
  };
}

/** The authenticated user of a token (user.Info, plus system:authenticated as the group adder adds it). */
export interface TokenUser {
  name: string;
  uid: string;
  groups: string[];
  /** null-prototype map of the extra keys, in UserInfo's insertion order */
  extra: Record<string, string[]>;
}

/** Extra keys (staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go). */
export const PodNameKey = 'authentication.kubernetes.io/pod-name';
export const PodUIDKey = 'authentication.kubernetes.io/pod-uid';
export const NodeNameKey = 'authentication.kubernetes.io/node-name';
export const NodeUIDKey = 'authentication.kubernetes.io/node-uid';
export const CredentialIDKey = 'authentication.kubernetes.io/credential-id';

/** ServiceAccountInfo.UserInfo, with `system:authenticated` appended (authenticator.AuthenticatedGroupAdder). */
export function userInfo(sa: ServiceAccountInfo): TokenUser {
  const extra: Record<string, string[]> = Object.create(null);
  if (sa.podName && sa.podUID) {
    extra[PodNameKey] = [sa.podName];
    extra[PodUIDKey] = [sa.podUID];
  }
  if (sa.credentialID) extra[CredentialIDKey] = [sa.credentialID];
  if (sa.nodeName) {
    extra[NodeNameKey] = [sa.nodeName];
    if (sa.nodeUID) extra[NodeUIDKey] = [sa.nodeUID];
  }
  return {
    name: makeUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: [...makeGroupNames(sa.namespace), 'system:authenticated'],
    extra,
  };
}
