/**
 * Deprecated APIs over HTTP: every response of v1 Endpoints — list, get, watch, a 404, a
 * create — carries kube-apiserver v1.33's `Warning: 299 - "…"` header (endpoints/installer.go +
 * deprecation.WarningMessage); other kinds carry none. PUT without a resourceVersion follows
 * the strategy (registry/unconditional-update.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { deprecationWarning } from '../cluster/api/deprecation';
import { startServer, type RunningServer } from './server';

/** Every request carries the server's bearer token (auth.ts). */
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${srv.token}`, ...((init.headers as Record<string, string> | undefined) ?? {}) },
  });

let srv: RunningServer;
const WARN = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';

beforeAll(async () => {
  srv = await startServer(new Cluster(), { port: 0, speed: 50 });
});
afterAll(async () => srv.close());

describe('deprecation warnings', () => {
  it.each([
    ['v1', 'Endpoints', 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice'],
    ['v1', 'ComponentStatus', 'v1 ComponentStatus is deprecated in v1.19+'],
    ['discovery.k8s.io/v1', 'EndpointSlice', undefined],
    ['v1', 'Pod', undefined],
  ])('WarningMessage(%s %s)', (apiVersion, kind, want) => {
    expect(deprecationWarning(apiVersion, kind)).toBe(want);
  });

  const ep = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'ext' },
    subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: [{ port: 5432 }] }],
  };
  it.each([
    ['GET list', '/api/v1/namespaces/default/endpoints', {}, 200, WARN],
    ['GET one', '/api/v1/namespaces/default/endpoints/kubernetes', {}, 200, WARN],
    ['GET missing', '/api/v1/namespaces/default/endpoints/nope', {}, 404, WARN],
    [
      'POST',
      '/api/v1/namespaces/default/endpoints',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ep) },
      201,
      WARN,
    ],
    ['GET EndpointSlices', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {}, 200, null],
  ])('%s → %s with its header', async (_n, path, init, code, warning) => {
    const r = await fetch(srv.url + path, init as RequestInit);
    await r.arrayBuffer();
    expect({ code: r.status, warning: r.headers.get('warning') }).toEqual({ code, warning });
  });
});

describe('v1 ComponentStatus (read-only, never stored)', () => {
  const CS = '299 - "v1 ComponentStatus is deprecated in v1.19+"';
  it('lists the three components Healthy, with the warning', async () => {
    const r = await fetch(`${srv.url}/api/v1/componentstatuses`);
    const body = (await r.json()) as {
      items: { metadata: { name: string }; conditions: { type: string; status: string; message: string }[] }[];
    };
    expect({ code: r.status, warning: r.headers.get('warning') }).toEqual({ code: 200, warning: CS });
    expect(
      body.items.map((i) => `${i.metadata.name} ${i.conditions[0].type}=${i.conditions[0].status} ${i.conditions[0].message}`),
    ).toEqual(['controller-manager Healthy=True ok', 'etcd-0 Healthy=True ok', 'scheduler Healthy=True ok']);
  });
  it.each([
    ['DELETE', '/api/v1/componentstatuses/scheduler', 405],
    ['POST', '/api/v1/componentstatuses', 405],
    ['GET', '/api/v1/componentstatuses/nope', 404],
  ])('%s %s → %s', async (method, path, code) => {
    const init: RequestInit = {
      method,
      ...(method === 'POST'
        ? {
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } }),
          }
        : {}),
    };
    const r = await fetch(srv.url + path, init);
    const body = (await r.json()) as { message: string };
    expect({ code: r.status, warning: r.headers.get('warning') }).toEqual({ code, warning: CS });
    expect(body.message).toBe(
      code === 405 ? 'the server does not allow this method on the requested resource' : `componentstatuses "nope" not found`,
    );
  });
});

describe('PUT without resourceVersion over HTTP', () => {
  const put = async (path: string, body: object) => {
    const r = await fetch(srv.url + path, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { code: r.status, body: (await r.json()) as { message?: string; reason?: string; data?: object } };
  };
  it('a ConfigMap with resourceVersion "0" is replaced, also with dryRun=All', async () => {
    await fetch(`${srv.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u' }, data: { a: '1' } }),
    });
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u', resourceVersion: '0' }, data: { a: '2' } };
    expect((await put('/api/v1/namespaces/default/configmaps/u?dryRun=All', body)).code).toBe(200);
    const r = await put('/api/v1/namespaces/default/configmaps/u', body);
    expect({ code: r.code, data: r.body.data }).toEqual({ code: 200, data: { a: '2' } });
  });
  it('a Lease without one is 422 Invalid', async () => {
    await fetch(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/default/leases`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' } }),
    });
    const r = await put('/apis/coordination.k8s.io/v1/namespaces/default/leases/l', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { holderIdentity: 'x' },
    });
    expect({ code: r.code, reason: r.body.reason, message: r.body.message }).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'leases.coordination.k8s.io "l" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
  });
});
