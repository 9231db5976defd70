import { describe, expect, it } from 'vitest';
import type { TickBatch } from '../../worker/protocol';
import { createBatchPump, FALLBACK_MS, GAP_FACTOR, MAX_GAP_MS, type PumpDeps } from './batch-pump';

/** A hand-driven page: wall clock, animation frames, timers and microtasks under test control. */
function fakePage() {
  let now = 0;
  let frames: (() => void)[] = [];
  let timers: { at: number; cb: () => void }[] = [];
  const micro: (() => void)[] = [];
  const deps: PumpDeps = {
    now: () => now,
    requestFrame: (cb) => frames.push(cb),
    setTimeout: (cb, ms) => timers.push({ at: now + ms, cb }),
    queueMicrotask: (cb) => micro.push(cb),
  };
  const drainMicro = () => {
    while (micro.length) micro.shift()!();
  };
  return {
    deps,
    /** Advances the clock by `ms` (work done by the page), firing due timers. */
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) {
        t.cb();
        drainMicro();
      }
    },
    /** Work inside a callback: the clock moves, nothing fires. */
    spend(ms: number) {
      now += ms;
    },
    /** Runs the pending animation-frame callbacks (one frame). */
    frame() {
      const fs = frames;
      frames = [];
      for (const f of fs) {
        f();
        drainMicro();
      }
    },
    get frames() {
      return frames.length;
    },
  };
}

const batch = (simMs: number): TickBatch =>
  ({
    gen: 1,
    reset: false,
    simMs,
    startMs: 0,
    changes: [],
    events: [],
    hops: [],
    deadlines: [],
    running: true,
    speed: 1,
    profile: 'p',
    applySeq: null,
    fault: null,
  }) as unknown as TickBatch;

describe('createBatchPump', () => {
  it('folds every batch that arrived before the frame, in order, in one fold', () => {
    const page = fakePage();
    const folds: number[][] = [];
    const pump = createBatchPump((bs) => folds.push(bs.map((b) => b.simMs)), page.deps);
    pump.push(batch(1));
    pump.push(batch(2));
    pump.push(batch(3));
    expect(folds).toEqual([]);
    expect(pump.queued).toBe(3);
    page.frame();
    expect(folds).toEqual([[1, 2, 3]]);
    expect(pump.queued).toBe(0);
  });

  it('the fallback timer folds when no frame comes (hidden tab), once', () => {
    const page = fakePage();
    const folds: number[][] = [];
    const pump = createBatchPump((bs) => folds.push(bs.map((b) => b.simMs)), page.deps);
    pump.push(batch(1));
    page.advance(FALLBACK_MS - 1);
    expect(folds).toEqual([]);
    page.advance(1);
    expect(folds).toEqual([[1]]);
    page.frame(); // the frame of the same schedule does not fold again
    expect(folds).toEqual([[1]]);
  });

  const gaps = [
    { name: 'a cheap fold (2 ms) lets the next one run a few frames later', cost: 2, gap: 2 * GAP_FACTOR },
    { name: 'a 30 ms fold spaces the next by 6 × 30 ms', cost: 30, gap: 30 * GAP_FACTOR },
    { name: 'a 200 ms fold waits at most MAX_GAP_MS', cost: 200, gap: MAX_GAP_MS },
  ];
  for (const c of gaps) {
    it(c.name, () => {
      const page = fakePage();
      const folds: number[][] = [];
      const pump = createBatchPump((bs) => {
        folds.push(bs.map((b) => b.simMs));
        page.spend(c.cost); // the fold (and React's render) took `cost` ms
      }, page.deps);
      pump.push(batch(1));
      page.frame();
      expect(pump.nextAllowedMs).toBe(c.cost + c.gap);
      pump.push(batch(2));
      pump.push(batch(3));
      page.advance(c.gap - 1);
      expect(page.frames).toBe(0); // still waiting out the gap
      page.advance(1);
      page.frame();
      expect(folds).toEqual([[1], [2, 3]]);
    });
  }

  describe('with afterRender (the browser: the cost runs to the end of the frame that draws the fold)', () => {
    /** The fake page plus a hand-run "after the frame's rendering" task queue. */
    function renderingPage() {
      const page = fakePage();
      const after: (() => void)[] = [];
      const deps: PumpDeps = { ...page.deps, afterRender: (cb) => after.push(cb) };
      /** The frame's rendering (style, layout, paint: `ms` of it) ends; the posted task runs. */
      const rendered = (ms: number) => {
        page.spend(ms);
        while (after.length) after.shift()!();
      };
      return { page, deps, rendered };
    }
    const cases = [
      { name: 'a 4 ms fold whose frame renders for 16 ms more costs 20 ms', fold: 4, render: 16, gap: 20 * GAP_FACTOR },
      { name: 'a 10 ms fold with 100 ms of rendering waits MAX_GAP_MS', fold: 10, render: 100, gap: MAX_GAP_MS },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { page, deps, rendered } = renderingPage();
        const folds: number[][] = [];
        const pump = createBatchPump((bs) => {
          folds.push(bs.map((b) => b.simMs));
          page.spend(c.fold);
        }, deps);
        pump.push(batch(1));
        page.frame();
        expect(pump.nextAllowedMs).toBe(-Infinity); // not measured before the rendering ended
        // the worker's next batch arrives while the frame still renders: it waits for the measure
        pump.push(batch(2));
        expect(page.frames).toBe(0);
        rendered(c.render);
        const end = c.fold + c.render;
        expect(pump.nextAllowedMs).toBe(end + c.gap);
        page.advance(c.gap - 1);
        expect(page.frames).toBe(0); // the gap counts the whole frame's cost
        page.advance(1);
        page.frame();
        expect(folds).toEqual([[1], [2]]);
      });
    }
  });

  it('a batch of a paused cluster is folded in the next frame, without waiting out the gap', () => {
    const page = fakePage();
    const folds: number[][] = [];
    const pump = createBatchPump((bs) => {
      folds.push(bs.map((b) => b.simMs));
      page.spend(50);
    }, page.deps);
    pump.push(batch(1));
    page.frame();
    expect(pump.nextAllowedMs).toBe(50 + Math.min(50 * GAP_FACTOR, MAX_GAP_MS)); // 350 ms
    pump.push(batch(2)); // running: waits out the gap
    expect(page.frames).toBe(0);
    pump.push({ ...batch(3), running: false } as TickBatch); // the clock stopped: no waiting
    expect(page.frames).toBe(1);
    page.frame();
    expect(folds).toEqual([[1], [2, 3]]);
  });

  it("push resolves once the batch is folded (the worker's back-pressure waits for it), also when the fold throws", async () => {
    const page = fakePage();
    let fail = false;
    const pump = createBatchPump(() => {
      if (fail) throw new Error('fold failed');
    }, page.deps);
    const settled: number[] = [];
    void pump.push(batch(1)).then(() => settled.push(1));
    void pump.push(batch(2)).then(() => settled.push(2));
    await Promise.resolve();
    expect(settled).toEqual([]); // queued, not folded yet
    page.frame();
    await Promise.resolve();
    expect(settled).toEqual([1, 2]);
    fail = true;
    void pump.push(batch(3)).then(() => settled.push(3));
    expect(() => page.frame()).toThrow('fold failed');
    await Promise.resolve();
    expect(settled).toEqual([1, 2, 3]);
  });
});
