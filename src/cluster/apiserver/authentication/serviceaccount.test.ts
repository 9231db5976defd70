import { describe, expect, it } from 'vitest';
import { TokenSigner, claims, userInfo, validate, type MetaObject, type ServiceAccountTokenGetter } from './serviceaccount';

const sa: MetaObject = { metadata: { name: 'default', namespace: 'default', uid: 'sa-uid' } };
const pod: MetaObject = { metadata: { name: 'web', namespace: 'default', uid: 'pod-uid' } };
const NOW = 1_700_000_000;
const getter = (over: Partial<Record<'sa' | 'pod', MetaObject | undefined>> = {}): ServiceAccountTokenGetter => ({
  getServiceAccount: () => ('sa' in over ? over.sa : sa),
  getPod: () => ('pod' in over ? over.pod : pod),
  getSecret: () => undefined,
  getNode: () => undefined,
});

describe('ServiceAccount token claims and validation (claims.go)', () => {
  const c = claims(
    sa,
    { pod, node: { name: 'node-1', uid: 'node-uid' } },
    3600,
    0,
    ['https://kubernetes.default.svc.cluster.local'],
    NOW,
    'j1',
  );
  const signer = new TokenSigner('key');

  it('signs a JWT whose claims are in encoding/json order and verifies it', () => {
    const t = signer.generateToken(c);
    const [h, b] = t.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'RS256', kid: signer.kid });
    expect(Buffer.from(b, 'base64url').toString()).toBe(
      `{"aud":["https://kubernetes.default.svc.cluster.local"],"exp":${NOW + 3600},"iat":${NOW},"iss":"https://kubernetes.default.svc.cluster.local","jti":"j1","kubernetes.io":{"namespace":"default","node":{"name":"node-1","uid":"node-uid"},"pod":{"name":"web","uid":"pod-uid"},"serviceaccount":{"name":"default","uid":"sa-uid"}},"nbf":${NOW},"sub":"system:serviceaccount:default:default"}`,
    );
    expect(signer.verify(t)).toEqual(c);
    expect(new TokenSigner('other').verify(t)).toBeNull();
    expect(signer.verify(t.slice(0, -2) + 'AA')).toBeNull();
  });

  it.each<[string, number, Partial<Record<'sa' | 'pod', MetaObject | undefined>>, string]>([
    ['expired', NOW + 3600 + 61, {}, 'service account token has expired'],
    ['not yet valid', NOW - 61, {}, 'service account token is not valid yet'],
    ['sa gone', NOW, { sa: undefined }, 'serviceaccounts "default" not found'],
    ['sa recreated', NOW, { sa: { metadata: { ...sa.metadata, uid: 'x' } } }, 'service account UID (x) does not match claim (sa-uid)'],
    ['pod gone', NOW, { pod: undefined }, 'pods "web" not found'],
    ['pod recreated', NOW, { pod: { metadata: { ...pod.metadata, uid: 'y' } } }, 'pod UID (y) does not match claim (pod-uid)'],
  ])('%s', (_n, now, over, msg) => {
    expect(() => validate(c, now, getter(over))).toThrow(msg);
  });

  it('maps a valid token to the ServiceAccount user with v1.33 extra', () => {
    const u = userInfo(validate(c, NOW, getter()));
    expect(u.name).toBe('system:serviceaccount:default:default');
    expect(u.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    expect({ ...u.extra }).toEqual({
      'authentication.kubernetes.io/pod-name': ['web'],
      'authentication.kubernetes.io/pod-uid': ['pod-uid'],
      'authentication.kubernetes.io/credential-id': ['JTI=j1'],
      'authentication.kubernetes.io/node-name': ['node-1'],
      'authentication.kubernetes.io/node-uid': ['node-uid'],
    });
  });
});
