/**
 * Rows for the resources table when attached to an API server. The attach client asks the
 * server for `kubectl get`'s own rows (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`
 * with `includeObject=Object`, as kubectl get -w does): kube-apiserver's TableConvertor
 * (pkg/printers/internalversion/printers.go) computes the cells, so the UI shows exactly what
 * kubectl prints without running engine code in the page. This module turns one metav1.Table
 * row into the UI's ResourceRow (columns by upper-cased header, as kubectl prints them, plus
 * the status/ready/node fields the test hooks carry). {@link minimalRow} is the fallback for a
 * server that answers without a Table (NAME/STATUS from the object itself).
 */
import type { KObject, ResourceRow } from '../store/types';

/** metav1.TableColumnDefinition (the fields used here). */
export interface TableColumn {
  name: string;
  /** 0: shown by `kubectl get`; 1+: only with `-o wide`. */
  priority?: number;
}

/** metav1.TableRow with includeObject=Object. */
export interface TableRowJSON {
  cells: unknown[];
  object?: KObject;
}

/** metav1.Table. `columnDefinitions` is null in watch events after the first (upstream). */
export interface TableJSON {
  kind: 'Table';
  metadata?: { resourceVersion?: string; continue?: string };
  columnDefinitions?: TableColumn[] | null;
  rows?: TableRowJSON[];
}

const cellText = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** The Deployment's state word, as the in-browser engine's row (cluster/kubectl/printers.ts describeRow). */
function deploymentStatus(obj: KObject): string {
  const desired = obj.spec?.replicas ?? 0;
  const st = obj.status ?? {};
  const conds: { type: string; status: string; reason?: string }[] = st.conditions ?? [];
  if (conds.find((c) => c.type === 'Progressing')?.reason === 'ProgressDeadlineExceeded') return 'ProgressDeadlineExceeded';
  const available = conds.find((c) => c.type === 'Available');
  if (available?.status === 'True' && (st.updatedReplicas ?? 0) === desired && (st.availableReplicas ?? 0) >= desired) return 'Available';
  return 'Progressing';
}

/**
 * One Table row → ResourceRow. `columns` are the Table's column definitions (the first watch
 * event's, kept by the caller). NAME is dropped from `columns`, as in the engine's rows; wide
 * columns (priority > 0) are dropped too, except that Pods keep IP and NODE.
 */
export function rowFromTable(obj: KObject, columns: readonly TableColumn[], cells: readonly unknown[]): ResourceRow {
  const cols: Record<string, string> = {};
  columns.forEach((c, i) => {
    const header = c.name.toUpperCase();
    if (header === 'NAME') return;
    if ((c.priority ?? 0) > 0 && !(obj.kind === 'Pod' && (header === 'IP' || header === 'NODE'))) return;
    cols[header] = cellText(cells[i]);
  });
  const base = { kind: obj.kind, namespace: obj.metadata.namespace ?? null, name: obj.metadata.name, columns: cols };
  switch (obj.kind) {
    case 'Pod':
      return { ...base, status: cols.STATUS ?? '', ready: cols.READY ?? '', node: obj.spec?.nodeName ?? '' };
    case 'Deployment':
    case 'StatefulSet':
      return {
        ...base,
        status:
          obj.kind === 'Deployment'
            ? deploymentStatus(obj)
            : Number(obj.status?.readyReplicas ?? 0) >= Number(obj.spec?.replicas ?? 0)
              ? 'Ready'
              : 'Progressing',
        ready: cols.READY ?? '',
      };
    case 'ReplicaSet':
    case 'DaemonSet': {
      const ready = `${cols.READY ?? '0'}/${cols.DESIRED ?? '0'}`;
      return { ...base, status: Number(cols.READY ?? 0) >= Number(cols.DESIRED ?? 0) ? 'Ready' : 'Progressing', ready };
    }
    case 'Service':
      return { ...base, status: cols.TYPE ?? 'ClusterIP' };
    default:
      return { ...base, status: cols.STATUS ?? '' };
  }
}

/**
 * A row computed from the object alone, for a server that does not answer with a Table:
 * Pods show phase (Terminating while deleted) and ready containers, Nodes their Ready condition.
 */
export function minimalRow(obj: KObject): ResourceRow {
  const base = { kind: obj.kind, namespace: obj.metadata.namespace ?? null, name: obj.metadata.name };
  if (obj.kind === 'Pod') {
    const cs: { ready?: boolean }[] = obj.status?.containerStatuses ?? [];
    const total = (obj.spec?.containers ?? []).length;
    const ready = `${cs.filter((c) => c.ready).length}/${total}`;
    const status = obj.metadata.deletionTimestamp ? 'Terminating' : (obj.status?.phase ?? 'Pending');
    return { ...base, status, ready, node: obj.spec?.nodeName ?? '', columns: { READY: ready, STATUS: status } };
  }
  if (obj.kind === 'Node') {
    const ready = (obj.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
    const status = `${ready?.status === 'True' ? 'Ready' : 'NotReady'}${obj.spec?.unschedulable ? ',SchedulingDisabled' : ''}`;
    return { ...base, status, columns: { STATUS: status } };
  }
  if (obj.kind === 'Deployment') {
    const ready = `${obj.status?.readyReplicas ?? 0}/${obj.spec?.replicas ?? 0}`;
    return { ...base, status: deploymentStatus(obj), ready, columns: { READY: ready } };
  }
  return { ...base, status: obj.status?.phase ?? '', columns: {} };
}
