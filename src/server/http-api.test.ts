/**
 * The HTTP API against an in-process server on an ephemeral port (fast simulated clock):
 * discovery, Status errors, patch types, server-side apply conflicts, pagination,
 * field selectors, watch 410 and Table output — exact upstream texts and shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';

let srv: RunningServer;
/** Every request carries the server's bearer token (auth.ts). */
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${srv.token}`, ...((init.headers as Record<string, string> | undefined) ?? {}) },
  });
const j = async (path: string, init: RequestInit = {}) => {
  const r = await fetch(srv.url + path, init);
  return { code: r.status, body: (await r.json()) as any, headers: r.headers };
};
const cm = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const post = (path: string, body: unknown) =>
  j(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const patch = (path: string, type: string, body: string) => j(path, { method: 'PATCH', headers: { 'Content-Type': type }, body });

let cluster: Cluster;
beforeAll(async () => {
  cluster = new Cluster();
  srv = await startServer(cluster, { port: 0, speed: 50 });
  for (const n of ['a', 'b', 'c', 'd', 'e']) await post('/api/v1/namespaces/default/configmaps', cm(`page-${n}`));
});
afterAll(async () => srv.close());

describe('discovery', () => {
  it.each([
    ['/version', (b: any) => `${b.major}.${b.minor} ${b.gitVersion}`, '1.33 v1.33.1'],
    ['/api', (b: any) => `${b.kind} ${b.versions}`, 'APIVersions v1'],
    [
      '/apis/apps/v1',
      (b: any) =>
        b.resources
          .filter((r: any) => r.name.startsWith('deployments'))
          .map((r: any) => `${r.name}:${r.kind}`)
          .join(' '),
      'deployments:Deployment deployments/scale:Scale deployments/status:Deployment',
    ],
    ['/apis', (b: any) => b.groups.some((g: any) => g.name === 'sim.kube-relay.dev'), true],
  ])('GET %s', async (path, pick, want) => {
    const r = await j(path);
    expect(r.code).toBe(200);
    expect(pick(r.body)).toEqual(want);
  });

  it('serves aggregated discovery v2 when asked', async () => {
    const r = await j('/apis', {
      headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' },
    });
    expect(r.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const apps = r.body.items.find((i: any) => i.metadata.name === 'apps');
    const dep = apps.versions[0].resources.find((x: any) => x.resource === 'deployments');
    expect(dep.subresources.map((s: any) => `${s.subresource}:${s.responseKind.kind}`)).toEqual(['scale:Scale', 'status:Deployment']);
  });

  it('publishes the fieldValidation parameter on PATCH in OpenAPI v3 (kubectl checks it)', async () => {
    const idx = await j('/openapi/v3');
    expect(Object.keys(idx.body.paths)).toContain('apis/apps/v1');
    const doc = await j('/openapi/v3/apis/apps/v1');
    const p = doc.body.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    expect(p.parameters.map((x: any) => x.name)).toContain('fieldValidation');
    expect(doc.body.components.schemas.PodSpec.properties.containers['x-kubernetes-patch-merge-key']).toBe('name');
  });
});

describe('Status errors', () => {
  it.each([
    ['GET', '/api/v1/namespaces/default/configmaps/nope', 404, 'NotFound', 'configmaps "nope" not found'],
    ['GET', '/apis/apps/v1/namespaces/default/deployments/nope', 404, 'NotFound', 'deployments.apps "nope" not found'],
    ['GET', '/api/v1/nothing', 404, 'NotFound', 'the server could not find the requested resource'],
    [
      'PUT',
      '/api/v1/namespaces/default/configmaps',
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    ],
    [
      'GET',
      '/api/v1/pods?fieldSelector=spec.foo%3Dx',
      400,
      'BadRequest',
      'Unable to find "/v1, Resource=pods" that match label selector "", field selector "spec.foo=x": field label not supported: spec.foo',
    ],
  ])('%s %s → %i %s', async (method, path, code, reason, message) => {
    const r = await j(path, { method });
    expect([r.code, r.body.kind, r.body.reason, r.body.message]).toEqual([code, 'Status', reason, message]);
  });

  it('draws a request to a subresource the resource does not serve, with its 404 (kubectl scale of a ConfigMap)', async () => {
    const before = cluster.relay.lastSeq;
    const r = await patch('/api/v1/namespaces/default/configmaps/page-a/scale', 'application/merge-patch+json', '{"spec":{"replicas":2}}');
    expect([r.code, r.body.reason, r.body.message]).toEqual([404, 'NotFound', 'the server could not find the requested resource']);
    const hops = cluster.relay.since(before).filter((h) => h.kind === 'request' || h.kind === 'response');
    expect(hops.map((h) => `${h.kind} ${h.verb} ${h.resource} ${h.name}: ${h.summary}`)).toEqual([
      'request patch configmaps/scale page-a: patch scale ConfigMap default/page-a',
      'response patch configmaps page-a: 404 NotFound',
    ]);
  });

  it('answers 409 AlreadyExists with details', async () => {
    const r = await post('/api/v1/namespaces/default/configmaps', cm('page-a'));
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "page-a" already exists',
      reason: 'AlreadyExists',
      details: { name: 'page-a', kind: 'configmaps' },
      code: 409,
    });
  });

  it.each([
    ['Strict', 400, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"', null],
    ['Warn', 201, undefined, '299 - "unknown field \\"spec\\""'],
    ['Ignore', 201, undefined, null],
  ])('fieldValidation=%s', async (fv, code, message, warning) => {
    const r = await post(`/api/v1/namespaces/default/configmaps?fieldValidation=${fv}`, {
      ...cm(`fv-${fv.toLowerCase()}`),
      spec: { x: 1 },
    });
    expect(r.code).toBe(code);
    expect(r.body.message).toBe(message);
    expect(r.headers.get('warning')).toBe(warning);
  });
});

describe('PATCH', () => {
  it.each([
    ['application/merge-patch+json', '{"data":{"k":"merge"}}', 'merge'],
    ['application/strategic-merge-patch+json', '{"data":{"k":"smp"}}', 'smp'],
    ['application/json-patch+json', '[{"op":"add","path":"/data/k","value":"json"}]', 'json'],
  ])('%s', async (type, body, want) => {
    const r = await patch('/api/v1/namespaces/default/configmaps/page-b', type, body);
    expect(r.code).toBe(200);
    expect(r.body.data.k).toBe(want);
  });

  it('rejects a failing JSON patch test with 422 and a strategic merge of a custom resource with 415', async () => {
    const t = await patch(
      '/api/v1/namespaces/default/configmaps/page-b',
      'application/json-patch+json',
      '[{"op":"test","path":"/data/k","value":"other"}]',
    );
    expect([t.code, t.body.message, t.body.details]).toEqual([422, 'the server rejected our request due to an error in our request', {}]);
    const m = await patch('/apis/sim.kube-relay.dev/v1alpha1/machines/node-1', 'application/strategic-merge-patch+json', '{}');
    expect([m.code, m.body.reason]).toEqual([415, 'UnsupportedMediaType']);
  });

  it('server-side apply creates, records the manager, and reports conflicts as upstream', async () => {
    const path = '/api/v1/namespaces/default/configmaps/ssa?fieldManager=alice';
    const a = await patch(
      path,
      'application/apply-patch+yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "1"\n',
    );
    expect(a.code).toBe(201);
    expect(a.body.metadata.managedFields.map((e: any) => `${e.manager}/${e.operation}:${JSON.stringify(e.fieldsV1)}`)).toEqual([
      'alice/Apply:{"f:data":{"f:a":{}}}',
    ]);
    const b = await patch(
      '/api/v1/namespaces/default/configmaps/ssa?fieldManager=bob',
      'application/apply-patch+yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "2"\n',
    );
    expect([b.code, b.body.message]).toEqual([409, 'Apply failed with 1 conflict: conflict with "alice": .data.a']);
    const f = await patch(
      '/api/v1/namespaces/default/configmaps/ssa?fieldManager=bob&force=true',
      'application/apply-patch+yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "2"\n',
    );
    expect([f.code, f.body.data.a, f.body.metadata.managedFields.map((e: any) => e.manager).join()]).toEqual([200, '2', 'bob']);
  });

  it('dryRun=All changes nothing', async () => {
    const r = await patch(
      '/api/v1/namespaces/default/configmaps/page-c?dryRun=All',
      'application/merge-patch+json',
      '{"data":{"dry":"yes"}}',
    );
    expect(r.body.data.dry).toBe('yes');
    expect((await j('/api/v1/namespaces/default/configmaps/page-c')).body.data?.dry).toBeUndefined();
  });
});

describe('lists', () => {
  it('pages with limit/continue and remainingItemCount', async () => {
    const names: string[] = [];
    let cont = '';
    const remaining: number[] = [];
    do {
      const r = await j(
        `/api/v1/namespaces/default/configmaps?labelSelector=&limit=2${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
      );
      names.push(...r.body.items.map((i: any) => i.metadata.name).filter((n: string) => n.startsWith('page-')));
      if (r.body.metadata.remainingItemCount !== undefined) remaining.push(r.body.metadata.remainingItemCount);
      cont = r.body.metadata.continue ?? '';
    } while (cont);
    expect(names).toEqual(['page-a', 'page-b', 'page-c', 'page-d', 'page-e']);
    expect(remaining[0]).toBeGreaterThan(0);
  });

  it.each([
    ['labelSelector=k8s-app%3Dkube-dns', '/api/v1/namespaces/kube-system/pods', 2],
    ['fieldSelector=metadata.name%3Dnode-2', '/api/v1/nodes', 1],
    ['fieldSelector=spec.nodeName%3Dnode-9', '/api/v1/pods', 0],
  ])('%s', async (q, path, count) => {
    const r = await j(`${path}?${q}`);
    expect(r.code).toBe(200);
    expect(r.body.items.length).toBe(count);
  });

  it('returns a Table with the columns kubectl prints', async () => {
    const r = await j('/api/v1/nodes', { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    expect(r.body.kind).toBe('Table');
    expect(r.body.columnDefinitions.map((c: any) => `${c.name}${c.priority ? '*' : ''}`)).toEqual([
      'Name',
      'Status',
      'Roles',
      'Age',
      'Version',
      'Internal-IP*',
      'External-IP*',
      'OS-Image*',
      'Kernel-Version*',
      'Container-Runtime*',
    ]);
    expect(r.body.rows.map((x: any) => x.cells.slice(0, 3).join(' '))).toEqual([
      'control-plane Ready control-plane',
      'node-1 Ready <none>',
      'node-2 Ready <none>',
      'node-3 Ready <none>',
    ]);
  });
});

describe('watch', () => {
  it('streams the events after a resourceVersion as JSON lines, and ends at timeoutSeconds', async () => {
    const rv = (await j('/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    const pending = fetch(`${srv.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}&timeoutSeconds=1`).then((r) =>
      r.text(),
    );
    await patch('/api/v1/namespaces/default/configmaps/page-d', 'application/merge-patch+json', '{"data":{"w":"1"}}');
    const lines = (await pending)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.data?.w}`)).toEqual(['MODIFIED page-d 1']);
  });
});
