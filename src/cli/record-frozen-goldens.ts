/**
 * The recorder both src/cli/record-describe-goldens.ts and src/cli/record-patch-goldens.ts use:
 * `objects` are applied in-process and the cluster settled 600 s BEFORE the server starts, the
 * server's clock is frozen (speed 0), then the REAL kubectl (v1.32 on PATH) runs each command
 * line in order against it; the transcript (src/server/golden.ts format, normalised) is written
 * to `out`. A test can rebuild exactly that state with `new Cluster()` and replay every line
 * through the in-app kubectl.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cluster } from '../cluster/cluster';
import { splitArgs } from '../cluster/kubectl/cmd/util';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { formatTranscript, normalise, type GoldenBlock } from '../server/golden';

const ROOT = resolve(import.meta.dirname, '../..');

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

/**
 * Records `commands` (kubectl argv as one line each) into `out` (a path under the repo).
 * @throws Error when `objects` do not apply.
 */
export async function recordFrozenGoldens(opts: {
  objects: string;
  commands: readonly string[];
  out: string;
  title: string;
  port: number;
}): Promise<void> {
  const cluster = new Cluster();
  const applied = cluster.kubectl('apply -f -', opts.objects);
  if (applied.exitCode) throw new Error(applied.error ?? 'apply failed');
  cluster.settle(600_000);
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kube-relay-goldens-')), 'kubeconfig');
  const srv = await startServer(cluster, { port: opts.port, speed: 0 });
  writeFileSync(kubeconfig, kubeconfigYAML(srv.httpsUrl, { token: srv.token, caPem: srv.caPem }));
  const blocks: GoldenBlock[] = [];
  try {
    for (const line of opts.commands) {
      const b = await run(kubeconfig, line);
      blocks.push(b);
      process.stdout.write(`kubectl ${line} → ${b.exitCode}\n`);
    }
  } finally {
    await srv.close();
  }
  writeFileSync(join(ROOT, opts.out), formatTranscript(opts.title, blocks));
}
