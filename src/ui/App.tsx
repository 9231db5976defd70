/**
 * The page: toolbar; editor | graph | resources/events (+ inspector); the relay across the
 * bottom. Splitters between the panes resize them (panels/PaneSplitter.tsx, sizes kept by
 * panels/pane-layout.ts); unset sizes follow the window (app.css). The relay can take the
 * whole window (`.layout.relay-max`).
 */
import type { CSSProperties } from 'react';
import { useStore } from 'zustand';
import { useTranslation } from 'react-i18next';
import { Toolbar } from './panels/Toolbar';
import { EditorPane } from './editor/EditorPane';
import { ClusterGraph } from './graph/ClusterGraph';
import { SequenceDiagram } from './sequence/SequenceDiagram';
import { SidePanel } from './panels/SidePanel';
import { Gallery } from './gallery/Gallery';
import { ShareConfirm } from './share/ShareConfirm';
import { PaneSplitter } from './panels/PaneSplitter';
import { paneStore, setPaneSizes, type PaneSizes } from './panels/pane-layout';

const selectSizes = (s: PaneSizes) => s;

function layoutStyle(s: PaneSizes): CSSProperties {
  const style: Record<string, string> = {};
  if (s.editor) style['--editor-w'] = `${s.editor}px`;
  if (s.side) style['--side-w'] = `${s.side}px`;
  if (s.top && !s.relayMax) style.gridTemplateRows = `minmax(0, ${s.top}px) var(--split-row) minmax(0, 1fr)`;
  return style as CSSProperties;
}
import { WatchdogBanner } from './watchdog/WatchdogBanner';

export function App() {
  const sizes = useStore(paneStore, selectSizes);
  const { t } = useTranslation();
  const max = !!sizes.relayMax;
  return (
    <div className="app">
      <Toolbar />
      <main className={`layout ${max ? 'relay-max' : ''}`} style={layoutStyle(sizes)} data-testid="layout">
        <EditorPane />
        <PaneSplitter which="editor" />
        <ClusterGraph />
        <PaneSplitter which="side" />
        <SidePanel />
        <div className="row-split">
          {!max && <PaneSplitter which="top" />}
          <button
            type="button"
            className="mini relay-max-toggle"
            data-testid="relay-max"
            aria-pressed={max}
            title={t(max ? 'layout.relayRestoreTitle' : 'layout.relayMaxTitle')}
            onClick={() => setPaneSizes({ relayMax: !max })}
          >
            {max ? `⤡ ${t('layout.relayRestore')}` : `⤢ ${t('layout.relayMax')}`}
          </button>
        </div>
        <SequenceDiagram />
      </main>
      <Gallery />
      <ShareConfirm />
      <WatchdogBanner />
    </div>
  );
}
