/**
 * Load controls for the HPA (issue 5 §7), pure and unit-tested: which workloads get a CPU load
 * control (every HPA's scale target, then every other Deployment outside kube-system), what the
 * HPA reports about them (the `kubectl get hpa` TARGETS column, printers.go formatHPAMetrics),
 * and a sensible slider range from the Pod template's CPU requests.
 */
import type { StoredObject, KObject } from '../store/types';

/** What an HPA says about its target, as `kubectl get hpa` prints it. */
export interface HpaView {
  name: string;
  /** TARGETS, e.g. "cpu: 120%/50%" or "cpu: <unknown>/50%" */
  targets: string;
  minReplicas: number;
  maxReplicas: number;
  /** status.currentReplicas → status.desiredReplicas */
  currentReplicas: number;
  desiredReplicas: number;
}

/** One workload with a load control. */
export interface LoadTarget {
  namespace: string;
  /** "deployment/web", as WorkloadLoad.workload (src/cluster/userland/traffic-types.ts) wants it */
  workload: string;
  /** "NS/deployment/NAME" (the control's data-workload) */
  id: string;
  /** HPAs scaling it (usually one) */
  hpas: HpaView[];
  /** the workload's spec.replicas and ready replicas (status.readyReplicas) */
  replicas: number | null;
  readyReplicas: number;
  /** total CPU requested by one Pod of its template, millicores (0 when none is set) */
  podRequestMillicores: number;
  /** the slider's upper end, millicores */
  maxMillicores: number;
}

/** Kinds an HPA can target whose objects the store holds (group-less Kind → lower-case resource word). */
const WORKLOAD_KINDS: Record<string, string> = { Deployment: 'deployment', StatefulSet: 'statefulset', ReplicaSet: 'replicaset' };

/** A CPU quantity in millicores: "250m" → 250, "0.5" → 500, "2" → 2000; unparsable → 0. */
export function cpuMillicores(q: unknown): number {
  if (typeof q === 'number') return Math.round(q * 1000);
  if (typeof q !== 'string') return 0;
  const m = /^([0-9.]+)(m?)$/.exec(q.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return 0;
  return m[2] === 'm' ? Math.round(n) : Math.round(n * 1000);
}

function podRequest(workload: KObject): number {
  const containers: { resources?: { requests?: { cpu?: unknown } } }[] = workload.spec?.template?.spec?.containers ?? [];
  return containers.reduce((sum, c) => sum + cpuMillicores(c.resources?.requests?.cpu), 0);
}

/** Rounds up to a multiple of `step`. */
function ceilTo(n: number, step: number): number {
  return Math.ceil(n / step) * step;
}

function hpaView(o: StoredObject): HpaView {
  const h = o.object;
  return {
    name: h.metadata.name,
    targets: o.row?.columns.TARGETS ?? '<unknown>',
    minReplicas: h.spec?.minReplicas ?? 1,
    maxReplicas: h.spec?.maxReplicas ?? 0,
    currentReplicas: h.status?.currentReplicas ?? 0,
    desiredReplicas: h.status?.desiredReplicas ?? 0,
  };
}

/**
 * Workloads with load controls: every HPA's scaleTargetRef (Deployment, StatefulSet,
 * ReplicaSet) first, then every other Deployment not in kube-system; each sorted by id. The
 * slider reaches twice what the largest replica count (HPA max, or spec.replicas) requests,
 * at least 1000m, rounded up to 100m.
 */
export function loadTargets(objects: Iterable<StoredObject>): LoadTarget[] {
  const all = [...objects];
  const hpasByTarget = new Map<string, HpaView[]>();
  const targets = new Map<string, LoadTarget>();
  const workloads = new Map<string, KObject>();
  for (const o of all) {
    const k = WORKLOAD_KINDS[o.object.kind];
    if (k) workloads.set(`${o.object.metadata.namespace ?? 'default'}/${k}/${o.object.metadata.name}`, o.object);
  }
  const make = (namespace: string, kind: string, name: string): LoadTarget => {
    const id = `${namespace}/${kind}/${name}`;
    const w = workloads.get(id);
    const request = w ? podRequest(w) : 0;
    return {
      namespace,
      workload: `${kind}/${name}`,
      id,
      hpas: [],
      replicas: w?.spec?.replicas ?? null,
      readyReplicas: w?.status?.readyReplicas ?? 0,
      podRequestMillicores: request,
      maxMillicores: 0,
    };
  };
  for (const o of all) {
    if (o.object.kind !== 'HorizontalPodAutoscaler') continue;
    const ref = o.object.spec?.scaleTargetRef ?? {};
    const kind = WORKLOAD_KINDS[ref.kind as string];
    if (!kind || !ref.name) continue;
    const namespace = o.object.metadata.namespace ?? 'default';
    const id = `${namespace}/${kind}/${ref.name}`;
    if (!targets.has(id)) targets.set(id, make(namespace, kind, ref.name));
    hpasByTarget.set(id, [...(hpasByTarget.get(id) ?? []), hpaView(o)]);
  }
  const scaled = [...targets.values()].sort((a, b) => a.id.localeCompare(b.id));
  const others = [...workloads.keys()]
    .filter((id) => id.split('/')[1] === 'deployment' && !id.startsWith('kube-system/') && !targets.has(id))
    .sort()
    .map((id) => {
      const [namespace, kind, name] = id.split('/');
      return make(namespace, kind, name);
    });
  return [...scaled, ...others].map((t) => {
    const hpas = (hpasByTarget.get(t.id) ?? []).sort((a, b) => a.name.localeCompare(b.name));
    const replicas = Math.max(t.replicas ?? 1, ...hpas.map((h) => h.maxReplicas), 1);
    return { ...t, hpas, maxMillicores: Math.max(1000, ceilTo(2 * replicas * t.podRequestMillicores, 100)) };
  });
}
