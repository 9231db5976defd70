/**
 * Large-Deployment benchmark (issue 21 §5), not part of `npm test`: a Deployment with
 * LARGE_REPLICAS replicas (default 200,000) applied at ×100 through the editor; for
 * LARGE_SECONDS (default 40) of wall time it records requestAnimationFrame deltas, the
 * wall time a kubectl bar command (`get deploy`) takes to answer (issued every 5 s), the
 * page's JS heap (CDP Performance.getMetrics) and Chromium's memory: the resident set
 * (VmRSS in /proc/PID/status) of every process of the browser Playwright started, summed
 * (browser, renderer — the page and its workers —, GPU and utility processes; Linux only),
 * and the same processes' proportional set size (Pss in /proc/PID/smaps_rollup: each shared
 * page counted once across them, where VmRSS counts it in every process that maps it).
 * Prints one JSON line; writes nothing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { hugeDeployment } from '../e2e/fixtures';
import { test, expect } from '@playwright/test';

/**
 * MB resident in the Chromium processes under `root` (its pid and every descendant), from /proc:
 * `rss` sums VmRSS, `pss` sums Pss (shared pages divided among the processes sharing them).
 */
function chromiumMemoryMB(root: number): { rss: number; pss: number } {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8');
      parent.set(Number(d), Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      rss.set(Number(d), Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0));
    } catch {
      // the process ended meanwhile
    }
  }
  const under = (pid: number): boolean => pid === root || (pid > 1 && parent.has(pid) && under(parent.get(pid)!));
  let kb = 0;
  let pssKb = 0;
  for (const [pid, v] of rss) {
    if (!under(pid)) continue;
    kb += v;
    try {
      pssKb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return { rss: Math.round(kb / 1024), pss: Math.round(pssKb / 1024) };
}

/** The pid of the browser process Playwright launched (the parent of the page's renderer). */
async function browserPid(cdp: {
  send(m: 'SystemInfo.getProcessInfo'): Promise<{ processInfo: { type: string; id: number }[] }>;
}): Promise<number> {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return processInfo.find((p) => p.type === 'browser')?.id ?? 0;
}

const replicas = Number(process.env.LARGE_REPLICAS ?? 200_000);
const seconds = Number(process.env.LARGE_SECONDS ?? 40);

const manifest = hugeDeployment(replicas);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]) : -1;
};

test('large deployment at ×100', async ({ page }) => {
  test.setTimeout((seconds + 120) * 1000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heapMB = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return Math.round((metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1e6);
  };
  const browserCdp = await page.context().browser()!.newBrowserCDPSession();
  const root = await browserPid(browserCdp as never);
  await page.goto('/');
  await expect(page.getByTestId('apply')).toBeEnabled({ timeout: 30_000 });
  await expect(page.locator('[data-testid=node-card]')).toHaveCount(4);
  await page.getByTestId('speed').selectOption('100');
  await page.evaluate(
    (t) => (window as unknown as { __kubeRelay: { setEditorText(t: string): void } }).__kubeRelay.setEditorText(t),
    manifest,
  );
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[] };
    w.__frames = [];
    let last = performance.now();
    const loop = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  // LARGE_PROFILE=1: samples the main thread for the first 15 s and prints the top functions by self time
  const profiling = !!process.env.LARGE_PROFILE;
  if (profiling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
    setTimeout(() => {
      void cdp.send('Profiler.stop').then(({ profile }) => {
        const self = new Map<string, number>();
        const byId = new Map(profile.nodes.map((n) => [n.id, n]));
        profile.samples!.forEach((id, i) => {
          const f = byId.get(id)!.callFrame;
          const k = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
          self.set(k, (self.get(k) ?? 0) + profile.timeDeltas![i] / 1000);
        });
        console.log(
          [...self]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 30)
            .map(([k, v]) => `${Math.round(v)} ms  ${k}`)
            .join('\n'),
        );
      });
    }, 15_000);
  }
  await page.getByTestId('apply').click();
  await page.getByTestId('tab-kubectl').click();
  const input = page.getByTestId('kubectl-input');
  const answers: number[] = [];
  const heaps: number[] = [];
  const rssMB: number[] = [];
  const pssMB: number[] = [];
  const t0 = Date.now();
  while (Date.now() - t0 < seconds * 1000) {
    const start = Date.now();
    // alternate two commands, so the echo line changes with every answer
    const line = answers.length % 2 ? 'get deploy -o wide' : 'get deploy';
    await input.fill(line);
    await input.press('Enter');
    // checked every animation frame: expect()'s retries back off to 1 s apart, which would add
    // up to a second to an answer's measured time
    await page.waitForFunction((want) => document.querySelector('.kubectl-echo')?.textContent === want, `$ kubectl ${line}`, {
      polling: 'raf',
      timeout: 600_000,
    });
    answers.push(Date.now() - start);
    heaps.push(await heapMB());
    const mem = root ? chromiumMemoryMB(root) : { rss: -1, pss: -1 };
    rssMB.push(mem.rss);
    pssMB.push(mem.pss);
    await page.waitForTimeout(5000);
  }
  const frames = await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames);
  const pods = await page.evaluate(
    () =>
      (window as unknown as { __kubeRelay: { objects: { kind: string }[] } }).__kubeRelay.objects.filter((o) => o.kind === 'Pod').length,
  );
  // the large-cluster path: the Pods the summary counts (the page then holds none)
  const summarized = Number(
    (await page
      .getByTestId('graph-summary-note')
      .getAttribute('data-pods', { timeout: 1_000 })
      .catch(() => null)) ?? -1,
  );
  const simMs = await page.evaluate(() => (window as unknown as { __kubeRelay: { simMs: number } }).__kubeRelay.simMs);
  console.log(
    JSON.stringify({
      replicas,
      seconds,
      frames: frames.length,
      frameP50Ms: pct(frames, 50),
      frameP95Ms: pct(frames, 95),
      frameMaxMs: pct(frames, 100),
      kubectlMs: answers,
      heapMB: heaps,
      chromiumRssMB: rssMB,
      chromiumPssMB: pssMB,
      pods,
      summarized,
      simMs,
    }),
  );
});
