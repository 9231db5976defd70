/**
 * Discovery documents, as kube-apiserver v1.33 serves them:
 * /version (version.Info), /api (APIVersions), /apis (APIGroupList), /api/v1 and
 * /apis/GROUP/VERSION (APIResourceList), and aggregated discovery
 * (apidiscovery.k8s.io/v2 APIGroupDiscoveryList, what kubectl ≥ 1.30 asks for first;
 * staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated). Served by the HTTP API
 * (src/server) and to Pods that call the apiserver (traffic/apiserver-http.ts).
 */
import type { ResourceInfo } from '../api/resources';
import { base64Std } from '../util/base64';
import { sha256 } from '../util/hash';

/** What discovery reads of the resource registry (ResourceRegistry, or a client's RESTMapper). */
export interface DiscoveryRegistry {
  /** Every served resource at its preferred version, in discovery order. */
  all(): ResourceInfo[];
  /** Every served resource at every served version. */
  allVersions(): ResourceInfo[];
  forResource(group: string, resource: string): ResourceInfo | undefined;
}
type ResourceRegistry = DiscoveryRegistry;

/** The media type of aggregated discovery (v2). */
export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** version.Info of the simulated kube-apiserver (the engine's one version constant). */
export { VERSION_INFO } from '../api/version';

/** Subresource → [response kind group, version, kind, verbs]. */
function subresourceShape(info: ResourceInfo, sub: string): { group: string; version: string; kind: string; verbs: string[] } {
  switch (sub) {
    case 'scale':
      return { group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] };
    case 'binding':
      return { group: '', version: 'v1', kind: 'Binding', verbs: ['create'] };
    case 'eviction':
      return { group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] };
    case 'log':
      return { group: '', version: 'v1', kind: 'Pod', verbs: ['get'] };
    case 'proxy':
      return {
        group: '',
        version: 'v1',
        kind: info.kind === 'Node' ? 'NodeProxyOptions' : info.kind === 'Pod' ? 'PodProxyOptions' : 'ServiceProxyOptions',
        verbs: ['create', 'delete', 'get', 'patch', 'update'],
      };
    case 'token':
      return { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] };
    case 'finalize':
      return { group: '', version: 'v1', kind: 'Namespace', verbs: ['update'] };
    case 'approval':
      return { group: info.group, version: info.version, kind: info.kind, verbs: ['get', 'patch', 'update'] };
    default:
      return { group: info.group, version: info.version, kind: info.kind, verbs: ['get', 'patch', 'update'] };
  }
}

/** Served group/versions, core first, groups in registration order, versions preferred first. */
export function groupVersions(reg: ResourceRegistry): { group: string; versions: string[] }[] {
  const out: { group: string; versions: string[] }[] = [];
  const preferred = new Map(reg.all().map((i) => [i.group, i.version]));
  for (const i of reg.allVersions()) {
    let g = out.find((x) => x.group === i.group);
    if (!g) out.push((g = { group: i.group, versions: [] }));
    if (!g.versions.includes(i.version)) {
      if (preferred.get(i.group) === i.version) g.versions.unshift(i.version);
      else g.versions.push(i.version);
    }
  }
  return out;
}

/**
 * Resources served at one group/version, sorted by name as the APIInstaller registers its
 * storage paths (endpoints/installer.go `sort.Strings(paths)`), so `kubectl api-resources` lists
 * them in that order within a group.
 */
export function resourcesAt(reg: ResourceRegistry, group: string, version: string): ResourceInfo[] {
  return reg
    .allVersions()
    .filter((i) => i.group === group && i.version === version)
    .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}

/**
 * discovery.StorageVersionHash (staging/src/k8s.io/apiserver/pkg/endpoints/discovery/
 * storageversionhash.go): base64 of the first 8 bytes of sha256("group/version/kind") of the
 * version the resource is *stored* as — the same for every served version (HPA autoscaling/v1
 * and v2 both hash autoscaling/v2). "/v1/Pod" → "xPOwRZ+Yhw8=".
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return base64Std(sha256(`${group}/${version}/${kind}`).subarray(0, 8));
}

/**
 * Resources stored under another group's type (the storage factory's cohabitating resources):
 * events.k8s.io Events are stored as core v1 Events.
 */
const STORED_AS = new Map<string, [string, string, string]>([['events.k8s.io/events', ['', 'v1', 'Event']]]);
/** Resources with no storage behind them (no StorageVersionProvider, so no hash). */
const NO_STORAGE = new Set(['/bindings']);

/** The storageVersionHash a resource's discovery entry carries, or undefined (bindings). */
function hashOf(reg: ResourceRegistry, i: ResourceInfo): string | undefined {
  const gr = `${i.group}/${i.resource}`;
  if (NO_STORAGE.has(gr)) return undefined;
  const as = STORED_AS.get(gr);
  if (as) return storageVersionHash(...as);
  // the preferred (first registered) version is the storage version (CRDs register theirs first)
  const stored = reg.forResource(i.group, i.resource) ?? i;
  return storageVersionHash(stored.group, stored.version, stored.kind);
}

/** Subresources in path order (they follow their resource, sorted, as the installer registers them). */
function sortedSubresources(i: ResourceInfo): string[] {
  return [...i.subresources].sort();
}

/** GET /api. */
export function apiVersions(host: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }] };
}

/** GET /apis (legacy, unaggregated). */
export function apiGroupList(reg: ResourceRegistry): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groupVersions(reg)
      .filter((g) => g.group !== '')
      .map((g) => ({
        name: g.group,
        versions: g.versions.map((v) => ({ groupVersion: `${g.group}/${v}`, version: v })),
        preferredVersion: { groupVersion: `${g.group}/${g.versions[0]}`, version: g.versions[0] },
      })),
  };
}

/** GET /apis/GROUP: the group's APIGroup, or undefined when no such group is served. */
export function apiGroup(reg: ResourceRegistry, group: string): object | undefined {
  const g = groupVersions(reg).find((x) => x.group === group && group !== '');
  if (!g) return undefined;
  const versions = g.versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

/** GET /api/v1, /apis/GROUP/VERSION: an APIResourceList (resources and their subresources). */
export function apiResourceList(reg: ResourceRegistry, group: string, version: string): object | undefined {
  const infos = resourcesAt(reg, group, version);
  if (!infos.length) return undefined;
  const resources: object[] = [];
  for (const i of infos) {
    resources.push({
      name: i.resource,
      singularName: i.singular,
      namespaced: i.namespaced,
      kind: i.kind,
      verbs: i.verbs,
      ...(i.shortNames.length ? { shortNames: i.shortNames } : {}),
      ...(i.categories?.length ? { categories: i.categories } : {}),
      ...(hashOf(reg, i) !== undefined ? { storageVersionHash: hashOf(reg, i) } : {}),
    });
    for (const s of sortedSubresources(i)) {
      const sh = subresourceShape(i, s);
      resources.push({
        name: `${i.resource}/${s}`,
        singularName: '',
        namespaced: i.namespaced,
        ...(sh.group !== group || sh.version !== version ? { group: sh.group, version: sh.version } : {}),
        kind: sh.kind,
        verbs: sh.verbs,
      });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

/** GET /api or /apis with Accept: aggregated discovery v2. `core` selects /api. */
export function aggregatedDiscovery(reg: ResourceRegistry, core: boolean): object {
  const items = groupVersions(reg)
    .filter((g) => (g.group === '') === core)
    .map((g) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: resourcesAt(reg, g.group, v).map((i) => ({
          resource: i.resource,
          responseKind: { group: i.group, version: i.version, kind: i.kind },
          scope: i.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: i.singular,
          verbs: i.verbs,
          ...(i.shortNames.length ? { shortNames: i.shortNames } : {}),
          ...(i.categories?.length ? { categories: i.categories } : {}),
          ...(i.subresources.length
            ? {
                subresources: sortedSubresources(i).map((s) => {
                  const sh = subresourceShape(i, s);
                  return { subresource: s, responseKind: { group: sh.group, version: sh.version, kind: sh.kind }, verbs: sh.verbs };
                }),
              }
            : {}),
        })),
        freshness: 'Current',
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
}
