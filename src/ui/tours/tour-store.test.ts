import { describe, expect, it } from 'vitest';
import { noteText, splitTour } from './tour-store';
import { tourId } from './catalog';
import type { Step } from '../../worker/protocol';

describe('splitTour', () => {
  const note = (en: string): Step => ({ kind: 'note', text: { en, ko: `${en}-ko` } });
  const adv = (ms: number): Step => ({ kind: 'advance', ms });
  const cases: { name: string; steps: Step[]; before: number; after: number[] }[] = [
    { name: 'setup steps before the first narration run on start', steps: [adv(1), adv(2), note('a'), adv(3)], before: 2, after: [1] },
    {
      name: 'steps after each narration run on its Next',
      steps: [note('a'), adv(1), adv(2), note('b'), note('c'), adv(3)],
      before: 0,
      after: [2, 0, 1],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const r = splitTour(tc.steps);
      expect(r.before).toHaveLength(tc.before);
      expect(r.segments.map((s) => s.after.length)).toEqual(tc.after);
    });
  }
});

describe('noteText', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{ en: 'hello', ko: '안녕' }, 'ko', '안녕'],
    [{ en: 'hello', ko: '안녕' }, 'ko-KR', '안녕'],
    [{ en: 'hello' }, 'ko', 'hello'],
    [{ en: 'hello', ko: '안녕' }, 'en', 'hello'],
  ];
  for (const [note, lang, want] of cases) it(`${lang} → ${want}`, () => expect(noteText(note, lang)).toBe(want));
});

describe('tourId', () => {
  it('drops the folder, the order prefix and .tour.yaml', () =>
    expect(tourId('../../scenarios/tours/3-self-healing.tour.yaml')).toBe('self-healing'));
});
