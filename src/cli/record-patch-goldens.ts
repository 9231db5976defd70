/**
 * `npx tsx src/cli/record-patch-goldens.ts [PORT]` — records src/server/testdata/patch.txt: the
 * REAL kubectl (v1.32 on PATH) running the `kubectl patch` lines of
 * src/cluster/kubectl/cmd/patch-fixture.ts in order against the engine served in-process, with
 * the fixture's objects applied and settled 600 s BEFORE the server starts and the clock
 * frozen (speed 0), so src/cluster/kubectl/cmd/patch.test.ts can rebuild the same state with
 * `new Cluster()` and replay every line through the in-app kubectl.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cluster } from '../cluster/cluster';
import { splitArgs } from '../cluster/kubectl/cmd/util';
import { PATCH_COMMANDS, PATCH_OBJECTS } from '../cluster/kubectl/cmd/patch-fixture';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { formatTranscript, normalise, type GoldenBlock } from '../server/golden';

const ROOT = resolve(import.meta.dirname, '../..');
const port = Number(process.argv[2] ?? 0);

function run(kubeconfig: string, line: string): Promise<GoldenBlock> {
  return new Promise((done) => {
    const p = spawn('kubectl', splitArgs(line), { cwd: ROOT, env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(kubeconfig, '..', 'cache') } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => done({ args: line, output: normalise(out + err), exitCode: code ?? 0 }));
  });
}

const cluster = new Cluster();
const applied = cluster.kubectl('apply -f -', PATCH_OBJECTS);
if (applied.exitCode) throw new Error(applied.error ?? 'apply failed');
cluster.settle(600_000);
const dir = mkdtempSync(join(tmpdir(), 'kube-relay-patch-'));
const kubeconfig = join(dir, 'kubeconfig');
const srv = await startServer(cluster, { port, speed: 0 });
writeFileSync(kubeconfig, kubeconfigYAML(srv.url));
const blocks: GoldenBlock[] = [];
try {
  for (const line of PATCH_COMMANDS) {
    const b = await run(kubeconfig, line);
    blocks.push(b);
    process.stdout.write(`kubectl ${line} → ${b.exitCode}\n`);
  }
} finally {
  await srv.close();
}
writeFileSync(
  join(ROOT, 'src/server/testdata/patch.txt'),
  formatTranscript('kubectl patch against src/cluster/kubectl/cmd/patch-fixture.ts, applied in-process and settled 600 s, clock frozen (recorded by src/cli/record-patch-goldens.ts; real kubectl)', blocks),
);
