/** The Events about the inspected object, oldest first, as kubectl describe's Events section lists them. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectEvents, selectNowSec } from '../store/selectors';
import type { KObject } from '../store/types';
import { eventIsAbout, sortEvents } from '../panels/events';
import { EventTable } from '../panels/EventList';

export function EventsTab({ obj }: { obj: KObject }) {
  const { t } = useTranslation();
  const events = useKubeStore(selectEvents);
  const nowSec = useKubeStore(selectNowSec);
  const about = useMemo(
    () =>
      sortEvents(
        [...events.values()].filter((e) => eventIsAbout(e, obj)),
        'oldest',
      ),
    [events, obj],
  );
  if (!about.length) return <div className="muted placeholder">{t('inspector.none')}</div>;
  return <EventTable events={about} now={nowSec * 1000} />;
}
