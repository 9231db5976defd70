/** The right column: `kubectl get` tables, `kubectl get events` and the kubectl bar, as tabs; the inspector on top. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourceTable } from './ResourceTable';
import { EventList } from './EventList';
import { Inspector } from './Inspector';
import { KubectlBar } from '../kubectl/KubectlBar';
import { RegistryPanel } from './RegistryPanel';
import { NetworkPanel } from '../network/NetworkPanel';
import { useKubeStore } from '../store/store';
import { selectEventCount } from '../store/selectors';

type Tab = 'resources' | 'events' | 'kubectl' | 'registry' | 'network';

export function SidePanel() {
  const [tab, setTab] = useState<Tab>('resources');
  const events = useKubeStore(selectEventCount);
  const { t } = useTranslation();
  const tabButton = (id: Tab, label: string, extra?: React.ReactNode) => (
    <button
      type="button"
      role="tab"
      aria-selected={tab === id}
      data-testid={`tab-${id}`}
      className={tab === id ? 'active' : ''}
      onClick={() => setTab(id)}
    >
      {label}
      {extra}
    </button>
  );
  return (
    <section className="pane side" aria-label={t('panes.sidePanel')}>
      <header className="pane-header tabs" role="tablist">
        {tabButton('resources', t('panes.resources'))}
        {tabButton('events', t('panes.events'), <span className="count"> {events}</span>)}
        {tabButton('kubectl', t('panes.kubectl'))}
        {tabButton('registry', t('panes.registry'))}
        {tabButton('network', t('panes.network'))}
      </header>
      {tab === 'resources' ? (
        <ResourceTable />
      ) : tab === 'events' ? (
        <EventList />
      ) : tab === 'kubectl' ? (
        <KubectlBar />
      ) : tab === 'network' ? (
        <NetworkPanel />
      ) : (
        <RegistryPanel />
      )}
      <Inspector />
    </section>
  );
}
