/**
 * The graph's shape (GraphTopology) from the stored objects, and whether a change can alter it.
 * Only what moves, adds or removes a card or an edge is part of the shape: a Pod's node, owner
 * and PVCs; a ReplicaSet's owner; an EndpointSlice's Service and the Pods its endpoints target
 * (targetRef, as the EndpointSlice controller writes them: pkg/controller/endpointslice,
 * staging/src/k8s.io/endpointslice/utils.go podToEndpoint); a PVC's volumeName and class; a PV's
 * class; an HPA's scaleTargetRef; an Ingress's backend Services (networking/v1 IngressBackend).
 * Status changes re-render single cards, never the graph.
 */
import type { ObjectChangeMsg } from '../../worker/protocol';
import type { GraphTopology, KObject, StoredObject } from './types';

/** Kinds drawn on the graph. */
export const GRAPH_KINDS = new Set([
  'Node',
  'Pod',
  'ReplicaSet',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Service',
  'EndpointSlice',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'StorageClass',
  'HorizontalPodAutoscaler',
  'Ingress',
]);

const OTHER_WORKLOADS = new Set(['StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

/** An empty topology (no objects yet). */
export function emptyTopology(): GraphTopology {
  return {
    nodes: [],
    pods: [],
    replicaSets: [],
    deployments: [],
    workloads: [],
    services: [],
    endpointSlices: [],
    pvcs: [],
    pvs: [],
    storageClasses: [],
    hpas: [],
    ingresses: [],
  };
}

function nsKey(kind: string, ns: string | undefined, name: string): string {
  return ns ? `${kind}/${ns}/${name}` : `${kind}/${name}`;
}

/** The store key of the object's controller owner ("ReplicaSet/NS/NAME"), or null. */
export function ownerKey(o: KObject): string | null {
  const ref = o.metadata.ownerReferences?.find((r) => r.controller);
  if (!ref) return null;
  return nsKey(ref.kind, o.metadata.namespace, ref.name);
}

/** Whether a Node carries the control-plane role label (kubeadm's node-role.kubernetes.io/control-plane). */
export function isControlPlane(n: KObject): boolean {
  return n.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined;
}

type Any = Record<string, unknown> | undefined;

/** PVC keys a Pod mounts (spec.volumes[].persistentVolumeClaim.claimName), in volume order. */
export function podClaims(o: KObject): string[] {
  const vols = (o.spec?.volumes as { persistentVolumeClaim?: { claimName?: string } }[] | undefined) ?? [];
  const out: string[] = [];
  for (const v of vols) {
    const c = v.persistentVolumeClaim?.claimName;
    if (c) out.push(nsKey('PersistentVolumeClaim', o.metadata.namespace, c));
  }
  return out;
}

/** Pods an EndpointSlice's endpoints target (targetRef kind Pod), sorted, unique. */
export function slicePods(o: KObject): string[] {
  const eps = (o as unknown as { endpoints?: { targetRef?: { kind?: string; name?: string; namespace?: string } }[] }).endpoints ?? [];
  const out = new Set<string>();
  for (const e of eps) {
    const r = e.targetRef;
    if (r?.kind === 'Pod' && r.name) out.add(nsKey('Pod', r.namespace ?? o.metadata.namespace, r.name));
  }
  return [...out].sort();
}

/** Services an Ingress routes to: rules[].http.paths[].backend.service and spec.defaultBackend.service (sorted, unique). */
export function ingressServices(o: KObject): string[] {
  const spec = o.spec as
    | { defaultBackend?: { service?: { name?: string } }; rules?: { http?: { paths?: { backend?: { service?: { name?: string } } }[] } }[] }
    | undefined;
  const out = new Set<string>();
  const add = (name: string | undefined) => {
    if (name) out.add(nsKey('Service', o.metadata.namespace, name));
  };
  add(spec?.defaultBackend?.service?.name);
  for (const r of spec?.rules ?? []) for (const p of r?.http?.paths ?? []) add(p?.backend?.service?.name);
  return [...out].sort();
}

/** An HPA's scaleTargetRef as a store key. */
export function hpaTarget(o: KObject): string | null {
  const ref = (o.spec as Any)?.scaleTargetRef as { kind?: string; name?: string } | undefined;
  return ref?.kind && ref.name ? nsKey(ref.kind, o.metadata.namespace, ref.name) : null;
}

function storageClassKey(name: unknown): string | null {
  return typeof name === 'string' && name ? `StorageClass/${name}` : null;
}

/** The graph's shape, from all objects (every list sorted by key; nodes control-plane first, then by name). */
export function computeTopology(objects: Map<string, StoredObject>): GraphTopology {
  const t = emptyTopology();
  for (const { key, object: o } of objects.values()) {
    switch (o.kind) {
      case 'Node':
        t.nodes.push({ key, name: o.metadata.name, controlPlane: isControlPlane(o) });
        break;
      case 'Pod': {
        const claims = podClaims(o);
        t.pods.push(
          claims.length
            ? { key, node: (o.spec?.nodeName as string | undefined) || null, owner: ownerKey(o), claims }
            : { key, node: (o.spec?.nodeName as string | undefined) || null, owner: ownerKey(o) },
        );
        break;
      }
      case 'ReplicaSet':
        t.replicaSets.push({ key, owner: ownerKey(o) });
        break;
      case 'Deployment':
        t.deployments.push({ key });
        break;
      case 'Service':
        t.services.push({ key });
        break;
      case 'EndpointSlice': {
        const svc = o.metadata.labels?.['kubernetes.io/service-name'];
        t.endpointSlices.push({ key, service: svc ? nsKey('Service', o.metadata.namespace, svc) : null, pods: slicePods(o) });
        break;
      }
      case 'PersistentVolumeClaim': {
        const vol = o.spec?.volumeName as string | undefined;
        t.pvcs.push({ key, volume: vol ? `PersistentVolume/${vol}` : null, storageClass: storageClassKey(o.spec?.storageClassName) });
        break;
      }
      case 'PersistentVolume':
        t.pvs.push({ key, storageClass: storageClassKey(o.spec?.storageClassName) });
        break;
      case 'StorageClass':
        t.storageClasses.push({ key });
        break;
      case 'HorizontalPodAutoscaler':
        t.hpas.push({ key, target: hpaTarget(o) });
        break;
      case 'Ingress':
        t.ingresses.push({ key, services: ingressServices(o) });
        break;
      default:
        if (OTHER_WORKLOADS.has(o.kind)) t.workloads.push({ key, owner: ownerKey(o) });
    }
  }
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  t.nodes.sort((a, b) => Number(b.controlPlane) - Number(a.controlPlane) || a.name.localeCompare(b.name, 'en', { numeric: true }));
  for (const list of [
    t.pods,
    t.replicaSets,
    t.deployments,
    t.workloads,
    t.services,
    t.endpointSlices,
    t.pvcs,
    t.pvs,
    t.storageClasses,
    t.hpas,
    t.ingresses,
  ])
    list.sort(byKey);
  return t;
}

/** The part of an object that shapes the graph, as a string (equal strings: same cards and edges). */
export function shapeOf(o: KObject): string {
  switch (o.kind) {
    case 'Node':
      return String(isControlPlane(o));
    case 'Pod':
      return `${(o.spec?.nodeName as string | undefined) ?? ''}|${ownerKey(o)}|${podClaims(o).join(',')}`;
    case 'EndpointSlice':
      return `${o.metadata.labels?.['kubernetes.io/service-name'] ?? ''}|${slicePods(o).join(',')}`;
    case 'PersistentVolumeClaim':
      return `${(o.spec?.volumeName as string | undefined) ?? ''}|${(o.spec?.storageClassName as string | undefined) ?? ''}`;
    case 'PersistentVolume':
      return String(o.spec?.storageClassName ?? '');
    case 'HorizontalPodAutoscaler':
      return String(hpaTarget(o));
    case 'Ingress':
      return ingressServices(o).join(',');
    default:
      return String(ownerKey(o));
  }
}

/** Whether a change can move, add or remove a card or an edge of the graph. */
export function touchesTopology(c: ObjectChangeMsg, prev: StoredObject | undefined): boolean {
  if (!GRAPH_KINDS.has(c.object.kind)) return false;
  if (c.type !== 'MODIFIED' || !prev) return true;
  return shapeOf(prev.object) !== shapeOf(c.object);
}
