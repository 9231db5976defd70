/**
 * The server's filters and request validation (issues 14 and 21), against an in-process server
 * on an ephemeral port, with raw requests (paths reach it byte for byte): path segment names,
 * the bearer token, identity versus User-Agent, impersonation, Host check, CORS, content types,
 * Accept, body limit, max-in-flight, query parameters and body kinds — exact upstream answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';
import { failure, rawRequest } from './server.fixture';

let srv: RunningServer;
let cluster: Cluster;
const TOKEN = 'security-test-token';
const raw = (path: string, o: Parameters<typeof rawRequest>[2] = {}) => rawRequest(srv.port, path, { token: TOKEN, ...o });
const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(path, { method, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } });
const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: 'b' },
  ...extra,
});
const exists = (path: string) => raw(path).then((r) => r.code === 200);

beforeAll(async () => {
  cluster = new Cluster();
  srv = await startServer(cluster, { port: 0, speed: 50, token: TOKEN });
  await json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'victim' } });
  await json('POST', '/api/v1/namespaces/victim/configmaps', cm('keep'));
  await json('POST', '/api/v1/namespaces/victim/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
});
afterAll(async () => srv.close());

describe('path segment names (store.go NamespaceKeyFunc, path.IsValidPathSegmentName)', () => {
  const bad = (name: string, why: string) => failure(400, 'BadRequest', `Name parameter invalid: ${JSON.stringify(name)}: ${why}`);
  it.each([
    ['DELETE', '/api/v1/namespaces/victim/pods/..', '..', "may not be '..'"],
    ['DELETE', '/api/v1/namespaces/victim/pods/%2e%2e', '..', "may not be '..'"],
    ['DELETE', '/api/v1/namespaces/victim/pods/%2E%2E', '..', "may not be '..'"],
    ['DELETE', '/api/v1/namespaces/victim/pods/.', '.', "may not be '.'"],
    ['GET', '/api/v1/namespaces/victim/configmaps/..', '..', "may not be '..'"],
    ['PUT', '/api/v1/namespaces/victim/configmaps/..', '..', "may not be '..'"],
    ['PATCH', '/api/v1/namespaces/victim/configmaps/..', '..', "may not be '..'"],
    ['GET', '/api/v1/namespaces/victim/pods/../log', '..', "may not be '..'"],
    ['GET', '/api/v1/namespaces/victim/configmaps/a%25b', 'a%b', "may not contain '%'"],
    ['DELETE', '/api/v1/namespaces/..', '..', "may not be '..'"],
    ['DELETE', '/api/v1/namespaces/%2e%2e', '..', "may not be '..'"],
    ['DELETE', '/api/v1/nodes/..', '..', "may not be '..'"],
    ['DELETE', '/apis/apps/v1/namespaces/victim/deployments/..', '..', "may not be '..'"],
    ['DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles/%2e', '.', "may not be '.'"],
    ['DELETE', '/apis/sim.kube-relay.dev/v1alpha1/machines/..', '..', "may not be '..'"],
  ])('%s %s → 400', async (method, path, name, why) => {
    const r = await raw(path, {
      method,
      body: method === 'PUT' || method === 'PATCH' ? '{}' : undefined,
      headers: { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
    });
    expect([r.code, r.json]).toEqual([400, bad(name, why)]);
  });

  it('left the namespace and everything in it alone', async () => {
    expect(
      await Promise.all(
        [
          '/api/v1/namespaces/victim',
          '/api/v1/namespaces/victim/pods/web',
          '/api/v1/namespaces/victim/configmaps/keep',
          '/api/v1/nodes/node-1',
        ].map(exists),
      ),
    ).toEqual([true, true, true, true]);
  });

  it.each([
    ['%2F splits like a "/" (Go decodes the path first): an unknown subresource', '/api/v1/namespaces/victim/configmaps/keep%2Fdata', 404],
    ['a bad escape is refused by the HTTP server itself', '/api/v1/namespaces/victim/configmaps/%zz', 400],
    ['an empty segment matches no route', '/api/v1/namespaces//configmaps', 404],
  ])('%s', async (_what, path, code) => {
    const r = await raw(path);
    expect(r.code).toBe(code);
    if (code === 400) expect(r.text).toBe('400 Bad Request');
    else expect(r.json.reason).toBe('NotFound');
  });
});

describe('authentication (bearer token; anonymous only for health and version)', () => {
  const unauthorized = failure(401, 'Unauthorized', 'Unauthorized');
  it.each([
    ['no credentials', '/api/v1/pods', undefined, {}],
    ['a garbage token', '/api/v1/pods', 'garbage', {}],
    ['an empty-looking token', '/api', 'x', {}],
    ['a garbage token on /healthz (credentials that fail are never anonymous)', '/healthz', 'garbage', {}],
    ['basic auth', '/api/v1/pods', undefined, { Authorization: 'Basic a3ViZWN0bDprdWJlY3Rs' }],
    ['the token in the query', `/api/v1/pods?access_token=${TOKEN}`, undefined, {}],
  ])('%s → 401', async (_what, path, token, headers) => {
    const r = await rawRequest(srv.port, path, { token, headers });
    expect([r.code, r.json]).toEqual([401, unauthorized]);
  });

  it.each(['/healthz', '/livez', '/readyz', '/version'])('%s answers anonymous requests', async (path) => {
    const r = await rawRequest(srv.port, path);
    expect(r.code).toBe(200);
  });

  it('answers the token over TLS too (what the kubeconfig names)', async () => {
    expect(srv.httpsUrl).toBe(`https://127.0.0.1:${srv.port}`);
    expect(srv.caPem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });
});

describe('identity comes from the credential, not the User-Agent', () => {
  it('a status PATCH sent as kubelet/… is drawn from kubectl; managedFields follow the User-Agent as upstream', async () => {
    const since = cluster.relay.lastSeq;
    const r = await raw('/api/v1/namespaces/victim/configmaps/keep', {
      method: 'PATCH',
      body: '{"data":{"ua":"x"}}',
      headers: { 'Content-Type': 'application/merge-patch+json', 'User-Agent': 'kubelet/v1.33.1 (linux/amd64) kubernetes/abc' },
    });
    expect(r.code).toBe(200);
    const hop = cluster.relay.since(since).find((h) => h.kind === 'request' && h.name === 'keep');
    expect([hop?.from, hop?.to]).toEqual(['kubectl', 'kube-apiserver']);
    expect(r.json.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain('kubelet');
  });
});

describe('impersonation (the admin is system:masters)', () => {
  it('honours Impersonate-User: jane in devs has no binding, so RBAC refuses her create', async () => {
    const r = await json('POST', '/api/v1/namespaces/victim/configmaps', cm('as-jane'), {
      'Impersonate-User': 'jane',
      'Impersonate-Group': 'devs',
    });
    expect([r.code, r.json.message]).toEqual([
      403,
      'configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "victim"',
    ]);
  });
  it('honours Impersonate-Group: jane in system:masters may create', async () => {
    const r = await json('POST', '/api/v1/namespaces/victim/configmaps', cm('as-jane'), {
      'Impersonate-User': 'jane',
      'Impersonate-Group': 'system:masters',
    });
    expect(r.code).toBe(201);
  });
  it('refuses a group without a user as upstream (500, plain text)', async () => {
    const r = await raw('/api/v1/namespaces/victim/configmaps', { headers: { 'Impersonate-Group': 'system:masters' } });
    expect([r.code, r.headers['content-type'], r.text]).toEqual([
      500,
      'text/plain; charset=utf-8',
      'Internal Server Error: "/api/v1/namespaces/victim/configmaps": requested [{Group  system:masters    }] without impersonating a user\n',
    ]);
  });
});

describe('Host check (DNS rebinding) and CORS', () => {
  it.each([
    ['evil.example', 403],
    ['evil.example:PORT', 403],
    ['127.0.0.1:1', 403],
    ['127.0.0.1:PORT', 200],
    ['localhost:PORT', 200],
  ])('Host %s → %i', async (host, code) => {
    const r = await raw('/api/v1/namespaces/victim/configmaps/keep', { headers: { Host: host.replace('PORT', String(srv.port)) } });
    expect(r.code).toBe(code);
    if (code === 403)
      expect(r.json.message).toBe(
        `forbidden: the Host header ${JSON.stringify(host.replace('PORT', String(srv.port)))} does not name this server (127.0.0.1:${srv.port}); refused to protect against DNS rebinding`,
      );
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1:4173', 'https://evil.example'])('grants no CORS to %s by default', async (origin) => {
    const r = await raw('/api/v1/namespaces/victim/configmaps/keep', { headers: { Origin: origin } });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await rawRequest(srv.port, '/api/v1/namespaces/victim/configmaps', {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
    });
    expect([pre.code, pre.headers['access-control-allow-origin']]).toEqual([401, undefined]);
  });

  it('grants CORS to a configured origin only', async () => {
    const s2 = await startServer(new Cluster(), { port: 0, token: TOKEN, corsAllowedOrigins: ['^http://127\\.0\\.0\\.1:4173$'] });
    try {
      const ok = await rawRequest(s2.port, '/api/v1/namespaces', { method: 'OPTIONS', headers: { Origin: 'http://127.0.0.1:4173' } });
      expect([ok.code, ok.headers['access-control-allow-origin'], ok.headers['access-control-allow-credentials']]).toEqual([
        204,
        'http://127.0.0.1:4173',
        'true',
      ]);
      const other = await rawRequest(s2.port, '/api/v1/namespaces', { token: TOKEN, headers: { Origin: 'http://127.0.0.1:5173' } });
      expect([other.code, other.headers['access-control-allow-origin']]).toEqual([200, undefined]);
    } finally {
      await s2.close();
    }
  });
});

describe('content types (negotiation.NegotiateInputSerializer) and Accept', () => {
  const unsupported = failure(
    415,
    'UnsupportedMediaType',
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  );
  it.each([
    ['text/plain', JSON.stringify(cm('ct-text'))],
    ['text/plain;charset=UTF-8', JSON.stringify(cm('ct-text2'))],
    ['application/x-www-form-urlencoded', 'a=b'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n{}\r\n--x--'],
    ['application/xml', '<x/>'],
  ])('POST with %s → 415, nothing created', async (ct, body) => {
    const r = await raw('/api/v1/namespaces/victim/configmaps', { method: 'POST', body, headers: { 'Content-Type': ct } });
    expect([r.code, r.json]).toEqual([415, unsupported]);
  });

  it.each([
    ['absent (decoded as JSON, the first serializer)', undefined, JSON.stringify(cm('ct-none'))],
    ['Application/JSON; charset=utf-8', 'Application/JSON; charset=utf-8', JSON.stringify(cm('ct-json'))],
    ['application/yaml', 'application/yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ct-yaml\n'],
  ])('POST with Content-Type %s → 201', async (_what, ct, body) => {
    const r = await raw('/api/v1/namespaces/victim/configmaps', { method: 'POST', body, headers: ct ? { 'Content-Type': ct } : {} });
    expect(r.code).toBe(201);
  });

  it('answers 406 for an Accept it cannot write, YAML when asked for it', async () => {
    const no = await raw('/api/v1/namespaces/victim/configmaps/keep', { headers: { Accept: 'text/html' } });
    expect([no.code, no.json]).toEqual([
      406,
      failure(
        406,
        'NotAcceptable',
        'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      ),
    ]);
    const y = await raw('/api/v1/namespaces/victim/configmaps/keep', { headers: { Accept: 'application/yaml' } });
    expect([y.code, y.headers['content-type'], y.text.split('\n').slice(0, 2)]).toEqual([
      200,
      'application/yaml',
      ['apiVersion: v1', 'kind: ConfigMap'],
    ]);
  });
});

describe('query parameters (ParameterCodec, ValidateListOptions, the storage checks)', () => {
  it.each([
    [
      '/api/v1/pods?resourceVersion=abc',
      failure(
        400,
        'BadRequest',
        'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
      ),
    ],
    [
      '/api/v1/pods?resourceVersion=-1',
      failure(
        400,
        'BadRequest',
        'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax',
      ),
    ],
    ['/api/v1/pods?limit=abc', failure(400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax')],
    ['/api/v1/pods?limit=', failure(400, 'BadRequest', 'strconv.ParseInt: parsing "": invalid syntax')],
    ['/api/v1/pods?timeoutSeconds=abc', failure(400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax')],
    ['/api/v1/pods?timeoutSeconds=1e10', failure(400, 'BadRequest', 'strconv.ParseInt: parsing "1e10": invalid syntax')],
    [
      '/api/v1/pods?watch=1&timeoutSeconds=99999999999999999999',
      failure(400, 'BadRequest', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'),
    ],
    [
      '/api/v1/pods?continue=forged',
      failure(400, 'BadRequest', "invalid continue token: continue key is not valid: invalid character '~' looking for beginning of value"),
    ],
    [
      '/api/v1/pods?continue=abc!',
      failure(400, 'BadRequest', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 3'),
    ],
    [
      `/api/v1/pods?continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"../../secrets"}').toString('base64url')}`,
      failure(400, 'BadRequest', 'invalid continue token: continue key is not valid: ../../secrets'),
    ],
    [
      `/api/v1/pods?continue=${Buffer.from('{"v":"x","rv":1,"start":"a"}').toString('base64url')}`,
      failure(400, 'BadRequest', 'invalid continue token: continue key is not valid: server does not recognize this encoded version x'),
    ],
    [
      `/api/v1/pods?continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url')}`,
      failure(
        400,
        'BadRequest',
        'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
      ),
    ],
    [
      `/api/v1/pods?continue=${Buffer.from('nope').toString('base64url')}`,
      failure(
        400,
        'BadRequest',
        "invalid continue token: continue key is not valid: invalid character 'o' in literal null (expecting 'u')",
      ),
    ],
    [
      '/api/v1/pods?watch=1&resourceVersion=abc',
      failure(500, '', 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax'),
    ],
    [
      '/api/v1/pods?resourceVersionMatch=Bogus&resourceVersion=1',
      failure(
        422,
        'Invalid',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
        {
          group: 'meta.k8s.io',
          kind: 'ListOptions',
          causes: [
            {
              reason: 'FieldValueNotSupported',
              message: 'Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
              field: 'resourceVersionMatch',
            },
          ],
          name: '',
        },
      ),
    ],
    [
      '/api/v1/pods?watch=1&resourceVersionMatch=NotOlderThan',
      failure(
        422,
        'Invalid',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        {
          group: 'meta.k8s.io',
          kind: 'ListOptions',
          causes: [
            {
              reason: 'FieldValueForbidden',
              message: 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
              field: 'resourceVersionMatch',
            },
          ],
          name: '',
        },
      ),
    ],
  ])('GET %s', async (path, want) => {
    const r = await raw(path);
    expect({ code: r.code, body: r.json }).toEqual({
      code: want.code,
      body: { ...want, ...(want.details ? { details: expect.objectContaining(want.details as object) } : {}) },
    });
  });

  it('limit=-5 is no limit (the storage only pages positive limits)', async () => {
    const all = await raw('/api/v1/namespaces/victim/configmaps');
    const neg = await raw('/api/v1/namespaces/victim/configmaps?limit=-5');
    expect([neg.code, neg.json.items.length, neg.json.metadata.continue]).toEqual([200, all.json.items.length, undefined]);
  });

  it('a continue token it wrote pages on (base64url, unpadded, as etcd3 EncodeContinue)', async () => {
    const p1 = await raw('/api/v1/namespaces/victim/configmaps?limit=1');
    expect(p1.json.metadata.continue).toMatch(/^[A-Za-z0-9_-]+$/);
    const p2 = await raw(`/api/v1/namespaces/victim/configmaps?limit=1&continue=${p1.json.metadata.continue}`);
    expect([p2.code, p2.json.items[0].metadata.name > p1.json.items[0].metadata.name]).toEqual([200, true]);
  });

  it('a negative timeoutSeconds ends a watch at once (its timer fires immediately)', async () => {
    const r = await raw('/api/v1/namespaces/victim/configmaps?watch=1&timeoutSeconds=-1&resourceVersion=1');
    expect(r.code).toBe(200);
  });

  it.each([
    ['gracePeriodSeconds=abc', failure(400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax')],
    ['gracePeriodSeconds=1.5', failure(400, 'BadRequest', 'strconv.ParseInt: parsing "1.5": invalid syntax')],
  ])('DELETE ?%s', async (q, want) => {
    const r = await raw(`/api/v1/namespaces/victim/configmaps/keep?${q}`, { method: 'DELETE' });
    expect([r.code, r.json]).toEqual([400, want]);
    expect(await exists('/api/v1/namespaces/victim/configmaps/keep')).toBe(true);
  });
});

describe('body kinds (create.go / update.go decode, versionCheckManager)', () => {
  const podYAML = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n';
  it.each([
    [
      'YAML sent without a Content-Type (kubectl create --raw -f pod.yaml)',
      'POST',
      '/api/v1/namespaces',
      podYAML,
      undefined,
      `the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value (${Buffer.from(podYAML.slice(0, 30)).toString('hex')} ...)`,
    ],
    [
      'a Secret to the configmaps URL',
      'POST',
      '/api/v1/namespaces/victim/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }),
      'application/json',
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (k8s.io/api/core/v1) Secret to (k8s.io/kubernetes/pkg/apis/core) ConfigMap: unknown conversion',
    ],
    [
      'a Secret in YAML',
      'POST',
      '/api/v1/namespaces/victim/configmaps',
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n',
      'application/yaml',
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (k8s.io/api/core/v1) Secret to (k8s.io/kubernetes/pkg/apis/core) ConfigMap: unknown conversion',
    ],
    [
      'a Deployment to the configmaps URL',
      'POST',
      '/api/v1/namespaces/victim/configmaps',
      JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 's' } }),
      'application/json',
      'Deployment in version "v1" cannot be handled as a ConfigMap: converting (k8s.io/api/apps/v1) Deployment to (k8s.io/kubernetes/pkg/apis/core) ConfigMap: unknown conversion',
    ],
    [
      'a kind no scheme has',
      'POST',
      '/api/v1/namespaces/victim/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'Foo', metadata: { name: 's' } }),
      'application/json',
      'Foo in version "v1" cannot be handled as a ConfigMap: no kind "Foo" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
    [
      'a Secret PUT over a ConfigMap',
      'PUT',
      '/api/v1/namespaces/victim/configmaps/keep',
      JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'keep' } }),
      'application/json',
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (k8s.io/api/core/v1) Secret to (k8s.io/kubernetes/pkg/apis/core) ConfigMap: unknown conversion',
    ],
    [
      'an empty body',
      'POST',
      '/api/v1/namespaces/victim/configmaps',
      '',
      'application/json',
      "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
    ],
    [
      'a JSON array',
      'POST',
      '/api/v1/namespaces/victim/configmaps',
      '[]',
      'application/json',
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)',
    ],
    [
      'truncated JSON',
      'POST',
      '/api/v1/namespaces/victim/configmaps',
      '{"kind":',
      'application/json',
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"kind":)',
    ],
    [
      'an autoscaling/v1 HPA to autoscaling/v2',
      'POST',
      '/apis/autoscaling/v2/namespaces/victim/horizontalpodautoscalers',
      JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' } }),
      'application/json',
      'the API version in the data (autoscaling/v1) does not match the expected API version (autoscaling/v2)',
    ],
  ])('%s → 400', async (_what, method, path, body, ct, message) => {
    const r = await raw(path, { method, body, headers: ct ? { 'Content-Type': ct } : {} });
    expect([r.code, r.json]).toEqual([400, failure(400, 'BadRequest', message)]);
  });

  it.each([
    ['a Secret body', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ssa' } }, 'invalid object type: /v1, Kind=Secret'],
    ['another version', { apiVersion: 'v2', kind: 'ConfigMap', metadata: { name: 'ssa' } }, 'invalid object type: /v2, Kind=ConfigMap'],
    ['no kind', { apiVersion: 'v1', metadata: { name: 'ssa' } }, 'invalid object type: /v1, Kind='],
  ])('server-side apply of %s to the configmaps URL → 400, nothing created', async (_what, body, message) => {
    const r = await raw('/api/v1/namespaces/victim/configmaps/ssa?fieldManager=test', {
      method: 'PATCH',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
    });
    expect([r.code, r.json]).toEqual([400, failure(400, 'BadRequest', message)]);
    expect(await exists('/api/v1/namespaces/victim/configmaps/ssa')).toBe(false);
  });
});

describe('limits: request body, max-in-flight, headers', () => {
  it('answers headers over 16 KiB with 431, as a plain-text HTTP error', async () => {
    const r = await raw('/api/v1/namespaces/victim/configmaps', { headers: { 'X-Big': 'x'.repeat(20_000) } });
    expect([r.code, r.text]).toEqual([431, '431 Request Header Fields Too Large']);
    expect((await raw('/readyz')).code).toBe(200);
  });

  it('refuses a body over the limit with 413 (streamed and declared)', async () => {
    const s2 = await startServer(new Cluster(), { port: 0, token: TOKEN, maxRequestBodyBytes: 1024 });
    try {
      const big = JSON.stringify(cm('big', { data: { a: 'x'.repeat(2000) } }));
      const r = await rawRequest(s2.port, '/api/v1/namespaces/default/configmaps', {
        token: TOKEN,
        method: 'POST',
        body: big,
        headers: { 'Content-Type': 'application/json' },
      });
      expect([r.code, r.json]).toEqual([413, failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 1024')]);
      expect((await rawRequest(s2.port, '/api/v1/namespaces/default/configmaps/big', { token: TOKEN })).code).toBe(404);
    } finally {
      await s2.close();
    }
  });

  it('answers 429 past --max-mutating-requests-inflight, as upstream (text/plain, Retry-After)', async () => {
    const s2 = await startServer(new Cluster(), { port: 0, token: TOKEN, maxMutatingRequestsInflight: 1 });
    try {
      // the first POST holds its slot while its body is still arriving
      const body = JSON.stringify(cm('slow'));
      let first: Promise<number> = Promise.resolve(0);
      const held = await new Promise<import('node:http').ClientRequest>((ok) => {
        const req = request({
          host: '127.0.0.1',
          port: s2.port,
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps',
          headers: {
            Host: `127.0.0.1:${s2.port}`,
            Authorization: `Bearer ${TOKEN}`,
            'Content-Type': 'application/json',
            'Content-Length': String(body.length),
          },
        });
        first = new Promise((done) =>
          req.on('response', (res) => {
            res.resume();
            done(res.statusCode ?? 0);
          }),
        );
        req.write(body.slice(0, 5));
        req.flushHeaders();
        setImmediate(() => ok(req));
      });
      let second = await rawRequest(s2.port, '/api/v1/namespaces/default/configmaps', {
        token: TOKEN,
        method: 'POST',
        body: JSON.stringify(cm('other')),
        headers: { 'Content-Type': 'application/json' },
      });
      for (let i = 0; i < 50 && second.code !== 429; i++)
        second = await rawRequest(s2.port, '/api/v1/namespaces/default/configmaps', {
          token: TOKEN,
          method: 'POST',
          body: JSON.stringify(cm(`other-${i}`)),
          headers: { 'Content-Type': 'application/json' },
        });
      expect([second.code, second.headers['retry-after'], second.headers['content-type'], second.text]).toEqual([
        429,
        '1',
        'text/plain; charset=utf-8',
        'Too many requests, please try again later.\n',
      ]);
      const reads = await rawRequest(s2.port, '/api/v1/namespaces/default/configmaps', { token: TOKEN });
      expect(reads.code).toBe(200);
      held.end(body.slice(5));
      expect(await first).toBe(201);
      expect(s2.stats.tooManyRequests).toBeGreaterThanOrEqual(1);
    } finally {
      await s2.close();
    }
  });
});
