/** The right column: `kubectl get` tables and `kubectl get events`, as tabs; the inspector on top. */
import { useState } from 'react';
import { ResourceTable } from './ResourceTable';
import { EventList } from './EventList';
import { Inspector } from './Inspector';
import { useKubeStore } from '../store/store';
import { selectEventCount } from '../store/selectors';

export function SidePanel() {
  const [tab, setTab] = useState<'resources' | 'events'>('resources');
  const events = useKubeStore(selectEventCount);
  return (
    <section className="pane side" aria-label="Resources and events">
      <header className="pane-header tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'resources'} data-testid="tab-resources" className={tab === 'resources' ? 'active' : ''} onClick={() => setTab('resources')}>
          resources
        </button>
        <button type="button" role="tab" aria-selected={tab === 'events'} data-testid="tab-events" className={tab === 'events' ? 'active' : ''} onClick={() => setTab('events')}>
          events <span className="count">{events}</span>
        </button>
      </header>
      {tab === 'resources' ? <ResourceTable /> : <EventList />}
      <Inspector />
    </section>
  );
}
