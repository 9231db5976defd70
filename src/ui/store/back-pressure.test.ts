import { describe, expect, it } from 'vitest';
import { ACK_MS_PER_CHANGE, SMALL_BATCH, ackDelayMs, acknowledgeAfter } from './back-pressure';
import type { ObjectChangeMsg } from '../../worker/protocol';

const n = (k: number) => Array.from({ length: k }, () => ({}) as ObjectChangeMsg);

describe('ackDelayMs', () => {
  it.each([
    ['an ordinary batch', 3, 0, 0],
    ['just under the threshold', SMALL_BATCH - 1, 0, 0],
    ['at the threshold', SMALL_BATCH, 0, Math.round(SMALL_BATCH * ACK_MS_PER_CHANGE)],
    ['a full share of Pods and some Events', 1_000, 50, Math.round(1_050 * ACK_MS_PER_CHANGE)],
  ])('%s', (_name, changes, events, ms) => {
    expect(ackDelayMs({ changes: n(changes), events: n(events) })).toBe(ms);
  });
});

describe('acknowledgeAfter', () => {
  it('a small batch: as soon as it is folded; a large one: after its delay, counted from the fold', async () => {
    const timers: number[] = [];
    const fire: (() => void)[] = [];
    const set = (cb: () => void, ms: number) => (timers.push(ms), fire.push(cb));
    let folded!: () => void;
    const small = acknowledgeAfter(new Promise<void>((r) => (folded = r)), { changes: n(3), events: [] }, set);
    let done = false;
    void small.then(() => (done = true));
    folded();
    await small;
    expect([done, timers]).toEqual([true, []]);

    let foldedBig!: () => void;
    let bigDone = false;
    const big = acknowledgeAfter(new Promise<void>((r) => (foldedBig = r)), { changes: n(1_000), events: [] }, set);
    void big.then(() => (bigDone = true));
    await Promise.resolve();
    expect(timers).toEqual([]); // not folded yet: no timer
    foldedBig();
    await Promise.resolve();
    await Promise.resolve();
    expect([timers, bigDone]).toEqual([[Math.round(1_000 * ACK_MS_PER_CHANGE)], false]);
    fire[0]();
    await big;
    expect(bigDone).toBe(true);
  });
});
