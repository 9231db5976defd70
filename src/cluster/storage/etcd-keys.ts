/**
 * The etcd keys kube-apiserver writes: `/registry/<prefix>/<namespace>/<name>` (namespaced) or
 * `/registry/<prefix>/<name>`, as the generic registry's NamespaceKeyFunc / NoNamespaceKeyFunc
 * build them (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go) under the
 * storage factory's ResourcePrefix (staging/src/k8s.io/apiserver/pkg/server/storage/
 * storage_factory.go): the lower-cased resource name without its group, unless
 * pkg/kubeapiserver/default_storage_factory_builder.go's SpecialDefaultResourcePrefixes say
 * otherwise. Resources that cohabit with another group's share its prefix (events.k8s.io Events
 * are stored as core events). apiextensions-apiserver keeps CustomResourceDefinitions and custom
 * resources under `<group>/<resource>` (crdHandler's ResourcePrefix = group/plural), as
 * kube-aggregator does for APIServices.
 */
import type { ResourceInfo } from '../api/resources';

/** SpecialDefaultResourcePrefixes (group/resource → prefix). */
const SPECIAL_PREFIXES = new Map<string, string>([
  ['/replicationcontrollers', 'controllers'],
  ['/endpoints', 'services/endpoints'],
  ['/nodes', 'minions'],
  ['/services', 'services/specs'],
  ['extensions/ingresses', 'ingress'],
  ['networking.k8s.io/ingresses', 'ingress'],
  ['extensions/podsecuritypolicies', 'podsecuritypolicy'],
  ['policy/podsecuritypolicies', 'podsecuritypolicy'],
]);

/** Groups whose objects are stored with the group in the prefix (their own storage factories). */
const GROUP_PREFIXED = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

/** The etcd prefix of a resource, without `/registry/`: "deployments", "services/specs", "example.com/widgets". */
export function etcdResourcePrefix(info: Pick<ResourceInfo, 'group' | 'resource' | 'custom'>): string {
  if (info.custom || GROUP_PREFIXED.has(info.group)) return `${info.group}/${info.resource}`;
  return SPECIAL_PREFIXES.get(`${info.group}/${info.resource}`) ?? info.resource.toLowerCase();
}

/** The etcd key of one object: `/registry/deployments/default/web`, `/registry/minions/node-1`. */
export function etcdKey(info: Pick<ResourceInfo, 'group' | 'resource' | 'custom' | 'namespaced'>, namespace: string, name: string): string {
  return `/registry/${etcdResourcePrefix(info)}/${info.namespaced ? `${namespace}/` : ''}${name}`;
}
