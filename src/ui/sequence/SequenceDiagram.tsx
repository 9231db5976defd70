/**
 * The relay as a live Mermaid sequence diagram. Mermaid is imperative and heavy, so it is
 * imported lazily and driven by a transient store subscription (docs/style.md#ui-state): the
 * component never re-renders per hop; the diagram re-renders at most every RENDER_MS (longer
 * when rendering is slow: RENDER_GAP_FACTOR), only while the pane is on screen, and
 * only the current window (window.ts: last N hops, one reconciliation, one object's story,
 * after the object/component filters), never the whole history; an unchanged text is not
 * re-rendered. Reconciliations are tinted `rect` blocks headed by their note.
 *
 * Clicking a message or note selects its hop (`selectedHop`, and the hop's object in the
 * inspector); the SVG elements carry `data-seq` (renderSequence's element → hop map).
 */
import { memo, useEffect, useId, useRef, useState } from 'react';
import { kubeStore, useKubeStore, type KubeState } from '../store/store';
import { selectSequenceOptions } from '../store/selectors';
import { setSequenceOptions } from '../store/actions';
import { orderParticipants, renderSequence, type RenderedSequence } from '../../cluster/relay/sequence/to-mermaid';
import {
  participantsOf,
  reconciliations,
  storyTarget,
  windowHops,
  type Reconciliation,
  type WindowMode,
} from '../../cluster/relay/sequence/window';
import { storyHops as actionHops } from '../../cluster/relay/sequence/story';
import { selectHop, setSequenceView, showStory } from './sequence-actions';
import { useTranslation } from 'react-i18next';

const RENDER_MS = 300;
/**
 * A Mermaid render is one long main-thread task (text layout through getBBox), tens of ms for
 * a 60-hop window: the next one waits at least this many times the last one's cost, so
 * drawing the diagram takes at most ≈ 1/RENDER_GAP_FACTOR of the main thread…
 */
const RENDER_GAP_FACTOR = 10;
/** …but never longer than this (ms). */
const RENDER_MAX_GAP_MS = 2_000;
/** A due render waits for an idle moment (requestIdleCallback) at most this long (ms). */
const IDLE_WAIT_MS = 250;

/** Runs `cb` when the page is idle, within {@link IDLE_WAIT_MS}; returns a cancel function. */
function whenIdle(cb: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const id = setTimeout(cb, 0);
    return () => clearTimeout(id);
  }
  const id = requestIdleCallback(cb, { timeout: IDLE_WAIT_MS });
  return () => cancelIdleCallback(id);
}
/** Hops of a new story in its first render, and how many more each next render may add. */
const STORY_FIRST = 24;
const STORY_STEP = 96;
/** Message text longer than this is cut in the diagram (the full hop is in the store). */
const MESSAGE_MAX = 56;

type Mermaid = (typeof import('mermaid'))['default'];
let mermaidPromise: Promise<Mermaid> | null = null;

function loadMermaid(): Promise<Mermaid> {
  mermaidPromise ??= import('mermaid').then(({ default: m }) => {
    m.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: 'neutral',
      look: 'classic',
      // the bundled Hangul face (i18n/korean-font.ts, registered once Korean is chosen) covers Hangul only
      fontFamily: "system-ui, 'kube-relay Hangul', sans-serif",
      // the sequence renderer copies a top-level fontSize over its own three sizes
      fontSize: 12,
      // a top-level `wrap` is read once per diagram; without it Mermaid deep-copies its whole
      // config for every message to ask whether to wrap (a third of a 60-hop render)
      wrap: false,
      themeVariables: { fontSize: '12px' },
      // useMaxWidth: the SVG fits the pane's width (no useless sideways scrolling)
      // narrow lanes: a lane is as wide as its label (broken after a "-" or "/" in the story
      // view) and spaced by the widest message between neighbours (wrapped to fit the pane)
      sequence: {
        mirrorActors: true,
        actorMargin: 10,
        width: 60,
        height: 30,
        wrapPadding: 6,
        boxMargin: 4,
        boxTextMargin: 2,
        noteMargin: 4,
        messageMargin: 22,
        wrap: false,
        useMaxWidth: true,
      },
    });
    return m;
  });
  return mermaidPromise;
}

const Toggles = memo(function Toggles() {
  const o = useKubeStore(selectSequenceOptions);
  const { t } = useTranslation();
  return (
    <span className="toggles">
      <label>
        <input
          type="checkbox"
          data-testid="seq-heartbeats"
          checked={o.heartbeats}
          onChange={(e) => setSequenceOptions({ heartbeats: e.target.checked })}
        />{' '}
        {t('panes.heartbeats')}
      </label>
      <label>
        <input
          type="checkbox"
          data-testid="seq-admission"
          checked={o.admission}
          onChange={(e) => setSequenceOptions({ admission: e.target.checked })}
        />{' '}
        {t('panes.admission')}
      </label>
      <label>
        <input
          type="checkbox"
          data-testid="seq-events"
          checked={o.events}
          onChange={(e) => setSequenceOptions({ events: e.target.checked })}
        />{' '}
        {t('panes.eventWrites')}
      </label>
      <label title={t('panes.fromLastApplyTitle')}>
        <input
          type="checkbox"
          data-testid="seq-pin"
          checked={o.pinned}
          onChange={(e) => setSequenceOptions({ pinned: e.target.checked })}
        />{' '}
        {t('panes.fromLastApply')}
      </label>
      <label>
        {o.pinned ? t('panes.first') : t('panes.last')}{' '}
        <select
          data-testid="seq-window"
          aria-label={t('panes.hops')}
          value={o.window}
          onChange={(e) => setSequenceOptions({ window: Number(e.target.value) })}
        >
          {[30, 60, 120, 250].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>{' '}
        {t('panes.hops')}
      </label>
    </span>
  );
});

const selectView = (s: KubeState) => s.sequenceView;
const selectSelected = (s: KubeState) => s.selected;
/** The story badge's object ("pods default/web-1"), picked or named by the filter; null: none. */
const selectStoryLabel = (s: KubeState): string | null => {
  if (s.sequenceView.mode !== 'story') return null;
  const o = storyTarget(s.hops, s.sequenceView);
  return o ? `${o.resource} ${o.namespace ? `${o.namespace}/` : ''}${o.name}` : null;
};

/** Why nothing is drawn: no hops yet, story mode with no object, or the window/filters leave none. */
type EmptyReason = 'none' | 'story' | 'filtered' | 'action' | null;

/** Window mode, reconciliation picker, object filter, component filter, "story of the selected object". */
const WindowControls = memo(function WindowControls({ participants, recs }: { participants: string[]; recs: Reconciliation[] }) {
  const v = useKubeStore(selectView);
  const selected = useKubeStore(selectSelected);
  const storyLabel = useKubeStore(selectStoryLabel);
  const { t } = useTranslation();
  const hidden = new Set(v.hiddenComponents);
  const shown = participants.filter((p) => !hidden.has(p)).length;
  return (
    <span className="sequence-controls">
      <label>
        {t('sequence.window')}{' '}
        <select
          data-testid="sequence-window"
          aria-label={t('sequence.window')}
          value={v.mode}
          onChange={(e) => setSequenceView({ mode: e.target.value as WindowMode })}
        >
          <option value="action">{t('sequence.modeAction')}</option>
          <option value="last">{t('sequence.modeLast')}</option>
          <option value="reconcile">{t('sequence.modeReconcile')}</option>
          <option value="story">{t('sequence.modeStory')}</option>
        </select>
      </label>
      {v.mode === 'action' && (
        <label title={t('sequence.backgroundTitle')}>
          <input
            type="checkbox"
            data-testid="sequence-background"
            checked={v.background === true}
            onChange={(e) => setSequenceView({ background: e.target.checked })}
          />{' '}
          {t('sequence.background')}
        </label>
      )}
      {v.mode === 'reconcile' && (
        <select
          data-testid="sequence-reconcile"
          aria-label={t('sequence.modeReconcile')}
          value={v.reconcile ?? ''}
          onChange={(e) => setSequenceView({ reconcile: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">{t('sequence.latest')}</option>
          {recs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.controller}: {r.note}
            </option>
          ))}
        </select>
      )}
      {v.mode === 'story' && (
        <span className="badge" data-testid="sequence-story">
          {storyLabel ?? t('sequence.storyNone')}
        </span>
      )}
      {selected && (
        <button
          type="button"
          className="mini"
          data-testid="sequence-story-selected"
          title={t('sequence.storyOfSelectedTitle')}
          onClick={() => showStory(selected)}
        >
          {t('sequence.storyOfSelected')}
        </button>
      )}
      <input
        type="search"
        className="sequence-filter"
        data-testid="sequence-filter-object"
        aria-label={t('sequence.filterObject')}
        placeholder={t('sequence.filterObjectPlaceholder')}
        value={v.objectFilter}
        onChange={(e) => setSequenceView({ objectFilter: e.target.value })}
      />
      <details className="sequence-components" data-testid="sequence-filter-component">
        <summary>
          {t('sequence.components')} ({shown}/{participants.length})
        </summary>
        <div className="sequence-components-list" role="group" aria-label={t('sequence.components')}>
          <span className="sequence-components-actions">
            <button type="button" className="mini" onClick={() => setSequenceView({ hiddenComponents: [] })}>
              {t('sequence.all')}
            </button>
            <button type="button" className="mini" onClick={() => setSequenceView({ hiddenComponents: participants })}>
              {t('sequence.none')}
            </button>
          </span>
          {participants.map((p) => (
            <label key={p}>
              <input
                type="checkbox"
                data-participant={p}
                checked={!hidden.has(p)}
                onChange={(e) =>
                  setSequenceView({
                    hiddenComponents: e.target.checked ? v.hiddenComponents.filter((x) => x !== p) : [...v.hiddenComponents, p],
                  })
                }
              />{' '}
              {p}
            </label>
          ))}
        </div>
      </details>
    </span>
  );
});

/**
 * Marks the SVG's message and note text elements (one per line) with their hop's seq, gives
 * each its hop's whole text as a hover title (an SVG <title>: a label cut with "…" reads whole
 * on hover), tags a folded watch event's lines with `data-event`, highlights the selected hop.
 */
function annotate(root: HTMLElement, r: RenderedSequence, selected: number | null): void {
  // the <title> goes in a group around the text line (not inside it: the line's own text stays its text)
  const title = (el: Element, text: string | undefined) => {
    if (!text || !el.parentNode) return;
    const svg = 'http://www.w3.org/2000/svg';
    const g = document.createElementNS(svg, 'g');
    g.setAttribute('class', 'hop-title');
    const t = document.createElementNS(svg, 'title');
    t.textContent = text;
    el.parentNode.insertBefore(g, el);
    g.append(t, el);
  };
  root.querySelectorAll('text.messageText').forEach((el, i) => {
    if (i >= r.messages.length) return;
    el.setAttribute('data-seq', String(r.messages[i]));
    const ev = r.messageEvents?.[i];
    if (ev) el.setAttribute('data-event', ev);
    title(el, r.messageTitles?.[i]);
  });
  root.querySelectorAll('text.noteText').forEach((el, i) => {
    if (i >= r.notes.length) return;
    el.setAttribute('data-seq', String(r.notes[i]));
    const box = el.previousElementSibling;
    if (box?.classList.contains('note')) box.setAttribute('data-seq', String(r.notes[i]));
    title(el, r.noteTitles?.[i]);
  });
  highlight(root, selected);
}

/** Text of 12 px: about this many px per character (what the lanes' room is counted in). */
const CHAR_PX = 6.8;
/** Fewest and most characters a lane's room holds in the story view. */
const MIN_LANE_CHARS = 9;
const MAX_LANE_CHARS = 40;

/** The SVG's own width (its viewBox), 0 before one is drawn. */
function naturalWidth(root: HTMLElement): number {
  return root.querySelector('svg')?.viewBox?.baseVal?.width ?? 0;
}

/** The story view: the SVG never wider than the pane (text was wrapped to fit it), never scaled up. */
function fitPane(root: HTMLElement): void {
  const svg = root.querySelector('svg');
  if (!svg) return;
  svg.style.maxWidth = `min(100%, ${Math.round(naturalWidth(root))}px)`;
  svg.style.width = '100%';
}

/** Below this scale the 12 px message text would be unreadable: the diagram scrolls sideways instead. */
const MIN_SCALE = 0.8;

/**
 * Fit the SVG to the pane's width (no useless sideways scrolling), but never shrink it below
 * {@link MIN_SCALE}: a diagram with many participants keeps readable text and scrolls sideways.
 */
function keepReadable(root: HTMLElement): void {
  const svg = root.querySelector('svg');
  const natural = svg?.viewBox?.baseVal?.width ?? 0;
  if (!svg || !natural) return;
  const pane = root.clientWidth || natural;
  if (pane / natural < MIN_SCALE) {
    svg.style.maxWidth = 'none';
    svg.style.width = `${Math.round(natural * MIN_SCALE)}px`;
  }
}

function highlight(root: HTMLElement, selected: number | null): void {
  root.querySelectorAll('.hop-selected').forEach((el) => el.classList.remove('hop-selected'));
  if (selected !== null) root.querySelectorAll(`[data-seq="${selected}"]`).forEach((el) => el.classList.add('hop-selected'));
}

export function SequenceDiagram() {
  const host = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const scratch = useRef<HTMLDivElement>(null);
  const baseId = `seq${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [empty, setEmpty] = useState<EmptyReason>('none');
  const [error, setError] = useState<string | null>(null);
  const [participants, setParticipants] = useState<string[]>([]);
  const [recs, setRecs] = useState<Reconciliation[]>([]);
  /** Hops of the action's story the relay's caps dropped (story-keep.ts): 0 when it has them all. */
  const [notKept, setNotKept] = useState(0);
  const { t } = useTranslation();

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    /** Cancels the render waiting for an idle moment ({@link whenIdle}); null when none waits. */
    let pending: (() => void) | null = null;
    let rendering = false;
    let again = false;
    let lastText = '';
    let lastParticipants = '';
    let lastRecs = '';
    let lastFitKey = '';
    let laneChars = MAX_LANE_CHARS;
    let lastStorySeq: number | null = null;
    let budgetFor: number | null = null;
    let storyBudget = STORY_FIRST;
    let n = 0;
    let alive = true;
    /** Wait before the next render (ms): RENDER_MS, or longer after a slow render. */
    let gap = RENDER_MS;
    /** Whether the pane is on screen (IntersectionObserver); off screen, renders wait. */
    let visible = true;
    let missed = false;
    /** The last render drew only part of the story (its budget): draw the rest without the gap. */
    let catchUp = false;

    const render = async () => {
      if (rendering) {
        again = true;
        return;
      }
      const s = kubeStore.getState();
      // the lists behind the controls (component checkboxes, reconciliation picker)
      const ps = orderParticipants(participantsOf(s.hops));
      if (ps.join('\n') !== lastParticipants) {
        lastParticipants = ps.join('\n');
        setParticipants(ps);
      }
      const rs = reconciliations(s.hops).slice(-80).reverse();
      const rsKey = rs.map((r) => r.id).join(',');
      if (rsKey !== lastRecs) {
        lastRecs = rsKey;
        setRecs(rs);
      }
      const all = windowHops(s.hops, { ...s.sequence, fromSeq: s.sequence.pinned ? s.applySeq : null }, s.sequenceView, s.story);
      setNotKept(
        s.sequenceView.mode === 'action' && s.story && s.storyCount !== null
          ? Math.max(0, s.storyCount - actionHops(s.hops, s.story).length)
          : 0,
      );
      // a new story is drawn from its first hops at once, then grows by STORY_STEP per render:
      // its start shows without waiting for a render of the whole, and no render is much
      // longer than the one before
      const action = s.sequenceView.mode === 'action';
      if (action && s.story?.seq !== budgetFor) {
        budgetFor = s.story?.seq ?? null;
        storyBudget = STORY_FIRST;
      }
      const hops = action && all.length > storyBudget ? all.slice(0, storyBudget) : all;
      const truncated = hops.length < all.length;
      if (!hops.length) {
        const mode = s.sequenceView.mode;
        setEmpty(
          mode === 'action' && !s.story
            ? 'action'
            : !s.hops.length
              ? 'none'
              : mode === 'story' && !storyTarget(s.hops, s.sequenceView)
                ? 'story'
                : 'filtered',
        );
        if (host.current) host.current.innerHTML = '';
        lastText = '';
        return;
      }
      // the story fits the pane: its text wraps into the room its lanes have (fit-text.ts)
      const pane = Math.max(320, (scroller.current?.clientWidth ?? 1200) - 8);
      const lanes = new Set(hops.flatMap((h) => [h.from, h.to])).size;
      const fitKey = `${pane}|${lanes}`;
      if (fitKey !== lastFitKey) {
        lastFitKey = fitKey;
        laneChars = Math.max(MIN_LANE_CHARS, Math.min(MAX_LANE_CHARS, Math.floor(pane / lanes / CHAR_PX)));
      }
      const fit = s.sequenceView.mode === 'action' ? { laneChars } : undefined;
      const r = renderSequence(hops, MESSAGE_MAX, true, true, fit);
      const text = r.text;
      if (text === lastText) return;
      rendering = true;
      try {
        const mermaid = await loadMermaid();
        const started = performance.now();
        // Mermaid draws into a scratch box to measure its text (getBBox, one layout each):
        // inside a `contain: strict` box each of those layouts stays in the box
        const { svg } = await mermaid.render(`${baseId}-${n++}`, text, scratch.current ?? undefined);
        if (!alive || !host.current) return;
        const el = scroller.current;
        // the story reads from its first hop: a new story starts at the top, and new hops of it
        // append below without moving the view; the last N hops follow the newest
        const newStory = s.sequenceView.mode === 'action' && s.story?.seq !== lastStorySeq;
        lastStorySeq = s.story?.seq ?? null;
        const follow =
          s.sequenceView.mode !== 'action' && !s.sequence.pinned && (!el || el.scrollTop + el.clientHeight >= el.scrollHeight - 40);
        host.current.innerHTML = svg;
        const natural = naturalWidth(host.current);
        if (fit && natural > pane + 1 && laneChars > MIN_LANE_CHARS) {
          // still wider than the pane (a long word, a wide note): narrow the lanes' text, draw again
          laneChars = Math.max(MIN_LANE_CHARS, Math.min(laneChars - 1, Math.floor((laneChars * pane) / natural)));
          again = true;
        }
        if (fit) fitPane(host.current);
        else keepReadable(host.current);
        annotate(host.current, r, kubeStore.getState().selectedHop);
        if (action) storyBudget = hops.length + STORY_STEP;
        // more of this story to draw: the next step follows at RENDER_MS, not after the slow-render
        // gap (up to RENDER_MAX_GAP_MS, for hops that keep arriving): a person waits for the story
        if (truncated) {
          again = true;
          catchUp = true;
        }
        host.current.dataset.mode = s.sequenceView.mode;
        lastText = text;
        setEmpty(null);
        setError(null);
        if (follow && el) el.scrollTop = el.scrollHeight;
        if (newStory && el) el.scrollTop = 0;
        gap = Math.min(RENDER_MAX_GAP_MS, Math.max(RENDER_MS, (performance.now() - started) * RENDER_GAP_FACTOR));
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        rendering = false;
        if (again && alive) {
          again = false;
          const soon = catchUp;
          catchUp = false;
          schedule(soon);
        }
      }
    };
    /** Whether the scheduled render was asked for by a change the person made (drawn without waiting for idle). */
    let now = false;
    /** `soon`: the user changed what the diagram shows; do not make them wait out a long gap. */
    const schedule = (soon = false) => {
      if (soon && timer) {
        clearTimeout(timer);
        timer = null;
      }
      if (soon) now = true;
      timer ??= setTimeout(
        () => {
          timer = null;
          const direct = now;
          now = false;
          if (!visible) {
            missed = true;
            return;
          }
          // what the person did (a view change, a new story) is drawn at once; the hops that
          // follow wait for an idle moment, off the frames that fold batches: the window's
          // folding and Mermaid's layout run after a frame's work, at most IDLE_WAIT_MS later
          if (direct) {
            pending?.();
            pending = null;
            void render();
          } else
            pending ??= whenIdle(() => {
              pending = null;
              void render();
            });
        },
        soon ? RENDER_MS : gap,
      );
    };
    const observer = new IntersectionObserver((entries) => {
      visible = entries.some((e) => e.isIntersecting);
      if (visible && missed) {
        missed = false;
        schedule();
      }
    });
    if (scroller.current) observer.observe(scroller.current);
    // the first story must not wait for Mermaid's chunk: fetch and parse it while the page is idle
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(() => void loadMermaid(), { timeout: 3_000 }) : null;
    const unsubscribe = kubeStore.subscribe((s, p) => {
      if (s.sequence !== p.sequence || s.sequenceView !== p.sequenceView) schedule(true);
      else if (s.story !== p.story) schedule(true);
      else if (s.hops !== p.hops || s.applySeq !== p.applySeq) schedule();
      if (s.selectedHop !== p.selectedHop && host.current) highlight(host.current, s.selectedHop);
      // story mode with nothing picked: the next object selected (card, row) becomes the story
      const v = s.sequenceView;
      if (s.selected && s.selected !== p.selected && v.mode === 'story' && !v.story && !v.objectFilter.trim()) showStory(s.selected);
    });
    const onClick = (e: MouseEvent) => {
      const el = (e.target as Element | null)?.closest?.('[data-seq]');
      if (el) selectHop(Number(el.getAttribute('data-seq')));
    };
    const hostEl = host.current;
    hostEl?.addEventListener('click', onClick);
    schedule();
    return () => {
      alive = false;
      if (idle !== null) cancelIdleCallback(idle);
      observer.disconnect();
      unsubscribe();
      hostEl?.removeEventListener('click', onClick);
      if (timer) clearTimeout(timer);
      pending?.();
    };
  }, [baseId]);

  return (
    <section className="pane sequence-pane" aria-label={t('panes.relay')}>
      <header className="pane-header">
        <h2>{t('panes.relay')}</h2>
        <span className="hint">{t('panes.relayHint')}</span>
        <Toggles />
        <WindowControls participants={participants} recs={recs} />
      </header>
      <div className="sequence-scroll" ref={scroller}>
        {empty && (
          <div className="muted placeholder" data-testid="sequence-empty" data-reason={empty}>
            {t(
              empty === 'story'
                ? 'sequence.storyHint'
                : empty === 'filtered'
                  ? 'sequence.windowEmpty'
                  : empty === 'action'
                    ? 'sequence.actionHint'
                    : 'panes.relayEmpty',
            )}
          </div>
        )}
        {error && <div className="error">{error}</div>}
        <div ref={host} data-testid="sequence-diagram" className="sequence-diagram" />
        {notKept > 0 && (
          <div className="muted hint" data-testid="sequence-story-not-kept" data-count={notKept}>
            {t('sequence.storyNotKept', { count: notKept })}
          </div>
        )}
      </div>
      <div ref={scratch} className="sequence-scratch" aria-hidden="true" />
    </section>
  );
}
