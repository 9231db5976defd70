/**
 * `npm run bench [-- --big] [-- --only NAME] [-- --no-peer] [-- --no-warm] [-- --readme]`: engine
 * benchmarks in Node, fast-forward, with the case names of docs/benchmarks.md. Each case runs in
 * a fresh process (this script again with `--case NAME`: what a user's run gets, JIT cold), then
 * once more in that process (`warm`, unless --no-warm). Writes bench/results.json, prints a table
 * and rewrites README.md's benchmark tables from the results (bench-readme.ts); `--readme` only
 * rewrites the tables from bench/results.json. The 150k-Pod case runs only with --big.
 *
 * wallMs / cpuMs cover the measured work only (cluster construction excluded); `pods` is
 * the number of Pods that reached Running; peakHeapMB is sampled during the case.
 */
import { execSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { cpus, loadavg } from 'node:os';
import { Cluster, type NodeConfig } from '../cluster/cluster';
import { describeRow } from '../cluster/kubectl/printers';
import { marginalCpuPerPod, runPeer, type PeerResult } from './bench-peer';
import { BENCH_USAGE, parseBenchArgs } from './bench-args';
import { argsOrExit, writeAllSync } from './args';
import { replaceBenchTables, type CaseResult, type OutputResult, type ReadmeResults } from './bench-readme';

// flags first: a bad command line ends before any case runs (`--no-peer` skips the
// webernetes cases, which run at wall speed, a few minutes)
const { big, only, peer, noWarm, readme, child } = argsOrExit(BENCH_USAGE, () => parseBenchArgs(process.argv.slice(2)));

function workers(n: number): NodeConfig[] {
  const out: NodeConfig[] = [];
  for (let i = 1; i <= n; i++) out.push({ name: `node-${i}`, capacity: { cpu: '8', memory: '32Gi', pods: '110' } });
  return out;
}

function deployment(name: string, replicas: number, cpu = '10m'): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
        resources: {requests: {cpu: ${cpu}, memory: 16Mi}}
`;
}

function running(c: Cluster): number {
  let n = 0;
  for (const p of c.list('pods', 'default')) if (describeRow(p).status === 'Running') n++;
  return n;
}

function measure(
  name: string,
  nodes: number,
  want: number,
  setup: () => Cluster,
  work: (c: Cluster) => Pick<CaseResult, 'scheduler'> | void,
): CaseResult {
  const c = setup();
  global.gc?.();
  let peak = process.memoryUsage().heapUsed;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const extra = work(c);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const pods = running(c);
  const r: CaseResult = {
    name,
    nodes,
    pods,
    want,
    wallMs: Math.round(wallMs * 10) / 10,
    cpuMs: Math.round((cpu.user + cpu.system) / 100) / 10,
    podsPerSec: Math.round(pods / (wallMs / 1000)),
    peakHeapMB: Math.round(peak / 1048576),
    ...extra,
  };
  process.stderr.write(
    `${name.padEnd(22)} ${String(nodes).padStart(5)} nodes ${String(pods).padStart(7)} pods ${String(r.wallMs).padStart(10)} ms wall ${String(r.cpuMs).padStart(10)} ms cpu ${String(r.podsPerSec).padStart(8)} pods/s ${String(r.peakHeapMB).padStart(6)} MB\n`,
  );
  return r;
}

/**
 * Thousands of nodes: the scheduler runs its plugins undecorated (no per-node "why this node"
 * record, as the UI does for large clusters); the relay's decision hops and events are unchanged.
 */
function quietScheduler(c: Cluster): Cluster {
  c.scheduler.setRecordDecisions(false);
  return c;
}

/**
 * Sums the wall time (ms) of kube-scheduler's own work: each scheduleOne call, its scheduling
 * cycle and its binding cycle with the API calls they make (the binding POST, the Scheduled
 * Event) answered by the apiserver. In a real cluster the scheduler is a process of its own, so
 * this is what scheduler_perf's SchedulingThroughput measures (test/integration/scheduler_perf);
 * the watch deliveries and the other components' work run on their own timers, outside it.
 */
function timeScheduler(c: Cluster): () => number {
  const s = c.scheduler;
  const scheduleOne = s.scheduleOne.bind(s);
  let ms = 0;
  s.scheduleOne = () => {
    const t = performance.now();
    try {
      scheduleOne();
    } finally {
      ms += performance.now() - t;
    }
  };
  return () => ms;
}

/** The scheduler's figures of a case: Pods bound (spec.nodeName set) in `default`, over {@link timeScheduler}'s sum. */
function schedulerFigures(c: Cluster, ms: number): NonNullable<CaseResult['scheduler']> {
  let pods = 0;
  for (const p of c.list('pods', 'default')) if (p.spec?.nodeName) pods++;
  return { pods, ms: Math.round(ms), podsPerSec: Math.round(pods / (ms / 1000)) };
}

/**
 * Advances in 1 s steps until `want` Pods in `default` show Running (kubectl's STATUS column,
 * as {@link running} counts them) or the limit passes. The count is kept from the cluster's
 * change stream (describeRow of each changed Pod) rather than by describing every Pod after
 * every step, so the harness costs O(changes), not O(pods × steps), on top of the engine.
 */
function untilRunning(c: Cluster, want: number, limitMs: number): void {
  const end = c.now() + limitMs;
  const up = new Set<string>();
  for (const p of c.list('pods', 'default')) if (describeRow(p).status === 'Running') up.add(p.metadata.name);
  const off = c.onChange(
    (ch) => {
      if (ch.resource !== 'pods' || ch.object.metadata.namespace !== 'default') return;
      if (ch.type !== 'DELETED' && describeRow(ch.object).status === 'Running') up.add(ch.object.metadata.name);
      else up.delete(ch.object.metadata.name);
    },
    { heartbeats: false },
  );
  try {
    while (c.now() < end && up.size < want) c.advance(1_000);
  } finally {
    off();
  }
}

const cases: [string, () => CaseResult][] = [
  [
    'seed-3-replicas',
    () =>
      measure(
        'seed-3-replicas',
        3,
        3,
        () => new Cluster({ seed: 1 }),
        (c) => {
          c.apply(deployment('peekcart', 3, '100m'));
          untilRunning(c, 3, 120_000);
        },
      ),
  ],
  [
    'pods-1k-nodes-100',
    () =>
      measure(
        'pods-1k-nodes-100',
        100,
        1000,
        () => new Cluster({ seed: 1, nodes: workers(100) }),
        (c) => {
          c.apply(deployment('web', 1000));
          untilRunning(c, 1000, 600_000);
        },
      ),
  ],
  // The engine side of the peer ratio (docs/benchmarks.md#the-peer-ratio): the same Deployment on 30 nodes.
  [
    'pods-30-nodes-30',
    () =>
      measure(
        'pods-30-nodes-30',
        30,
        30,
        () => new Cluster({ seed: 1, nodes: workers(30) }),
        (c) => {
          c.apply(deployment('web', 30));
          untilRunning(c, 30, 300_000);
        },
      ),
  ],
  [
    'pods-300-nodes-30',
    () =>
      measure(
        'pods-300-nodes-30',
        30,
        300,
        () => new Cluster({ seed: 1, nodes: workers(30) }),
        (c) => {
          c.apply(deployment('web', 300));
          untilRunning(c, 300, 600_000);
        },
      ),
  ],
  [
    'node-kill-pods-1k',
    () =>
      measure(
        'node-kill-pods-1k',
        100,
        1000,
        () => {
          const c = new Cluster({ seed: 1, nodes: workers(100) });
          c.apply(deployment('web', 1000));
          untilRunning(c, 1000, 600_000);
          return c;
        },
        (c) => {
          const victim = c.list('pods', 'default')[0].spec.nodeName;
          c.killNode(victim);
          const end = c.now() + 15 * 60_000;
          while (c.now() < end) {
            c.advance(5_000);
            const pods = c.list('pods', 'default').filter((p) => describeRow(p).status === 'Running' && p.spec.nodeName !== victim);
            if (pods.length >= 1000) break;
          }
        },
      ),
  ],
  [
    'pods-10k-nodes-1k',
    () =>
      measure(
        'pods-10k-nodes-1k',
        1000,
        10000,
        () => new Cluster({ seed: 1, nodes: workers(1000) }),
        (c) => {
          c.apply(deployment('web', 10000));
          untilRunning(c, 10000, 1_800_000);
        },
      ),
  ],
  [
    'scheduler-nodes-5k',
    () =>
      measure(
        'scheduler-nodes-5k',
        5000,
        10000,
        () => quietScheduler(new Cluster({ seed: 1, nodes: workers(5000) })),
        (c) => {
          const schedulerMs = timeScheduler(c);
          c.apply(deployment('web', 10000));
          untilRunning(c, 10000, 3_600_000);
          return { scheduler: schedulerFigures(c, schedulerMs()) };
        },
      ),
  ],
  // issue 20's fast-forward target: an idle cluster's hour costs only its heartbeats (each
  // kubelet's Lease renewal every 10 s and Node status sync, the node-lifecycle monitor)
  [
    'idle-nodes-5k-1h',
    () =>
      measure(
        'idle-nodes-5k-1h',
        5000,
        0,
        () => new Cluster({ seed: 1, nodes: workers(5000) }),
        (c) => {
          for (let i = 0; i < 60; i++) c.advance(60_000);
        },
      ),
  ],
];
if (big || child === 'pods-150k-nodes-5k') {
  cases.push([
    'pods-150k-nodes-5k',
    () =>
      measure(
        'pods-150k-nodes-5k',
        5000,
        150000,
        () => quietScheduler(new Cluster({ seed: 1, nodes: workers(5000), relayCapacity: 10_000 })),
        (c) => {
          for (let i = 0; i < 15; i++) c.apply(deployment(`web-${i}`, 10000));
          untilRunning(c, 150000, 7_200_000);
        },
      ),
  ]);
}

/** Cases that take minutes: they run after the peer. */
const LONG_CASES = new Set(['pods-10k-nodes-1k', 'scheduler-nodes-5k', 'idle-nodes-5k-1h', 'pods-150k-nodes-5k']);

/** Cases whose fresh run took longer than this (wall ms) get no warm run. */
const WARM_LIMIT_MS = 20_000;

/** The line a child process prints its result on (the rest of its output goes to stderr). */
const RESULT_PREFIX = 'BENCH_RESULT ';

if (child) {
  // one case in this (fresh) process, then once more warm; the parent reads the result line
  const run = cases.find(([n]) => n === child)![1];
  const fresh = run();
  // a case that took more than WARM_LIMIT_MS fresh is not repeated (JIT warm-up is a small
  // share of it; the second run would double the bench's time)
  if (!noWarm && fresh.wallMs <= WARM_LIMIT_MS) {
    const { wallMs, cpuMs, podsPerSec, peakHeapMB } = run();
    fresh.warm = { wallMs, cpuMs, podsPerSec, peakHeapMB };
  }
  writeAllSync(1, `${RESULT_PREFIX}${JSON.stringify(fresh)}\n`);
  process.exit(0);
}

/** Runs one case in a new process (this script with `--case NAME`, the same node flags). */
function runFresh(name: string): CaseResult {
  const argv = [...process.execArgv, process.argv[1], '--case', name, ...(noWarm ? ['--no-warm'] : [])];
  const r = spawnSync(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 16 << 20 });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (r.status !== 0 || !line) throw new Error(`bench case ${name} failed (exit ${r.status ?? r.signal})`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as CaseResult;
}

const README = 'README.md';
if (readme) {
  writeFileSync(
    README,
    replaceBenchTables(readFileSync(README, 'utf8'), JSON.parse(readFileSync('bench/results.json', 'utf8')) as ReadmeResults),
  );
  process.stdout.write('rewrote the benchmark tables of README.md from bench/results.json\n');
  process.exit(0);
}

const loadAvg = Math.round(loadavg()[0] * 100) / 100;
let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
} catch {
  // not a git checkout
}
mkdirSync('bench', { recursive: true });
const prev = existsSync('bench/results.json') ? JSON.parse(readFileSync('bench/results.json', 'utf8')) : {};
const merged = new Map<string, CaseResult>((prev.engine ?? []).map((e: CaseResult) => [e.name, e]));
/** This run's scenario JSON figures, else the results file's. */
let output: OutputResult | undefined = prev.output;
/** bench/results.json (docs/benchmarks.md#results-file); `ui` is written by `npm run bench:ui`. */
interface Results extends ReadmeResults {
  peer?: PeerResult[];
  ui?: unknown;
}

/**
 * Writes bench/results.json and README.md's tables with what has been measured so far (after
 * each case, so a run stopped midway keeps the cases it finished; the commit is the one the
 * run started at).
 */
function save(peerResults: PeerResult[] | undefined): void {
  const results: Results = {
    ...prev,
    commit,
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAvg,
    engine: [...merged.values()],
    peer: peerResults ?? prev.peer,
    ...(output ? { output } : {}),
  };
  results.ratios = ratios(results.engine, results.peer);
  writeFileSync('bench/results.json', JSON.stringify(results, null, 2) + '\n');
  if (existsSync(README)) writeFileSync(README, replaceBenchTables(readFileSync(README, 'utf8'), results));
}

/** The 300-Pod scenario whose result's size issue 20 budgets (≤ 6 MB). */
const OUTPUT_SCENARIO = 'src/scenarios/pods-300.scenario.yaml';

/**
 * scenario-json-300: runs `npm run scenario`'s entry (src/cli/run.mjs, from the repository's
 * root) on {@link OUTPUT_SCENARIO} with each relay form and measures the files it writes.
 * @throws Error when the runner exits non-zero.
 */
function measureOutput(): OutputResult {
  const dir = mkdtempSync(join(tmpdir(), 'kube-relay-bench-'));
  try {
    const run = (form: 'full' | 'folded') => {
      const out = join(dir, `${form}.json`);
      const r = spawnSync(process.execPath, ['src/cli/run.mjs', 'scenario', OUTPUT_SCENARIO, '--out', out, '--relay', form], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (r.status !== 0) throw new Error(`npm run scenario -- ${OUTPUT_SCENARIO} --relay ${form} failed (exit ${r.status ?? r.signal})`);
      return out;
    };
    const full = run('full');
    const folded = run('folded');
    const doc = JSON.parse(readFileSync(folded, 'utf8')) as {
      relay: unknown;
      final?: { objects?: { kind?: string; metadata?: { namespace?: string } }[] };
    };
    const pods = (doc.final?.objects ?? []).filter((o) => o.kind === 'Pod' && o.metadata?.namespace !== 'kube-system').length;
    const r: OutputResult = {
      scenario: OUTPUT_SCENARIO,
      pods,
      fullBytes: statSync(full).size,
      foldedBytes: statSync(folded).size,
      foldedRelayBytes: Buffer.byteLength(JSON.stringify(doc.relay)),
    };
    process.stderr.write(
      `scenario-json-300      ${r.pods} pods  full ${r.fullBytes} B  folded ${r.foldedBytes} B (relay ${r.foldedRelayBytes} B)\n`,
    );
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// the small cases, the scenario JSON, then the peer (the per-Pod ratio needs both), then the long ones
let peerResults: PeerResult[] | undefined;
if (!only || only === 'scenario-json-300') {
  output = { ...measureOutput(), commit };
  save(peerResults);
}
for (const [name] of cases) {
  if (only && name !== only) continue;
  if (peer && !peerResults && LONG_CASES.has(name)) save((peerResults = await runPeer()));
  merged.set(name, { ...runFresh(name), commit });
  save(peerResults);
}
if (peer && !peerResults) peerResults = await runPeer();
save(peerResults);
process.stdout.write('wrote bench/results.json and the benchmark tables of README.md\n');

/**
 * cpuPerPodVsWebernetes: engine marginal CPU per Pod ÷ webernetes marginal CPU per Pod, each
 * (CPU at 300 Pods − CPU at 30 Pods) / 270 on 30 nodes. Below 1 the engine is cheaper; the
 * budget (docs/benchmarks.md#budgets) is ≤ 0.01. Null when a run is missing or incomplete.
 */
function ratios(eng: CaseResult[], peers: PeerResult[] | undefined): Record<string, number | null> {
  const e = marginalCpuPerPod(
    eng.find((x) => x.name === 'pods-30-nodes-30'),
    eng.find((x) => x.name === 'pods-300-nodes-30'),
  );
  const w = marginalCpuPerPod(
    peers?.find((x) => x.name === 'webernetes-pods-30-nodes-30'),
    peers?.find((x) => x.name === 'webernetes-pods-300-nodes-30'),
  );
  const out: Record<string, number | null> = {
    cpuPerPodVsWebernetes: e !== undefined && w !== undefined && w > 0 ? Math.round((e / w) * 10000) / 10000 : null,
  };
  if (e !== undefined) out.engineCpuMsPerPod = Math.round(e * 1000) / 1000;
  if (w !== undefined) out.webernetesCpuMsPerPod = Math.round(w * 1000) / 1000;
  return out;
}
