/** The page: toolbar; editor | graph | resources/events (+ inspector); the relay across the bottom. */
import { Toolbar } from './panels/Toolbar';
import { EditorPane } from './editor/EditorPane';
import { ClusterGraph } from './graph/ClusterGraph';
import { SequenceDiagram } from './sequence/SequenceDiagram';
import { SidePanel } from './panels/SidePanel';
import { Gallery } from './gallery/Gallery';
import { WatchdogBanner } from './watchdog/WatchdogBanner';

export function App() {
  return (
    <div className="app">
      <Toolbar />
      <main className="layout">
        <EditorPane />
        <ClusterGraph />
        <SidePanel />
        <SequenceDiagram />
      </main>
      <Gallery />
      <WatchdogBanner />
    </div>
  );
}
