/** The Events about the inspected object, newest first (kubectl describe's Events section). */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectEvents, selectNowSec } from '../store/selectors';
import type { KObject } from '../store/types';
import { eventIsAbout, sortEvents } from '../panels/events';
import { EventRow } from '../panels/EventList';

export function EventsTab({ obj }: { obj: KObject }) {
  const { t } = useTranslation();
  const events = useKubeStore(selectEvents);
  const nowSec = useKubeStore(selectNowSec);
  const about = useMemo(() => sortEvents([...events.values()].filter((e) => eventIsAbout(e, obj))), [events, obj]);
  if (!about.length) return <div className="muted placeholder">{t('inspector.none')}</div>;
  return (
    <table className="kubectl-table">
      <thead>
        <tr>
          <th>LAST SEEN</th>
          <th>TYPE</th>
          <th>REASON</th>
          <th>OBJECT</th>
          <th>MESSAGE</th>
        </tr>
      </thead>
      <tbody>
        {about.map((e) => (
          <EventRow key={e.metadata.uid ?? e.metadata.name} e={e} now={nowSec * 1000} />
        ))}
      </tbody>
    </table>
  );
}
