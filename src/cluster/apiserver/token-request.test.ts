/**
 * serviceaccounts/token (token-request.ts), `kubectl create token` (kubectl/cmd/create-token.ts)
 * and ServiceAccount bearer-token authentication (APIServer.authenticateToken, kubectl --token):
 * the texts are kube-apiserver v1.33's (pkg/registry/core/serviceaccount/storage/token.go,
 * pkg/apis/authentication/validation/validation.go, pkg/serviceaccount/claims.go) and kubectl's
 * (staging/src/k8s.io/kubectl/pkg/cmd/create/create_token.go).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { StatusError } from '../api/errors';
import { users } from './authentication/user';
import { base64urlDecodeText } from './authentication/serviceaccount';
import type { TokenRequest } from './token-request';

function booted(seed = 1): Cluster {
  const c = new Cluster({ seed });
  c.kubectl('run web --image=nginx');
  c.kubectl('create secret generic s --from-literal=a=b');
  const sa = c.api.registry.forResource('', 'serviceaccounts')!;
  c.api.create(users.kubectl(), sa, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other' } });
  c.settle(60_000);
  return c;
}

const claimsOf = (token: string) => JSON.parse(base64urlDecodeText(token.split('.')[1])!);

describe('POST serviceaccounts/NAME/token', () => {
  let c: Cluster;
  beforeAll(() => {
    c = booted();
  });
  const admin = users.kubectl();

  it.each<[string, string, string, TokenRequest, number, string]>([
    ['missing ServiceAccount', 'default', 'nope', {}, 404, 'serviceaccounts "nope" not found'],
    [
      'expirationSeconds under ten minutes',
      'default',
      'default',
      { spec: { expirationSeconds: 599 } },
      422,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ],
    [
      'expirationSeconds over 2^32',
      'default',
      'default',
      { spec: { expirationSeconds: 2 ** 32 + 1 } },
      422,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ],
    [
      'body name differs from the URL',
      'default',
      'default',
      { metadata: { name: 'x' } },
      422,
      'TokenRequest.authentication.k8s.io "default" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified',
    ],
    [
      'bound Pod missing',
      'default',
      'default',
      { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } } },
      404,
      'pods "gone" not found',
    ],
    [
      'bound Pod named without apiVersion: the core group, as schema.FromAPIVersionAndKind reads it',
      'default',
      'default',
      { spec: { boundObjectRef: { kind: 'Pod', name: 'gone' } } },
      404,
      'pods "gone" not found',
    ],
    [
      'bound Pod runs as another ServiceAccount',
      'default',
      'other',
      { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } } },
      400,
      'cannot bind token for serviceaccount "other" to pod running with different serviceaccount name.',
    ],
    [
      'unsupported kind',
      'default',
      'default',
      { spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } } },
      400,
      'cannot bind token to object of type /v1, Kind=ConfigMap',
    ],
    [
      'uid mismatch',
      'default',
      'default',
      { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'u-1' } } },
      409,
      'Operation cannot be fulfilled on Secret "s": the UID in the bound object reference (u-1) does not match the UID in record. The object might have been deleted and then recreated',
    ],
  ])('%s', (_n, ns, sa, body, code, message) => {
    let err: unknown;
    try {
      c.api.createToken(admin, ns, sa, body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    expect([(err as StatusError).status.code, (err as StatusError).status.message]).toEqual([code, message]);
  });

  it('answers the TokenRequest with defaults, the token claims and the expiration', () => {
    const now = c.clock.nowRFC3339();
    const out = c.api.createToken(admin, 'default', 'default', {});
    expect({ ...out, status: { ...out.status, token: '' } }).toEqual({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'default', namespace: 'default', creationTimestamp: now },
      spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 },
      status: { token: '', expirationTimestamp: new Date(Date.parse(now) + 3600_000).toISOString().replace('.000Z', 'Z') },
    });
    const cl = claimsOf(out.status!.token);
    const sa = c.api.getObject('serviceaccounts', 'default', 'default')!;
    expect([cl.sub, cl.exp - cl.iat, cl['kubernetes.io']]).toEqual([
      'system:serviceaccount:default:default',
      3600,
      { namespace: 'default', serviceaccount: { name: 'default', uid: sa.metadata.uid } },
    ]);
  });

  it('binds to a Pod (with its node) and extends the kubelet’s 3607 s request', () => {
    const pod = c.api.getObject('pods', 'default', 'web')!;
    const node = c.api.getObject('nodes', '', pod.spec!.nodeName)!;
    const out = c.api.createToken(admin, 'default', 'default', {
      spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } },
    });
    const cl = claimsOf(out.status!.token);
    expect([out.spec!.expirationSeconds, cl.exp - cl.iat, cl['kubernetes.io'].warnafter - cl.iat]).toEqual([3607, 31536000, 3607]);
    expect([cl['kubernetes.io'].pod, cl['kubernetes.io'].node]).toEqual([
      { name: 'web', uid: pod.metadata.uid },
      { name: node.metadata.name, uid: node.metadata.uid },
    ]);
  });

  it('accepts expirationSeconds of exactly 2^32 (validation refuses only more)', () => {
    expect(c.api.createToken(admin, 'default', 'default', { spec: { expirationSeconds: 2 ** 32 } }).spec!.expirationSeconds).toBe(2 ** 32);
  });

  it('draws its hops as other writes: request, the authn/authz/admission note, response', () => {
    const from = c.relay.all().length;
    c.api.createToken(admin, 'default', 'default', {});
    try {
      c.api.createToken(admin, 'default', 'nope', {});
    } catch {
      // 404
    }
    expect(
      c.relay
        .all()
        .slice(from)
        .map((h) => `${h.from} → ${h.to} ${h.kind} ${h.resource} ${h.namespace}/${h.name}: ${h.summary.replace(/\d{4}-\S+Z/, '<time>')}`),
    ).toEqual([
      'kubectl → kube-apiserver request serviceaccounts default/default: create token for ServiceAccount default/default',
      'kube-apiserver → kube-apiserver note serviceaccounts default/default: authn kubernetes-admin [kubeadm:cluster-admins system:authenticated] · authz allow create serviceaccounts/token by ClusterRoleBinding kubeadm:cluster-admins → ClusterRole cluster-admin · admission',
      'kube-apiserver → kubectl response serviceaccounts default/default: 201 Created TokenRequest: expires <time>',
      'kubectl → kube-apiserver request serviceaccounts default/nope: create token for ServiceAccount default/nope',
      'kube-apiserver → kube-apiserver note serviceaccounts default/nope: authn kubernetes-admin [kubeadm:cluster-admins system:authenticated] · authz allow create serviceaccounts/token by ClusterRoleBinding kubeadm:cluster-admins → ClusterRole cluster-admin · admission',
      'kube-apiserver → kubectl response serviceaccounts default/nope: 404 NotFound: serviceaccounts "nope" not found',
    ]);
  });

  it('is authorized as create serviceaccounts/token', () => {
    const jane = { name: 'jane', participant: 'kubectl', groups: ['system:authenticated'] };
    expect(() => c.api.createToken(jane, 'default', 'default', {})).toThrow(
      'serviceaccounts "default" is forbidden: User "jane" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default"',
    );
  });

  it('draws no uid from the shared stream', () => {
    const a = booted(7);
    const b = booted(7);
    const first = a.kubectl('create token default').output;
    a.kubectl('create configmap after');
    b.kubectl('create configmap after');
    expect(a.api.getObject('configmaps', 'default', 'after')!.metadata.uid).toBe(
      b.api.getObject('configmaps', 'default', 'after')!.metadata.uid,
    );
    expect(b.kubectl('create token default').output).toBe(first);
  });
});

describe('kubectl create token', () => {
  let c: Cluster;
  beforeAll(() => {
    c = booted();
  });

  it.each([
    ['no name', 'create token', "error: exactly one NAME is required, got 0\nSee 'kubectl create token -h' for help and examples"],
    ['two names', 'create token a b', "error: exactly one NAME is required, got 2\nSee 'kubectl create token -h' for help and examples"],
    [
      'not a duration',
      'create token default --duration 1d',
      'error: invalid argument "1d" for "--duration" flag: time: unknown unit "d" in duration "1d"\nSee \'kubectl create token --help\' for usage.',
    ],
    ['negative duration', 'create token default --duration=-1h', 'error: --duration must be greater than or equal to 0'],
    ['sub-second duration', 'create token default --duration 1500ms', 'error: --duration cannot be expressed in units less than seconds'],
    ['empty audience', 'create token default --audience=', 'error: --audience must not be an empty string'],
    [
      'name without kind',
      'create token default --bound-object-name x',
      'error: --bound-object-name can only be set if --bound-object-kind is provided',
    ],
    [
      'uid without kind',
      'create token default --bound-object-uid u',
      'error: --bound-object-uid can only be set if --bound-object-kind is provided',
    ],
    [
      'ConfigMap kind',
      'create token default --bound-object-kind ConfigMap --bound-object-name n',
      'error: supported --bound-object-kind values are Node, Pod, Secret',
    ],
    [
      'a Node that does not exist',
      'create token default --bound-object-kind Node --bound-object-name n',
      'error: failed to create token: nodes "n" not found',
    ],
    [
      'expirationSeconds over 2^32',
      'create token default --duration 4294967297s',
      'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ],
    [
      'kind without name',
      'create token default --bound-object-kind Pod',
      'error: --bound-object-name is required if --bound-object-kind is provided',
    ],
    [
      'bad output',
      'create token default -o wide',
      'error: unable to match a printer suitable for the output format "wide", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml',
    ],
    ['missing ServiceAccount', 'create token nope -n kube-system', 'error: failed to create token: serviceaccounts "nope" not found'],
    [
      'server validation',
      'create token default --duration 5m',
      'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes',
    ],
    [
      'Pod of another ServiceAccount',
      'create token other --bound-object-kind Pod --bound-object-name web',
      'error: failed to create token: cannot bind token for serviceaccount "other" to pod running with different serviceaccount name.',
    ],
  ])('%s', (_n, cmd, want) => {
    const r = c.kubectl(cmd);
    expect([r.output, r.error?.trimEnd(), r.exitCode]).toEqual(['', want, 1]);
  });

  it.each([
    ['defaults', 'create token default', 3600, ['https://kubernetes.default.svc.cluster.local'], undefined],
    ['--duration and --audience', 'create token other --duration 2h --audience a --audience b', 7200, ['a', 'b'], undefined],
    [
      'bound to a Secret',
      'create token default --bound-object-kind Secret --bound-object-name s --duration 10m',
      600,
      ['https://kubernetes.default.svc.cluster.local'],
      's',
    ],
  ])('%s prints the token', (_n, cmd, seconds, aud, secret) => {
    const r = c.kubectl(cmd);
    expect([r.error, r.exitCode, r.output.endsWith('\n'), r.output.trimEnd().split('.').length]).toEqual([null, 0, true, 3]);
    const cl = claimsOf(r.output.trimEnd());
    expect([cl.exp - cl.iat, cl.aud, cl['kubernetes.io'].secret?.name]).toEqual([seconds, aud, secret]);
  });

  it('-o yaml prints the TokenRequest', () => {
    const out = c.kubectl('create token default -o yaml --duration 1h').output;
    expect(out.split('\n').slice(0, 12).join('\n')).toBe(
      [
        'apiVersion: authentication.k8s.io/v1',
        'kind: TokenRequest',
        'metadata:',
        `  creationTimestamp: "${c.clock.nowRFC3339()}"`,
        '  name: default',
        '  namespace: default',
        'spec:',
        '  audiences:',
        '  - https://kubernetes.default.svc.cluster.local',
        '  boundObjectRef: null',
        '  expirationSeconds: 3600',
        'status:',
      ].join('\n'),
    );
  });

  it.each([
    ['-o name', 'create token default -o name', 'tokenrequest.authentication.k8s.io/default\n'],
    ["-o '' (the name printer, as kubectl's)", "create token default -o ''", 'tokenrequest.authentication.k8s.io/default created\n'],
  ])('%s', (_n, cmd, want) => {
    expect(c.kubectl(cmd)).toEqual({ output: want, error: null, exitCode: 0 });
  });

  it('flags before or after the name', () => {
    for (const cmd of ['create token --duration 10m -n kube-system default', 'create token default -n kube-system --duration=10m']) {
      const cl = claimsOf(c.kubectl(cmd).output.trimEnd());
      expect([cl.exp - cl.iat, cl['kubernetes.io'].namespace]).toEqual([600, 'kube-system']);
    }
  });

  it('-o json prints the TokenRequest in Go field order, boundObjectRef as sent', () => {
    const out = JSON.parse(c.kubectl('create token default -o json --bound-object-kind Secret --bound-object-name s').output);
    expect([Object.keys(out), Object.keys(out.metadata), Object.keys(out.spec), Object.keys(out.status), out.spec.boundObjectRef]).toEqual([
      ['kind', 'apiVersion', 'metadata', 'spec', 'status'],
      ['name', 'namespace', 'creationTimestamp'],
      ['audiences', 'expirationSeconds', 'boundObjectRef'],
      ['token', 'expirationTimestamp'],
      { kind: 'Secret', apiVersion: 'v1', name: 's' },
    ]);
  });
});

describe('ServiceAccount token authentication', () => {
  it('authenticates the ServiceAccount until the token expires', () => {
    const c = booted();
    const token = c.kubectl('create token other --duration 10m').output.trimEnd();
    const sa = c.api.getObject('serviceaccounts', 'default', 'other')!;
    const a = c.api.authenticateToken(token);
    expect('user' in a && { ...a.user, extra: { ...a.user.extra } }).toEqual({
      name: 'system:serviceaccount:default:other',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claimsOf(token).jti}`] },
    });
    // RBAC decides from the ServiceAccount's user
    expect(c.kubectl(`get pods --token ${token}`).error).toBe(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:other" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    // ten minutes, plus go-jose's one minute of leeway
    c.advance(660_000);
    expect(c.api.authenticateToken(token)).not.toHaveProperty('error');
    c.advance(1_000);
    expect(c.api.authenticateToken(token)).toEqual({ error: 'service account token has expired' });
    expect(c.kubectl(`get pods --token ${token}`)).toEqual({
      output: '',
      error: 'error: You must be logged in to the server (Unauthorized)\n',
      exitCode: 1,
    });
  });

  it.each([
    [
      'a token it did not issue',
      (c: Cluster) => c.kubectl('create token default').output.trimEnd().slice(0, -2) + 'AA',
      'invalid bearer token',
    ],
    ['another audience', (c: Cluster) => c.kubectl('create token default --audience vault').output.trimEnd(), 'token audiences is invalid'],
    [
      'the bound Pod deleted',
      (c: Cluster) => {
        const t = c.kubectl('create token default --bound-object-kind Pod --bound-object-name web').output.trimEnd();
        c.kubectl('delete pod web --grace-period=0 --force');
        c.settle(60_000);
        return t;
      },
      'pods "web" not found',
    ],
    [
      'the ServiceAccount recreated',
      (c: Cluster) => {
        const t = c.kubectl('create token other').output.trimEnd();
        const sa = c.api.registry.forResource('', 'serviceaccounts')!;
        c.api.delete(users.kubectl(), sa, 'default', 'other');
        c.api.create(users.kubectl(), sa, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'other' } });
        return t;
      },
      'service account UID',
    ],
  ])('refuses %s', (_n, make, want) => {
    const c = booted();
    const r = c.api.authenticateToken(make(c));
    expect('error' in r && r.error).toContain(want);
  });
});
