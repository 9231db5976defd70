/**
 * The bar of a controller tab (`NAME.controller.ts` / `.js`, docs/user-controllers.md): start
 * the controller (again after an edit), stop it, and what it is doing or why it failed. The
 * tab's TypeScript is compiled by Monaco's TypeScript worker; the worker records the start in
 * the session log, so a reload runs it again.
 */
import { useCallback, useState } from 'react';
import { cluster } from '../cluster-client';
import { activeTabId, compileTab, controllerNameOf, getEditorText } from '../editor/editor-bridge';
import { saveCluster } from '../persistence/session';
import { selectController, useControllers } from './controller-store';

export function ControllerBar({ fileName }: { fileName: string }) {
  const name = controllerNameOf(fileName);
  const st = useControllers(selectController(name));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = useCallback(async () => {
    setBusy(true);
    setError(null);
    try {
      const id = activeTabId();
      const source = getEditorText();
      const code = await compileTab(id);
      const r = await cluster.startController({ name, source, code });
      if (r.error) setError(r.error);
      void saveCluster();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }, [name]);

  const stop = useCallback(async () => {
    await cluster.stopController(name);
    void saveCluster();
  }, [name]);

  const state = st?.state ?? 'stopped';
  const lastError = st?.lastError ?? null;
  return (
    <div className="controller-bar" data-testid="controller-bar">
      <button
        type="button"
        className="primary"
        data-testid="controller-start"
        onClick={() => void start()}
        disabled={busy}
        title={`run ${fileName} as ${name} (a Web Worker sandbox)`}
      >
        {state === 'running' ? 'Restart controller' : 'Start controller'}
      </button>
      <button type="button" data-testid="controller-stop" onClick={() => void stop()} disabled={state !== 'running'}>
        Stop
      </button>
      <span data-testid="controller-status" data-name={name} data-state={state} data-queue-depth={st?.queueDepth ?? 0}>
        {name}: {state}
        {st && state === 'running' ? ` · ${st.for} · queue ${st.queueDepth} · ${st.reconciles} reconciles` : ''}
      </span>
      {(error ?? st?.startError ?? lastError) && (
        <span className="controller-error" data-testid="controller-error">
          {error ?? st?.startError ?? (lastError ? `${lastError.key}: ${lastError.message}` : '')}
        </span>
      )}
    </div>
  );
}
