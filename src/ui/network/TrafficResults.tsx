/**
 * The traffic generator's output: the tally per Pod (a bar per Pod, its count and share) and
 * one row per request, newest first, numbered in the list — status or curl's error, the Pod
 * that answered, the node whose kube-proxy routed it, and the iptables chains entered
 * (collapsible). Text only.
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { select } from '../store/actions';
import type { Tally } from './tally';
import { shortKey } from './tally';
import type { ResultRow } from './TrafficGenerator';

const TallyView = memo(function TallyView({ tally }: { tally: Tally }) {
  const { t } = useTranslation();
  if (!tally.total) return null;
  return (
    <div className="net-tally" data-testid="traffic-tally" data-pods={tally.pods.length}>
      <div className="net-tally-head">
        <strong>{t('network.tally')}</strong>{' '}
        <span className="muted">{t('network.tallySummary', { ok: tally.ok, total: tally.total })}</span>
      </div>
      <ul>
        {tally.pods.map((p) => (
          <li key={p.podKey} data-testid="traffic-tally-pod" data-pod={p.podKey} data-count={p.count}>
            <button type="button" className="link" onClick={() => select(p.podKey)} title={p.podKey}>
              {shortKey(p.podKey)}
            </button>
            <span className="net-bar" aria-hidden="true">
              <span style={{ width: `${Math.round(p.share * 100)}%` }} className={p.ok === p.count ? 'ok' : 'mixed'} />
            </span>
            <span className="net-count">
              {p.count} ({Math.round(p.share * 100)}%)
            </span>
          </li>
        ))}
        {tally.noPod > 0 && (
          <li data-testid="traffic-tally-nopod" data-count={tally.noPod}>
            <span className="muted">{t('network.noPod')}</span>
            <span className="net-bar" aria-hidden="true" />
            <span className="net-count">{tally.noPod}</span>
          </li>
        )}
      </ul>
    </div>
  );
});

const Row = memo(function Row({ row, n }: { row: ResultRow; n: number }) {
  const { t } = useTranslation();
  const r = row.result;
  return (
    <li
      className={`net-result ${r.ok ? 'ok' : 'failed'}`}
      data-testid="traffic-result"
      data-ok={String(r.ok)}
      data-pod={r.podKey ?? ''}
      data-node={r.viaNode ?? ''}
      data-status={r.status ?? ''}
    >
      <div className="net-result-line">
        <span className="net-index">#{n}</span>
        <span className={`badge ${r.ok ? 'ready-true' : 'ready-false'}`}>{r.status ?? 'ERR'}</span>
        <span className="net-message" title={r.message}>
          {r.message}
        </span>
      </div>
      <details className="net-route">
        <summary>
          {r.podKey && (
            <>
              {t('network.answeredBy')} <code>{shortKey(r.podKey)}</code>
              {r.endpoint && <span className="muted"> ({r.endpoint})</span>}{' '}
            </>
          )}
          {r.viaNode && (
            <>
              {t('network.via')} <code>{r.viaNode}</code>{' '}
            </>
          )}
          <span className="muted">
            · {t('network.chains')} {r.chains.length}
          </span>
        </summary>
        <div className="net-route-body">
          <div className="muted">
            {row.source} → {row.url}
          </div>
          {r.dnsQueries.length > 0 && <div className="muted">DNS: {r.dnsQueries.join(' → ')}</div>}
          {r.ingressKey && <div>Ingress: {r.ingressKey}</div>}
          {r.serviceKey && <div>Service: {r.serviceKey}</div>}
          <ol className="net-chains" data-testid="traffic-chains">
            {r.chains.map((c, i) => (
              <li key={i}>
                <code>{c}</code>
              </li>
            ))}
          </ol>
        </div>
      </details>
    </li>
  );
});

export function TrafficResults({ rows, tally, onClear }: { rows: ResultRow[]; tally: Tally; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="net-results">
      <TallyView tally={tally} />
      <div className="net-results-head">
        <strong>{t('network.results')}</strong>
        <span className="muted"> {rows.length}</span>
        <span className="spacer" />
        {rows.length > 0 && (
          <button type="button" className="mini" onClick={onClear}>
            {t('network.clear')}
          </button>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="hint">{t('network.noResults')}</p>
      ) : (
        <ol className="net-result-list" data-testid="traffic-results">
          {rows.map((row, i) => <Row key={row.id} row={row} n={i + 1} />).reverse()}
        </ol>
      )}
    </div>
  );
}
