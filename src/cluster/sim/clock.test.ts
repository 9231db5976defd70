/** SimClock's deadline heap: the next deadline and the countdown list, as a scan of every timer finds them. */
import { describe, expect, it } from 'vitest';
import { SimClock, type TimerHandle } from './clock';
import { Rng } from './rng';

const T0 = Date.UTC(2026, 0, 1);

describe('SimClock deadlines', () => {
  it.each([
    {
      name: 'no timers',
      set: [] as [number, boolean][],
      cancel: [] as number[],
      next: undefined as number | undefined,
      labels: [] as string[],
    },
    {
      name: 'periodic timers are not deadlines',
      set: [
        [10, false],
        [5, false],
      ],
      cancel: [],
      next: undefined,
      labels: [],
    },
    {
      name: 'earliest deadline among timers',
      set: [
        [30, true],
        [10, false],
        [20, true],
      ],
      cancel: [],
      next: T0 + 20,
      labels: ['t2', 't0'],
    },
    {
      name: 'ties keep the order they were set',
      set: [
        [20, true],
        [20, true],
        [10, true],
      ],
      cancel: [],
      next: T0 + 10,
      labels: ['t2', 't0', 't1'],
    },
    {
      name: 'a cancelled earliest deadline is skipped',
      set: [
        [10, true],
        [20, true],
      ],
      cancel: [0],
      next: T0 + 20,
      labels: ['t1'],
    },
    {
      name: 'every deadline cancelled',
      set: [
        [10, true],
        [20, true],
      ],
      cancel: [1, 0],
      next: undefined,
      labels: [],
    },
  ])('$name', ({ set, cancel, next, labels }) => {
    const c = new SimClock(T0);
    const hs = set.map(([ms, deadline], i) => c.setTimer(ms as number, () => {}, { deadline: deadline as boolean, label: `t${i}` }));
    for (const i of cancel) c.cancel(hs[i]);
    expect(c.nextDeadlineAt()).toBe(next);
    expect(c.deadlines().map((d) => d.label)).toEqual(labels);
  });

  it('drops fired deadlines: after 15 ms the 10 ms one is gone', () => {
    const c = new SimClock(T0);
    c.setTimer(10, () => {}, { deadline: true, label: 'a' });
    c.setTimer(20, () => {}, { deadline: true, label: 'b' });
    c.advance(15);
    expect(c.nextDeadlineAt()).toBe(T0 + 20);
    expect(c.deadlines()).toEqual([{ at: T0 + 20, label: 'b', object: undefined }]);
  });

  it('equals a scan of every pending timer over 5,000 random sets, cancels and advances', () => {
    const rng = new Rng(11);
    const c = new SimClock(T0);
    const live = new Map<number, { at: number; seq: number; deadline: boolean; h: TimerHandle }>();
    let seq = 0;
    for (let i = 0; i < 5000; i++) {
      const op = rng.intn(10);
      if (op < 6) {
        const s = seq++;
        const deadline = rng.intn(2) === 0;
        const at = c.now() + rng.intn(50);
        const h = c.setTimer(at - c.now(), () => live.delete(s), { deadline, label: `t${s}` });
        live.set(s, { at, seq: s, deadline, h });
      } else if (op < 9 && live.size) {
        const keys = [...live.keys()];
        const k = keys[rng.intn(keys.length)];
        c.cancel(live.get(k)!.h);
        live.delete(k);
      } else c.advance(rng.intn(20));
      const want = [...live.values()].filter((t) => t.deadline).sort((a, b) => a.at - b.at || a.seq - b.seq);
      expect(c.nextDeadlineAt()).toBe(want[0]?.at);
      if (i % 50 === 0) expect(c.deadlines().map((d) => d.label)).toEqual(want.map((t) => `t${t.seq}`));
    }
  });
});
