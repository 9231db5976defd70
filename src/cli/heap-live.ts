/**
 * Live heap of a headless engine holding one huge Deployment (docs/benchmarks.md, "memory"):
 * `node --expose-gc --import tsx src/cli/heap-live.ts [PODS] [SECONDS,...] [--snapshot FILE]`
 * applies a copy of e2e/fixtures.ts's hugeDeployment(PODS) (default 50,000) to `new Cluster({seed: 1,
 * nodes: 3})` (most Pods stay Pending), advances the simulated clock, and at each simulated
 * second in SECONDS (default 210,560) forces two collections and prints the heap used (MB),
 * the Pods and Events stored. `--snapshot FILE` writes a V8 heap snapshot at the last point.
 */
import { writeHeapSnapshot } from 'node:v8';
import { Cluster } from '../cluster/cluster';

/** e2e/fixtures.ts's hugeDeployment (that module imports Playwright, whose bundles would count here). */
const hugeDeployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: huge}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: huge}}
  template:
    metadata: {labels: {app: huge}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
        resources: {requests: {cpu: 1m, memory: 1Mi}}
`;

const args = process.argv.slice(2);
const snapAt = args.indexOf('--snapshot');
const snapshot = snapAt >= 0 ? args.splice(snapAt, 2)[1] : null;
const pods = Number(args[0] ?? 50_000);
const points = (args[1] ?? '210,560').split(',').map(Number);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const c = new Cluster({ seed: 1, nodes: 3 });
const t0 = process.cpuUsage();
c.apply(hugeDeployment(pods));
let now = 0;
for (const at of points) {
  // advance in 1 s steps, as the worker's clock does
  while (now < at) {
    c.advance(1000);
    now++;
  }
  gc();
  gc();
  const mb = process.memoryUsage().heapUsed / 1e6;
  const n = c.list('pods', 'default').length;
  const ev = c.list('events', 'default').length;
  const cpu = (process.cpuUsage(t0).user / 1e6).toFixed(0);
  console.log(`${pods} Pods at ${at} s: ${mb.toFixed(1)} MB live, ${n} Pods, ${ev} Events (${cpu} s CPU)`);
}
if (snapshot) console.log('snapshot', writeHeapSnapshot(snapshot));
