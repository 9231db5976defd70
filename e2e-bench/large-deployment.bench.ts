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
 * With each answer it also records where the memory is (`memory[]`): the Pods the summary
 * counts, the used and allocated JS heap of the page's isolate and of each worker (the engine's
 * `kube-relay cluster`, `elk-layout`, Monaco's; Runtime.getHeapUsage) and the PSS per Chromium
 * process type; at the end, after a forced collection of every isolate, the same once more
 * (`afterGc`: what of the last sample was garbage). Prints one JSON line; writes nothing.
 */
import { createWriteStream, readFileSync, readdirSync } from 'node:fs';
import { hugeDeployment } from '../e2e/fixtures';
import { test, expect, type CDPSession } from '@playwright/test';

/**
 * MB resident in the Chromium processes under `root` (its pid and every descendant), from /proc:
 * `rss` sums VmRSS, `pss` sums Pss (shared pages divided among the processes sharing them), and
 * `pssByType` is the Pss summed per Chromium process type (`types`: pid → `browser`,
 * `renderer`, `GPU`, `utility`… from SystemInfo.getProcessInfo; a process it does not name is
 * `other`, e.g. the zygote).
 */
function chromiumMemoryMB(root: number, types: Map<number, string>): { rss: number; pss: number; pssByType: Record<string, number> } {
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
  const byType = new Map<string, number>();
  for (const [pid, v] of rss) {
    if (!under(pid)) continue;
    kb += v;
    try {
      const p = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      pssKb += p;
      const t = types.get(pid) ?? 'other';
      byType.set(t, (byType.get(t) ?? 0) + p);
    } catch {
      // the process ended meanwhile
    }
  }
  const pssByType: Record<string, number> = Object.create(null);
  for (const [t, p] of [...byType].sort()) pssByType[t] = Math.round(p / 1024);
  return { rss: Math.round(kb / 1024), pss: Math.round(pssKb / 1024), pssByType };
}

/** The Chromium processes CDP knows: pid → type (`browser`, `renderer`, `GPU`, `utility`, …). */
async function processTypes(cdp: {
  send(m: 'SystemInfo.getProcessInfo'): Promise<{ processInfo: { type: string; id: number }[] }>;
}): Promise<Map<number, string>> {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return new Map(processInfo.map((p) => [p.id, p.type]));
}

/**
 * The JS heaps of the page's dedicated workers (the engine's `kube-relay cluster` worker, elk's
 * layout worker, …), through the page's CDP session auto-attached to them (non-flat sessions:
 * each command goes through Target.sendMessageToTarget). `heaps()` answers, per worker name,
 * Runtime.getHeapUsage's used and total (allocated) heap in MB.
 */
async function workerHeaps(cdp: CDPSession): Promise<{
  heaps(): Promise<Record<string, { usedMB: number; totalMB: number }>>;
  sessions(): Promise<string[]>;
}> {
  const targets = new Map<string, string>(); // sessionId → worker name
  const pending = new Map<number, (r: { usedSize: number; totalSize: number } | null) => void>();
  let id = 0;
  cdp.on('Target.attachedToTarget', (e) => {
    if (e.targetInfo.type === 'worker') targets.set(e.sessionId, e.targetInfo.title || e.targetInfo.url.split('/').pop() || 'worker');
  });
  cdp.on('Target.detachedFromTarget', (e) => void targets.delete(e.sessionId));
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: { usedSize: number; totalSize: number } };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result ?? null);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return {
    async sessions() {
      return [...targets.keys()];
    },
    async heaps() {
      const out: Record<string, { usedMB: number; totalMB: number }> = Object.create(null);
      await Promise.all(
        [...targets].map(async ([sessionId, name]) => {
          const msgId = ++id;
          const r = await new Promise<{ usedSize: number; totalSize: number } | null>((resolve) => {
            pending.set(msgId, resolve);
            setTimeout(() => resolve(null), 5_000);
            void cdp
              .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: msgId, method: 'Runtime.getHeapUsage' }) })
              .catch(() => resolve(null));
          });
          pending.delete(msgId);
          if (r) out[name] = { usedMB: Math.round(r.usedSize / 1e6), totalMB: Math.round(r.totalSize / 1e6) };
        }),
      );
      return out;
    },
  };
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
  const workers = await workerHeaps(cdp);
  // the main thread's isolate: used and allocated (Runtime.getHeapUsage), MB
  const mainHeap = async () => {
    const r = await cdp.send('Runtime.getHeapUsage');
    return { usedMB: Math.round(r.usedSize / 1e6), totalMB: Math.round(r.totalSize / 1e6) };
  };
  /** One breakdown sample: the Pods the summary counts, each isolate's heap, PSS per process type. */
  const breakdown = async () => {
    const podsNow = Number(
      (await page
        .getByTestId('graph-summary-note')
        .getAttribute('data-pods', { timeout: 200 })
        .catch(() => null)) ?? -1,
    );
    const types = await processTypes(browserCdp as never);
    return {
      pods: podsNow,
      main: await mainHeap(),
      workers: await workers.heaps(),
      pssByType: root ? chromiumMemoryMB(root, types).pssByType : {},
    };
  };
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
  const memory: Awaited<ReturnType<typeof breakdown>>[] = [];
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
    const mem = root ? chromiumMemoryMB(root, new Map()) : { rss: -1, pss: -1 };
    rssMB.push(mem.rss);
    pssMB.push(mem.pss);
    memory.push(await breakdown());
    await page.waitForTimeout(5000);
  }
  const frames = await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames);
  // what of the last sample was garbage: every isolate collected (HeapProfiler.collectGarbage
  // on the page and each worker), then measured again
  await cdp.send('HeapProfiler.collectGarbage');
  for (const sessionId of await workers.sessions())
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id: 1e9, method: 'HeapProfiler.collectGarbage' }),
    });
  await page.waitForTimeout(2_000);
  const afterGc = { ...(await breakdown()), pss: root ? chromiumMemoryMB(root, new Map()).pss : -1 };
  // LARGE_HEAPSNAPSHOT=FILE: the page's isolate (the main thread: the UI, not the engine) as a
  // .heapsnapshot, to see what the UI keeps
  if (process.env.LARGE_HEAPSNAPSHOT) {
    const out = createWriteStream(process.env.LARGE_HEAPSNAPSHOT);
    const onChunk = (e: { chunk: string }) => void out.write(e.chunk);
    cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
    await new Promise<void>((resolve) => out.end(resolve));
  }
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
      memory,
      afterGc,
      pods,
      summarized,
      simMs,
    }),
  );
});
