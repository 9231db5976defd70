/**
 * Where the main thread's time goes during the UI benchmark's 300-Pod rollout (not part of
 * `npm run bench:ui`: runs only with UI_PROFILE=1). Samples the page's main thread with the
 * Chrome DevTools protocol's Profiler for 10 s of wall time, then prints the top functions
 * by self time (ms) and the totals per script file, and the renderer's main-thread phases
 * (a devtools.timeline trace: Paint, Layout…). The raw files go to the test's output folder:
 * rollout.cpuprofile and rollout.trace.json (open them in DevTools' Performance panel). It also
 * prints the benchmark's own measure for the window (rAF deltas: p50, p95 and a histogram).
 *
 *   UI_PROFILE=1 E2E_DIST=/tmp/dist-x E2E_PORT=4299 npx playwright test -c playwright.bench.config.ts ui-profile
 */
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { applyAndWaitRunning, frameDeltas, startFrameRecording, startRollout } from './rollout';

test.skip(!process.env.UI_PROFILE, 'profiling only with UI_PROFILE=1');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  args?: { data?: { frame?: string } };
}

/** Main-thread time per trace event name (complete events, ms; nested events are counted in each). */
function rendererPhases(events: TraceEvent[]): [string, number][] {
  const main = events.find((e) => e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain')?.tid;
  const sum = new Map<string, number>();
  for (const e of events) if (e.ph === 'X' && e.tid === main && e.dur) sum.set(e.name, (sum.get(e.name) ?? 0) + e.dur / 1000);
  return [...sum]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([k, v]) => [k, Math.round(v)]);
}

/**
 * "frames N, p50, p95; how many took 1, 2, 3, 4+ frame intervals (16.7 ms)", then a finer
 * histogram: headless Chromium's rAF deltas jitter around 16.7 ms, and one at 16.8 already
 * counts against a p95 of 16.7.
 */
function frameSummary(frames: number[]): string {
  const sorted = [...frames].sort((a, b) => a - b);
  const pct = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
  const intervals = [0, 0, 0, 0];
  for (const f of frames) intervals[Math.min(3, Math.max(0, Math.round(f / (1000 / 60)) - 1))]++;
  const bounds = [16.7, 16.75, 17, 20, 34, 50, Infinity];
  const fine = bounds.map((b, i) => `≤${b}: ${frames.filter((f) => f <= b && (i === 0 || f > bounds[i - 1])).length}`);
  return `frames ${frames.length}, p50 ${pct(50)} ms, p95 ${pct(95)} ms; by intervals 1/2/3/4+: ${intervals.join('/')}\n  ${fine.join(', ')}`;
}

/** Self time per "function file:line" and per file, in ms, largest first. */
function summarise(p: Profile): { byFunction: [string, number][]; byFile: [string, number][]; totalMs: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const f = byId.get(id)!.callFrame;
    const short = f.url.replace(/^.*\//, '') || '(native)';
    const name = `${f.functionName || '(anonymous)'} ${short}:${f.lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + ms);
    file.set(short, (file.get(short) ?? 0) + ms);
    totalMs += ms;
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => [k, Math.round(v)] as [string, number]);
  return { byFunction: top(fn, 40), byFile: top(file, 15), totalMs: Math.round(totalMs) };
}

test('ui profile', async ({ page }) => {
  await page.goto('/');
  const apply = page.getByTestId('apply');
  await expect(apply).toBeEnabled({ timeout: 30_000 });
  await applyAndWaitRunning(page);

  // long animation frames (> 50 ms) and the scripts in them, by invoker and function
  await page.evaluate(() => {
    const w = window as unknown as { __loaf: { dur: number; block: number; render: number; scripts: string[] }[] };
    w.__loaf = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as {
        duration: number;
        blockingDuration: number;
        renderStart: number;
        startTime: number;
        styleAndLayoutStart: number;
        scripts: { invoker: string; sourceFunctionName: string; duration: number }[];
      }[]) {
        w.__loaf.push({
          dur: Math.round(e.duration),
          block: Math.round(e.blockingDuration),
          render: Math.round(e.renderStart ? e.startTime + e.duration - e.renderStart : 0),
          scripts: e.scripts.map((x) => `${x.invoker} ${x.sourceFunctionName} ${Math.round(x.duration)}`),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: false });
  });
  // UI_PROFILE=loaf: only the long animation frames; =trace: and the trace, without the sampling profiler's overhead
  const sample = process.env.UI_PROFILE !== 'loaf';
  const cpu = sample && process.env.UI_PROFILE !== 'trace';
  const cdp = await page.context().newCDPSession(page);
  const browser = page.context().browser()!;
  if (cpu) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  if (sample) {
    // UI_TRACE_CATEGORIES=devtools.timeline,viz adds the display compositor (software compositing's cost per frame)
    await browser.startTracing(page, { categories: (process.env.UI_TRACE_CATEGORIES ?? 'devtools.timeline').split(',') });
  }
  // the benchmark's own measure (ui.bench.ts): requestAnimationFrame deltas over the same window
  await startFrameRecording(page);
  await startRollout(page);
  await page.waitForTimeout(10_000);
  const frames = await frameDeltas(page);
  if (sample) {
    const traceText = (await browser.stopTracing()).toString('utf8');
    writeFileSync(test.info().outputPath('rollout.trace.json'), traceText);
    const trace = JSON.parse(traceText) as { traceEvents: TraceEvent[] };
    for (const [k, v] of rendererPhases(trace.traceEvents)) console.log(`phase ${String(v).padStart(6)} ms  ${k}`);
  }
  if (cpu) {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    writeFileSync(test.info().outputPath('rollout.cpuprofile'), JSON.stringify(profile));
    const s = summarise(profile);
    console.log(`profile: ${s.totalMs} ms sampled`);
    for (const [k, v] of s.byFile) console.log(`file ${String(v).padStart(6)} ms  ${k}`);
    for (const [k, v] of s.byFunction) console.log(`fn   ${String(v).padStart(6)} ms  ${k}`);
  }
  console.log(frameSummary(frames));
  const loaf = await page.evaluate(
    () => (window as unknown as { __loaf: { dur: number; block: number; render: number; scripts: string[] }[] }).__loaf,
  );
  console.log(`long animation frames: ${loaf.length}, ${loaf.reduce((n, f) => n + f.dur, 0)} ms`);
  for (const f of loaf) console.log(`loaf ${f.dur} ms (render ${f.render} ms): ${f.scripts.join(' | ')}`);
});
