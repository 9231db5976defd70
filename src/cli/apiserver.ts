/**
 * `npm run apiserver -- [--port 6443] [--kubeconfig kube-relay.kubeconfig] [--speed 1] [--scenario FILE]`
 * (docs/architecture.md#the-http-server): runs the engine in Node and serves the Kubernetes REST API on
 * http://127.0.0.1:PORT. Prints the URL on its first line, writes the kubeconfig (context
 * kube-relay, user kubectl), and runs until SIGINT/SIGTERM. With --scenario the scenario's
 * cluster is built and its steps are played in fast-forward before serving. The simulated clock
 * starts at the wall-clock second the server starts (src/server/epoch.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { Cluster } from '../cluster/cluster';
import { parseScenario, ScenarioError } from '../cluster/scenario/scenario';
import { runStep } from '../cluster/scenario/runner';
import { startServer } from '../server/server';
import { kubeconfigYAML } from '../server/kubeconfig';
import { kustomizeDir } from './kustomize';
import { buildAnchored, serverEpochMs } from '../server/epoch';

function usage(): never {
  process.stderr.write('usage: npm run apiserver -- [--port 6443] [--kubeconfig kube-relay.kubeconfig] [--speed 1] [--scenario FILE]\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
let port = 6443;
let kubeconfig = 'kube-relay.kubeconfig';
let speed = 1;
let scenario: string | undefined;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const next = () => argv[++i] ?? usage();
  if (a === '--port') port = Number(next());
  else if (a === '--kubeconfig') kubeconfig = next();
  else if (a === '--speed') speed = Number(next());
  else if (a === '--scenario') scenario = next();
  else usage();
}
if (!Number.isInteger(port) || port < 0 || !(speed > 0)) usage();

// The simulated clock starts at the wall-clock second the server starts (src/server/epoch.ts), so
// real kubectl's client-side ages (describe, get -w) read like a real cluster's.
const wallStartMs = Date.now();
let cluster: Cluster;
if (scenario) {
  try {
    const sc = parseScenario(parse(readFileSync(scenario, 'utf8'), { maxAliasCount: 100 }));
    const base = dirname(resolve(scenario));
    cluster = buildAnchored(wallStartMs, (startMs) => {
      const c = new Cluster({ seed: sc.cluster.seed, nodes: sc.cluster.nodes, images: sc.cluster.images, startMs });
      sc.steps.forEach((s, i) => runStep(c, s, i, { readFile: (p) => readFileSync(resolve(base, p), 'utf8'), kustomize: (p) => kustomizeDir(resolve(base, p)) }, []));
      return c;
    });
  } catch (err) {
    process.stderr.write(`${err instanceof ScenarioError ? err.message : String(err)}\n`);
    process.exit(1);
  }
} else cluster = buildAnchored(wallStartMs, (startMs) => new Cluster({ startMs }));

// the clock catches up the time spent building (wall time since wallStartMs × speed) at its first tick
const running = await startServer(cluster, { port, speed, wallStartMs: serverEpochMs(wallStartMs) });
process.stdout.write(`${running.url}\n`);
writeFileSync(kubeconfig, kubeconfigYAML(running.url));
process.stdout.write(`kubeconfig written to ${kubeconfig} (context kube-relay); try: KUBECONFIG=${kubeconfig} kubectl get nodes\n`);
const stop = () => {
  void running.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
