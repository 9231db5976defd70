/**
 * A splitter between panes (App.tsx): drag it, or focus it and use the arrow keys (Shift: bigger
 * steps), Home and End. `role=separator` with its value in px; the size is kept
 * (pane-layout.ts). Hook: `[data-testid=splitter-editor|splitter-side|splitter-top]`.
 */
import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { clampSize, keyedSize, paneStore, range, setPaneSizes, type Splitter } from './pane-layout';

/** The pane a splitter sizes, and the other column's pane. */
const PANE: Record<Splitter, string> = { editor: '.editor-pane', side: '.pane.side', top: '.graph-pane' };

function measure(which: Splitter, layout: HTMLElement) {
  const rect = (sel: string) => layout.querySelector(sel)?.getBoundingClientRect();
  const current = { editor: rect(PANE.editor)?.width ?? 0, side: rect(PANE.side)?.width ?? 0 };
  const value = which === 'top' ? (rect(PANE.top)?.height ?? 0) : current[which];
  return { value, r: range(which, paneStore.getState(), layout.clientWidth, layout.clientHeight, current) };
}

export function PaneSplitter({ which }: { which: Splitter }) {
  const { t } = useTranslation();
  const stored = useStore(paneStore, (s) => s[which]);
  const el = useRef<HTMLDivElement>(null);
  const drag = useRef<{ start: number; value: number; r: { min: number; max: number } } | null>(null);
  const [aria, setAria] = useState<{ value: number; min: number; max: number } | null>(null);
  const layout = () => el.current?.closest<HTMLElement>('.layout') ?? null;
  const refresh = useCallback(() => {
    const l = el.current?.closest<HTMLElement>('.layout');
    if (!l) return;
    const m = measure(which, l);
    setAria({ value: Math.round(m.value), min: m.r.min, max: m.r.max });
  }, [which]);
  const set = (v: number) => {
    setPaneSizes({ [which]: v });
    setAria((a) => (a ? { ...a, value: v } : a));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const l = layout();
    if (!l || e.button !== 0) return;
    const m = measure(which, l);
    drag.current = { start: which === 'top' ? e.clientY : e.clientX, value: m.value, r: m.r };
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault();
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const delta = (which === 'top' ? e.clientY : e.clientX) - d.start;
    set(clampSize(d.value + (which === 'side' ? -delta : delta), d.r));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const l = layout();
    if (!l) return;
    const m = measure(which, l);
    const next = keyedSize(e.key, e.shiftKey, which, m.value, m.r);
    if (next === null) return;
    e.preventDefault();
    set(next);
  };
  const label = t(which === 'editor' ? 'layout.resizeEditor' : which === 'side' ? 'layout.resizeSide' : 'layout.resizeRelay');
  return (
    <div
      ref={el}
      className={`splitter splitter-${which}`}
      role="separator"
      tabIndex={0}
      aria-orientation={which === 'top' ? 'horizontal' : 'vertical'}
      aria-label={label}
      title={label}
      aria-valuenow={aria?.value ?? stored}
      aria-valuemin={aria?.min}
      aria-valuemax={aria?.max}
      data-testid={`splitter-${which}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onFocus={refresh}
      onPointerEnter={refresh}
      onKeyDown={onKeyDown}
    />
  );
}
