/**
 * "Why this node": the scheduler's decision record for a Pod, fetched from the worker. One row
 * per node: the filter plugin that rejected it and why, or each score plugin's score
 * (normalized × weight) and the total; the chosen node highlighted.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { cluster } from '../cluster-client';
import type { KObject, SchedulingDecision } from '../store/types';
import { decisionTable } from './scheduling';
import { useWorkerQuery } from './useWorkerQuery';

function Table({ d }: { d: SchedulingDecision }) {
  const { t } = useTranslation();
  const table = useMemo(() => decisionTable(d), [d]);
  return (
    <>
      <p className="sched-summary" data-testid="scheduling-summary" data-result={d.result} data-selected-node={d.selectedNode ?? ''}>
        <strong>{d.result}</strong>
        {d.selectedNode && (
          <>
            {' → '}
            <span className="mono">{d.selectedNode}</span>
          </>
        )}{' '}
        <span className="muted">({t('inspector.attempt', { n: d.attempt, feasible: d.feasibleNodes, all: d.numAllNodes })})</span>
        {d.message && <span className="sched-message">{d.message}</span>}
      </p>
      <table className="kubectl-table sched-table" data-testid="scheduling-table">
        <thead>
          <tr>
            <th>{t('inspector.node')}</th>
            <th>{t('inspector.filter')}</th>
            {table.plugins.map((p) => (
              <th key={p} className="num plugin" scope="col">
                {p}
              </th>
            ))}
            <th className="num">{t('inspector.total')}</th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <tr
              key={r.node}
              data-testid="scheduling-row"
              data-node={r.node}
              data-feasible={r.feasible}
              data-chosen={r.chosen}
              data-filter={r.failedPlugin ?? ''}
              className={r.chosen ? 'chosen' : r.feasible ? '' : 'rejected'}
            >
              <td className="mono">
                {r.node}
                {r.chosen && <span className="badge chosen-badge">{t('inspector.chosen')}</span>}
              </td>
              {r.feasible ? (
                <>
                  <td className="muted">{t('inspector.passed')}</td>
                  {table.plugins.map((p) => (
                    <td key={p} className="num">
                      {r.scores[p] ?? ''}
                    </td>
                  ))}
                  <td className="num total">{r.total ?? t('inspector.notScored')}</td>
                </>
              ) : (
                <td className="reject" colSpan={table.plugins.length + 2}>
                  <strong>{t('inspector.rejected', { plugin: r.failedPlugin })}</strong>
                  {r.reasons.length > 0 && <span className="reasons">: {r.reasons.join('; ')}</span>}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {d.tiedNodes && d.tiedNodes.length > 1 && <p className="muted sched-note">tie: {d.tiedNodes.join(', ')}</p>}
      {d.postFilter && (
        <p className="muted sched-note">
          {d.postFilter.plugin}: {d.postFilter.message}
        </p>
      )}
    </>
  );
}

export function SchedulingTab({ pod }: { pod: KObject }) {
  const { t } = useTranslation();
  const ns = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name;
  const node = (pod.spec?.nodeName as string | undefined) ?? '';
  const [q] = useWorkerQuery(() => cluster.schedulingDecision(ns, name), [ns, name, node, pod.metadata.uid]);
  return (
    <div className="scheduling" data-testid="inspector-scheduling">
      <h3>{t('inspector.whyThisNode')}</h3>
      {q.state === 'loading' && <div className="muted placeholder">{t('inspector.loading')}</div>}
      {q.state === 'error' && <div className="error placeholder">{q.message}</div>}
      {q.state === 'done' && (q.value ? <Table d={q.value} /> : <div className="muted placeholder">{t('inspector.notScheduled')}</div>)}
    </div>
  );
}
