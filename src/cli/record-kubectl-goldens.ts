/**
 * `npm run goldens:kubectl` — drives the REAL kubectl (v1.32/1.33 on PATH; nothing else needs
 * it) against the engine served over HTTP (src/server, in-process, ephemeral port, simulated
 * clock ×SPEED) and writes the normalised transcripts to src/server/testdata/*.txt
 * (format and normalisation: src/server/golden.ts). src/server/goldens.test.ts replays them.
 *
 * Sessions: the seed story (apply, rollout status, get -o wide|yaml|json, describe, power a
 * Machine off, get -w until the replacement runs), workloads (scale, set image, rollout
 * history|undo, wait, logs [-f], cordon, uncordon, drain, delete, explain, --server-side,
 * apply -k), and `apply -f` (client-side, then --server-side on a fresh server) of every file
 * in src/examples/real (given to kubectl as manifests/real/FILE).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Cluster } from '../cluster/cluster';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { formatTranscript, normalise, type GoldenBlock } from '../server/golden';

/** Simulated ms per wall ms while recording. */
const SPEED = 60;
const ROOT = resolve(import.meta.dirname, '../..');
const REAL = resolve(ROOT, 'src/examples/real');
const OUT = join(ROOT, 'src/server/testdata');

/** One step: kubectl's argv, and for a command that never ends (-w, -f) how long it runs (wall ms). */
interface Step {
  args: string[];
  stopAfterMs?: number;
  cwd?: string;
}

const k = (line: string, stopAfterMs?: number): Step => ({
  args: (line.match(/'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^'(.*)'$/, '$1')),
  stopAfterMs,
});

function run(kubeconfig: string, step: Step): Promise<GoldenBlock> {
  return new Promise((done) => {
    const p = spawn('kubectl', step.args, {
      cwd: step.cwd ?? ROOT,
      env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(kubeconfig, '..', 'cache') },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = step.stopAfterMs ? setTimeout(() => p.kill('SIGINT'), step.stopAfterMs) : undefined;
    p.on('close', (code) => {
      if (timer) clearTimeout(timer);
      const shown = step.args.map((a) => (/[\s{}"]/.test(a) ? `'${a}'` : a)).join(' ');
      done({
        args: step.stopAfterMs ? `${shown}   # stopped after ${step.stopAfterMs / 1000} s` : shown,
        output: normalise(out + err),
        exitCode: step.stopAfterMs ? 0 : (code ?? 0),
      });
    });
  });
}

/** Runs `steps` against a fresh engine and writes the transcript `name`.txt. */
async function session(name: string, title: string, steps: Step[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-relay-goldens-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const srv = await startServer(new Cluster(), { port: 0, speed: SPEED });
  writeFileSync(kubeconfig, kubeconfigYAML(srv.httpsUrl, { token: srv.token, caPem: srv.caPem }));
  const blocks: GoldenBlock[] = [];
  try {
    for (const s of steps) {
      const b = await run(kubeconfig, s);
      blocks.push(b);
      process.stdout.write(`${name}: kubectl ${b.args} → ${b.exitCode}\n`);
    }
  } finally {
    await srv.close();
  }
  writeFileSync(
    join(OUT, `${name}.txt`),
    formatTranscript(`${title} (recorded by npm run goldens:kubectl; real kubectl, simulated clock ×${SPEED})`, blocks),
  );
}

const PEEKCART = 'src/scenarios/peekcart.yaml';

const SEED: Step[] = [
  k(`apply -f ${PEEKCART}`),
  k('rollout status deployment/peekcart --timeout=60s'),
  k('get pods -o wide'),
  k('get deployments,replicasets,services'),
  k('get deployment peekcart -o yaml'),
  k('get service peekcart -o json'),
  k('describe deployment peekcart'),
  k('get machines'),
  k(`patch machine node-2 --type=merge -p '{"spec":{"power":"Off"}}'`),
  k('get pods -w', 9000),
  k('get pods -o wide'),
  k('get nodes'),
  k('get machines'),
];

const WORKLOADS: Step[] = [
  k(`apply -f ${PEEKCART}`),
  k('rollout status deployment/peekcart --timeout=60s'),
  k('scale deployment peekcart --replicas=5'),
  k('rollout status deployment/peekcart --timeout=60s'),
  k('get deployment peekcart'),
  k('set image deployment/peekcart peekcart=ghcr.io/peekcart/peekcart:1.1.0'),
  k('rollout status deployment/peekcart --timeout=60s'),
  k('rollout history deployment/peekcart'),
  k('rollout undo deployment/peekcart'),
  k('rollout status deployment/peekcart --timeout=60s'),
  k('rollout history deployment/peekcart'),
  k('wait --for=condition=Available deployment/peekcart --timeout=60s'),
  k(`run ticker --image=busybox:1.36 --restart=Never -- sh -c 'echo hello from ticker; while true; do echo tick; sleep 20; done'`),
  k('wait --for=condition=Ready pod/ticker --timeout=60s'),
  k('logs ticker --tail=2'),
  k('logs -f ticker', 2500),
  k('logs deployment/peekcart'),
  k('cordon node-1'),
  k('get nodes'),
  k('uncordon node-1'),
  k('drain node-3 --ignore-daemonsets --timeout=60s'),
  k('get pods -o wide'),
  k('uncordon node-3'),
  k('delete pod ticker'),
  k('delete deployment peekcart'),
  k('explain deployment.spec.replicas'),
  k(`apply --server-side -f ${PEEKCART}`),
  k('get deployment peekcart -o jsonpath={.metadata.managedFields[*].manager}'),
  k('apply -k src/scenarios/kustomize/overlays/dev'),
  k('get deployments -A'),
];

function realManifests(serverSide: boolean): Step[] {
  const files = readdirSync(REAL)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  // kubectl is given `manifests/real/FILE` (the path the transcripts show): run it where
  // `manifests` links to the folder holding real/
  const cwd = mkdtempSync(join(tmpdir(), 'kube-relay-real-'));
  symlinkSync(resolve(REAL, '..'), join(cwd, 'manifests'));
  return files.map((f) => ({ args: ['apply', ...(serverSide ? ['--server-side'] : []), '-f', `manifests/real/${f}`], cwd }));
}

const only = process.argv.slice(2);
const sessions: [string, string, Step[]][] = [
  ['seed-story', 'The seed story with real kubectl: apply peekcart, power node-2 off, watch the replacement', SEED],
  [
    'workloads',
    'Real kubectl verbs against the engine: scale, rollout, wait, logs, cordon, drain, delete, explain, server-side apply, apply -k',
    WORKLOADS,
  ],
  ['real-manifests-client-side', 'kubectl apply -f of every file in src/examples/real (one server, in file order)', realManifests(false)],
  [
    'real-manifests-server-side',
    'kubectl apply --server-side -f of every file in src/examples/real (one fresh server, in file order)',
    realManifests(true),
  ],
];
for (const [name, title, steps] of sessions) if (!only.length || only.includes(name)) await session(name, title, steps);
