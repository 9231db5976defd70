/**
 * Replays testdata/security.txt (real kubectl against the server, src/cli/record-security-goldens.ts)
 * without kubectl: every `--raw` request is sent again as kubectl sent it (same method and path
 * byte for byte, `-f` files as bodies without a Content-Type, the same token), and what kubectl
 * would print is derived from the answer — the body for a success, `error: You must be logged in
 * to the server (Unauthorized)` for a 401, StandardErrorMessage of the Status otherwise (errors.ts
 * kubectlErrorMessage); the other lines map to the request kubectl makes for them. Lines kubectl
 * refuses before sending anything are listed as such.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { StatusError, kubectlErrorMessage } from '../cluster/api/errors';
import { startServer, type RunningServer } from './server';
import { parseTranscript } from './golden';
import { rawRequest, type RawAnswer } from './server.fixture';

const TOKEN = 'security-goldens-token';
const blocks = parseTranscript(readFileSync(new URL('testdata/security.txt', import.meta.url), 'utf8'));
const file = (name: string) => readFileSync(new URL(`testdata/security/${name}`, import.meta.url));
let srv: RunningServer;

/** Lines kubectl answers itself (client-side validation), so the server never sees them. */
const CLIENT_SIDE = new Set(['delete pod .. -n victim', 'get configmaps -n victim --as-group=devs']);
/** The request kubectl makes for the other non-raw lines, and how it prints a success. */
const MAPPED: Record<
  string,
  { path: string; method?: string; body?: unknown; headers?: Record<string, string>; print: (r: RawAnswer) => string }
> = {
  'create namespace victim': {
    path: '/api/v1/namespaces',
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'victim' } },
    print: () => 'namespace/victim created',
  },
  'create configmap keep -n victim --from-literal=a=b': {
    path: '/api/v1/namespaces/victim/configmaps',
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' }, data: { a: 'b' } },
    print: () => 'configmap/keep created',
  },
  'get namespace victim -o name': { path: '/api/v1/namespaces/victim', print: (r) => `namespace/${r.json.metadata.name}` },
  'get configmap keep -n victim -o name': {
    path: '/api/v1/namespaces/victim/configmaps/keep',
    print: (r) => `configmap/${r.json.metadata.name}`,
  },
  'get pods --token=garbage': { path: '/api/v1/namespaces/default/pods?limit=500', print: () => '' },
  'get configmaps -n victim -o name --as=jane': {
    path: '/api/v1/namespaces/victim/configmaps?limit=500',
    headers: { 'Impersonate-User': 'jane' },
    print: (r) => r.json.items.map((i: { metadata: { name: string } }) => `configmap/${i.metadata.name}`).join('\n'),
  },
};

/** What kubectl prints for an answer. */
function printed(r: RawAnswer, success: (r: RawAnswer) => string): string {
  if (r.code >= 200 && r.code < 300) return success(r);
  if (r.code === 401) return 'error: You must be logged in to the server (Unauthorized)';
  return kubectlErrorMessage(new StatusError(r.json));
}

beforeAll(async () => {
  srv = await startServer(new Cluster(), { port: 0, speed: 10, token: TOKEN });
});
afterAll(async () => srv.close());

describe('golden security.txt', () => {
  it('holds the recorded session', () => {
    expect(blocks.length).toBe(22);
  });
  it.each(blocks.map((b) => [b.args, b] as const))('kubectl %s', async (_line, b) => {
    const token = /--token=(\S+)/.exec(b.args)?.[1] ?? TOKEN;
    const line = b.args.replace(/ --token=\S+/, '');
    if (CLIENT_SIDE.has(line)) {
      expect(b.exitCode).toBe(1);
      return;
    }
    const raw = /^(get|delete|create) --raw (\S+)(?: -f (\S+))?$/.exec(line);
    let out: string;
    if (raw) {
      const method = { get: 'GET', delete: 'DELETE', create: 'POST' }[raw[1] as 'get' | 'delete' | 'create'];
      const r = await rawRequest(srv.port, raw[2], { token, method, body: raw[3] ? file(raw[3]) : undefined });
      out = printed(r, (x) => x.text);
    } else {
      const m = MAPPED[b.args] ?? MAPPED[line];
      expect(m, `a mapping for ${b.args}`).toBeDefined();
      const r = await rawRequest(srv.port, m.path, {
        token,
        method: m.method ?? 'GET',
        body: m.body ? JSON.stringify(m.body) : undefined,
        headers: { ...(m.body ? { 'Content-Type': 'application/json' } : {}), ...m.headers },
      });
      out = printed(r, m.print);
    }
    expect(out).toBe(b.output.trimEnd());
  });
});
