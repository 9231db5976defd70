import { describe, expect, it } from 'vitest';
import { PING_EVERY_MS, STUCK_AFTER_MS, createWatchdog } from './watchdog';

/** A watchdog on a hand-driven clock; pings resolve only when the test answers them. */
function rig() {
  let now = 0;
  let tick: (() => void) | null = null;
  const answers: (() => void)[] = [];
  const states: [boolean, number | null][] = [];
  const w = createWatchdog(
    () => new Promise<void>((r) => answers.push(r)),
    (stuck, since) => states.push([stuck, since]),
    { now: () => now, setInterval: (fn, ms) => (expect(ms).toBe(PING_EVERY_MS), (tick = fn), 1), clearInterval: () => (tick = null) },
  );
  const advance = async (ms: number) => {
    for (let t = 0; t < ms; t += PING_EVERY_MS) {
      now += PING_EVERY_MS;
      tick?.();
      await Promise.resolve();
    }
  };
  return {
    w,
    answers,
    states,
    advance,
    get tick() {
      return tick;
    },
  };
}

describe('watchdog', () => {
  it('a worker that answers is never reported; one ping at a time', async () => {
    const r = rig();
    for (let i = 0; i < 10; i++) {
      await r.advance(PING_EVERY_MS);
      expect(r.answers.length).toBe(i + 1);
      r.answers[i]();
      await Promise.resolve();
    }
    expect(r.states).toEqual([]);
  });

  it(`reports stuck once a ping is ${STUCK_AFTER_MS} ms old (not before, with no extra pings), and recovered when it is answered`, async () => {
    const r = rig();
    await r.advance(PING_EVERY_MS); // ping sent at 1000
    await r.advance(STUCK_AFTER_MS - PING_EVERY_MS); // 5000: 4 s old
    expect(r.states).toEqual([]);
    await r.advance(PING_EVERY_MS); // 6000: 5 s old
    expect(r.states).toEqual([[true, 1000]]);
    await r.advance(3 * PING_EVERY_MS);
    expect(r.states).toEqual([[true, 1000]]);
    expect(r.answers.length).toBe(1);
    r.answers[0]();
    await Promise.resolve();
    expect(r.states).toEqual([
      [true, 1000],
      [false, null],
    ]);
    await r.advance(PING_EVERY_MS);
    expect(r.answers.length).toBe(2);
  });

  it('reset (a new worker) clears the report; the old worker’s late answer is ignored; dispose stops the interval', async () => {
    const r = rig();
    await r.advance(PING_EVERY_MS + STUCK_AFTER_MS);
    expect(r.states).toEqual([[true, 1000]]);
    r.w.reset();
    expect(r.states).toEqual([
      [true, 1000],
      [false, null],
    ]);
    await r.advance(PING_EVERY_MS); // a ping to the new worker
    r.answers[0](); // the old worker's answer, late
    await Promise.resolve();
    await r.advance(STUCK_AFTER_MS);
    expect(r.states).toEqual([
      [true, 1000],
      [false, null],
      [true, 7000],
    ]);
    r.w.dispose();
    expect(r.tick).toBeNull();
  });
});
