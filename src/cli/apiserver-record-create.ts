/**
 * `npx tsx src/cli/apiserver-record-create.ts` — records kubectl's typed `create` subcommands
 * (which send `application/vnd.kubernetes.protobuf` bodies) with the REAL kubectl on this machine
 * against the engine served in-process (src/server, simulated clock ×60), through a small
 * capturing proxy. Writes:
 * - src/server/testdata/create.txt: the transcript (format: src/server/golden.ts), then
 *   `get storageclass` / `get ingressclass` (the " (default)" name suffix);
 * - src/server/testdata/create-protobuf.json: per command, the request kubectl sent (method,
 *   path, Content-Type, body as base64) and the object `kubectl create … --dry-run=client -o json`
 *   prints for the same arguments: the oracle for src/server/protobuf.ts.
 * src/server/create-goldens.test.ts replays both without kubectl.
 */
import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cluster } from '../cluster/cluster';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { formatTranscript, normalise, type GoldenBlock } from '../server/golden';

const SPEED = 60;
const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'src/server/testdata');
const TLS = 'src/server/testdata/tls';

/** The create commands (argv after `kubectl`), in order: later ones use earlier objects. */
const CREATE_COMMANDS: string[][] = [
  ['create', 'namespace', 'team-a'],
  ['create', 'configmap', 'cfg', '--from-literal=a=b', '--from-literal=greeting=hello world'],
  ['create', 'secret', 'generic', 's', '--from-literal=password=s3cr3t'],
  ['create', 'secret', 'tls', 'tls', `--cert=${TLS}/tls.crt`, `--key=${TLS}/tls.key`],
  ['create', 'secret', 'docker-registry', 'reg', '--docker-server=registry.example.com', '--docker-username=u', '--docker-password=p'],
  ['create', 'serviceaccount', 'sa'],
  ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2', '--port=80'],
  ['create', 'deployment', 'idle', '--image=nginx:1.27', '--replicas=0'],
  ['create', 'deployment', 'cmd', '--image=busybox:1.36', '--', 'sh', '-c', 'echo hi; sleep 3600'],
  ['create', 'service', 'clusterip', 'web', '--tcp=80:8080'],
  ['create', 'service', 'nodeport', 'web-np', '--tcp=80:8080', '--node-port=30080'],
  ['create', 'service', 'loadbalancer', 'web-lb', '--tcp=443:8443'],
  ['create', 'service', 'externalname', 'ext', '--external-name=example.com'],
  ['create', 'job', 'once', '--image=busybox:1.36', '--', 'echo', 'done'],
  ['create', 'cronjob', 'tick', '--image=busybox:1.36', '--schedule=*/5 * * * *', '--', 'date'],
  ['create', 'job', 'tick-now', '--from=cronjob/tick'],
  ['create', 'quota', 'q', '--hard=cpu=2,memory=1Gi,pods=10'],
  ['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods'],
  ['create', 'rolebinding', 'read-pods', '--role=pod-reader', '--user=alice', '--serviceaccount=default:sa'],
  ['create', 'clusterrole', 'node-reader', '--verb=get,list', '--resource=nodes'],
  ['create', 'clusterrolebinding', 'read-nodes', '--clusterrole=node-reader', '--group=ops'],
  ['create', 'poddisruptionbudget', 'web-pdb', '--selector=app=web', '--min-available=1'],
  ['create', 'priorityclass', 'high', '--value=1000', '--description=important'],
  ['create', 'ingress', 'web', '--rule=web.example.com/=web:80', '--class=nginx'],
];
const READS: string[][] = [
  ['get', 'storageclass'],
  ['get', 'ingressclass'],
  ['get', 'deployments'],
  ['get', 'configmap', 'cfg', '-o', 'jsonpath={.data}'],
];

/** One captured protobuf request and its oracle. */
interface CapturedCreate {
  args: string;
  method: string;
  path: string;
  contentType: string;
  /** The body kubectl sent, base64. */
  body: string;
  /** `kubectl <args> --dry-run=client -o json`. */
  dryRun: unknown;
}

const shown = (args: string[]) => args.map((a) => (/[\s{}"*;]/.test(a) ? `'${a}'` : a)).join(' ');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-relay-create-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const srv = await startServer(new Cluster(), { port: 0, speed: SPEED });
  const seen: { method: string; path: string; contentType: string; body: Buffer }[] = [];
  const proxy: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const ct = req.headers['content-type'] ?? '';
      if (ct.startsWith('application/vnd.kubernetes.protobuf'))
        seen.push({ method: req.method ?? '', path: req.url ?? '', contentType: ct, body });
      const up = request(
        {
          host: '127.0.0.1',
          port: srv.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: `127.0.0.1:${srv.port}`, authorization: `Bearer ${srv.token}` },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.end(body);
    });
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  writeFileSync(kubeconfig, kubeconfigYAML(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`));
  const env = { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
  const blocks: GoldenBlock[] = [];
  const captured: CapturedCreate[] = [];
  try {
    for (const args of CREATE_COMMANDS) {
      const dd = args.includes('--') ? args.indexOf('--') : args.length;
      const dry = await kubectl([...args.slice(0, dd), '--dry-run=client', '-o', 'json', ...args.slice(dd)], env);
      const before = seen.length;
      const r = await kubectl(args, env);
      blocks.push({ args: shown(args), output: normalise(r.out), exitCode: r.code });
      const req = seen.slice(before).at(-1);
      if (req)
        captured.push({
          args: shown(args),
          method: req.method,
          path: req.path,
          contentType: req.contentType,
          body: req.body.toString('base64'),
          dryRun: JSON.parse(dry.stdout),
        });
      process.stdout.write(`kubectl ${shown(args)} → ${r.code}\n`);
    }
    await new Promise((ok) => setTimeout(ok, 2000));
    for (const args of READS) {
      const r = await kubectl(args, env);
      blocks.push({ args: shown(args), output: normalise(r.out), exitCode: r.code });
    }
  } finally {
    proxy.closeAllConnections();
    proxy.close();
    await srv.close();
  }
  writeFileSync(
    join(OUT, 'create.txt'),
    formatTranscript(
      `kubectl's typed create subcommands (protobuf request bodies) (recorded by src/cli/apiserver-record-create.ts; real kubectl, simulated clock ×${SPEED})`,
      blocks,
    ),
  );
  writeFileSync(join(OUT, 'create-protobuf.json'), `${JSON.stringify(captured, null, 1)}\n`);
}

/** Runs the real kubectl (asynchronously: the in-process server and proxy must keep serving). */
function kubectl(args: string[], env: NodeJS.ProcessEnv): Promise<{ out: string; stdout: string; code: number }> {
  return new Promise((done) => {
    const p = spawn('kubectl', args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => done({ out: stdout + stderr, stdout, code: code ?? 0 }));
  });
}

await main();
