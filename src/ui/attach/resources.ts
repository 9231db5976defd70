/**
 * The resources the UI shows, as the attach client lists and watches them, and API discovery
 * (GET /api/v1, GET /apis/G/V: metav1.APIResourceList) to keep those the server serves.
 */

/** One watched resource. `storeResource` is the store's group-qualified name ("deployments.apps"). */
export interface AttachResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  /**
   * Streamed with a watch; the others are relisted every few seconds. A browser opens at most
   * six HTTP/1.1 connections per host (kubectl proxy and the Vite proxy speak HTTP/1.1) and
   * every open watch holds one, so only the busiest kinds are watched, leaving one for lists
   * and writes.
   */
  watch?: boolean;
}

/** Every kind the graph, tables, inspector and events follow (machines only when served). */
export const ATTACH_RESOURCES: readonly AttachResource[] = [
  { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false, watch: true },
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, watch: true },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true },
  { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true },
  { group: '', version: 'v1', resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false },
  { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, watch: true },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, watch: true },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, watch: true },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true },
  { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true },
  { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', kind: 'StorageClass', namespaced: false },
  { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true },
  { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', namespaced: true },
  { group: 'sim.kube-relay.dev', version: 'v1alpha1', resource: 'machines', kind: 'Machine', namespaced: false },
];

/** "pods", "deployments.apps": how the store names a resource. */
export function storeResource(r: Pick<AttachResource, 'group' | 'resource'>): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

/** The collection path, all namespaces: /api/v1/pods, /apis/apps/v1/deployments. */
export function collectionPath(r: AttachResource): string {
  return r.group ? `/apis/${r.group}/${r.version}/${r.resource}` : `/api/${r.version}/${r.resource}`;
}

/** An item path: /api/v1/namespaces/NS/pods/NAME, /apis/sim.kube-relay.dev/v1alpha1/machines/NAME. */
export function itemPath(r: AttachResource, namespace: string | null, name: string): string {
  const gv = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return `${gv}${r.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${r.resource}/${encodeURIComponent(name)}`;
}

/** The fetch the attach client uses (window.fetch, or a fake in tests). */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** What discovery found: the served resources of `wanted`, and every API group the server lists. */
export interface Discovery {
  resources: AttachResource[];
  groups: Set<string>;
}

/**
 * Which of `wanted` the server serves: GET /apis (APIGroupList), then one GET per listed
 * group-version (so an absent group costs no 404). Throws when /api/v1 cannot be read (not an
 * API server, or unreachable).
 */
export async function discover(fetchFn: FetchLike, base: string, wanted: readonly AttachResource[] = ATTACH_RESOURCES): Promise<Discovery> {
  const res = await fetchFn(`${base}/apis`, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET /apis: ${res.status} ${res.statusText}`.trim());
  const apis = (await res.json()) as { groups?: { name: string; versions?: { version: string }[] }[] };
  const listed = new Set<string>(['/api/v1']);
  const groups = new Set<string>();
  for (const g of apis.groups ?? []) {
    groups.add(g.name);
    for (const v of g.versions ?? []) listed.add(`/apis/${g.name}/${v.version}`);
  }
  const gvOf = (r: AttachResource) => (r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`);
  const gvs = [...new Set(wanted.map(gvOf))].filter((gv) => listed.has(gv));
  const served = new Map<string, Set<string>>();
  await Promise.all(
    gvs.map(async (gv) => {
      const r = await fetchFn(base + gv, { headers: { Accept: 'application/json' } });
      if (!r.ok) {
        if (gv === '/api/v1') throw new Error(`GET ${gv}: ${r.status} ${r.statusText}`.trim());
        return;
      }
      const list = (await r.json()) as { resources?: { name: string }[] };
      served.set(gv, new Set((list.resources ?? []).map((x) => x.name)));
    }),
  );
  return { resources: wanted.filter((r) => served.get(gvOf(r))?.has(r.resource)), groups };
}
