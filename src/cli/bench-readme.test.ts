/** The README's benchmark tables are made from bench/results.json, budgets checked on the fresh figures. */
import { describe, expect, it } from 'vitest';
import {
  README_END,
  README_START,
  duration,
  renderBenchTables,
  replaceBenchTables,
  type CaseResult,
  type ReadmeResults,
} from './bench-readme';

const row = (name: string, over: Partial<CaseResult> = {}): CaseResult => ({
  name,
  commit: 'abc1234',
  nodes: 100,
  pods: 1000,
  want: 1000,
  wallMs: 900,
  cpuMs: 1200,
  podsPerSec: 1111,
  peakHeapMB: 80,
  ...over,
});
const results = (engine: CaseResult[], extra: Partial<ReadmeResults> = {}): ReadmeResults => ({
  commit: 'abc1234',
  date: '2026-12-02T07:00:00.000Z',
  node: 'v20.20.2',
  cpus: 2,
  loadAvg: 3.5,
  engine,
  ...extra,
});

describe('renderBenchTables', () => {
  it.each([
    [
      '1k Pods under 1 s: met',
      row('pods-1k-nodes-100'),
      '| pods-1k-nodes-100 | 100 | 1,000 | 900 ms / 1.20 s | — | 1,111 | 80 MB | < 1 s wall — met |',
    ],
    [
      '1k Pods over 1 s: missed',
      row('pods-1k-nodes-100', { wallMs: 1690, warm: { wallMs: 800, cpuMs: 850, podsPerSec: 1250, peakHeapMB: 90 } }),
      '| pods-1k-nodes-100 | 100 | 1,000 | 1.69 s / 1.20 s | 800 ms / 850 ms | 1,111 | 80 MB | < 1 s wall — **missed** |',
    ],
    [
      'seed under 20 ms',
      row('seed-3-replicas', { nodes: 3, pods: 3, want: 3, wallMs: 12.34, cpuMs: 15 }),
      '| seed-3-replicas | 3 | 3 | 12.3 ms / 15.0 ms | — | 1,111 | 80 MB | < 20 ms wall — met |',
    ],
    [
      '150k not all Running',
      row('pods-150k-nodes-5k', { nodes: 5000, pods: 129280, want: 150000, wallMs: 822_000, cpuMs: 900_000, peakHeapMB: 3000 }),
      '| pods-150k-nodes-5k | 5,000 | 129,280 of 150,000 | 822.0 s / 900.0 s | — | 1,111 | 3,000 MB | < 60 s wall, < 2 GB heap, all Running — **missed** |',
    ],
    [
      "scheduler under 1,000 Pods/s (a file without its own figures: the whole cluster's rate)",
      row('scheduler-nodes-5k', { nodes: 5000, podsPerSec: 310 }),
      '| scheduler-nodes-5k | 5,000 | 1,000 | 900 ms / 1.20 s | — | 310 | 80 MB | ≥ 1,000 Pods/s scheduled (below) — **missed** |',
    ],
    [
      "the scheduler's own rate over 1,000 Pods/s",
      row('scheduler-nodes-5k', { nodes: 5000, podsPerSec: 310, scheduler: { pods: 10000, ms: 4000, podsPerSec: 2500 } }),
      '| scheduler-nodes-5k | 5,000 | 1,000 | 900 ms / 1.20 s | — | 310 | 80 MB | ≥ 1,000 Pods/s scheduled (below) — met |',
    ],
    [
      "the scheduler's own rate under 1,000 Pods/s",
      row('scheduler-nodes-5k', { nodes: 5000, podsPerSec: 310, scheduler: { pods: 10000, ms: 12500, podsPerSec: 800 } }),
      '| scheduler-nodes-5k | 5,000 | 1,000 | 900 ms / 1.20 s | — | 310 | 80 MB | ≥ 1,000 Pods/s scheduled (below) — **missed** |',
    ],
    [
      'an idle hour over 5 s',
      row('idle-nodes-5k-1h', { nodes: 5000, pods: 0, want: 0, wallMs: 41_300, cpuMs: 45_000, podsPerSec: 0 }),
      '| idle-nodes-5k-1h | 5,000 | 0 | 41.3 s / 45.0 s | — | 0 | 80 MB | < 5 s wall — **missed** |',
    ],
    [
      'an idle hour under 5 s',
      row('idle-nodes-5k-1h', { nodes: 5000, pods: 0, want: 0, wallMs: 4_990, cpuMs: 5_200, podsPerSec: 0 }),
      '| idle-nodes-5k-1h | 5,000 | 0 | 4.99 s / 5.20 s | — | 0 | 80 MB | < 5 s wall — met |',
    ],
    ['a case without a budget', row('pods-10k-nodes-1k'), '| pods-10k-nodes-1k | 100 | 1,000 | 900 ms / 1.20 s | — | 1,111 | 80 MB | — |'],
    [
      'a case of an earlier commit',
      row('pods-10k-nodes-1k', { commit: '0ld0ld0' }),
      '| pods-10k-nodes-1k (earlier run at 0ld0ld0) | 100 | 1,000 | 900 ms / 1.20 s | — | 1,111 | 80 MB | — |',
    ],
    [
      'a case of a file before fresh-process runs',
      row('pods-10k-nodes-1k', { commit: undefined }),
      '| pods-10k-nodes-1k (earlier run, all cases in one process) | 100 | 1,000 | 900 ms / 1.20 s | — | 1,111 | 80 MB | — |',
    ],
  ])('%s', (_name, r, line) => {
    expect(renderBenchTables(results([r])).split('\n')).toContain(line);
  });

  it('states the run and the per-Pod ratio', () => {
    const text = renderBenchTables(
      results([], {
        ratios: { cpuPerPodVsWebernetes: 0.02, engineCpuMsPerPod: 0.8, webernetesCpuMsPerPod: 40 },
        peer: [{ name: 'webernetes-pods-30-nodes-30', pods: 30, wallMs: 1260, cpuMs: 888 }],
      }),
    );
    expect(text).toContain('From `npm run bench` at abc1234 on 2026-12-02 (Node v20.20.2, 2 CPUs, load average 3.50 at the start).');
    expect(text).toContain('| webernetes-pods-30-nodes-30 | 30 | 1.26 s | 888 ms |');
    expect(text).toContain(
      'Marginal CPU per Pod ((CPU at 300 − CPU at 30) / 270, fresh processes): engine 0.8 ms, webernetes 40 ms: the engine is ≈ 50× cheaper per Pod (`ratios.cpuPerPodVsWebernetes` = 0.02) — budget ≥ 100× — **missed**; budget ≤ 0.33 ms — **missed** (2.4×).',
    );
  });

  it.each([
    ['met', 2500, 4000, 'met'],
    ['missed', 800, 12500, '**missed**'],
  ])("the scheduler's own rate: %s", (_name, podsPerSec, ms, verdict) => {
    const r = row('scheduler-nodes-5k', {
      nodes: 5000,
      pods: 10000,
      want: 10000,
      podsPerSec: 296,
      scheduler: { pods: 10000, ms, podsPerSec },
    });
    expect(renderBenchTables(results([r])).split('\n')).toContain(
      `Scheduler (scheduler-nodes-5k, fresh process): 10,000 Pods bound in ${duration(ms)} of kube-scheduler's own time (its scheduling and binding cycles with the API calls they make, the way scheduler_perf's SchedulingThroughput measures a scheduler in a process of its own): ${podsPerSec.toLocaleString('en-US')} Pods/s; budget ≥ 1,000 Pods/s — ${verdict}. The whole cluster's rate (the table's Pods/s, every component on one thread) is 296 Pods/s.`,
    );
  });

  it.each([
    ['under 6 MB by default: met', 5_900_000, 2_000_000, 'met'],
    ['under 6 MB only folded', 14_332_543, 5_037_801, 'met with `--relay folded`'],
    ['over 6 MB in both forms', 14_332_543, 7_116_690, '**missed**'],
  ])('the scenario JSON %s', (_name, fullBytes, foldedBytes, verdict) => {
    const output = { scenario: 'src/scenarios/pods-300.scenario.yaml', pods: 300, fullBytes, foldedBytes, foldedRelayBytes: 1_272_297 };
    const text = renderBenchTables(results([], { output }));
    const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;
    expect(text.split('\n')).toContain(
      `Scenario JSON (\`npm run scenario -- src/scenarios/pods-300.scenario.yaml --out X\`, 300 Pods): ${mb(fullBytes)} with \`--relay full\` (the default), ${mb(foldedBytes)} with \`--relay folded\` (its relay 1.27 MB); budget ≤ 6.00 MB — ${verdict}.`,
    );
    expect(renderBenchTables(results([], { output: { ...output, commit: '0ld0ld0' } }))).toContain(
      'Scenario JSON (earlier run at 0ld0ld0) (',
    );
  });

  it.each([
    [12.345, '12.3 ms'],
    [431.4, '431 ms'],
    [1690, '1.69 s'],
    [21900, '21.9 s'],
  ])('duration(%d) = %s', (ms, want) => expect(duration(ms)).toBe(want));
});

describe('replaceBenchTables', () => {
  it('replaces only the block between the markers', () => {
    const readme = `# x\n\n${README_START}\nold table\n${README_END}\n\nafter\n`;
    const out = replaceBenchTables(readme, results([row('pods-1k-nodes-100')]));
    expect(out.startsWith(`# x\n\n${README_START}\nFrom \`npm run bench\``)).toBe(true);
    expect(out.endsWith(`< 1 s wall — met |\n${README_END}\n\nafter\n`)).toBe(true);
    expect(out).not.toContain('old table');
  });

  it('refuses a README without the markers', () => {
    expect(() => replaceBenchTables('# x\n', results([]))).toThrow(`README.md has no ${README_START} … ${README_END} block`);
  });
});
