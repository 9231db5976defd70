/**
 * The page's pane sizes (App.tsx): the editor's and the side panel's widths, the top row's
 * height (graph row above the relay), and whether the relay fills the window. Unset sizes follow
 * the window (app.css: the side panel grows with it); a size set by dragging a splitter or by
 * its arrow keys is kept in localStorage. Pure clamping, plus a tiny vanilla store.
 */
import { createStore } from 'zustand/vanilla';

/** Sizes in CSS px; undefined: the window decides (app.css defaults). */
export interface PaneSizes {
  editor?: number;
  side?: number;
  top?: number;
  /** the RELAY pane takes the whole window below the toolbar */
  relayMax?: boolean;
}

export type Splitter = 'editor' | 'side' | 'top';

/** Smallest sizes, px: a pane never shrinks below what its header needs. */
export const MIN = { editor: 200, side: 280, graph: 320, top: 200, relay: 120 } as const;
/** Splitters, gaps and padding around the panes, px (app.css `.layout`). */
export const CHROME_W = 2 * 8 + 2 * 8;
export const CHROME_H = 2 * 8 + 22;

/** The range a splitter's size may take in a `width` × `height` layout (the rest as given in `s`). */
export function range(
  which: Splitter,
  _sizes: PaneSizes,
  width: number,
  height: number,
  current: { editor: number; side: number },
): { min: number; max: number } {
  if (which === 'top') return { min: MIN.top, max: Math.max(MIN.top, height - CHROME_H - MIN.relay) };
  const other = which === 'editor' ? current.side : current.editor;
  return { min: MIN[which], max: Math.max(MIN[which], width - CHROME_W - MIN.graph - other) };
}

/** `value` kept inside [min, max], rounded to whole px. */
export function clampSize(value: number, r: { min: number; max: number }): number {
  return Math.round(Math.min(r.max, Math.max(r.min, value)));
}

/** The size after a key press on a splitter (arrows: 16 px, with Shift 64 px; Home/End: the ends), or null for other keys. */
export function keyedSize(key: string, shift: boolean, which: Splitter, value: number, r: { min: number; max: number }): number | null {
  const step = shift ? 64 : 16;
  // the editor grows to the right, the side panel to the left, the top row downwards
  const grow = which === 'side' ? ['ArrowLeft'] : which === 'top' ? ['ArrowDown'] : ['ArrowRight'];
  const shrink = which === 'side' ? ['ArrowRight'] : which === 'top' ? ['ArrowUp'] : ['ArrowLeft'];
  if (grow.includes(key)) return clampSize(value + step, r);
  if (shrink.includes(key)) return clampSize(value - step, r);
  if (key === 'Home') return r.min;
  if (key === 'End') return r.max;
  return null;
}

const STORAGE_KEY = 'kube-relay.panes';

/** Reads the stored sizes (ignoring anything that is not a positive number). */
export function parseSizes(text: string | null): PaneSizes {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const out: PaneSizes = {};
    for (const k of ['editor', 'side', 'top'] as const) {
      const n = v?.[k];
      if (typeof n === 'number' && Number.isFinite(n) && n > 0 && n < 100_000) out[k] = Math.round(n);
    }
    if (v?.relayMax === true) out.relayMax = true;
    return out;
  } catch {
    return {};
  }
}

function load(): PaneSizes {
  try {
    return parseSizes(localStorage.getItem(STORAGE_KEY));
  } catch {
    return {};
  }
}

export const paneStore = createStore<PaneSizes>(load);

/** Sets (or, with undefined, resets) sizes and remembers them. */
export function setPaneSizes(next: Partial<PaneSizes>): void {
  paneStore.setState(next);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(paneStore.getState()));
  } catch {
    // not remembered
  }
}
