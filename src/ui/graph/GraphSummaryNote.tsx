/**
 * The large-cluster path's note over the graph (worker/pod-summary.ts): says that the graph is
 * summarized and why, and lists the Pods per controller owner (the owners with the most Pods).
 * `[data-testid=graph-summary-note][data-pods=N][data-threshold=N]`, owners
 * `[data-testid=summary-owner][data-owner=KEY or ""][data-count=N][data-ready=N]`. Nothing below the threshold.
 */
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import type { KubeState } from '../store/store';
import { formatCount, statusLine } from './pod-summary-model';

const selectSummary = (s: KubeState) => s.podSummary;

export function GraphSummaryNote() {
  const { t } = useTranslation();
  const summary = useKubeStore(selectSummary);
  if (!summary) return null;
  return (
    <div
      className="graph-summary-note"
      role="status"
      data-testid="graph-summary-note"
      data-pods={summary.all.total}
      data-threshold={summary.threshold}
    >
      <p>
        {summary.all.total > summary.threshold
          ? t('summary.note', { pods: formatCount(summary.all.total), threshold: formatCount(summary.threshold) })
          : // hysteresis: at or below the threshold the view stays summarized until fewer than leaveThreshold remain
            t('summary.noteStaying', {
              pods: formatCount(summary.all.total),
              threshold: formatCount(summary.threshold),
              leave: formatCount(summary.leaveThreshold),
            })}
      </p>
      <details>
        <summary>{t('summary.owners', { count: summary.owners.length + summary.moreOwners })}</summary>
        <ul>
          {summary.owners.map((o) => (
            <li key={o.owner} data-testid="summary-owner" data-owner={o.owner} data-count={o.total} data-ready={o.ready}>
              <b>{o.owner || t('summary.noOwner')}</b>: {formatCount(o.total)} Pods · {statusLine(o)} · {formatCount(o.ready)} ready
            </li>
          ))}
          {summary.moreOwners > 0 && <li>{t('summary.moreOwners', { count: summary.moreOwners })}</li>}
          {summary.moreNodes > 0 && <li>{t('summary.moreNodes', { count: summary.moreNodes })}</li>}
        </ul>
      </details>
    </div>
  );
}
