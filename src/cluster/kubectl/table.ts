/**
 * The full `kubectl get` tables: column definitions (with `-o wide` priority-1 columns) and
 * row cells for every kind kube-relay stores, as pkg/printers/internalversion/printers.go
 * (AddHandlers and the print<Kind> functions) of v1.33 defines them; custom resources use
 * their CRD's additionalPrinterColumns as the apiserver's tableconvertor does
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor),
 * and kinds without a printer get the default NAME / CREATED AT table
 * (staging/src/k8s.io/apiserver/pkg/registry/rest/table.go).
 */
import type { KObject } from '../api/types';
import { formatLabelSelector } from '../api/labels';
import { humanDuration, nodeRoles, nodeStatus, podColumns, serviceExternalIP, servicePorts } from './print-columns';

export { serviceExternalIP };
import { evalPath } from './jsonpath';

/** One column: its header (upper-cased as kubectl prints it) and whether only `-o wide` shows it. */
export interface Column {
  header: string;
  wide?: boolean;
}

/** A kind's table: columns after NAME (NAME is implied unless `noName`). */
export interface TableDef {
  columns: Column[];
  /** Events have no leading NAME column. */
  noName?: boolean;
  /** Cells after NAME, in column order. */
  row(obj: KObject, nowMs: number): string[];
}

const ageOf = (obj: KObject, nowMs: number): string => since(obj.metadata.creationTimestamp, nowMs);

/** translateTimestampSince: "<unknown>" for a missing timestamp. */
export function since(ts: string | undefined | null, nowMs: number): string {
  if (!ts) return '<unknown>';
  return humanDuration(nowMs - Date.parse(ts));
}

const cols = (...names: string[]): Column[] => names.map((n) => (n.startsWith('~') ? { header: n.slice(1), wide: true } : { header: n }));

/** labels.FormatLabels: "k=v,k2=v2" sorted by key, "<none>" when empty. */
export function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length ? keys.map((k) => `${k}=${m![k]}`).join(',') : '<none>';
}

function containersImages(spec: KObject['spec'] | undefined): [string, string] {
  const cs: { name: string; image: string }[] = spec?.containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(',')];
}

const n = (v: unknown): string => String(v ?? 0);

function hasCond(obj: KObject, type: string): boolean {
  return (obj.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === type && c.status === 'True');
}

export function accessModes(modes: string[] | undefined): string {
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
  const out: string[] = [];
  for (const m of ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod']) if ((modes ?? []).includes(m)) out.push(short[m]);
  return out.join(',');
}

/** Endpoints' ENDPOINTS: "ip:port,…" (at most 3, then " + N more..."), "<none>" when empty. */
function formatEndpoints(ep: KObject): string {
  const list: string[] = [];
  let count = 0;
  for (const ss of ep.subsets ?? []) {
    const ports: { port: number }[] = ss.ports?.length ? ss.ports : [{ port: -1 }];
    for (const port of ports) {
      for (const a of ss.addresses ?? []) {
        count++;
        if (list.length < 3) list.push(port.port >= 0 ? `${a.ip}:${port.port}` : a.ip);
      }
    }
  }
  if (!count) return '<none>';
  return list.join(',') + (count > list.length ? ` + ${count - list.length} more...` : '');
}

function endpointSliceCells(es: KObject): [string, string] {
  const ports: { port?: number }[] = es.ports ?? [];
  const portStr = ports.length ? ports.map((p) => (p.port === undefined ? '<unset>' : String(p.port))).join(',') : '<unset>';
  const addrs: string[] = [];
  let count = 0;
  for (const e of es.endpoints ?? []) {
    for (const a of e.addresses ?? []) {
      count++;
      if (addrs.length < 3) addrs.push(a);
    }
  }
  const epStr = count ? addrs.join(',') + (count > addrs.length ? ` + ${count - addrs.length} more...` : '') : '<unset>';
  return [portStr, epStr];
}

/** A quantity as the API returns it (already canonical in stored objects), or "<unknown>". */
function qstr(v: unknown): string {
  return v === undefined || v === null ? '<unknown>' : String(v);
}

/** printers.go formatHPAMetrics: TARGETS of `get hpa` (current/target per metric, two at most). */
export function hpaTargets(hpa: KObject): string {
  const v1 = hpa.apiVersion === 'autoscaling/v1';
  // an autoscaling/v1 object seen as kubectl sees it (it reads v2): its CPU target is one Resource
  // metric, its current utilization that metric's current value (pkg/apis/autoscaling/v1/conversion.go)
  const v1Target = hpa.spec?.targetCPUUtilizationPercentage;
  const v1Current = hpa.status?.currentCPUUtilizationPercentage;
  const metrics: KObject[] = v1
    ? typeof v1Target === 'number'
      ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: v1Target } } }]
      : []
    : (hpa.spec?.metrics ?? []);
  if (!metrics.length) return '<none>';
  const current: KObject[] = v1
    ? typeof v1Current === 'number'
      ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: v1Current } } }]
      : []
    : (hpa.status?.currentMetrics ?? []);
  const parts = metrics.map((m, i) => {
    const st = current[i];
    switch (m.type) {
      case 'External':
      case 'Object': {
        const key = m.type === 'External' ? 'external' : 'object';
        const t = m[key]?.target ?? {};
        const cur = st?.[key]?.current;
        if (t.averageValue !== undefined && t.averageValue !== null)
          return `${st?.[key] && cur?.averageValue !== undefined ? String(cur.averageValue) : '<unknown>'}/${t.averageValue} (avg)`;
        return `${st?.[key] ? qstr(cur?.value ?? 0) : '<unknown>'}/${qstr(t.value ?? 0)}`;
      }
      case 'Pods': {
        const cur = st?.pods ? qstr(st.pods.current?.averageValue ?? 0) : '<unknown>';
        return `${cur}/${qstr(m.pods?.target?.averageValue ?? 0)}`;
      }
      case 'Resource':
      case 'ContainerResource': {
        const key = m.type === 'Resource' ? 'resource' : 'containerResource';
        const src = m[key] ?? {};
        const t = src.target ?? {};
        if (t.averageValue !== undefined && t.averageValue !== null) {
          const cur = st?.[key] ? qstr(st[key].current?.averageValue ?? 0) : '<unknown>';
          return `${src.name}: ${cur}/${t.averageValue}`;
        }
        const u = st?.[key]?.current?.averageUtilization;
        const cur = u !== undefined && u !== null ? `${u}%` : '<unknown>';
        const target = t.averageUtilization !== undefined && t.averageUtilization !== null ? `${t.averageUtilization}%` : '<auto>';
        return `${src.name}: ${cur}/${target}`;
      }
      default:
        return '<unknown type>';
    }
  });
  const shown = parts.slice(0, 2).join(', ');
  return parts.length > 2 ? `${shown} + ${parts.length - 2} more...` : shown;
}

function intOrStr(v: unknown): string {
  return v === undefined || v === null ? 'N/A' : String(v);
}

const TABLES: Record<string, TableDef> = {
  Pod: {
    columns: cols('READY', 'STATUS', 'RESTARTS', 'AGE', '~IP', '~NODE', '~NOMINATED NODE', '~READINESS GATES'),
    row(o, now) {
      const p = podColumns(o, now);
      const gates: { conditionType: string }[] = o.spec?.readinessGates ?? [];
      const trueGates = gates.filter((g) => hasCond(o, g.conditionType)).length;
      return [
        p.ready,
        p.status,
        p.restarts,
        ageOf(o, now),
        o.status?.podIP || '<none>',
        o.spec?.nodeName || '<none>',
        o.status?.nominatedNodeName || '<none>',
        gates.length ? `${trueGates}/${gates.length}` : '<none>',
      ];
    },
  },
  Node: {
    columns: cols(
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      '~INTERNAL-IP',
      '~EXTERNAL-IP',
      '~OS-IMAGE',
      '~KERNEL-VERSION',
      '~CONTAINER-RUNTIME',
    ),
    row(o, now) {
      const addr = (t: string): string => (o.status?.addresses ?? []).find((a: { type: string }) => a.type === t)?.address ?? '<none>';
      const ni = o.status?.nodeInfo ?? {};
      return [
        nodeStatus(o),
        nodeRoles(o),
        ageOf(o, now),
        ni.kubeletVersion ?? '',
        addr('InternalIP'),
        addr('ExternalIP'),
        ni.osImage || '<unknown>',
        ni.kernelVersion || '<unknown>',
        ni.containerRuntimeVersion || '<unknown>',
      ];
    },
  },
  Deployment: {
    columns: cols('READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', '~CONTAINERS', '~IMAGES', '~SELECTOR'),
    row(o, now) {
      const st = o.status ?? {};
      return [
        `${st.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
        n(st.updatedReplicas),
        n(st.availableReplicas),
        ageOf(o, now),
        ...containersImages(o.spec?.template?.spec),
        formatLabelSelector(o.spec?.selector),
      ];
    },
  },
  ReplicaSet: {
    columns: cols('DESIRED', 'CURRENT', 'READY', 'AGE', '~CONTAINERS', '~IMAGES', '~SELECTOR'),
    row(o, now) {
      const st = o.status ?? {};
      return [
        n(o.spec?.replicas),
        n(st.replicas),
        n(st.readyReplicas),
        ageOf(o, now),
        ...containersImages(o.spec?.template?.spec),
        formatLabelSelector(o.spec?.selector),
      ];
    },
  },
  ReplicationController: {
    columns: cols('DESIRED', 'CURRENT', 'READY', 'AGE', '~CONTAINERS', '~IMAGES', '~SELECTOR'),
    row(o, now) {
      const st = o.status ?? {};
      return [
        n(o.spec?.replicas),
        n(st.replicas),
        n(st.readyReplicas),
        ageOf(o, now),
        ...containersImages(o.spec?.template?.spec),
        formatLabels(o.spec?.selector),
      ];
    },
  },
  StatefulSet: {
    columns: cols('READY', 'AGE', '~CONTAINERS', '~IMAGES'),
    row: (o, now) => [
      `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
      ageOf(o, now),
      ...containersImages(o.spec?.template?.spec),
    ],
  },
  DaemonSet: {
    columns: cols('DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE', '~CONTAINERS', '~IMAGES', '~SELECTOR'),
    row(o, now) {
      const st = o.status ?? {};
      return [
        n(st.desiredNumberScheduled),
        n(st.currentNumberScheduled),
        n(st.numberReady),
        n(st.updatedNumberScheduled),
        n(st.numberAvailable),
        formatLabels(o.spec?.template?.spec?.nodeSelector),
        ageOf(o, now),
        ...containersImages(o.spec?.template?.spec),
        formatLabelSelector(o.spec?.selector),
      ];
    },
  },
  Job: {
    columns: cols('STATUS', 'COMPLETIONS', 'DURATION', 'AGE', '~CONTAINERS', '~IMAGES', '~SELECTOR'),
    row(o, now) {
      return [
        jobStatus(o),
        jobCompletions(o),
        jobDuration(o, now),
        ageOf(o, now),
        ...containersImages(o.spec?.template?.spec),
        formatLabelSelector(o.spec?.selector),
      ];
    },
  },
  CronJob: {
    columns: cols('SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE', '~CONTAINERS', '~IMAGES', '~SELECTOR'),
    row(o, now) {
      const last = o.status?.lastScheduleTime ? since(o.status.lastScheduleTime, now) : '<none>';
      const tmpl = o.spec?.jobTemplate?.spec;
      return [
        o.spec?.schedule ?? '',
        o.spec?.timeZone || '<none>',
        String(Boolean(o.spec?.suspend)),
        String((o.status?.active ?? []).length),
        last,
        ageOf(o, now),
        ...containersImages(tmpl?.template?.spec),
        formatLabelSelector(tmpl?.selector),
      ];
    },
  },
  Service: {
    columns: cols('TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', '~SELECTOR'),
    row(o, now) {
      return [
        o.spec?.type ?? 'ClusterIP',
        o.spec?.clusterIP || '<none>',
        serviceExternalIP(o),
        servicePorts(o),
        ageOf(o, now),
        formatLabels(o.spec?.selector),
      ];
    },
  },
  Endpoints: { columns: cols('ENDPOINTS', 'AGE'), row: (o, now) => [formatEndpoints(o), ageOf(o, now)] },
  EndpointSlice: {
    columns: cols('ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'),
    row: (o, now) => [o.addressType ?? '', ...endpointSliceCells(o), ageOf(o, now)],
  },
  Event: {
    noName: true,
    columns: cols('LAST SEEN', 'TYPE', 'REASON', 'OBJECT', '~SUBOBJECT', '~SOURCE', 'MESSAGE', '~FIRST SEEN', '~COUNT', '~NAME'),
    row(o, now) {
      const io = o.involvedObject ?? {};
      const last = o.series?.lastObservedTime ?? o.lastTimestamp ?? o.eventTime;
      const first = o.firstTimestamp ?? o.eventTime;
      const src = o.source?.component
        ? o.source.host
          ? `${o.source.component}, ${o.source.host}`
          : o.source.component
        : (o.reportingComponent ?? '');
      return [
        since(last, now),
        o.type ?? '',
        o.reason ?? '',
        `${String(io.kind ?? '').toLowerCase()}/${io.name ?? ''}`,
        io.fieldPath ?? '',
        src,
        String(o.message ?? '').trim(),
        since(first, now),
        String(o.series?.count ?? o.count ?? 1),
        o.metadata.name,
      ];
    },
  },
  Namespace: { columns: cols('STATUS', 'AGE'), row: (o, now) => [o.status?.phase ?? 'Active', ageOf(o, now)] },
  ConfigMap: {
    columns: cols('DATA', 'AGE'),
    row: (o, now) => [String(Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length), ageOf(o, now)],
  },
  Secret: {
    columns: cols('TYPE', 'DATA', 'AGE'),
    row: (o, now) => [o.type ?? 'Opaque', String(Object.keys(o.data ?? {}).length), ageOf(o, now)],
  },
  ServiceAccount: { columns: cols('SECRETS', 'AGE'), row: (o, now) => [String((o.secrets ?? []).length), ageOf(o, now)] },
  PersistentVolumeClaim: {
    columns: cols('STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE', '~VOLUMEMODE'),
    row(o, now) {
      const phase = o.metadata.deletionTimestamp ? 'Terminating' : (o.status?.phase ?? 'Pending');
      const bound = Boolean(o.spec?.volumeName);
      return [
        phase,
        o.spec?.volumeName ?? '',
        bound ? (o.status?.capacity?.storage ?? '') : '',
        bound ? accessModes(o.status?.accessModes) : '',
        o.spec?.storageClassName ?? '',
        o.spec?.volumeAttributesClassName || '<unset>',
        ageOf(o, now),
        o.spec?.volumeMode ?? 'Filesystem',
      ];
    },
  },
  PersistentVolume: {
    columns: cols(
      'CAPACITY',
      'ACCESS MODES',
      'RECLAIM POLICY',
      'STATUS',
      'CLAIM',
      'STORAGECLASS',
      'VOLUMEATTRIBUTESCLASS',
      'REASON',
      'AGE',
      '~VOLUMEMODE',
    ),
    row(o, now) {
      const ref = o.spec?.claimRef;
      const phase = o.metadata.deletionTimestamp ? 'Terminating' : (o.status?.phase ?? 'Pending');
      return [
        o.spec?.capacity?.storage ?? '',
        accessModes(o.spec?.accessModes),
        o.spec?.persistentVolumeReclaimPolicy ?? '',
        phase,
        ref ? `${ref.namespace}/${ref.name}` : '',
        o.spec?.storageClassName ?? '',
        o.spec?.volumeAttributesClassName || '<unset>',
        o.status?.reason ?? '',
        ageOf(o, now),
        o.spec?.volumeMode ?? 'Filesystem',
      ];
    },
  },
  StorageClass: {
    columns: cols('PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'),
    row: (o, now) => [
      o.provisioner ?? '',
      o.reclaimPolicy ?? 'Delete',
      o.volumeBindingMode ?? 'Immediate',
      String(Boolean(o.allowVolumeExpansion)),
      ageOf(o, now),
    ],
  },
  Ingress: {
    columns: cols('CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'),
    row(o, now) {
      const hosts = (o.spec?.rules ?? []).map((r: { host?: string }) => r.host).filter(Boolean);
      const addr = (o.status?.loadBalancer?.ingress ?? [])
        .map((i: { ip?: string; hostname?: string }) => i.ip || i.hostname)
        .filter(Boolean);
      return [
        o.spec?.ingressClassName || '<none>',
        hosts.length ? hosts.join(',') : '*',
        addr.join(','),
        o.spec?.tls?.length ? '80, 443' : '80',
        ageOf(o, now),
      ];
    },
  },
  IngressClass: {
    columns: cols('CONTROLLER', 'PARAMETERS', 'AGE'),
    row(o, now) {
      const p = o.spec?.parameters;
      const params = p ? `${p.kind}${p.apiGroup ? '.' + p.apiGroup : ''}/${p.name}` : '<none>';
      return [o.spec?.controller ?? '', params, ageOf(o, now)];
    },
  },
  HorizontalPodAutoscaler: {
    columns: cols('REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'),
    row(o, now) {
      const ref = o.spec?.scaleTargetRef ?? {};
      return [
        `${ref.kind}/${ref.name}`,
        hpaTargets(o),
        o.spec?.minReplicas === undefined ? '<unset>' : String(o.spec.minReplicas),
        n(o.spec?.maxReplicas),
        n(o.status?.currentReplicas),
        ageOf(o, now),
      ];
    },
  },
  PriorityClass: {
    columns: cols('VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'),
    row: (o, now) => [n(o.value), String(Boolean(o.globalDefault)), ageOf(o, now), o.preemptionPolicy ?? 'PreemptLowerPriority'],
  },
  PodDisruptionBudget: {
    columns: cols('MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'),
    row: (o, now) => [intOrStr(o.spec?.minAvailable), intOrStr(o.spec?.maxUnavailable), n(o.status?.disruptionsAllowed), ageOf(o, now)],
  },
  Lease: { columns: cols('HOLDER', 'AGE'), row: (o, now) => [o.spec?.holderIdentity ?? '', ageOf(o, now)] },
  // printComponentStatus: the Healthy condition's status, message and error
  ComponentStatus: {
    columns: cols('STATUS', 'MESSAGE', 'ERROR'),
    row: (o) => {
      const h = ((o as { conditions?: { type?: string; status?: string; message?: string; error?: string }[] }).conditions ?? []).find(
        (c) => c?.type === 'Healthy',
      );
      return [h ? (h.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown', h?.message ?? '', h?.error ?? ''];
    },
  },
  ControllerRevision: {
    columns: cols('CONTROLLER', 'REVISION', 'AGE'),
    row(o, now) {
      const ref = (o.metadata.ownerReferences ?? []).find((r) => r.controller);
      const group = ref ? ref.apiVersion.split('/').slice(0, -1).join('/') : '';
      const ctl = ref ? `${ref.kind.toLowerCase()}${group ? '.' + group : ''}/${ref.name}` : '<none>';
      return [ctl, n(o.revision), ageOf(o, now)];
    },
  },
  RoleBinding: {
    columns: cols('ROLE', 'AGE', '~USERS', '~GROUPS', '~SERVICEACCOUNTS'),
    row(o, now) {
      const subj = (k: string): string =>
        (o.subjects ?? [])
          .filter((s: { kind: string }) => s.kind === k)
          .map((s: { name: string; namespace?: string }) => (k === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name))
          .join(', ');
      return [`${o.roleRef?.kind}/${o.roleRef?.name}`, ageOf(o, now), subj('User'), subj('Group'), subj('ServiceAccount')];
    },
  },
  NetworkPolicy: {
    columns: cols('POD-SELECTOR', 'AGE'),
    row: (o, now) => [
      formatLabelSelector(o.spec?.podSelector) === '<none>' ? '<none>' : formatLabelSelector(o.spec?.podSelector),
      ageOf(o, now),
    ],
  },
  ResourceQuota: { columns: cols('AGE', 'REQUEST', 'LIMIT'), row: (o, now) => [ageOf(o, now), '', ''] },
  CSIDriver: {
    columns: cols('ATTACHREQUIRED', 'PODINFOONMOUNT', 'STORAGECAPACITY', 'TOKENREQUESTS', 'REQUIRESREPUBLISH', 'MODES', 'AGE'),
    row: (o, now) => [
      String(o.spec?.attachRequired ?? true),
      String(Boolean(o.spec?.podInfoOnMount)),
      String(Boolean(o.spec?.storageCapacity)),
      '<unset>',
      String(Boolean(o.spec?.requiresRepublish)),
      (o.spec?.volumeLifecycleModes ?? ['Persistent']).join(','),
      ageOf(o, now),
    ],
  },
  RuntimeClass: { columns: cols('HANDLER', 'AGE'), row: (o, now) => [o.handler ?? '', ageOf(o, now)] },
};
TABLES.ClusterRoleBinding = TABLES.RoleBinding;

/** The default table (rest.NewDefaultTableConvertor): NAME, CREATED AT. */
const DEFAULT_TABLE: TableDef = { columns: cols('CREATED AT'), row: (o) => [o.metadata.creationTimestamp ?? ''] };

/** printJob's STATUS (v1.33). */
export function jobStatus(o: KObject): string {
  if (hasCond(o, 'Complete')) return 'Complete';
  if (hasCond(o, 'Failed')) return 'Failed';
  if (o.metadata.deletionTimestamp) return 'Terminating';
  if (hasCond(o, 'Suspended')) return 'Suspended';
  if (hasCond(o, 'FailureTarget')) return 'FailureTarget';
  if (hasCond(o, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

/** printJob's COMPLETIONS. */
export function jobCompletions(o: KObject): string {
  const succeeded = o.status?.succeeded ?? 0;
  if (o.spec?.completions !== undefined && o.spec?.completions !== null) return `${succeeded}/${o.spec.completions}`;
  const par = o.spec?.parallelism;
  if (par !== undefined && par > 1) return `${succeeded}/1 of ${par}`;
  return `${succeeded}/1`;
}

function jobDuration(o: KObject, now: number): string {
  const start = o.status?.startTime;
  if (!start) return '';
  const end = o.status?.completionTime ? Date.parse(o.status.completionTime) : now;
  return humanDuration(end - Date.parse(start));
}

/** A CRD's additionalPrinterColumn. */
export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  priority?: number;
}

/**
 * The table for a custom resource: NAME, the CRD's additionalPrinterColumns (priority > 0
 * only with -o wide), and AGE when the CRD names no columns (tableconvertor.New).
 */
export function customResourceTable(columns: PrinterColumn[] | undefined): TableDef {
  const pcs = columns ?? [];
  if (!pcs.length) return { columns: cols('AGE'), row: (o, now) => [ageOf(o, now)] };
  return {
    columns: pcs.map((c) => ({ header: c.name.toUpperCase(), wide: (c.priority ?? 0) > 0 })),
    row(o, now) {
      return pcs.map((c) => {
        let vals: unknown[];
        try {
          vals = evalPath(o, c.jsonPath);
        } catch {
          vals = [];
        }
        if (!vals.length || vals[0] === undefined || vals[0] === null) return '<none>';
        const v = vals[0];
        if (c.type === 'date' && typeof v === 'string') return since(v, now);
        return typeof v === 'object' ? JSON.stringify(v) : String(v);
      });
    },
  };
}

/** The `kubectl get` table for a built-in kind (the default NAME / CREATED AT table for kinds without a printer). */
export function tableFor(kind: string): TableDef {
  return TABLES[kind] ?? DEFAULT_TABLE;
}

/** True when printers.go defines a table for the kind. */
export function hasPrinter(kind: string): boolean {
  return kind in TABLES;
}
