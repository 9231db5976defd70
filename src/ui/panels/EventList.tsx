/** `kubectl get events` (newest first): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE. */
import { memo, useMemo } from 'react';
import { useKubeStore } from '../store/store';
import { selectEvents, selectNowSec } from '../store/selectors';
import type { KObject } from '../store/types';
import { formatAge } from '../format';
import { eventObject, eventTime, sortEvents } from './events';

const SHOWN = 200;

export const EventRow = memo(function EventRow({ e, now }: { e: KObject; now: number }) {
  const count = (e.count ?? e.series?.count ?? 1) as number;
  return (
    <tr data-testid="event-row" data-reason={e.reason} data-type={e.type} className={e.type === 'Warning' ? 'warning' : ''}>
      <td>{formatAge(now - eventTime(e))}</td>
      <td>{e.type}</td>
      <td>{e.reason}</td>
      <td>{eventObject(e)}</td>
      <td className="message">
        {e.message}
        {count > 1 && <span className="muted"> (x{count})</span>}
      </td>
    </tr>
  );
});

/** The `kubectl get events` table for a list of Events (also the inspector's Events tab). */
export function EventTable({ events, now }: { events: KObject[]; now: number }) {
  return (
    <table className="kubectl-table events-table">
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
        {events.map((e) => (
          <EventRow key={e.metadata.uid ?? e.metadata.name} e={e} now={now} />
        ))}
      </tbody>
    </table>
  );
}

export function EventList() {
  const events = useKubeStore(selectEvents);
  const nowSec = useKubeStore(selectNowSec);
  const sorted = useMemo(() => sortEvents(events.values()).slice(0, SHOWN), [events]);
  return (
    <div className="scroll" role="tabpanel">
      <div>
        <EventTable events={sorted} now={nowSec * 1000} />
      </div>
    </div>
  );
}
