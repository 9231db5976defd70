/**
 * The shared loop of the real-kubectl transcript recorders (record-auth-goldens.ts,
 * record-security-goldens.ts): an engine served in-process over HTTPS with its token and CA in
 * a temporary kubeconfig, each line run by the REAL kubectl (stdout and stderr together,
 * normalised as golden.ts does), the blocks written as one transcript that the goldens tests
 * replay without kubectl.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from '../cluster/cluster';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { formatTranscript, normalise, type GoldenBlock } from '../server/golden';

/** What to record. */
export interface TranscriptRecording {
  /** kubectl's arguments, one command a line (without `kubectl`). */
  steps: readonly string[];
  /** The transcript file to write. */
  out: string;
  /** Its title line. */
  title: string;
  /** A line's argv (default: split at spaces). */
  argv?: (line: string) => string[];
  /** kubectl's working directory (for `-f FILE`). */
  cwd?: string;
  /**
   * The line kubectl runs for a scripted line, given the raw (unnormalised) outputs of the lines
   * before it, e.g. `$T` replaced by the token an earlier `create token` printed; the transcript
   * keeps the scripted line. Default: the line itself.
   */
  expand?: (line: string, rawOutputs: readonly string[]) => string;
}

function kubectl(
  kubeconfig: string,
  line: string,
  run: string,
  argv: (line: string) => string[],
  cwd?: string,
): Promise<GoldenBlock & { raw: string }> {
  return new Promise((done) => {
    const p = spawn('kubectl', argv(run), {
      cwd,
      env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(kubeconfig, '..', 'cache') },
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => done({ args: line, output: normalise(out), exitCode: code ?? 0, raw: out }));
  });
}

/** Runs `r.steps` with the real kubectl against a fresh engine and writes the transcript. */
export async function recordTranscript(r: TranscriptRecording): Promise<void> {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kube-relay-transcript-')), 'kubeconfig');
  const srv = await startServer(new Cluster(), { port: 0, speed: 10 });
  writeFileSync(kubeconfig, kubeconfigYAML(srv.httpsUrl, { token: srv.token, caPem: srv.caPem }));
  const blocks: GoldenBlock[] = [];
  const raws: string[] = [];
  try {
    for (const line of r.steps) {
      const { raw, ...b } = await kubectl(kubeconfig, line, r.expand?.(line, raws) ?? line, r.argv ?? ((l) => l.split(' ')), r.cwd);
      raws.push(raw);
      blocks.push(b);
      process.stdout.write(`kubectl ${line} → ${b.exitCode}\n`);
    }
  } finally {
    await srv.close();
  }
  writeFileSync(r.out, formatTranscript(r.title, blocks));
}
