/** `kubectl get` for the kinds that matter here, with kubectl's columns from the engine's printers. */
import { memo, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKubeStore } from '../store/store';
import { selectNowSec, selectObjects, selectSelected } from '../store/selectors';
import { select } from '../store/actions';
import type { PodSample, StoredObject } from '../store/types';
import type { KubeState } from '../store/store';
import { formatCount } from '../graph/pod-summary-model';
import { formatAge } from '../format';
import { plural } from './kubectl-names';
import { useRowWindow, WINDOW_MIN_ROWS } from './row-window';

const MAIN_KINDS = ['Node', 'Deployment', 'ReplicaSet', 'Pod', 'Service'];
const HIDDEN_KINDS = new Set(['Event']);

/**
 * The tables' groups by kind, each sorted by key. While the Pods are summarized (the
 * large-cluster path, worker/pod-summary.ts) the store holds no Pod: `podSample`'s capped rows
 * stand in for them.
 */
function groupByKind(objects: Map<string, StoredObject>, all: boolean, podSample: PodSample | null = null): [string, StoredObject[]][] {
  const groups = new Map<string, StoredObject[]>();
  for (const k of MAIN_KINDS) groups.set(k, []);
  if (podSample)
    groups.set(
      'Pod',
      podSample.rows.map((r) => ({ key: r.key, resource: 'pods', object: r.object, row: r.row, controllers: r.controllers })),
    );
  for (const o of objects.values()) {
    const kind = o.object.kind;
    if (HIDDEN_KINDS.has(kind) || (!all && !MAIN_KINDS.includes(kind))) continue;
    let g = groups.get(kind);
    if (!g) groups.set(kind, (g = []));
    g.push(o);
  }
  for (const g of groups.values()) g.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [...groups].filter(([, g]) => g.length > 0);
}

const Row = memo(function Row({ o, columns, selected, nowSec }: { o: StoredObject; columns: string[]; selected: boolean; nowSec: number }) {
  const m = o.object.metadata;
  const r = o.row;
  const attrs: Record<string, string> = {
    'data-kind': o.object.kind,
    'data-namespace': m.namespace ?? '',
    'data-name': m.name,
    'data-status': r?.status ?? '',
  };
  if (o.controllers) attrs['data-controller'] = o.controllers.join(' ');
  if (o.object.kind === 'Pod') {
    attrs['data-node'] = r?.node ?? (o.object.spec?.nodeName as string | undefined) ?? '';
    attrs['data-ready'] = r?.ready ?? '';
  } else if (r?.ready) attrs['data-ready'] = r.ready;
  return (
    <tr
      data-testid="resource-row"
      {...attrs}
      className={selected ? 'selected' : ''}
      tabIndex={0}
      aria-label={`${o.object.kind.toLowerCase()}/${m.name}`}
      onClick={() => select(o.key)}
      onKeyDown={(e) => e.key === 'Enter' && select(o.key)}
    >
      {columns.map((c) => (
        <td key={c}>
          {c === 'NAME'
            ? m.name
            : c === 'NAMESPACE'
              ? (m.namespace ?? '')
              : c === 'AGE'
                ? age(m.creationTimestamp, nowSec)
                : (r?.columns[c] ?? '')}
        </td>
      ))}
    </tr>
  );
});

/** AGE ticks with simulated time (the engine's row is computed when the object changes). */
function age(created: string | undefined, nowSec: number): string {
  return created ? formatAge(nowSec * 1000 - Date.parse(created)) : '<unknown>';
}

const selectPodSample = (s: KubeState) => s.podSample;

function KindTable({
  kind,
  rows,
  selected,
  nowSec,
  total,
}: {
  kind: string;
  rows: StoredObject[];
  selected: string | null;
  nowSec: number;
  total?: number;
}) {
  const { t } = useTranslation();
  const namespaced = rows.some((o) => o.object.metadata.namespace);
  const controllers = rows[0]?.controllers;
  const columns = useMemo(() => {
    const fromRow = Object.keys(rows[0]?.row?.columns ?? {}).filter((c) => c !== 'NAME' && c !== 'NAMESPACE');
    return [...(namespaced ? ['NAMESPACE'] : []), 'NAME', ...(fromRow.length ? fromRow : ['STATUS'])];
  }, [rows, namespaced]);
  return (
    <table className="kubectl-table">
      <caption title={controllers?.length ? t('resources.reconciledBy', { list: controllers.join(', ') }) : undefined}>
        kubectl get {plural(rows[0])}
        {namespaced ? ' -A' : ''}
        {controllers && controllers.length === 0 && (
          <span className="badge stored-only" data-testid="no-controller" data-kind={kind} title={t('resources.storedOnlyTitle', { kind })}>
            {t('resources.storedOnly')}
          </span>
        )}
        {total !== undefined && (
          <span className="badge" data-testid="rows-capped" data-shown={rows.length} data-total={total}>
            {t('resources.rowsCapped', { shown: formatCount(rows.length), total: formatCount(total) })}
          </span>
        )}
      </caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
        </tr>
      </thead>
      {rows.length > WINDOW_MIN_ROWS ? (
        <WindowedBody rows={rows} columns={columns} selected={selected} nowSec={nowSec} />
      ) : (
        <tbody>
          {rows.map((o) => (
            <Row key={o.key} o={o} columns={columns} selected={o.key === selected} nowSec={nowSec} />
          ))}
        </tbody>
      )}
    </table>
  );
}

/** Hundreds of rows: only those near the viewport are rendered (row-window.ts), spacers stand in for the rest. */
function WindowedBody({
  rows,
  columns,
  selected,
  nowSec,
}: {
  rows: StoredObject[];
  columns: string[];
  selected: string | null;
  nowSec: number;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const w = useRowWindow(body, rows.length);
  const start = Math.min(w.start, rows.length);
  const end = Math.min(Math.max(w.end, start), rows.length);
  return (
    <tbody ref={body} data-rows={rows.length}>
      {start > 0 && <tr className="row-spacer" aria-hidden="true" style={{ height: start * w.rowHeight }} />}
      {rows.slice(start, end).map((o) => (
        <Row key={o.key} o={o} columns={columns} selected={o.key === selected} nowSec={nowSec} />
      ))}
      {end < rows.length && <tr className="row-spacer" aria-hidden="true" style={{ height: (rows.length - end) * w.rowHeight }} />}
    </tbody>
  );
}

export function ResourceTable() {
  const { t } = useTranslation();
  const objects = useKubeStore(selectObjects);
  const selected = useKubeStore(selectSelected);
  const nowSec = useKubeStore(selectNowSec);
  const podSample = useKubeStore(selectPodSample);
  const [all, setAll] = useState(false);
  const groups = useMemo(() => groupByKind(objects, all, podSample), [objects, all, podSample]);
  return (
    <div className="scroll" role="tabpanel">
      <label className="hint all-kinds">
        <input type="checkbox" data-testid="all-kinds" checked={all} onChange={(e) => setAll(e.target.checked)} /> {t('panes.allKinds')}
      </label>
      <div>
        {groups.map(([kind, rows]) => (
          <KindTable
            key={kind}
            kind={kind}
            rows={rows}
            selected={selected}
            nowSec={nowSec}
            total={kind === 'Pod' && podSample ? podSample.total : undefined}
          />
        ))}
      </div>
    </div>
  );
}
