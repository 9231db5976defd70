/**
 * `npx tsx src/cli/record-auth-goldens.ts` — drives the REAL kubectl against the engine served
 * in-process (src/server) through RBAC as issue 18 asks: `auth whoami` (admin, `--as`,
 * `--as-group`), `auth can-i` (a verb, `--list`, a node identity, `'*' '*'`), a 403, a Role and
 * RoleBinding for jane, then jane's access. kubectl sends the reviews as protobuf
 * (src/server/protobuf.ts). Writes src/server/testdata/auth.txt; src/server/auth-goldens.test.ts
 * replays it without kubectl. `get lease -n kube-system` during a failover is in leader-election.txt.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cluster } from '../cluster/cluster';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { formatTranscript, normalise, type GoldenBlock } from '../server/golden';
import { AUTH_STEPS } from './auth-golden-steps';

const ROOT = resolve(import.meta.dirname, '../..');

/** Splits a line as a shell would for these lines: words, single quotes kept together. */
const argv = (line: string) => (line.match(/'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^'(.*)'$/, '$1'));

function kubectl(kubeconfig: string, line: string): Promise<GoldenBlock> {
  return new Promise((done) => {
    const p = spawn('kubectl', argv(line), {
      env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(kubeconfig, '..', 'cache') },
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => done({ args: line, output: normalise(out), exitCode: code ?? 0 }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'kube-relay-auth-'));
const kubeconfig = join(dir, 'kubeconfig');
const srv = await startServer(new Cluster(), { port: 0, speed: 10 });
writeFileSync(kubeconfig, kubeconfigYAML(srv.httpsUrl, { token: srv.token, caPem: srv.caPem }));
const blocks: GoldenBlock[] = [];
try {
  for (const line of AUTH_STEPS) {
    const b = await kubectl(kubeconfig, line);
    blocks.push(b);
    process.stdout.write(`kubectl ${line} → ${b.exitCode}\n`);
  }
} finally {
  await srv.close();
}
writeFileSync(
  join(ROOT, 'src/server/testdata/auth.txt'),
  formatTranscript(
    'RBAC with real kubectl: auth whoami, auth can-i (--as, --list, a node, everything), a 403, a Role and RoleBinding for jane (recorded by src/cli/record-auth-goldens.ts)',
    blocks,
  ),
);
