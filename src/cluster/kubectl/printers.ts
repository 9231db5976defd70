/**
 * What `kubectl get` prints for an object: the STATUS, READY and other columns, computed
 * exactly as pkg/printers/internalversion/printers.go (printPod, printNode,
 * printDeployment, printReplicaSet, printService…) does for kubectl v1.33.
 *
 * Pure functions over stored objects; the worker attaches a {@link ResourceRow} to every
 * object change so the UI never needs Kubernetes knowledge of its own.
 */
import type { KObject } from '../api/types';
import { tableFor } from './table';
import { age, nodeRoles, nodeStatus, podColumns, serviceExternalIP, servicePorts } from './print-columns';

/** One row of `kubectl get`, plus the fields the UI's test hooks carry. */
export interface ResourceRow {
  kind: string;
  namespace: string | null;
  name: string;
  /** Pods: the STATUS column. Nodes: Ready / NotReady[,SchedulingDisabled]. Others: a short state word or "". */
  status: string;
  /** Pods: "ready/total" containers; Deployments/ReplicaSets/StatefulSets: "ready/desired". */
  ready?: string;
  /** Pods: spec.nodeName ("" when unscheduled). */
  node?: string;
  /** kubectl get's columns, in order, by header (NAME excluded). */
  columns: Record<string, string>;
}

/** The column helpers, re-exported from print-columns.ts (shared with table.ts). */
export { humanDuration, nodeRoles, nodeStatus, podColumns, serviceExternalIP, servicePorts } from './print-columns';

/**
 * The row for any object. `nowMs` (simulated now) fills AGE; omit it to get "<unknown>".
 */
export function describeRow(obj: KObject, nowMs?: number): ResourceRow {
  const base = { kind: obj.kind, namespace: obj.metadata.namespace ?? null, name: obj.metadata.name };
  const a = age(obj, nowMs);
  switch (obj.kind) {
    case 'Pod': {
      const p = podColumns(obj, nowMs);
      const node = obj.spec?.nodeName ?? '';
      return {
        ...base,
        status: p.status,
        ready: p.ready,
        node,
        columns: {
          READY: p.ready,
          STATUS: p.status,
          RESTARTS: p.restarts,
          AGE: a,
          IP: obj.status?.podIP ?? '<none>',
          NODE: node || '<none>',
        },
      };
    }
    case 'Node': {
      const s = nodeStatus(obj);
      return {
        ...base,
        status: s,
        columns: { STATUS: s, ROLES: nodeRoles(obj), AGE: a, VERSION: obj.status?.nodeInfo?.kubeletVersion ?? '' },
      };
    }
    case 'Deployment': {
      const desired = obj.spec?.replicas ?? 0;
      const st = obj.status ?? {};
      const ready = `${st.readyReplicas ?? 0}/${desired}`;
      const progressing = (st.conditions ?? []).find((c: { type: string }) => c.type === 'Progressing');
      const available = (st.conditions ?? []).find((c: { type: string }) => c.type === 'Available');
      let status = '';
      if (progressing?.reason === 'ProgressDeadlineExceeded') status = 'ProgressDeadlineExceeded';
      else if (available?.status === 'True' && (st.updatedReplicas ?? 0) === desired && (st.availableReplicas ?? 0) >= desired)
        status = 'Available';
      else status = 'Progressing';
      return {
        ...base,
        status,
        ready,
        columns: { READY: ready, 'UP-TO-DATE': String(st.updatedReplicas ?? 0), AVAILABLE: String(st.availableReplicas ?? 0), AGE: a },
      };
    }
    case 'ReplicaSet':
    case 'StatefulSet': {
      const desired = obj.spec?.replicas ?? 0;
      const st = obj.status ?? {};
      const ready = `${st.readyReplicas ?? 0}/${desired}`;
      const cols: Record<string, string> =
        obj.kind === 'ReplicaSet'
          ? { DESIRED: String(desired), CURRENT: String(st.replicas ?? 0), READY: String(st.readyReplicas ?? 0), AGE: a }
          : { READY: ready, AGE: a };
      return { ...base, status: (st.readyReplicas ?? 0) >= desired ? 'Ready' : 'Progressing', ready, columns: cols };
    }
    case 'DaemonSet': {
      const st = obj.status ?? {};
      return {
        ...base,
        status: (st.numberReady ?? 0) >= (st.desiredNumberScheduled ?? 0) ? 'Ready' : 'Progressing',
        ready: `${st.numberReady ?? 0}/${st.desiredNumberScheduled ?? 0}`,
        columns: {
          DESIRED: String(st.desiredNumberScheduled ?? 0),
          CURRENT: String(st.currentNumberScheduled ?? 0),
          READY: String(st.numberReady ?? 0),
          'UP-TO-DATE': String(st.updatedNumberScheduled ?? 0),
          AVAILABLE: String(st.numberAvailable ?? 0),
          'NODE SELECTOR':
            Object.entries(obj.spec?.template?.spec?.nodeSelector ?? {})
              .map(([k, v]) => `${k}=${v}`)
              .join(',') || '<none>',
          AGE: a,
        },
      };
    }
    case 'Service':
      return {
        ...base,
        status: obj.spec?.type ?? 'ClusterIP',
        columns: {
          TYPE: obj.spec?.type ?? 'ClusterIP',
          'CLUSTER-IP': obj.spec?.clusterIP || '<none>',
          'EXTERNAL-IP': serviceExternalIP(obj),
          'PORT(S)': servicePorts(obj),
          AGE: a,
        },
      };
    case 'Namespace':
      return { ...base, status: obj.status?.phase ?? 'Active', columns: { STATUS: obj.status?.phase ?? 'Active', AGE: a } };
    case 'PersistentVolumeClaim':
    case 'PersistentVolume':
      return { ...base, status: obj.status?.phase ?? 'Pending', columns: { STATUS: obj.status?.phase ?? 'Pending', AGE: a } };
    case 'Job': {
      const conds: { type: string; status: string }[] = obj.status?.conditions ?? [];
      const status = conds.find((c) => c.type === 'Complete' && c.status === 'True')
        ? 'Complete'
        : conds.find((c) => c.type === 'Failed' && c.status === 'True')
          ? 'Failed'
          : obj.status?.active
            ? 'Running'
            : 'Pending';
      return {
        ...base,
        status,
        columns: { STATUS: status, COMPLETIONS: `${obj.status?.succeeded ?? 0}/${obj.spec?.completions ?? 1}`, AGE: a },
      };
    }
    default: {
      // every other kind: printers.go's columns (the non-wide ones) from table.ts
      const def = tableFor(obj.kind);
      const cells = def.row(obj, nowMs ?? Number.NaN);
      const columns: Record<string, string> = {};
      def.columns.forEach((c, i) => {
        if (!c.wide) columns[c.header] = c.header === 'AGE' ? a : cells[i];
      });
      return { ...base, status: '', columns };
    }
  }
}
