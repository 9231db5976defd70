/** ownerReferences up the chain and what the object owns down, each clickable; and the control loops that reconcile its kind. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectObjects } from '../store/selectors';
import { select } from '../store/actions';
import type { StoredObject } from '../store/types';
import { keyLabel, ownedTree, ownerChain, type OwnedNode } from './owners';

function ObjLink({ k, present }: { k: string; present: boolean }) {
  return present ? (
    <button type="button" className="link" data-testid="owner-link" data-key={k} onClick={() => select(k)}>
      {keyLabel(k)}
    </button>
  ) : (
    <span className="muted">{keyLabel(k)}</span>
  );
}

function Tree({ nodes, objects }: { nodes: OwnedNode[]; objects: ReadonlyMap<string, StoredObject> }) {
  return (
    <ul className="owner-tree">
      {nodes.map((n) => (
        <li key={n.key}>
          <ObjLink k={n.key} present={objects.has(n.key)} />
          {objects.get(n.key)?.row?.status && <span className="muted"> {objects.get(n.key)!.row!.status}</span>}
          {n.children.length > 0 && <Tree nodes={n.children} objects={objects} />}
        </li>
      ))}
    </ul>
  );
}

export function OwnersTab({ stored }: { stored: StoredObject }) {
  const { t } = useTranslation();
  const objects = useKubeStore(selectObjects);
  const up = useMemo(() => ownerChain(objects, stored.object), [objects, stored.object]);
  const down = useMemo(() => ownedTree(objects, stored.object), [objects, stored.object]);
  const ctrl = stored.controllers;
  return (
    <div className="owners" data-testid="inspector-owners">
      <h3>{t('inspector.ownedBy')}</h3>
      {up.length ? (
        <ol className="owner-chain">
          {up.map((o) => (
            <li key={o.key}>
              <ObjLink k={o.key} present={!!o.stored} />
            </li>
          ))}
        </ol>
      ) : (
        <div className="muted placeholder">{t('inspector.none')}</div>
      )}
      <h3>{t('inspector.owns')}</h3>
      {down.length ? <Tree nodes={down} objects={objects} /> : <div className="muted placeholder">{t('inspector.none')}</div>}
      {ctrl && (
        <>
          <h3>{t('inspector.reconciledBy')}</h3>
          <div className="placeholder">
            {ctrl.length ? ctrl.join(', ') : <span className="badge stored-only">{t('inspector.storedOnly')}</span>}
          </div>
        </>
      )}
    </div>
  );
}
