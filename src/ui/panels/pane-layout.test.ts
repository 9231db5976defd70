import { describe, expect, it } from 'vitest';
import { clampSize, keyedSize, parseSizes, range } from './pane-layout';

describe('pane sizes', () => {
  it.each([
    [
      'editor at 1280: room left for the graph and the side panel',
      'editor',
      1280,
      800,
      { editor: 256, side: 358 },
      { min: 200, max: 1280 - 32 - 320 - 358 },
    ],
    ['side at 1920', 'side', 1920, 1080, { editor: 384, side: 538 }, { min: 280, max: 1920 - 32 - 320 - 384 }],
    ['top row at 800 high', 'top', 1280, 800, { editor: 256, side: 358 }, { min: 200, max: 800 - 38 - 120 }],
    ['a window too small keeps the minimum', 'editor', 700, 400, { editor: 256, side: 358 }, { min: 200, max: 200 }],
  ] as const)('%s', (_name, which, w, h, current, want) => {
    expect(range(which, {}, w, h, current)).toEqual(want);
  });

  it.each([
    ['ArrowRight grows the editor', 'ArrowRight', false, 'editor', 300, 316],
    ['Shift+ArrowLeft shrinks the editor by 64', 'ArrowLeft', true, 'editor', 300, 236],
    ['ArrowLeft grows the side panel', 'ArrowLeft', false, 'side', 400, 416],
    ['ArrowDown grows the top row', 'ArrowDown', false, 'top', 400, 416],
    ['ArrowUp shrinks it, not below the minimum', 'ArrowUp', true, 'top', 210, 200],
    ['End: the largest', 'End', false, 'editor', 300, 600],
    ['Home: the smallest', 'Home', false, 'side', 400, 200],
    ['other keys do nothing', 'a', false, 'editor', 300, null],
  ] as const)('%s', (_name, key, shift, which, value, want) => {
    expect(keyedSize(key, shift, which, value, { min: 200, max: 600 })).toBe(want);
  });

  it('clamps and rounds', () => {
    expect(clampSize(199.4, { min: 200, max: 300 })).toBe(200);
    expect(clampSize(250.6, { min: 200, max: 300 })).toBe(251);
  });

  it.each([
    ['nothing stored', null, {}],
    ['not JSON', '{', {}],
    [
      'sizes and the relay maximised',
      '{"editor":300,"side":420.4,"top":500,"relayMax":true}',
      { editor: 300, side: 420, top: 500, relayMax: true },
    ],
    ['hostile values are dropped', '{"editor":"300","side":-1,"top":1e99,"__proto__":{"x":1},"relayMax":"yes"}', {}],
  ])('stored: %s', (_name, text, want) => {
    expect(parseSizes(text)).toEqual(want);
  });
});
