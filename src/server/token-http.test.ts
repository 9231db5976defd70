/**
 * The TokenRequest over HTTP (POST /api/v1/namespaces/NS/serviceaccounts/NAME/token) and the
 * ServiceAccount token authenticator (`Authorization: Bearer <that token>`, auth.ts): the
 * request runs as `system:serviceaccount:NS:NAME`; a token the engine did not issue is 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';

let srv: RunningServer;
const j = async (path: string, token: string, init: RequestInit = {}) => {
  const r = await globalThis.fetch(srv.url + path, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  });
  return { code: r.status, body: (await r.json()) as any };
};

beforeAll(async () => {
  srv = await startServer(new Cluster({ nodes: 1 }), { port: 0, speed: 50 });
  await j('/api/v1/namespaces/default/serviceaccounts', srv.token, {
    method: 'POST',
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } }),
  });
});
afterAll(async () => srv.close());

describe('TokenRequest over HTTP', () => {
  it.each([
    ['a missing ServiceAccount', 'nope', {}, 404, 'serviceaccounts "nope" not found'],
    [
      'a short expiration',
      'robot',
      { spec: { expirationSeconds: 60 } },
      422,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    ],
    [
      'a body of another kind (a Pod)',
      'robot',
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'robot' } },
      400,
      'Pod in version "v1" cannot be handled as a TokenRequest: converting (k8s.io/api/core/v1) Pod to (k8s.io/kubernetes/pkg/apis/authentication) TokenRequest: unknown conversion',
    ],
    [
      'a TokenRequest of the core group',
      'robot',
      { apiVersion: 'v1', kind: 'TokenRequest' },
      400,
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: no kind "TokenRequest" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
    [
      'a TokenRequest of a version the group does not have',
      'robot',
      { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenRequest' },
      400,
      'TokenRequest in version "v1beta1" cannot be handled as a TokenRequest: no kind "TokenRequest" is registered for version "authentication.k8s.io/v1beta1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
    [
      'no object at all',
      'robot',
      [],
      400,
      'the object provided is unrecognized (must be of type TokenRequest): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)',
    ],
    [
      'expirationSeconds as a string',
      'robot',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: '600' } },
      400,
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64',
    ],
    [
      'expirationSeconds not an integer',
      'robot',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600.5 } },
      400,
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal number 600.5 into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64',
    ],
    [
      'audiences not a list',
      'robot',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: 'api' } },
      400,
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.audiences of type []string',
    ],
    [
      'expirationSeconds over 2^32',
      'robot',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 2 ** 32 + 1 } },
      422,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ],
  ])('%s', async (_n, sa, body, code, message) => {
    const r = await j(`/api/v1/namespaces/default/serviceaccounts/${sa}/token`, srv.token, { method: 'POST', body: JSON.stringify(body) });
    expect([r.code, r.body.message]).toEqual([code, message]);
  });

  it('a token it issued authenticates the ServiceAccount; RBAC then decides', async () => {
    const r = await j('/api/v1/namespaces/default/serviceaccounts/robot/token', srv.token, {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }),
    });
    expect([r.code, r.body.kind, r.body.spec]).toEqual([
      201,
      'TokenRequest',
      { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 },
    ]);
    const token: string = r.body.status.token;
    const who = await j('/apis/authentication.k8s.io/v1/selfsubjectreviews', token, {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    expect([who.code, who.body.status.userInfo.username, who.body.status.userInfo.groups]).toEqual([
      201,
      'system:serviceaccount:default:robot',
      ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    ]);
    const pods = await j('/api/v1/namespaces/default/pods', token);
    expect([pods.code, pods.body.message]).toEqual([
      403,
      'pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"',
    ]);
    const bad = await j('/api/v1/namespaces/default/pods', token.slice(0, -4) + 'AAAA');
    expect([bad.code, bad.body.message]).toEqual([401, 'Unauthorized']);
  });
});
