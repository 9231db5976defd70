/**
 * The manifest pane: file tabs, the YAML editor, Apply / Diff / Dry run, kubectl's answer,
 * and the session menu (share link, export/import, diagram and graph downloads).
 */
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { cluster } from '../cluster-client';
import { activeTabId, getEditorText, isControllerTab, setApiMarkers, tabsStore, useTabs } from './editor-bridge';
import { ControllerBar } from '../controllers/ControllerBar';
import { ApplyResults } from './ApplyResults';
import { TabBar } from './TabBar';
import { KustomizeBar } from './KustomizeBar';
import { useKubeStore, kubeStore } from '../store/store';
import { selectApplying } from '../store/selectors';
import { setNotice } from '../store/actions';
import { tabsReady, saveCluster, exportSessionFile, importSessionFile } from '../persistence/session';
import { shareLink } from '../share/links';
import { download, exportDiagram, exportGraphPng } from '../share/exports';

const YamlEditor = lazy(() => tabsReady.then(() => import('./YamlEditor')));

type Output = { kind: 'diff' | 'dry-run' | 'kustomize'; title: string; text: string; error: boolean } | null;

const OUTPUT_TESTID = { diff: 'diff-output', 'dry-run': 'dry-run-output', kustomize: 'kustomize-output' } as const;

const selectActiveName = (s: { tabs: { id: string; name: string }[]; active: string }) =>
  s.tabs.find((t) => t.id === s.active)?.name ?? 'manifest.yaml';

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function EditorPane() {
  const applying = useKubeStore(selectApplying);
  const fileName = useTabs(selectActiveName);
  const [output, setOutput] = useState<Output>(null);
  const [shared, setShared] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const controllerTab = isControllerTab(fileName);

  const apply = useCallback(async () => {
    const id = activeTabId();
    if (isControllerTab(tabsStore.getState().tabs.find((t) => t.id === id)?.name ?? '')) return; // Ctrl/⌘+Enter in a controller tab: not a manifest
    const text = getEditorText();
    setOutput(null);
    await cluster.apply(text);
    const results = kubeStore.getState().results ?? [];
    setApiMarkers(id, await cluster.markers(text, results));
    void saveCluster();
  }, []);
  const onApply = useCallback(() => void apply(), [apply]);

  const diff = useCallback(async () => {
    try {
      const { diff: d, stderr } = await cluster.diff(getEditorText());
      setOutput({ kind: 'diff', title: `kubectl diff -f ${fileName}`, text: `${d}${stderr}` || '(no differences)', error: !!stderr });
    } catch (e) {
      setOutput({ kind: 'diff', title: `kubectl diff -f ${fileName}`, text: `error: ${errorText(e)}`, error: true });
    }
  }, [fileName]);

  const dryRun = useCallback(async () => {
    const id = activeTabId();
    const text = getEditorText();
    const r = await cluster.dryRun(text);
    if (!r) return;
    setApiMarkers(id, r.markers);
    const lines = r.results.flatMap((x) => [
      ...x.warnings.map((w) => `Warning: ${w}`),
      x.action === 'error' ? (x.message ?? `${x.object} error`) : `${x.object} ${x.action} (server dry run)`,
    ]);
    setOutput({
      kind: 'dry-run',
      title: `kubectl apply --dry-run=server -f ${fileName}`,
      text: lines.join('\n') || 'error: no objects passed to apply',
      error: r.results.some((x) => x.action === 'error'),
    });
  }, [fileName]);

  const share = useCallback(async () => {
    const link = shareLink(location.href, getEditorText());
    setShared(link);
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // no clipboard permission: the link is shown to copy by hand
    }
  }, []);

  const onKustomizeOutput = useCallback((o: { title: string; text: string; error: boolean }) => setOutput({ kind: 'kustomize', ...o }), []);

  const run = (fn: () => Promise<void>) => () => void fn().catch((e: unknown) => setNotice(errorText(e)));

  return (
    <section className="pane editor-pane" aria-label="Manifest">
      <header className="pane-header">
        <h2>{fileName}</h2>
        {!controllerTab && (
          <>
            <button
              type="button"
              className="primary"
              data-testid="apply"
              onClick={onApply}
              disabled={applying}
              title={`kubectl apply -f - < ${fileName} (Ctrl/⌘+Enter)`}
            >
              Apply
            </button>
            <button type="button" data-testid="diff" onClick={run(diff)} title={`kubectl diff -f ${fileName}`}>
              Diff
            </button>
            <button type="button" data-testid="dry-run" onClick={run(dryRun)} title={`kubectl apply --dry-run=server -f ${fileName}`}>
              Dry run
            </button>
          </>
        )}
        <details className="session-menu">
          <summary data-testid="session-menu" title="Share, export, import">
            ⋯
          </summary>
          <div className="session-items">
            <button type="button" data-testid="share" onClick={run(share)}>
              Copy share link
            </button>
            <button
              type="button"
              data-testid="export-session"
              onClick={run(async () => download('kube-relay-session.json', JSON.stringify(await exportSessionFile()), 'application/json'))}
            >
              Export session (JSON)
            </button>
            <button type="button" data-testid="import-session" onClick={() => fileInput.current?.click()}>
              Import session…
            </button>
            <button type="button" data-testid="export-diagram-svg" onClick={run(() => exportDiagram('svg'))}>
              Sequence diagram as SVG
            </button>
            <button type="button" data-testid="export-diagram-png" onClick={run(() => exportDiagram('png'))}>
              Sequence diagram as PNG
            </button>
            <button type="button" data-testid="export-diagram-mermaid" onClick={run(() => exportDiagram('mmd'))}>
              Sequence diagram as Mermaid
            </button>
            <button type="button" data-testid="export-graph-png" onClick={run(exportGraphPng)}>
              Graph as PNG
            </button>
          </div>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="import-file"
            onChange={(e) => {
              const f = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (f)
                void f
                  .text()
                  .then(importSessionFile)
                  .catch((err: unknown) => setNotice(errorText(err)));
            }}
          />
        </details>
      </header>
      <TabBar />
      {controllerTab ? <ControllerBar fileName={fileName} /> : <KustomizeBar onOutput={onKustomizeOutput} />}
      <div className="editor-host" data-testid="editor">
        <Suspense fallback={<div className="loading">Loading editor…</div>}>
          <YamlEditor onApply={onApply} />
        </Suspense>
      </div>
      {shared && (
        <div className="share-link" data-testid="share-link">
          <span className="muted">Link copied:</span>{' '}
          <input readOnly value={shared} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="mini" onClick={() => setShared(null)} aria-label="Close">
            ×
          </button>
        </div>
      )}
      {output && (
        <div className={`editor-output${output.error ? ' error' : ''}`} data-testid={OUTPUT_TESTID[output.kind]}>
          <div className="editor-output-head">
            <span>$ {output.title}</span>
            <button type="button" className="mini" onClick={() => setOutput(null)} aria-label="Close">
              ×
            </button>
          </div>
          <pre>
            {output.text.split('\n').map((l, i) => (
              <span
                key={i}
                className={
                  output.kind === 'diff'
                    ? l.startsWith('+') && !l.startsWith('+++')
                      ? 'add'
                      : l.startsWith('-') && !l.startsWith('---')
                        ? 'del'
                        : l.startsWith('@@')
                          ? 'hunk'
                          : undefined
                    : undefined
                }
              >
                {l}
                {'\n'}
              </span>
            ))}
          </pre>
        </div>
      )}
      <ApplyResults />
    </section>
  );
}
