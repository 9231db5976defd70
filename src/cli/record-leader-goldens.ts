/**
 * `npx tsx src/cli/record-leader-goldens.ts [PORT]` — records src/server/testdata/leader-election.txt:
 * the REAL kubectl (v1.32 on PATH) against an HA control plane served by the engine with its
 * clock frozen (speed 0), the failover of src/cli/leader-golden-script.ts (the leaders' node
 * killed; the Lease still held 5 s later; a standby's after 30 s) moved by the recorder
 * between the lines. src/server/leader-goldens.test.ts replays it through the in-app kubectl.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { splitArgs } from '../cluster/kubectl/cmd/util';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { formatTranscript, normalise, type GoldenBlock } from '../server/golden';
import { LEADER_GOLDEN_STEPS, leaderGoldenActions, leaderGoldenCluster } from './leader-golden-script';

const ROOT = resolve(import.meta.dirname, '../..');
const port = Number(process.argv[2] ?? 0);

function run(kubeconfig: string, line: string): Promise<GoldenBlock> {
  return new Promise((done) => {
    const p = spawn('kubectl', splitArgs(line), {
      cwd: ROOT,
      env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(kubeconfig, '..', 'cache') },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => done({ args: line, output: normalise(out + err), exitCode: code ?? 0 }));
  });
}

const cluster = leaderGoldenCluster();
const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kube-relay-goldens-')), 'kubeconfig');
const srv = await startServer(cluster, { port, speed: 0 });
writeFileSync(kubeconfig, kubeconfigYAML(srv.httpsUrl, { token: srv.token, caPem: srv.caPem }));
const blocks: GoldenBlock[] = [];
try {
  for (const s of LEADER_GOLDEN_STEPS) {
    leaderGoldenActions(cluster, s);
    const b = await run(kubeconfig, s.line);
    blocks.push(b);
    process.stdout.write(`kubectl ${s.line} → ${b.exitCode}\n`);
  }
} finally {
  await srv.close();
}
writeFileSync(
  join(ROOT, 'src/server/testdata/leader-election.txt'),
  formatTranscript(
    "real kubectl v1.32 against an HA control plane (npx tsx src/cli/record-leader-goldens.ts): the leaders' node killed, the Lease held until it expires, a standby takes over",
    blocks,
  ),
);
