/** The manifest pane: the YAML editor, the Apply button and kubectl's answer. */
import { lazy, Suspense, useCallback } from 'react';
import { cluster } from '../cluster-client';
import { getEditorText } from './editor-bridge';
import { ApplyResults } from './ApplyResults';
import { useKubeStore } from '../store/store';
import { selectApplying } from '../store/selectors';

const YamlEditor = lazy(() => import('./YamlEditor'));

export function EditorPane() {
  const applying = useKubeStore(selectApplying);
  const apply = useCallback(() => void cluster.apply(getEditorText()), []);
  return (
    <section className="pane editor-pane" aria-label="Manifest">
      <header className="pane-header">
        <h2>manifest.yaml</h2>
        <button type="button" className="primary" data-testid="apply" onClick={apply} disabled={applying} title="kubectl apply -f manifest.yaml (Ctrl/⌘+Enter)">
          Apply
        </button>
      </header>
      <div className="editor-host" data-testid="editor">
        <Suspense fallback={<div className="loading">Loading editor…</div>}>
          <YamlEditor onApply={apply} />
        </Suspense>
      </div>
      <ApplyResults />
    </section>
  );
}
