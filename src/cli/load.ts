/**
 * `npm run load -- [--seconds 60] [--watchers 100] [--relay-watchers 100] [--clients 20] [--max-requests 200000]`
 * — the load test of issue 14 against a real `npm run apiserver` child process on 127.0.0.1
 * (loopback only; bounded in time and in requests; it stops by itself):
 *
 * - `--watchers` raw connections watch /api/v1/pods?watch=1 and `--relay-watchers` watch
 *   /kube-relay/v1/relay?watch=1, and never read (paused sockets);
 * - a Deployment `load` scales 0 ↔ 30 every 5 s (PATCH …/scale);
 * - `--clients` kubectl-like loops create a ConfigMap, read it, apply a change (server-side
 *   apply), delete it, and every tenth round list all Pods and all ConfigMaps;
 * - one reading watcher follows ConfigMaps in the load namespace to check nothing is lost or
 *   duplicated: every created name is ADDED once and DELETED once, resourceVersions only grow;
 * - `LOAD_DEBUG=1` prints every answer slower than 500 ms;
 * - reports the server's RSS (VmRSS of the process) before, peak and after, requests answered,
 *   429s, slow watchers closed, how long SIGTERM took to stop it, and the checks; exits 1 when
 *   a check fails, RSS passes 300 MB or the stop took a second or more. `LOAD_DEBUG=1` prints
 *   every answer slower than 500 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { request as httpRequest, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tokenFromKubeconfig } from '../server/kubeconfig';

const ROOT = resolve(import.meta.dirname, '../..');
const RSS_LIMIT_MB = 300;

function flag(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0 || v > 1_000_000) {
    process.stderr.write(
      `error: invalid argument ${JSON.stringify(process.argv[i + 1] ?? '')} for "--${name}" flag: must be an integer from 0 to 1000000\n`,
    );
    process.exit(2);
  }
  return v;
}

const SECONDS = Math.min(flag('seconds', 60), 600);
const WATCHERS = flag('watchers', 100);
const RELAY_WATCHERS = flag('relay-watchers', 100);
const CLIENTS = flag('clients', 20);
const MAX_REQUESTS = flag('max-requests', 200_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** VmRSS of a process, MB (Linux /proc). */
function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const dir = mkdtempSync(join(tmpdir(), 'kube-relay-load-'));
const kubeconfig = join(dir, 'kubeconfig');
const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(ROOT, 'src/cli/apiserver.ts'), '--port', '0', '--speed', '10', '--kubeconfig', kubeconfig],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
);
const firstLine = await new Promise<string>((ok, fail) => {
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('\n')) ok(out.split('\n')[0]);
  });
  child.on('exit', (code) => fail(new Error(`apiserver exited with ${code}`)));
});
const port = Number(new URL(firstLine).port);
const token = tokenFromKubeconfig(readFileSync(kubeconfig, 'utf8'))!;
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS + 4 });
const codes = new Map<number, number>();
let requests = 0;

/** One request on the keep-alive agent; resolves with status and JSON body. */
function call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ code: number; json: any }> {
  const t0 = Date.now();
  requests++;
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((ok, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          Authorization: `Bearer ${token}`,
          'User-Agent': 'kubectl/v1.33.1 (load)',
          ...(text !== undefined ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          codes.set(code, (codes.get(code) ?? 0) + 1);
          let json: unknown;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            json = undefined;
          }
          if (process.env.LOAD_DEBUG && Date.now() - t0 > 500) process.stderr.write(`slow ${method} ${path} ${Date.now() - t0} ms\n`);
          ok({ code, json });
        });
      },
    );
    req.on('error', fail);
    req.end(text);
  });
}

/** A watch that is never read. */
function neverRead(path: string): Promise<Socket> {
  return new Promise((ok) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      s.pause();
      ok(s);
    });
    s.on('error', () => undefined);
  });
}

await sleep(1000);
const rssStart = rssMB(child.pid!);
await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'load' } });
await call('POST', '/apis/apps/v1/namespaces/load/deployments', {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'load' },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: 'load' } },
    template: { metadata: { labels: { app: 'load' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
});

// the checking watcher (reads everything)
const seen = new Map<string, { added: number; deleted: number }>();
let lastRV = 0;
let rvRegressions = 0;
let duplicateAdds = 0;
const checker = httpRequest(
  { host: '127.0.0.1', port, path: '/api/v1/namespaces/load/configmaps?watch=1', headers: { Authorization: `Bearer ${token}` } },
  (res) => {
    let buf = '';
    res.on('data', (c: Buffer) => {
      buf += c.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const ev = JSON.parse(line) as { type: string; object: { metadata: { name: string; resourceVersion: string } } };
        if (ev.type === 'BOOKMARK' || ev.type === 'ERROR' || !/^c\d+-\d+$/.test(ev.object.metadata.name)) continue;
        const rv = Number(ev.object.metadata.resourceVersion);
        if (rv <= lastRV) rvRegressions++;
        lastRV = rv;
        const e = seen.get(ev.object.metadata.name) ?? { added: 0, deleted: 0 };
        if (ev.type === 'ADDED') {
          if (e.added) duplicateAdds++;
          e.added++;
        }
        if (ev.type === 'DELETED') e.deleted++;
        seen.set(ev.object.metadata.name, e);
      }
    });
  },
);
checker.end();

const idle: Socket[] = [];
for (let i = 0; i < WATCHERS; i++) idle.push(await neverRead('/api/v1/pods?watch=1'));
for (let i = 0; i < RELAY_WATCHERS; i++) idle.push(await neverRead('/kube-relay/v1/relay?watch=1'));

// the window starts once the server holds every stream
for (let i = 0; i < 600; i++) {
  const open = (await call('GET', '/kube-relay/v1/info')).json?.server?.openStreams ?? 0;
  if (open >= WATCHERS + RELAY_WATCHERS + 1) break;
  await sleep(100);
}
const deadline = Date.now() + SECONDS * 1000;
const running = () => Date.now() < deadline && requests < MAX_REQUESTS;
let peak = rssStart;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMB(child.pid!));
}, 500);

let created = 0;
let deleted = 0;
let failures = 0;
async function client(id: number): Promise<void> {
  for (let round = 0; running(); round++) {
    const name = `c${id}-${round}`;
    const c = await call('POST', '/api/v1/namespaces/load/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name },
      data: { round: String(round), pad: 'x'.repeat(2000) },
    });
    if (c.code === 429) {
      await sleep(1000);
      continue;
    }
    if (c.code !== 201) {
      failures++;
      continue;
    }
    created++;
    await call('GET', `/api/v1/namespaces/load/configmaps/${name}`);
    await call(
      'PATCH',
      `/api/v1/namespaces/load/configmaps/${name}?fieldManager=load`,
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  applied: "yes"\n`,
      'application/apply-patch+yaml',
    );
    for (;;) {
      const d = await call('DELETE', `/api/v1/namespaces/load/configmaps/${name}`);
      if (d.code === 200) {
        deleted++;
        break;
      }
      if (d.code !== 429) {
        failures++;
        break;
      }
      await sleep(1000);
    }
    if (round % 10 === 0) {
      await call('GET', '/api/v1/pods');
      await call('GET', '/api/v1/configmaps');
    }
  }
}

async function scaler(): Promise<void> {
  for (let i = 0; running(); i++) {
    await call(
      'PATCH',
      '/apis/apps/v1/namespaces/load/deployments/load/scale',
      { spec: { replicas: i % 2 ? 0 : 30 } },
      'application/merge-patch+json',
    );
    await sleep(5000);
  }
}

await Promise.all([scaler(), ...Array.from({ length: CLIENTS }, (_, i) => client(i))]);
clearInterval(sampler);
await sleep(2000);
const rssEnd = rssMB(child.pid!);
const info = (await call('GET', '/kube-relay/v1/info')).json;
const left = (await call('GET', '/api/v1/namespaces/load/configmaps')).json.items.filter((o: { metadata: { name: string } }) =>
  /^c\d+-\d+$/.test(o.metadata.name),
).length;
checker.destroy();
for (const s of idle) s.destroy();
agent.destroy();
// SIGTERM must stop it within a second, under load as when idle
const stopStart = Date.now();
const stopped = new Promise<void>((ok) => child.once('exit', () => ok()));
child.kill('SIGTERM');
await Promise.race([stopped, sleep(5000)]);
const stopMs = Date.now() - stopStart;
if (child.exitCode === null) child.kill('SIGKILL');

const unbalanced = [...seen.values()].filter((e) => e.added !== 1 || e.deleted !== 1).length;
const checks = {
  'every created ConfigMap was deleted (none left)': left === 0 && created === deleted,
  'the checking watcher saw each ADDED once and DELETED once': unbalanced === 0 && duplicateAdds === 0 && seen.size === created,
  'resourceVersions only grew': rvRegressions === 0,
  'no unexpected answers': failures === 0,
  [`server RSS under ${RSS_LIMIT_MB} MB`]: peak < RSS_LIMIT_MB && rssEnd < RSS_LIMIT_MB,
  'SIGTERM stopped the server within a second': stopMs < 1000,
};
const report = {
  seconds: SECONDS,
  watchers: WATCHERS,
  relayWatchers: RELAY_WATCHERS,
  clients: CLIENTS,
  rssMB: { start: Math.round(rssStart), peak: Math.round(peak), end: Math.round(rssEnd) },
  requestsSent: requests,
  answersByCode: Object.fromEntries([...codes].sort((a, b) => a[0] - b[0])),
  server: info?.server,
  configMaps: { created, deleted, left, watchedNames: seen.size, unbalanced, duplicateAdds, rvRegressions },
  stopMs,
  checks,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
process.exit(Object.values(checks).every(Boolean) ? 0 : 1);
