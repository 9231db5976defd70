/**
 * Row windowing for long `kubectl get` tables: a table with hundreds of rows (300 Pods of a
 * rollout) renders only the rows in (or near) the scroller's viewport, with spacer rows of the
 * same total height before and after, so the scrollbar and scroll position stay as if every
 * row were there. Rows are one line (`white-space: nowrap`), so all have the same height.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';

/** Tables with more rows than this are windowed; shorter ones render every row. */
export const WINDOW_MIN_ROWS = 100;
/** Rows rendered beyond each edge of the viewport. */
export const OVERSCAN_ROWS = 20;
/** A row's height (px) until one is measured (11 px monospace + 1 px padding each side). */
export const DEFAULT_ROW_PX = 17;

export interface RowWindowInput {
  /** The scroller's scrollTop (px). */
  scrollTop: number;
  /** The scroller's visible height (px). */
  viewportHeight: number;
  /** Top of the table body in the scroller's content (px from the content's top). */
  bodyTop: number;
  /** Height of one row (px, > 0). */
  rowHeight: number;
  /** Rows in the table. */
  count: number;
  overscan?: number;
}

/** Rows `[start, end)` to render. Every row for a short table. */
export interface RowWindow {
  start: number;
  end: number;
}

/** The rows of a table body that intersect the viewport, widened by `overscan` rows each side. */
export function rowWindow({ scrollTop, viewportHeight, bodyTop, rowHeight, count, overscan = OVERSCAN_ROWS }: RowWindowInput): RowWindow {
  if (count <= WINDOW_MIN_ROWS) return { start: 0, end: count };
  const first = Math.floor((scrollTop - bodyTop) / rowHeight);
  const last = Math.ceil((scrollTop + viewportHeight - bodyTop) / rowHeight);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.max(start, Math.min(count, last + overscan));
  return { start, end };
}

/**
 * The window of a table body inside its nearest `.scroll` ancestor, kept current on scroll and
 * resize. Before the first measurement it shows the first rows (a screenful and the overscan).
 */
export function useRowWindow(body: RefObject<HTMLTableSectionElement | null>, count: number): RowWindow & { rowHeight: number } {
  const [state, setState] = useState(() => ({
    ...rowWindow({ scrollTop: 0, viewportHeight: 800, bodyTop: 0, rowHeight: DEFAULT_ROW_PX, count }),
    rowHeight: DEFAULT_ROW_PX,
  }));
  const countRef = useRef(count);
  /** Measures at the next animation frame (layout is done once for the frame anyway). */
  const schedule = useRef<() => void>(() => {});
  // more or fewer rows: the window is measured again at the next frame (not synchronously
  // after each store update, which would force a layout per update)
  useEffect(() => {
    countRef.current = count;
    schedule.current();
  }, [count]);

  useEffect(() => {
    const el = body.current;
    const scroller = el?.closest<HTMLElement>('.scroll');
    if (!el || !scroller) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const row = el.querySelector<HTMLElement>('tr[data-testid]');
      const rowHeight = row?.offsetHeight || DEFAULT_ROW_PX;
      const bodyTop = el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
      const w = rowWindow({
        scrollTop: scroller.scrollTop,
        viewportHeight: scroller.clientHeight,
        bodyTop,
        rowHeight,
        count: countRef.current,
      });
      setState((s) => (s.start === w.start && s.end === w.end && s.rowHeight === rowHeight ? s : { ...w, rowHeight }));
    };
    schedule.current = () => {
      frame ||= requestAnimationFrame(measure);
    };
    measure();
    scroller.addEventListener('scroll', schedule.current, { passive: true });
    // the scroller's size, and its content's (a table above this one grows or shrinks)
    const ro = new ResizeObserver(schedule.current);
    ro.observe(scroller);
    for (const child of scroller.children) ro.observe(child);
    const onScroll = schedule.current;
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      ro.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [body]);
  return state;
}
