/**
 * The README's benchmark tables, made from bench/results.json (docs/benchmarks.md#results-file):
 * `npm run bench` rewrites the text between the markers after each run, `npm run bench --
 * --readme` from the file alone. Never edited by hand.
 */

/** One run of one case (fresh process, or warm: the second run in that process). */
export interface RunFigures {
  wallMs: number;
  cpuMs: number;
  podsPerSec: number;
  peakHeapMB: number;
}

/** One engine case as bench/results.json keeps it: the fresh-process figures, and `warm`. */
export interface CaseResult extends RunFigures {
  name: string;
  nodes: number;
  /** Pods that reached Running. */
  pods: number;
  /** Pods the case waits for. */
  want?: number;
  /** The same case run again in the same process (JIT warm), when measured. */
  warm?: RunFigures;
  /** The commit the case was measured at (absent in files older than the fresh-process runs). */
  commit?: string;
  note?: string;
  /**
   * kube-scheduler's own throughput in the case (bench.ts timeScheduler): Pods bound, the wall
   * ms spent in its scheduling and binding cycles, and Pods bound per second of that time.
   */
  scheduler?: { pods: number; ms: number; podsPerSec: number };
}

/** The peer's figures (bench-peer.ts PeerResult), as far as the table shows them. */
export interface PeerRow {
  name: string;
  pods: number;
  wallMs: number;
  cpuMs: number;
  error?: string;
}

/**
 * The scenario JSON case (`scenario-json-300`): the bytes `npm run scenario -- FILE --out X`
 * writes for the 300-Pod scenario, in each relay form (docs/scenario-format.md#folded-relay).
 */
export interface OutputResult {
  /** the scenario file, from the repository's root */
  scenario: string;
  /** Pods the scenario creates */
  pods: number;
  /** bytes of the result with `--relay full` (the default) */
  fullBytes: number;
  /** bytes of the result with `--relay folded` */
  foldedBytes: number;
  /** bytes of the folded result's `relay` list (compact JSON) */
  foldedRelayBytes: number;
  commit?: string;
}

/** What the table reads of bench/results.json. */
export interface ReadmeResults {
  commit: string;
  date: string;
  node: string;
  cpus: number;
  /** `uptime`'s 1-minute load average at the start of the run (the machine is shared). */
  loadAvg?: number;
  engine: CaseResult[];
  peer?: PeerRow[];
  ratios?: Record<string, number | null>;
  output?: OutputResult;
}

export const README_START = '<!-- bench:engine:start (npm run bench rewrites this block) -->';
export const README_END = '<!-- bench:engine:end -->';

/** The budgets of docs/benchmarks.md#budgets, by case: a check of the fresh-process figures. */
const BUDGETS: Record<string, { text: string; met: (r: CaseResult) => boolean }> = {
  'seed-3-replicas': { text: '< 20 ms wall', met: (r) => r.wallMs < 20 },
  'pods-1k-nodes-100': { text: '< 1 s wall', met: (r) => r.wallMs < 1000 },
  'pods-150k-nodes-5k': {
    text: '< 60 s wall, < 2 GB heap, all Running',
    met: (r) => r.wallMs < 60_000 && r.peakHeapMB < 2048 && r.pods === (r.want ?? r.pods),
  },
  // issue 20's "scheduler ≥ 1,000 Pods/s": the scheduler's own rate, as scheduler_perf measures it (the line under the table)
  'scheduler-nodes-5k': {
    text: '≥ 1,000 Pods/s scheduled (below)',
    met: (r) => (r.scheduler?.podsPerSec ?? r.podsPerSec) >= 1000,
  },
  'idle-nodes-5k-1h': { text: '< 5 s wall', met: (r) => r.wallMs < 5000 },
};

/** Issue 20's budgets outside the case table: marginal CPU per Pod (ms) and the scenario JSON (bytes). */
const CPU_PER_POD_BUDGET_MS = 0.33;
const SCENARIO_JSON_BUDGET_BYTES = 6_000_000;

/** "1,234" */
const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** 24.3 ms, 1.69 s */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function figures(r: RunFigures | undefined): string {
  return r ? `${duration(r.wallMs)} / ${duration(r.cpuMs)}` : '—';
}

function budget(r: CaseResult): string {
  const b = BUDGETS[r.name];
  if (!b) return '—';
  return `${b.text} — ${b.met(r) ? 'met' : '**missed**'}`;
}

/** The markdown between the markers: engine table, peer table, the per-Pod ratio. */
export function renderBenchTables(res: ReadmeResults): string {
  const lines: string[] = [];
  const load = res.loadAvg !== undefined ? `, load average ${res.loadAvg.toFixed(2)} at the start` : '';
  lines.push(
    `From \`npm run bench\` at ${res.commit} on ${res.date.slice(0, 10)} (Node ${res.node}, ${res.cpus} CPUs${load}). Fresh: the case alone in a new process, as a user's run is; warm: the same case again in that process. Wall / CPU cover the measured work only (the cluster's construction excluded); Pods/s and peak heap are the fresh run's.`,
  );
  lines.push('');
  lines.push('| case | nodes | Pods Running | fresh: wall / CPU | warm: wall / CPU | Pods/s | peak heap | budget (docs/benchmarks.md) |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const r of res.engine) {
    const pods = r.want !== undefined && r.pods !== r.want ? `${int(r.pods)} of ${int(r.want)}` : int(r.pods);
    const earlier = r.commit === res.commit ? '' : ` (earlier run${r.commit ? ` at ${r.commit}` : ', all cases in one process'})`;
    lines.push(
      `| ${r.name}${earlier} | ${int(r.nodes)} | ${pods} | ${figures(r)} | ${figures(r.warm)} | ${int(r.podsPerSec)} | ${int(r.peakHeapMB)} MB | ${budget(r)} |`,
    );
  }
  if (res.peer?.length) {
    lines.push('');
    lines.push('| peer case (@ngrok/webernetes, wall speed) | Pods Running | wall | CPU |');
    lines.push('|---|---|---|---|');
    for (const p of res.peer)
      lines.push(`| ${p.name} | ${int(p.pods)}${p.error ? ` (${p.error})` : ''} | ${duration(p.wallMs)} | ${duration(p.cpuMs)} |`);
  }
  const e = res.ratios?.engineCpuMsPerPod;
  const w = res.ratios?.webernetesCpuMsPerPod;
  const ratio = res.ratios?.cpuPerPodVsWebernetes;
  if (typeof e === 'number') {
    lines.push('');
    const vs =
      typeof w === 'number' && typeof ratio === 'number' && ratio > 0
        ? `, webernetes ${w} ms: the engine is ≈ ${Math.round(1 / ratio)}× cheaper per Pod (\`ratios.cpuPerPodVsWebernetes\` = ${ratio}) — budget ≥ 100× — ${ratio <= 0.01 ? 'met' : '**missed**'}`
        : ' (no peer run)';
    lines.push(
      `Marginal CPU per Pod ((CPU at 300 − CPU at 30) / 270, fresh processes): engine ${e} ms${vs}; budget ≤ ${CPU_PER_POD_BUDGET_MS} ms — ${e <= CPU_PER_POD_BUDGET_MS ? 'met' : `**missed** (${(e / CPU_PER_POD_BUDGET_MS).toFixed(1)}×)`}.`,
    );
  }
  const sched = res.engine.find((r) => r.name === 'scheduler-nodes-5k' && r.scheduler);
  if (sched?.scheduler) {
    const f = sched.scheduler;
    lines.push('');
    lines.push(
      `Scheduler (scheduler-nodes-5k, fresh process): ${int(f.pods)} Pods bound in ${duration(f.ms)} of kube-scheduler's own time (its scheduling and binding cycles with the API calls they make, the way scheduler_perf's SchedulingThroughput measures a scheduler in a process of its own): ${int(f.podsPerSec)} Pods/s; budget ≥ 1,000 Pods/s — ${f.podsPerSec >= 1000 ? 'met' : '**missed**'}. The whole cluster's rate (the table's Pods/s, every component on one thread) is ${int(sched.podsPerSec)} Pods/s.`,
    );
  }
  const o = res.output;
  if (o) {
    const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
    const earlier = o.commit && o.commit !== res.commit ? ` (earlier run at ${o.commit})` : '';
    const ok = (b: number) => b <= SCENARIO_JSON_BUDGET_BYTES;
    lines.push('');
    lines.push(
      `Scenario JSON${earlier} (\`npm run scenario -- ${o.scenario} --out X\`, ${int(o.pods)} Pods): ${mb(o.fullBytes)} with \`--relay full\` (the default), ${mb(o.foldedBytes)} with \`--relay folded\` (its relay ${mb(o.foldedRelayBytes)}); budget ≤ ${mb(SCENARIO_JSON_BUDGET_BYTES)} — ${ok(o.fullBytes) ? 'met' : ok(o.foldedBytes) ? 'met with `--relay folded`' : '**missed**'}.`,
    );
  }
  return lines.join('\n');
}

/**
 * `readme` with the text between {@link README_START} and {@link README_END} replaced by the
 * tables. @throws Error when the markers are missing.
 */
export function replaceBenchTables(readme: string, res: ReadmeResults): string {
  const a = readme.indexOf(README_START);
  const b = readme.indexOf(README_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${README_START} … ${README_END} block`);
  return `${readme.slice(0, a + README_START.length)}\n${renderBenchTables(res)}\n${readme.slice(b)}`;
}
