/** The selected object: its YAML (as `kubectl get -o yaml` shows it) and its Events. */
import { useEffect, useMemo, useState } from 'react';
import { useKubeStore } from '../store/store';
import { selectEvents, selectNowSec, selectObject, selectSelected } from '../store/selectors';
import { select } from '../store/actions';
import { cluster } from '../cluster-client';
import type { KObject } from '../store/types';
import { eventIsAbout, sortEvents } from './events';
import { EventRow } from './EventList';

type Stringify = (typeof import('yaml'))['stringify'];
let stringifyPromise: Promise<Stringify> | null = null;

function useYaml(obj: KObject | undefined): string {
  const [stringify, setStringify] = useState<Stringify | null>(null);
  useEffect(() => {
    let alive = true;
    (stringifyPromise ??= import('yaml').then((m) => m.stringify)).then((f) => alive && setStringify(() => f));
    return () => {
      alive = false;
    };
  }, []);
  return useMemo(() => {
    if (!obj) return '';
    if (!stringify) return JSON.stringify(obj, null, 2);
    const { metadata, ...rest } = obj;
    const { managedFields: _managed, ...meta } = metadata;
    return stringify({ ...rest, metadata: meta }, { lineWidth: 0 });
  }, [obj, stringify]);
}

function InspectorBody({ selected }: { selected: string }) {
  const stored = useKubeStore(selectObject(selected));
  const events = useKubeStore(selectEvents);
  const nowSec = useKubeStore(selectNowSec);
  const obj = stored?.object;
  const yaml = useYaml(obj);
  const about = useMemo(() => (obj ? sortEvents([...events.values()].filter((e) => eventIsAbout(e, obj))) : []), [events, obj]);
  if (!obj) return null;
  const ns = obj.metadata.namespace;
  return (
    <aside className="inspector" data-testid="inspector" data-key={selected} aria-label="Inspector">
      <header className="pane-header">
        <h2>
          {obj.kind.toLowerCase()}/{obj.metadata.name}
        </h2>
        {ns && <span className="hint">-n {ns}</span>}
        <span className="spacer" />
        {obj.kind === 'Pod' && ns && (
          <button type="button" className="mini danger" data-testid="delete-pod" title="kubectl delete pod (graceful)" onClick={() => void cluster.deletePod(ns, obj.metadata.name)}>
            delete pod
          </button>
        )}
        <button type="button" className="mini" data-testid="inspector-close" aria-label="Close" onClick={() => select(null)}>
          ✕
        </button>
      </header>
      <div className="scroll">
        <h3>Events</h3>
        {about.length === 0 ? (
          <div className="muted">&lt;none&gt;</div>
        ) : (
          <table className="kubectl-table">
            <tbody>
              {about.map((e) => (
                <EventRow key={e.metadata.uid ?? e.metadata.name} e={e} now={nowSec * 1000} />
              ))}
            </tbody>
          </table>
        )}
        <h3>YAML</h3>
        <pre className="yaml" data-testid="inspector-yaml">
          {yaml}
        </pre>
      </div>
    </aside>
  );
}

export function Inspector() {
  const selected = useKubeStore(selectSelected);
  return selected ? <InspectorBody key={selected} selected={selected} /> : null;
}
