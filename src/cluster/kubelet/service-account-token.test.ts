/**
 * The projected ServiceAccount token of a Pod (volumes.ts, token-manager.ts): the kubelet asks
 * for it as system:node:<node>; the file holds a JWT bound to the Pod that the apiserver
 * accepts; it is refreshed on a resync after 80% of its TTL; it leaves the cache with the Pod;
 * a failed request fails the mount with upstream's FailedMount text.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import type { TokenClaims } from '../apiserver/authentication/serviceaccount';
import { ExpirationExtensionSeconds } from '../apiserver/authentication/serviceaccount';

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount/token';

const POD = `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  containers:
  - {name: sh, image: busybox:1.36, command: [sh, -c, "sleep 360000"]}
`;

/** The claims of a compact JWS (its middle part). */
function claimsOf(jwt: string): TokenClaims {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as TokenClaims;
}

function catToken(c: Cluster, pod = 'app', path = TOKEN_PATH): string {
  const r = c.kubectl(`exec ${pod} -- cat ${path}`);
  expect(r.error).toBeNull();
  return r.output;
}

/** The kubelets' TokenRequest hops (request, response) for default/default since `seq`: [time ms, from, to, summary]. */
function tokenHops(c: Cluster, seq = 0): [number, string, string, string][] {
  return c.relay
    .since(seq)
    .filter(
      (h) =>
        h.resource === 'serviceaccounts' &&
        h.namespace === 'default' &&
        h.name === 'default' &&
        (h.from.startsWith('kubelet/') || h.to.startsWith('kubelet/')),
    )
    .map((h) => [h.time, h.from, h.to, h.summary]);
}

describe('the kube-api-access token', () => {
  const c = new Cluster({ seed: 11 });
  const seq = c.relay.lastSeq;
  c.apply(POD);
  c.settle(120_000);
  const pod = c.get('pods', 'default', 'app')!;
  const node = pod.spec.nodeName as string;
  const token = catToken(c);
  const claims = claimsOf(token);
  const [req] = tokenHops(c, seq);

  it('is requested by the Pod node’s kubelet (system:node) once, answered 201', () => {
    const hops = tokenHops(c, seq);
    expect(hops.map(([, from, to, s]) => [from, to, s])).toEqual([
      [`kubelet/${node}`, 'kube-apiserver', 'create token for ServiceAccount default/default'],
      [
        'kube-apiserver',
        `kubelet/${node}`,
        `201 Created TokenRequest: expires ${new Date((claims.iat + 3607) * 1000).toISOString().replace('.000Z', 'Z')}`,
      ],
    ]);
  });

  it('is bound to the Pod and its node, for the apiserver’s audience; 3607 s extended to a year with warnafter', () => {
    const nodeObj = c.get('nodes', '', node)!;
    const sa = c.get('serviceaccounts', 'default', 'default')!;
    expect(claims.iat).toBe(Math.floor(req[0] / 1000));
    expect(claims).toEqual({
      aud: ['https://kubernetes.default.svc.cluster.local'],
      exp: claims.iat + ExpirationExtensionSeconds,
      iat: claims.iat,
      iss: 'https://kubernetes.default.svc.cluster.local',
      jti: claims.jti,
      'kubernetes.io': {
        namespace: 'default',
        node: { name: node, uid: nodeObj.metadata.uid },
        pod: { name: 'app', uid: pod.metadata.uid },
        serviceaccount: { name: 'default', uid: sa.metadata.uid },
        warnafter: claims.iat + 3607,
      },
      nbf: claims.iat,
      sub: 'system:serviceaccount:default:default',
    });
  });

  it('authenticates as the ServiceAccount, with the Pod in the extra', () => {
    const a = c.api.authenticateToken(token);
    expect('user' in a && { name: a.user.name, groups: a.user.groups, extra: { ...a.user.extra } }).toEqual({
      name: 'system:serviceaccount:default:default',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: {
        'authentication.kubernetes.io/pod-name': ['app'],
        'authentication.kubernetes.io/pod-uid': [pod.metadata.uid],
        'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`],
        'authentication.kubernetes.io/node-name': [node],
        'authentication.kubernetes.io/node-uid': [c.get('nodes', '', node)!.metadata.uid],
      },
    });
  });

  it('is refreshed on the first resync (mount + k minutes) after 80% of 3607 s less the jitter; the file changes', () => {
    const mountedAt = req[0];
    const iatMs = claims.iat * 1000;
    const seq2 = c.relay.lastSeq;
    // exp − 721 s − jitter (0..9 s) = iat + 2876..2886 s: before that no request, the same file
    c.advance(iatMs + 2876_000 - c.clock.now());
    expect([tokenHops(c, seq2), catToken(c)]).toEqual([[], token]);
    c.advance(120_000);
    const hops = tokenHops(c, seq2);
    expect(hops.length).toBe(2);
    const at = hops[0][0];
    expect((at - mountedAt) % 60_000).toBe(0);
    expect(at > iatMs + 2876_000 && at <= iatMs + 2886_000 + 60_000).toBe(true);
    expect(at - mountedAt).toBe(49 * 60_000); // this seed's jitter draw: at 48 min the token did not yet need it
    const fresh = catToken(c);
    expect(fresh).not.toBe(token);
    expect(claimsOf(fresh).iat).toBe(Math.floor(at / 1000));
    expect(claimsOf(fresh)['kubernetes.io'].pod).toEqual({ name: 'app', uid: pod.metadata.uid });
    // the next one: 48 or 49 minutes later again, nothing in between
    c.advance(40 * 60_000);
    expect(tokenHops(c, seq2).length).toBe(2);
  });

  it('leaves the kubelet’s cache with the Pod (DeleteServiceAccountToken)', () => {
    const k = c.kubelets.get(node)!;
    expect(k.volumes.tokens.size).toBe(1);
    c.kubectl('delete pod app');
    c.settle(120_000);
    expect(k.volumes.tokens.size).toBe(0);
  });
});

describe('a projected serviceAccountToken source of its own', () => {
  const c = new Cluster({ seed: 12 });
  c.apply(`apiVersion: v1
kind: Pod
metadata: {name: vault-client}
spec:
  containers:
  - name: sh
    image: busybox:1.36
    command: [sh, -c, "sleep 360000"]
    volumeMounts: [{name: vault-token, mountPath: /var/run/secrets/tokens}]
  volumes:
  - name: vault-token
    projected:
      sources:
      - serviceAccountToken: {audience: vault, expirationSeconds: 7200, path: vault/token}
`);
  c.settle(120_000);

  it('has its audience, its lifetime (no extension), its path; the apiserver refuses it (audience)', () => {
    const token = catToken(c, 'vault-client', '/var/run/secrets/tokens/vault/token');
    const cl = claimsOf(token);
    expect([cl.aud, cl.exp - cl.iat, cl['kubernetes.io'].warnafter, cl['kubernetes.io'].pod?.name]).toEqual([
      ['vault'],
      7200,
      undefined,
      'vault-client',
    ]);
    expect(c.api.authenticateToken(token)).toEqual({ error: 'token audiences is invalid' });
    // the kube-api-access volume beside it has a token of its own
    expect(claimsOf(catToken(c, 'vault-client')).aud).toEqual(['https://kubernetes.default.svc.cluster.local']);
    const node = c.get('pods', 'default', 'vault-client')!.spec.nodeName as string;
    expect(c.kubelets.get(node)!.volumes.tokens.size).toBe(2);
  });
});

describe('a token request that fails', () => {
  const c = new Cluster({ seed: 13 });
  c.apply(`apiVersion: v1
kind: ServiceAccount
metadata: {name: robot}
`);
  c.settle(60_000);
  c.apply(POD.replace('spec:\n', 'spec:\n  serviceAccountName: robot\n'));
  // the ServiceAccount goes before the kubelet mounts the Pod's volumes
  c.kubectl('delete serviceaccount robot');
  c.settle(20_000);
  const pod = c.get('pods', 'default', 'app')!;
  const vol = (pod.spec.volumes as KObject[]).find((v) => v.name.startsWith('kube-api-access-'))!.name as string;
  const events = () =>
    c
      .list('events', 'default')
      .filter((e) => e.reason === 'FailedMount')
      .map((e) => `${e.type} ${e.reason} x${e.count}: ${e.message}`);

  it('fails the mount with FailedMount "failed to fetch token: …", retried with back-off; the Pod stays ContainerCreating', () => {
    expect(events()).toEqual([expect.stringMatching(/^Warning FailedMount x\d+: /)]);
    expect(events()[0].replace(/ x\d+:/, ':')).toBe(
      `Warning FailedMount: MountVolume.SetUp failed for volume "${vol}" : failed to fetch token: serviceaccounts "robot" not found`,
    );
    expect(c.get('pods', 'default', 'app')!.status.containerStatuses[0].state.waiting.reason).toBe('ContainerCreating');
  });

  it('mounts once the ServiceAccount is back', () => {
    c.apply(`apiVersion: v1
kind: ServiceAccount
metadata: {name: robot}
`);
    c.settle(300_000);
    expect(c.get('pods', 'default', 'app')!.status.phase).toBe('Running');
    expect(claimsOf(catToken(c)).sub).toBe('system:serviceaccount:default:robot');
  });
});

describe('a Pod that completes', () => {
  const c = new Cluster({ seed: 14 });
  c.apply(`apiVersion: v1
kind: Pod
metadata: {name: once}
spec:
  restartPolicy: Never
  containers:
  - {name: sh, image: busybox:1.36, command: [sh, -c, "sleep 5"]}
`);
  c.settle(120_000);

  it('drops its token when it terminates, and is not refreshed after', () => {
    const pod = c.get('pods', 'default', 'once')!;
    expect(pod.status.phase).toBe('Succeeded');
    expect(c.kubelets.get(pod.spec.nodeName)!.volumes.tokens.size).toBe(0);
    const seq = c.relay.lastSeq;
    c.advance(60 * 60_000);
    expect(tokenHops(c, seq)).toEqual([]);
  });
});
