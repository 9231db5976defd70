/**
 * RBAC over HTTP: a 403 Status with kube-apiserver's message, the review APIs
 * (SelfSubjectAccessReview, SelfSubjectReview, SubjectAccessReview) and Impersonate-*
 * headers authorized by the `impersonate` verb.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';

let srv: RunningServer;
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${srv.token}`, ...((init.headers as Record<string, string> | undefined) ?? {}) },
  });
const j = async (path: string, init: RequestInit = {}) => {
  const r = await fetch(srv.url + path, init);
  return { code: r.status, body: (await r.json()) as any };
};
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  j(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

beforeAll(async () => {
  srv = await startServer(new Cluster({ nodes: 1 }), { port: 0, speed: 50 });
});
afterAll(async () => srv.close());

describe('RBAC over HTTP', () => {
  it('a user without a binding gets the 403 Status kube-apiserver writes', async () => {
    const r = await j('/api/v1/namespaces/default/pods', { headers: { 'Impersonate-User': 'jane' } });
    expect(r).toEqual({
      code: 403,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
        reason: 'Forbidden',
        details: { kind: 'pods' },
        code: 403,
      },
    });
  });

  it('pods/log of a named Pod: the subresource in the message, the name in details', async () => {
    const r = await j('/api/v1/namespaces/default/pods/web/log', { headers: { 'Impersonate-User': 'jane' } });
    expect(r.code).toBe(403);
    expect(r.body.message).toBe(
      'pods "web" is forbidden: User "jane" cannot get resource "pods/log" in API group "" in the namespace "default"',
    );
  });

  it('SubjectAccessReview: jane may not impersonate bob', async () => {
    const r = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'jane', groups: ['system:authenticated'], resourceAttributes: { verb: 'impersonate', resource: 'users', name: 'bob' } },
    });
    expect(r.code).toBe(201);
    expect(r.body.status).toEqual({ allowed: false });
  });

  it.each([
    [
      'admin: create deployments',
      {},
      { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default' },
      {
        allowed: true,
        reason:
          'RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins"',
      },
    ],
    ['jane: list pods', { 'Impersonate-User': 'jane' }, { verb: 'list', resource: 'pods', namespace: 'default' }, { allowed: false }],
    [
      'a system:masters member',
      { 'Impersonate-User': 'root', 'Impersonate-Group': 'system:masters' },
      { verb: 'delete', resource: 'nodes' },
      { allowed: true },
    ],
  ])('SelfSubjectAccessReview, %s', async (_n, headers, ra, status) => {
    const r = await post(
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: ra } },
      headers,
    );
    expect(r.code).toBe(201);
    expect(r.body.status).toEqual(status);
  });

  it('SelfSubjectReview answers who the credential is', async () => {
    const r = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    expect(r).toEqual({
      code: 201,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: { creationTimestamp: null },
        status: { userInfo: { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] } },
      },
    });
  });

  // the bytes kubectl v1.32 `auth whoami --as jane --as-group devs` sends (kubectl -v=8): a
  // runtime.Unknown of an empty authentication.k8s.io/v1 SelfSubjectReview
  const WHOAMI_PROTOBUF = Buffer.from(
    '6b3873000a2d0a1861757468656e7469' +
      '636174696f6e2e6b38732e696f2f7631' +
      '121153656c665375626a656374526576' +
      '696577121a0a100a0012001a0022002a' +
      '0032003800420012060a040a0012001a' +
      '002200',
    'hex',
  );
  it.each([
    ['application/vnd.kubernetes.protobuf', 201, 'jane'],
    ['text/plain', 415, undefined],
  ])('SelfSubjectReview as %s: %i', async (contentType, code, username) => {
    const r = await j('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST',
      headers: { 'Content-Type': contentType, 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' },
      body: WHOAMI_PROTOBUF,
    });
    expect(r.code).toBe(code);
    if (username) expect(r.body.status).toEqual({ userInfo: { username, groups: ['devs', 'system:authenticated'] } });
    else
      expect(r.body.message).toBe(
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      );
  });
});
