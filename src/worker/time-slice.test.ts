import { describe, expect, it } from 'vitest';
import { PACE_WINDOW_MS, PaceMeter, isBehind } from './time-slice';

describe('PaceMeter', () => {
  it('is null until the samples span a quarter of the window, then simulated ms per wall ms over the window', () => {
    const m = new PaceMeter();
    expect(m.pace()).toBeNull();
    m.record(0, 0);
    m.record(PACE_WINDOW_MS / 4 - 1, 100);
    expect(m.pace()).toBeNull();
    m.record(PACE_WINDOW_MS / 4, 5_000);
    expect(m.pace()).toBe(10);
  });

  it('forgets samples older than the window: a slow start does not hide the current pace', () => {
    const m = new PaceMeter();
    // 3 s at ×5, then 3 s at ×100, sampled every 50 wall ms
    let sim = 0;
    for (let wall = 0; wall <= 6_000; wall += 50) {
      m.record(wall, sim);
      sim += 50 * (wall < 3_000 ? 5 : 100);
    }
    expect(m.pace()).toBe(100);
    m.clear();
    expect(m.pace()).toBeNull();
  });
});

describe('isBehind', () => {
  it.each([
    ['×37 of ×100 while playing', 37, 100, true, true],
    ['×81 of ×100 (within 20 %)', 81, 100, true, false],
    ['×79 of ×100', 79, 100, true, true],
    ['paused', 0, 100, false, false],
    ['not measured yet', null, 100, true, false],
  ] as const)('%s', (_name, pace, speed, running, behind) => {
    expect(isBehind(pace, speed, running)).toBe(behind);
  });
});
