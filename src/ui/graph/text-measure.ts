/**
 * How wide a card's text is, so model.ts sizes every card to show names whole (issue 15: no
 * "kube-controller-man…"). One canvas `measureText` per distinct (font, text), cached: no DOM
 * reads, and nothing measured per frame. The fonts mirror app.css's card rules (its
 * "issue 15" block).
 */

/** The card text styles app.css draws (size, weight, family). */
export const FONTS = {
  /** `.card .title`: component and object names */
  title: { size: 12, weight: 650, mono: false },
  /** `.card .subtitle` */
  sub: { size: 11, weight: 400, mono: false },
  /** `.card .kind` (upper-cased by CSS: measure the upper-cased text) */
  kind: { size: 10, weight: 650, mono: false },
  /** `.card.kubelet .title` */
  agent: { size: 11, weight: 650, mono: false },
  /** `.card.pod .pod-name`, `.card.pod .ip` */
  podName: { size: 11, weight: 400, mono: true },
  /** `.card.pod-group .pod-name` */
  groupName: { size: 11, weight: 650, mono: true },
  /** `.card.pod .pod-status` */
  podStatus: { size: 11, weight: 600, mono: false },
  /** `.node-name` */
  nodeName: { size: 13, weight: 700, mono: false },
  /** `.badge` */
  badge: { size: 11, weight: 400, mono: false },
} as const;
export type FontName = keyof typeof FONTS;

/** Width of `text` in CSS px at zoom 1 in one of {@link FONTS}. */
export type Measure = (text: string, font: FontName) => number;

/**
 * An estimate without a DOM (unit tests, the worker): 0.62 em a character, about what the
 * widest fallback fonts (DejaVu Sans) draw.
 */
export const estimateMeasure: Measure = (text, font) => Math.ceil(text.length * FONTS[font].size * 0.62);

let ctx: CanvasRenderingContext2D | null | undefined;
let families: { sans: string; mono: string } | undefined;
const cache = new Map<string, number>();
/** Distinct strings kept (names come and go; bounded so a long session does not grow it forever). */
const CACHE_MAX = 4000;

/**
 * The browser's width of `text` (canvas measureText in the page's font stacks), cached per
 * (font, text); falls back to {@link estimateMeasure} where there is no canvas.
 */
export const measureText: Measure = (text, font) => {
  const k = `${font}\n${text}`;
  const hit = cache.get(k);
  if (hit !== undefined) return hit;
  if (ctx === undefined) {
    ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (ctx) {
      const cs = getComputedStyle(document.documentElement);
      families = { sans: cs.fontFamily || 'sans-serif', mono: cs.getPropertyValue('--mono').trim() || 'monospace' };
    }
  }
  let w: number;
  if (!ctx || !families) w = estimateMeasure(text, font);
  else {
    const f = FONTS[font];
    ctx.font = `${f.weight} ${f.size}px ${f.mono ? families.mono : families.sans}`;
    w = Math.ceil(ctx.measureText(text).width);
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(k, w);
  return w;
};
