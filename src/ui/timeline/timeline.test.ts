import { describe, expect, it } from 'vitest';
import { Timeline } from './timeline';

describe('Timeline', () => {
  it('finds the latest frame at or before a moment, and the oldest before every frame', () => {
    const t = new Timeline<string>({ minGapMs: 1_000 });
    t.record(0, 'boot', { pinned: true });
    t.record(2_000, 'applied');
    t.record(5_000, 'running');
    expect(t.at(-5)?.view).toBe('boot');
    expect(t.at(0)?.view).toBe('boot');
    expect(t.at(1_999)?.view).toBe('boot');
    expect(t.at(2_000)?.view).toBe('applied');
    expect(t.at(4_000)?.view).toBe('applied');
    expect(t.at(99_000)?.view).toBe('running');
    expect([t.firstMs, t.lastMs]).toEqual([0, 5_000]);
  });

  it('overwrites the last frame within the gap, but never a pinned one', () => {
    const t = new Timeline<string>({ minGapMs: 1_000 });
    t.record(0, 'boot', { pinned: true });
    t.record(100, 'a');
    t.record(300, 'b');
    t.record(600, 'c');
    // one slice of time starting at 100, holding its latest state
    expect(t.times()).toEqual([0, 100]);
    expect(t.at(0)?.view).toBe('boot');
    expect(t.at(700)).toMatchObject({ view: 'c', stateMs: 600 });
    t.record(1_099, 'd');
    t.record(1_100, 'e');
    expect(t.times()).toEqual([0, 100, 1_100]);
    expect(t.at(1_000)?.view).toBe('d');
    expect(t.lastMs).toBe(1_100);
  });

  it('stays bounded, keeps the pinned start and the newest frames, and thins old history', () => {
    const t = new Timeline<number>({ minGapMs: 1, maxFrames: 50, minFrames: 10 });
    t.record(0, 0, { pinned: true });
    for (let i = 1; i <= 10_000; i++) t.record(i * 10, i);
    expect(t.length).toBeLessThanOrEqual(50);
    expect(t.at(0)?.view).toBe(0);
    expect(t.lastMs).toBe(100_000);
    const times = t.times();
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // recent frames are denser than old ones
    expect(times.at(-1)! - times.at(-2)!).toBeLessThan(times[2] - times[1]);
  });

  it('holds fewer frames when frames are big (memory budget)', () => {
    const t = new Timeline<number>({ minGapMs: 1, maxFrames: 600, entryBudget: 10_000, minFrames: 5 });
    for (let i = 0; i < 1_000; i++) t.record(i * 10, i, { size: 1_000 });
    expect(t.length).toBeLessThanOrEqual(10);
  });

  it('starts over when time goes backwards (a fresh cluster)', () => {
    const t = new Timeline<string>({ minGapMs: 1 });
    t.record(0, 'a', { pinned: true });
    t.record(50_000, 'b');
    t.record(10, 'fresh', { pinned: true });
    expect(t.times()).toEqual([10]);
  });
});
