/**
 * Fuzz of the HTTP API (issues 14 and 21): random and hostile request lines, names, query
 * parameters, headers (Content-Type, Accept, Origin, Host, Authorization, Impersonate-*) and
 * bodies (objects with `__proto__` / `constructor` keys, JSON patches on prototype paths, YAML,
 * bytes), sent raw to an in-process server. After every request: no prototype gained a key
 * (Object, Array, Function), nothing outside the target namespace changed (the bystander
 * namespace's objects, the namespace and node lists), the server still answers /readyz, and the
 * answer is a metav1.Status whose code is the HTTP status (or one of the plain-text answers
 * upstream writes: Go's `400 Bad Request`, the 429 of max-in-flight, the impersonation 500).
 * CSRF cases: a cross-site form or text/plain post without the token is 401 and creates nothing.
 *
 * Fixed seed; FUZZ_RUNS=N for a longer run (`npm run fuzz`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'yaml';
import { Cluster } from '../../cluster/cluster';
import { startServer, type RunningServer } from '../server';
import { rawRequest, type RawAnswer } from '../server.fixture';
import { hostileString } from '../../cluster/fuzz/hostile';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = 20261202;
const TOKEN = 'fuzz-token';
let srv: RunningServer;
let cluster: Cluster;

const PROTOS = [Object.prototype, Array.prototype, Function.prototype];
const protoKeys = () => PROTOS.map((p) => Object.getOwnPropertyNames(p).sort().join(','));
let protoBefore: string[];

/** What must not change: everything in the bystander namespace, the namespaces and nodes. */
function outside(): string {
  const api = cluster.api;
  const reg = api.registry;
  const names = (r: string) =>
    api
      .list({ name: 'system:apiserver', participant: 'fuzz', groups: ['system:masters'] }, reg.forResource('', r)!, undefined, {
        quiet: true,
      })
      .items.map((o) => o.metadata.name)
      .sort()
      .join(',');
  const by = ['configmaps', 'secrets', 'serviceaccounts'].map((r) =>
    JSON.stringify(
      api.list({ name: 'system:apiserver', participant: 'fuzz', groups: ['system:masters'] }, reg.forResource('', r)!, 'bystander', {
        quiet: true,
      }).items,
    ),
  );
  return [names('namespaces'), names('nodes'), ...by].join('\n');
}

const segment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2e',
    '%2e',
    '%2F',
    '..%2F..',
    '%252e%252e',
    '%zz',
    '%',
    '%00',
    'a%2Fb',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'keep',
    'x',
    '',
  ),
  hostileString.map((s) => encodeURIComponent(s).slice(0, 80)),
);
const resource = fc.constantFrom(
  'configmaps',
  'secrets',
  'pods',
  'services',
  'serviceaccounts',
  'events',
  '__proto__',
  'constructor',
  'nothing',
);
const sub = fc.constantFrom(undefined, 'status', 'scale', 'log', 'binding', 'eviction', '__proto__', '..', '%2e%2e');
const qvalue = fc.oneof(
  fc.constantFrom(
    'abc',
    '-1',
    '0',
    '1',
    '1e10',
    '99999999999999999999',
    '',
    'true',
    'false',
    'Bogus',
    'Exact',
    'NotOlderThan',
    '__proto__',
    'All',
    'Strict',
    'Foreground',
  ),
  hostileString.map((s) => encodeURIComponent(s).slice(0, 40)),
);
const qkey = fc.constantFrom(
  'resourceVersion',
  'resourceVersionMatch',
  'limit',
  'continue',
  'timeoutSeconds',
  'gracePeriodSeconds',
  'watch',
  'labelSelector',
  'fieldSelector',
  'dryRun',
  'fieldManager',
  'fieldValidation',
  'force',
  'propagationPolicy',
  'orphanDependents',
  'allowWatchBookmarks',
  'sendInitialEvents',
  '__proto__',
  'constructor',
  'access_token',
);
const query = fc
  .array(fc.tuple(qkey, qvalue), { maxLength: 4 })
  .map((kv) => (kv.length ? `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

/** Paths aimed at the target namespace, or at hostile names anywhere (which must be refused). */
const path = fc.oneof(
  fc
    .tuple(resource, segment, sub, query)
    .map(([r, n, s, q]) => `/api/v1/namespaces/target/${r}${n !== undefined ? `/${n}` : ''}${s ? `/${s}` : ''}${q}`),
  fc.tuple(resource, query).map(([r, q]) => `/api/v1/namespaces/target/${r}${q}`),
  fc
    .tuple(
      fc.constantFrom('namespaces', 'nodes', 'persistentvolumes'),
      fc.constantFrom('..', '.', '%2e%2e', '%2E%2E', 'a%25b', '%2e'),
      query,
    )
    .map(([r, n, q]) => `/api/v1/${r}/${n}${q}`),
  fc
    .tuple(fc.constantFrom('deployments', 'replicasets', '__proto__'), segment, query)
    .map(([r, n, q]) => `/apis/apps/v1/namespaces/target/${r}/${n}${q}`),
  fc.constantFrom(
    '/',
    '/api',
    '/apis',
    '/version',
    '/healthz',
    '/openapi/v3',
    '/openapi/v3/../../etc/passwd',
    '/kube-relay/v1/info',
    '/kube-relay/v1/relay?sinceSeq=abc',
    '/api/v1/namespaces/target/configmaps/../../bystander/configmaps/keep',
    '//api//v1',
    '/api/v1/namespaces/%2e%2e/configmaps',
    'http://evil.example/api/v1/namespaces/target/configmaps',
  ),
);

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '__proto__',
  'constructor',
  'application/JSON; charset=utf-8',
  '*/*',
  '',
);
const accept = fc.constantFrom(
  undefined,
  'application/json',
  'application/yaml',
  'text/html',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf',
  '*/*',
  'application/json;q=0',
  '__proto__',
);

const protoObject = fc.constantFrom(
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz","__proto__":{"deletionTimestamp":"2026-01-01T00:00:00Z"}},"data":{"__proto__":"x","constructor":"y"}}',
  '{"__proto__":{"polluted":1},"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz2"}}',
  '{"constructor":{"prototype":{"polluted":1}},"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz3"}}',
  '[{"op":"add","path":"/__proto__/deletionTimestamp","value":"2026-01-01T00:00:00Z"}]',
  '[{"op":"add","path":"/metadata/__proto__/x","value":1},{"op":"replace","path":"/constructor/prototype/x","value":1}]',
  '{"metadata":{"labels":{"__proto__":"x","constructor":"y"}}}',
  '{"data":{"__proto__":{"x":1}}}',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fz4\n  __proto__:\n    x: 1\ndata:\n  constructor: y\n',
  'apiVersion: v1\nkind: Secret\nmetadata:\n  name: fz5\n',
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: fz6\n',
  '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bystander"}}',
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"keep","namespace":"bystander"},"data":{"owned":"yes"}}',
  'a=b&c=d',
  '--x\r\n\r\n{}\r\n--x--',
  '',
  '{',
  'null',
  '[]',
  '"x"',
);
const body = fc.oneof(
  protoObject,
  hostileString,
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
);

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
  path,
  contentType,
  accept,
  body: fc.option(body, { nil: undefined }),
  auth: fc.constantFrom('token', 'token', 'token', 'none', 'garbage', 'basic'),
  origin: fc.constantFrom(undefined, 'https://evil.example', 'http://localhost:5173', 'null'),
  host: fc.constantFrom('ok', 'ok', 'ok', 'evil.example', 'localhost', '127.0.0.1:1'),
  impersonate: fc.constantFrom(undefined, 'user', 'group-only', 'sa'),
  userAgent: fc.constantFrom(undefined, 'kubelet/v1.33.1 (linux/amd64) kubernetes/x', 'kube-scheduler/v1.33.1', '__proto__'),
});

/** The plain-text answers upstream writes instead of a Status. */
function plainTextOK(r: RawAnswer): boolean {
  if (r.code === 400) return r.text === '400 Bad Request';
  if (r.code === 429) return r.text === 'Too many requests, please try again later.\n';
  if (r.code === 500) return /^Internal Server Error: ".*": requested \[.*\] without impersonating a user\n$/s.test(r.text);
  return false;
}

beforeAll(async () => {
  cluster = new Cluster();
  srv = await startServer(cluster, { port: 0, speed: 50, token: TOKEN });
  const post = (p: string, o: unknown) =>
    rawRequest(srv.port, p, { token: TOKEN, method: 'POST', body: JSON.stringify(o), headers: { 'Content-Type': 'application/json' } });
  for (const ns of ['target', 'bystander'])
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await post('/api/v1/namespaces/bystander/configmaps', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'keep' },
    data: { a: 'b' },
  });
  await post('/api/v1/namespaces/target/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' }, data: { a: 'b' } });
  // let the namespace controllers settle (kube-root-ca.crt, default service account)
  await new Promise((r) => setTimeout(r, 300));
  protoBefore = protoKeys();
});
afterAll(async () => srv.close());

describe('HTTP API fuzz', () => {
  it(`answers ${RUNS} hostile requests with Statuses, touching nothing outside the target`, async () => {
    const before = outside();
    await fc.assert(
      fc.asyncProperty(request, async (q) => {
        const headers: Record<string, string> = {};
        if (q.contentType !== undefined) headers['Content-Type'] = q.contentType;
        if (q.accept !== undefined) headers.Accept = q.accept;
        if (q.origin) headers.Origin = q.origin;
        if (q.userAgent) headers['User-Agent'] = q.userAgent;
        headers.Host = q.host === 'ok' ? `127.0.0.1:${srv.port}` : q.host;
        if (q.auth === 'garbage') headers.Authorization = 'Bearer garbage';
        if (q.auth === 'basic') headers.Authorization = 'Basic a3ViZWN0bDp4';
        if (q.impersonate === 'user') headers['Impersonate-User'] = 'jane';
        if (q.impersonate === 'group-only') headers['Impersonate-Group'] = 'system:masters';
        if (q.impersonate === 'sa') headers['Impersonate-User'] = 'system:serviceaccount:target:default';
        const r = await rawRequest(srv.port, q.path, {
          method: q.method,
          token: q.auth === 'token' ? TOKEN : undefined,
          headers,
          body: q.method === 'GET' || q.method === 'HEAD' ? undefined : q.body,
        });
        expect(protoKeys()).toEqual(protoBefore);
        expect(outside()).toBe(before);
        expect((await rawRequest(srv.port, '/readyz')).code).toBe(200);
        const badEscape = /%(?![0-9a-fA-F]{2})/.test(q.path.split('?')[0]);
        if (badEscape) expect([r.code, r.text]).toEqual([400, q.method === 'HEAD' ? '' : '400 Bad Request']);
        else if (q.auth !== 'token' && q.host === 'ok' && q.method !== 'OPTIONS' && !/^\/(healthz|livez|readyz|version)$/.test(q.path))
          expect(r.code).toBe(401);
        if (q.host !== 'ok' && q.host !== 'localhost') expect(r.code === 403 || r.code === 400).toBe(true);
        if (r.code >= 400 && q.method !== 'HEAD') {
          const status = r.headers['content-type'] === 'application/yaml' ? parse(r.text) : r.json;
          if (status?.kind === 'Status') expect([status.code, status.status, typeof status.message]).toEqual([r.code, 'Failure', 'string']);
          else expect(plainTextOK(r), `${q.method} ${q.path} → ${r.code} ${r.text.slice(0, 200)}`).toBe(true);
          expect(r.code === 500 && status?.reason === 'InternalError', `${q.method} ${q.path} crashed: ${r.text.slice(0, 300)}`).toBe(
            false,
          );
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 120_000);

  it.each([
    ['a cross-site text/plain form post', 'text/plain', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"csrf1"}}'],
    ['a cross-site urlencoded form post', 'application/x-www-form-urlencoded', 'a=b'],
    ['a cross-site multipart post', 'multipart/form-data; boundary=x', '--x\r\n\r\n{}\r\n--x--'],
    ['a cross-site no-cors fetch without a type', undefined, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"csrf2"}}'],
  ])('CSRF: %s without the token is 401 and creates nothing', async (_what, ct, text) => {
    const r = await rawRequest(srv.port, '/api/v1/namespaces/target/configmaps', {
      method: 'POST',
      body: text,
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', ...(ct ? { 'Content-Type': ct } : {}) },
    });
    expect([r.code, r.headers['access-control-allow-origin']]).toEqual([401, undefined]);
    const list = await rawRequest(srv.port, '/api/v1/namespaces/target/configmaps', { token: TOKEN });
    expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name).filter((n: string) => n.startsWith('csrf'))).toEqual(
      [],
    );
  });
});
