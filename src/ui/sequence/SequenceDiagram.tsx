/**
 * The relay as a live Mermaid sequence diagram. Mermaid is imperative and heavy, so it is
 * imported lazily and driven by a transient store subscription (STYLE.md Part D §10): the
 * component never re-renders per hop; the diagram re-renders at most every RENDER_MS.
 */
import { memo, useEffect, useId, useRef, useState } from 'react';
import { kubeStore, useKubeStore } from '../store/store';
import { selectSequenceOptions } from '../store/selectors';
import { setSequenceOptions } from '../store/actions';
import { toMermaid, visibleHops } from './to-mermaid';
import { useTranslation } from 'react-i18next';

const RENDER_MS = 300;
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
      fontFamily: 'system-ui, sans-serif',
      // the sequence renderer copies a top-level fontSize over its own three sizes
      fontSize: 12,
      themeVariables: { fontSize: '12px' },
      sequence: { mirrorActors: true, actorMargin: 16, width: 110, height: 30, boxMargin: 4, boxTextMargin: 2, noteMargin: 4, messageMargin: 22, wrap: false, useMaxWidth: false },
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
        <input type="checkbox" data-testid="seq-heartbeats" checked={o.heartbeats} onChange={(e) => setSequenceOptions({ heartbeats: e.target.checked })} /> {t('panes.heartbeats')}
      </label>
      <label>
        <input type="checkbox" data-testid="seq-admission" checked={o.admission} onChange={(e) => setSequenceOptions({ admission: e.target.checked })} /> {t('panes.admission')}
      </label>
      <label>
        <input type="checkbox" data-testid="seq-events" checked={o.events} onChange={(e) => setSequenceOptions({ events: e.target.checked })} /> {t('panes.eventWrites')}
      </label>
      <label title={t('panes.fromLastApplyTitle')}>
        <input type="checkbox" data-testid="seq-pin" checked={o.pinned} onChange={(e) => setSequenceOptions({ pinned: e.target.checked })} /> {t('panes.fromLastApply')}
      </label>
      <label>
        {o.pinned ? t('panes.first') : t('panes.last')}{' '}
        <select data-testid="seq-window" aria-label={t('panes.hops')} value={o.window} onChange={(e) => setSequenceOptions({ window: Number(e.target.value) })}>
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

export function SequenceDiagram() {
  const host = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const baseId = `seq${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [empty, setEmpty] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation();

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let rendering = false;
    let again = false;
    let lastText = '';
    let n = 0;
    let alive = true;

    const render = async () => {
      if (rendering) {
        again = true;
        return;
      }
      const s = kubeStore.getState();
      const hops = visibleHops(s.hops, { ...s.sequence, fromSeq: s.sequence.pinned ? s.applySeq : null });
      if (!hops.length) {
        setEmpty(true);
        if (host.current) host.current.innerHTML = '';
        lastText = '';
        return;
      }
      const text = toMermaid(hops, MESSAGE_MAX);
      if (text === lastText) return;
      rendering = true;
      try {
        const mermaid = await loadMermaid();
        const { svg } = await mermaid.render(`${baseId}-${n++}`, text);
        if (!alive || !host.current) return;
        const el = scroller.current;
        const follow = !s.sequence.pinned && (!el || el.scrollTop + el.clientHeight >= el.scrollHeight - 40);
        host.current.innerHTML = svg;
        lastText = text;
        setEmpty(false);
        setError(null);
        if (follow && el) el.scrollTop = el.scrollHeight;
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        rendering = false;
        if (again && alive) {
          again = false;
          schedule();
        }
      }
    };
    const schedule = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void render();
      }, RENDER_MS);
    };
    const unsubscribe = kubeStore.subscribe((s, p) => {
      if (s.hops !== p.hops || s.sequence !== p.sequence || s.applySeq !== p.applySeq) schedule();
    });
    schedule();
    return () => {
      alive = false;
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [baseId]);

  return (
    <section className="pane sequence-pane" aria-label={t('panes.relay')}>
      <header className="pane-header">
        <h2>{t('panes.relay')}</h2>
        <span className="hint">{t('panes.relayHint')}</span>
        <Toggles />
      </header>
      <div className="sequence-scroll" ref={scroller}>
        {empty && <div className="muted placeholder">{t('panes.relayEmpty')}</div>}
        {error && <div className="error">{error}</div>}
        <div ref={host} data-testid="sequence-diagram" className="sequence-diagram" />
      </div>
    </section>
  );
}
