// microTimeOf's remembered second: the same text as toISOString for every ms (sim/clock.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_START_MS, microTimeOf } from './clock';
import { Rng } from './rng';

const slow = (ms: number): string => [new Date(ms).toISOString().slice(0, -1), '000Z'].join('');

describe('microTimeOf', () => {
  it('prints what toISOString prints, across seconds, back and forth, and at the edges', () => {
    const rng = new Rng(7);
    const cases = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      DEFAULT_START_MS,
      DEFAULT_START_MS + 10_000,
      253402300799999,
      253402300800000,
      -1,
      -1001,
      1.5,
      999.9,
    ];
    for (let i = 0; i < 20_000; i++) {
      const r = rng.float();
      // mostly nearby ms (the remembered second), sometimes a jump back or far ahead
      cases.push(r < 0.8 ? DEFAULT_START_MS + Math.floor(rng.float() * 5_000) : Math.floor(r * 4e12));
    }
    for (const ms of cases) expect(microTimeOf(ms), String(ms)).toBe(slow(ms));
  });
});
