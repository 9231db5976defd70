/**
 * The selected object, over the side panel: tabs YAML (metadata / spec / status), Events,
 * Owners, and per kind Scheduling (Pods: "why this node") or kube-proxy (Nodes: iptables rules).
 * A Pod whose containers run programs kube-relay does not model gets a note saying what is assumed.
 * Roles, ClusterRoles and their bindings get an RBAC tab (who it grants what, inspector/RbacTab.tsx).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectObject, selectSelected } from '../store/selectors';
import { select } from '../store/actions';
import { cluster } from '../cluster-client';
import { YamlTab } from '../inspector/YamlTab';
import { EventsTab } from '../inspector/EventsTab';
import { OwnersTab } from '../inspector/OwnersTab';
import { SchedulingTab } from '../inspector/SchedulingTab';
import { ProxyTab } from '../inspector/ProxyTab';
import { ServesNote } from '../inspector/ServesNote';
import { RbacTab } from '../inspector/RbacTab';
import { RBAC_KINDS } from '../inspector/rbac-view';

type Tab = 'yaml' | 'events' | 'owners' | 'scheduling' | 'proxy' | 'rbac';

function InspectorBody({ selected }: { selected: string }) {
  const { t } = useTranslation();
  const stored = useKubeStore(selectObject(selected));
  const [tab, setTab] = useState<Tab>('yaml');
  if (!stored) return null;
  const obj = stored.object;
  const ns = obj.metadata.namespace;
  const tabs: [Tab, string][] = [
    ['yaml', t('inspector.yaml')],
    ['events', t('inspector.events')],
    ['owners', t('inspector.owners')],
  ];
  if (obj.kind === 'Pod') tabs.push(['scheduling', t('inspector.scheduling')]);
  if (obj.kind === 'Node') tabs.push(['proxy', t('inspector.proxy')]);
  if (RBAC_KINDS.has(obj.kind)) tabs.push(['rbac', t('rbac.tab')]);
  return (
    <aside className="inspector" data-testid="inspector" data-key={selected} aria-label={t('inspector.label')}>
      <header className="pane-header">
        <h2 title={`${obj.kind.toLowerCase()}/${obj.metadata.name}`}>
          {obj.kind.toLowerCase()}/{obj.metadata.name}
        </h2>
        {ns && <span className="hint">-n {ns}</span>}
        <span className="spacer" />
        {obj.kind === 'Pod' && ns && (
          <button
            type="button"
            className="mini danger"
            data-testid="delete-pod"
            aria-label={t('inspector.deletePodTitle')}
            title={t('inspector.deletePodTitle')}
            onClick={() => void cluster.deletePod(ns, obj.metadata.name)}
          >
            {t('inspector.deletePod')}
          </button>
        )}
        <button
          type="button"
          className="mini"
          data-testid="inspector-close"
          aria-label={t('inspector.close')}
          title={`${t('inspector.close')} (Esc)`}
          onClick={() => select(null)}
        >
          ✕
        </button>
      </header>
      <nav className="pane-header tabs inspector-tabs" role="tablist">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            data-testid={`inspector-tab-${id}`}
            className={tab === id ? 'active' : ''}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </nav>
      {obj.kind === 'Pod' && <ServesNote pod={obj} />}
      <div className="scroll" role="tabpanel">
        {tab === 'yaml' && <YamlTab obj={obj} />}
        {tab === 'events' && <EventsTab obj={obj} />}
        {tab === 'owners' && <OwnersTab stored={stored} />}
        {tab === 'scheduling' && obj.kind === 'Pod' && <SchedulingTab pod={obj} />}
        {tab === 'proxy' && obj.kind === 'Node' && <ProxyTab node={obj.metadata.name} />}
        {tab === 'rbac' && RBAC_KINDS.has(obj.kind) && <RbacTab obj={obj} />}
      </div>
    </aside>
  );
}

export function Inspector() {
  const selected = useKubeStore(selectSelected);
  return selected ? <InspectorBody key={selected} selected={selected} /> : null;
}
