/**
 * What an object card says, from the object and its `kubectl get` row (the engine's printers:
 * staging/src/k8s.io/kubectl … pkg/printers/internalversion/printers.go columns). Pure.
 */
import type { KObject, StoredObject } from '../store/types';

/** Short kind labels on cards (kubectl's short names). */
export const SHORT_KIND: Record<string, string> = {
  Service: 'svc',
  EndpointSlice: 'endpointslice',
  PersistentVolumeClaim: 'pvc',
  PersistentVolume: 'pv',
  StorageClass: 'sc',
  HorizontalPodAutoscaler: 'hpa',
  Ingress: 'ing',
  StatefulSet: 'sts',
  DaemonSet: 'ds',
  Job: 'job',
  CronJob: 'cj',
};

export interface Summary {
  /** "svc", "pvc"… */
  kind: string;
  name: string;
  /** one or two lines under the name */
  lines: string[];
}

type Eps = { conditions?: { ready?: boolean } }[];

/** Ready endpoints of an EndpointSlice (conditions.ready unset counts as ready, as kube-proxy reads it). */
export function readyEndpoints(slice: KObject | undefined): number {
  const eps = (slice as unknown as { endpoints?: Eps } | undefined)?.endpoints ?? [];
  return eps.filter((e) => e.conditions?.ready !== false).length;
}

function col(s: StoredObject, name: string): string | undefined {
  const v = s.row?.columns[name];
  return v === undefined || v === '' ? undefined : v;
}

/** The card text for a stored object; `endpoints` is the Service's ready endpoint count. */
export function summarize(s: StoredObject, endpoints = 0): Summary {
  const o = s.object;
  const spec = (o.spec ?? {}) as Record<string, any>;
  const status = (o.status ?? {}) as Record<string, any>;
  const kind = SHORT_KIND[o.kind] ?? o.kind;
  const name = o.metadata.name;
  switch (o.kind) {
    case 'Service': {
      const ports =
        col(s, 'PORT(S)') ??
        (spec.ports ?? []).map((p: any) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
      const type = spec.type ?? 'ClusterIP';
      return {
        kind,
        name,
        lines: [
          `${type} ${type === 'ExternalName' ? spec.externalName : (spec.clusterIP ?? '')}${ports ? ` · ${ports}` : ''}`,
          `endpoints ${endpoints}`,
        ],
      };
    }
    case 'EndpointSlice': {
      const eps = (o as unknown as { endpoints?: Eps }).endpoints ?? [];
      const ports = ((o as unknown as { ports?: { port?: number; protocol?: string }[] }).ports ?? [])
        .map((p) => `${p.port ?? ''}/${p.protocol ?? 'TCP'}`)
        .join(',');
      return {
        kind,
        name,
        lines: [
          `${(o as unknown as { addressType?: string }).addressType ?? 'IPv4'}${ports ? ` · ${ports}` : ''}`,
          `ready ${readyEndpoints(o)}/${eps.length}`,
        ],
      };
    }
    case 'PersistentVolumeClaim':
      return {
        kind,
        name,
        lines: [
          `${status.phase ?? 'Pending'} · ${col(s, 'CAPACITY') ?? status.capacity?.storage ?? spec.resources?.requests?.storage ?? ''}`,
          `class ${spec.storageClassName ?? '<none>'}`,
        ],
      };
    case 'PersistentVolume':
      return {
        kind,
        name,
        lines: [
          `${status.phase ?? 'Pending'} · ${spec.capacity?.storage ?? ''}`,
          `reclaim ${spec.persistentVolumeReclaimPolicy ?? 'Retain'}`,
        ],
      };
    case 'StorageClass': {
      const def = o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true';
      return {
        kind,
        name: def ? `${name} (default)` : name,
        lines: [
          String((o as unknown as { provisioner?: string }).provisioner ?? ''),
          String((o as unknown as { volumeBindingMode?: string }).volumeBindingMode ?? 'Immediate'),
        ],
      };
    }
    case 'HorizontalPodAutoscaler':
      return {
        kind,
        name,
        lines: [
          `targets ${col(s, 'TARGETS') ?? '<unknown>'}`,
          `replicas ${status.currentReplicas ?? 0}→${status.desiredReplicas ?? 0} (${spec.minReplicas ?? 1}–${spec.maxReplicas ?? ''})`,
        ],
      };
    case 'Ingress': {
      const paths: string[] = [];
      for (const r of spec.rules ?? []) for (const p of r?.http?.paths ?? []) paths.push(`${r.host ?? '*'}${p.path ?? '/'}`);
      if (!paths.length && spec.defaultBackend) paths.push('* (default backend)');
      return { kind, name, lines: [paths.join(' ') || 'no rules', `address ${col(s, 'ADDRESS') ?? '—'}`] };
    }
    default:
      return {
        kind,
        name,
        lines: [
          s.row?.ready ? `ready ${s.row.ready}` : (s.row?.status ?? ''),
          Object.entries(s.row?.columns ?? {})
            .slice(0, 2)
            .map(([k, v]) => `${k.toLowerCase()} ${v}`)
            .join(' · '),
        ],
      };
  }
}
