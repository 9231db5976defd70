/**
 * The server's long-lived answers against an in-process server (simulated clock ×50): watch
 * from a compacted resourceVersion (410 Gone as an ERROR event), watch headers before any event,
 * `pods/log?follow=true` streaming new lines, and kube-relay's own /kube-relay/v1 endpoints.
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
let cluster: Cluster;
const j = async (path: string, init: RequestInit = {}) => {
  const r = await fetch(srv.url + path, init);
  return { code: r.status, body: (await r.json()) as any, headers: r.headers };
};
const post = (path: string, body: unknown) =>
  j(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads a streamed body until `stop` holds over the text so far (or `ms` pass), then aborts. */
async function readUntil(
  path: string,
  stop: (text: string) => boolean,
  ms: number,
): Promise<{ text: string; ended: boolean; type: string | null }> {
  const ac = new AbortController();
  const r = await fetch(srv.url + path, { signal: ac.signal });
  const reader = r.body!.getReader();
  let text = '';
  const deadline = Date.now() + ms;
  let ended = false;
  while (!stop(text) && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), sleep(deadline - Date.now()).then(() => null)]);
    if (!chunk) break;
    if (chunk.done) {
      ended = true;
      break;
    }
    text += new TextDecoder().decode(chunk.value);
  }
  ac.abort();
  return { text, ended, type: r.headers.get('content-type') };
}

beforeAll(async () => {
  cluster = new Cluster();
  srv = await startServer(cluster, { port: 0, speed: 50 });
});
afterAll(async () => srv.close());

describe('watch', () => {
  it('answers a compacted resourceVersion with one ERROR event carrying 410 Expired, then ends', async () => {
    for (let i = 0; i < 3; i++)
      await post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `gone-${i}` } });
    const rev = cluster.api.store.revision;
    cluster.api.store.compact(rev - 1);
    const r = await readUntil(`/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2`, () => false, 3000);
    const lines = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(r.ended).toBe(true);
    expect(lines).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: 2 (${rev - 1})`,
          reason: 'Expired',
          code: 410,
        },
      },
    ]);
  });

  it('sends the response headers at once, before any event (clients wait for them)', async () => {
    const rv = (await j('/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    const ac = new AbortController();
    const started = Date.now();
    const r = await fetch(`${srv.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, { signal: ac.signal });
    expect([r.status, r.headers.get('content-type'), Date.now() - started < 1000]).toEqual([200, 'application/json', true]);
    ac.abort();
  });
});

describe('pods/log', () => {
  it('follows a running container: the lines so far, then each new line as it is printed', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'ticker' },
      spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'while true; do echo tick; sleep 10; done'] }] },
    };
    expect((await post('/api/v1/namespaces/default/pods', pod)).code).toBe(201);
    for (let i = 0; i < 100 && !cluster.api.getObject('pods', 'default', 'ticker')?.status?.containerStatuses?.[0]?.state?.running; i++)
      await sleep(50);
    // 10 s of simulated time between ticks = 200 wall ms at ×50: at least 3 more ticks within ~1 s
    const r = await readUntil('/api/v1/namespaces/default/pods/ticker/log?follow=true', (t) => t.split('\n').length > 4, 5000);
    expect(r.ended).toBe(false);
    expect(r.text.split('\n').slice(0, 4)).toEqual(['tick', 'tick', 'tick', 'tick']);
    const plain = await fetch(`${srv.url}/api/v1/namespaces/default/pods/ticker/log?tailLines=2`);
    expect([plain.headers.get('content-type'), await plain.text()]).toEqual(['text/plain', 'tick\ntick\n']);
  });
});

describe('/kube-relay/v1', () => {
  it('GET /info names the engine, the Kubernetes version, the simulated now and the speed', async () => {
    const r = await j('/kube-relay/v1/info');
    expect({ ...r.body, simMs: typeof r.body.simMs, lastSeq: typeof r.body.lastSeq, server: Object.keys(r.body.server) }).toEqual({
      engine: 'kube-relay',
      version: 'v1.33.1',
      simMs: 'number',
      speed: 50,
      lastSeq: 'number',
      server: ['requests', 'tooManyRequests', 'slowWatchersClosed', 'openStreams', 'heapUsedMB'],
    });
    expect(r.body.simMs).toBeGreaterThan(Date.parse('2026-01-01T00:00:00Z'));
    expect(r.body.simMs).toBeLessThanOrEqual(cluster.now());
    expect(r.body.lastSeq).toBeLessThanOrEqual(cluster.relay.lastSeq);
  });

  it('GET /relay?sinceSeq=N lists the hops after N as NDJSON; watch=1 streams the next ones', async () => {
    const since = cluster.relay.lastSeq;
    const once = await readUntil(`/kube-relay/v1/relay?sinceSeq=${since - 3}&heartbeats=1`, () => false, 3000);
    expect(once.ended).toBe(true);
    expect(once.type).toBe('application/x-ndjson');
    const seqs = once.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).seq as number);
    expect(seqs.slice(0, 3)).toEqual([since - 2, since - 1, since]);
    const pending = readUntil(
      `/kube-relay/v1/relay?sinceSeq=${cluster.relay.lastSeq}&watch=1&heartbeats=0`,
      (t) => t.includes('"verb":"create"') && t.includes('relay-cm'),
      5000,
    );
    await sleep(100);
    await post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'relay-cm' } });
    const r = await pending;
    const hops = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(r.ended).toBe(false);
    expect(hops.some((h) => h.category === 'heartbeat')).toBe(false);
    const req = hops.find((h) => h.kind === 'request' && h.verb === 'create');
    expect([req.from, req.to, req.resource, req.namespace, req.name]).toEqual([
      'kubectl',
      'kube-apiserver',
      'configmaps',
      'default',
      'relay-cm',
    ]);
  });

  it.each([
    ['/kube-relay/v1/relay?sinceSeq=-1', 400, 'invalid sinceSeq: -1'],
    ['/kube-relay/v1/nope', 404, 'the server could not find the requested resource'],
  ])('GET %s → %i', async (path, code, message) => {
    const r = await j(path);
    expect([r.code, r.body.message]).toEqual([code, message]);
  });
});
