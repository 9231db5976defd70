import { describe, expect, it } from 'vitest';
import { OVERSCAN_ROWS, WINDOW_MIN_ROWS, rowWindow } from './row-window';

describe('rowWindow', () => {
  const cases = [
    {
      name: 'a short table renders every row',
      input: { scrollTop: 5000, viewportHeight: 400, bodyTop: 0, rowHeight: 17, count: WINDOW_MIN_ROWS },
      want: { start: 0, end: WINDOW_MIN_ROWS },
    },
    {
      name: 'at the top: the first screenful and the overscan',
      input: { scrollTop: 0, viewportHeight: 340, bodyTop: 0, rowHeight: 17, count: 600 },
      want: { start: 0, end: 20 + OVERSCAN_ROWS },
    },
    {
      name: 'scrolled into the middle: rows 100–120 visible',
      input: { scrollTop: 1700, viewportHeight: 340, bodyTop: 0, rowHeight: 17, count: 600 },
      want: { start: 100 - OVERSCAN_ROWS, end: 120 + OVERSCAN_ROWS },
    },
    {
      name: 'the body starts below other tables (bodyTop 850 px = 50 rows)',
      input: { scrollTop: 1700, viewportHeight: 340, bodyTop: 850, rowHeight: 17, count: 600 },
      want: { start: 50 - OVERSCAN_ROWS, end: 70 + OVERSCAN_ROWS },
    },
    {
      name: 'at the bottom: clamped to the last row',
      input: { scrollTop: 600 * 17 - 340, viewportHeight: 340, bodyTop: 0, rowHeight: 17, count: 600 },
      want: { start: 580 - OVERSCAN_ROWS, end: 600 },
    },
    {
      name: 'the body far below the viewport: nothing but spacers',
      input: { scrollTop: 0, viewportHeight: 340, bodyTop: 5000, rowHeight: 17, count: 600 },
      want: { start: 0, end: 0 },
    },
    {
      name: 'the body scrolled far above the viewport: nothing but spacers',
      input: { scrollTop: 20000, viewportHeight: 340, bodyTop: 0, rowHeight: 17, count: 600 },
      want: { start: 600, end: 600 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(rowWindow(c.input)).toEqual(c.want);
    });
  }
});
