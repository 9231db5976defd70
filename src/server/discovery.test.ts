/**
 * Discovery documents as kube-apiserver v1.33 serves them: storageVersionHash (sha256 of the
 * storage group/version/kind, first 8 bytes, base64 — values a real cluster shows), resources
 * sorted by path, bindings' create-only verbs, namespaces without deletecollection, the
 * api-extensions category.
 */
import { describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../cluster/api/resources';
import { aggregatedDiscovery, apiResourceList, storageVersionHash } from './discovery';

const reg = new ResourceRegistry();
type Res = {
  name: string;
  storageVersionHash?: string;
  verbs: string[];
  categories?: string[];
  singularName: string;
  shortNames?: string[];
};
const list = (g: string, v: string) => (apiResourceList(reg, g, v) as { resources: Res[] }).resources;
const find = (g: string, v: string, name: string) => list(g, v).find((r) => r.name === name)!;

describe('storageVersionHash', () => {
  it.each([
    ['', 'v1', 'Pod', 'xPOwRZ+Yhw8='],
    ['apps', 'v1', 'Deployment', '8aSe+NMegvE='],
    ['', 'v1', 'Service', '0/CO1lhkEBI='],
    ['', 'v1', 'ConfigMap', 'qFsyl6wFWjQ='],
    ['', 'v1', 'Node', 'XwShjMxG9Fs='],
    ['', 'v1', 'Namespace', 'Q3oi5N2YM8M='],
  ])('%s/%s/%s → %s', (g, v, k, want) => expect(storageVersionHash(g, v, k)).toBe(want));

  it.each([
    ['', 'v1', 'pods', 'xPOwRZ+Yhw8='],
    ['apps', 'v1', 'deployments', '8aSe+NMegvE='],
    ['autoscaling', 'v1', 'horizontalpodautoscalers', 'qwQve8ut294='],
    ['autoscaling', 'v2', 'horizontalpodautoscalers', 'qwQve8ut294='],
    ['events.k8s.io', 'v1', 'events', 'r2yiGXH7wu8='],
    ['', 'v1', 'events', 'r2yiGXH7wu8='],
    ['', 'v1', 'bindings', undefined],
    ['', 'v1', 'pods/status', undefined],
  ])('/%s/%s %s carries %s', (g, v, name, want) => expect(find(g, v, name).storageVersionHash).toBe(want));
});

describe('APIResourceList', () => {
  it('lists resources and subresources in path order', () => {
    expect(list('apps', 'v1').map((r) => r.name)).toEqual([
      'controllerrevisions',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ]);
  });
  it.each([
    ['', 'v1', 'bindings', ['create'], undefined],
    ['', 'v1', 'namespaces', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], undefined],
    ['', 'v1', 'pods', ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], ['all']],
    [
      'apiextensions.k8s.io',
      'v1',
      'customresourcedefinitions',
      ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      ['api-extensions'],
    ],
    [
      'admissionregistration.k8s.io',
      'v1',
      'validatingwebhookconfigurations',
      ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      ['api-extensions'],
    ],
  ])('/%s/%s %s: verbs and categories', (g, v, name, verbs, categories) => {
    const r = find(g, v, name);
    expect({ verbs: r.verbs, categories: r.categories }).toEqual({ verbs, categories });
  });
  it('aggregated discovery orders subresources by name and carries singular names and short names', () => {
    const doc = aggregatedDiscovery(reg, true) as {
      items: {
        versions: {
          resources: { resource: string; singularResource: string; shortNames?: string[]; subresources?: { subresource: string }[] }[];
        }[];
      }[];
    };
    const pods = doc.items[0].versions[0].resources.find((r) => r.resource === 'pods')!;
    expect({ singular: pods.singularResource, short: pods.shortNames, subs: pods.subresources!.map((s) => s.subresource) }).toEqual({
      singular: 'pod',
      short: ['po'],
      subs: ['binding', 'ephemeralcontainers', 'eviction', 'log', 'resize', 'status'],
    });
    const names = doc.items[0].versions[0].resources.map((r) => r.resource);
    expect(names).toEqual([...names].sort());
  });
});
