/**
 * The kind registry: what discovery (`kubectl api-resources`) knows. Each entry maps a
 * group/version/kind to its resource name, scope and short names, as the built-in
 * kube-apiserver of v1.33 serves them. CustomResourceDefinitions add entries at run time
 * (see apiserver/crd.ts).
 *
 * Mirrors k8s.io/apimachinery/pkg/api/meta (RESTMapper) and the discovery documents.
 */
import { deprecationWarning } from './deprecation';

/** One served resource. */
export interface ResourceInfo {
  /** API group; "" for the core group. */
  group: string;
  /** Served version, e.g. "v1". */
  version: string;
  kind: string;
  /** Plural resource name, e.g. "deployments". */
  resource: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  /** Verbs served (discovery); "list" etc. */
  verbs: string[];
  /** Subresources served, e.g. ["status", "scale"]. */
  subresources: string[];
  /** Categories (`kubectl get all` uses "all"). */
  categories?: string[];
  /** True for kinds added by a CustomResourceDefinition. */
  custom?: boolean;
  /** The deprecation warning of a served but deprecated version (api/deprecation.ts); every request to it carries it. */
  deprecated?: string;
}

const RW = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function r(
  group: string,
  version: string,
  kind: string,
  resource: string,
  namespaced: boolean,
  shortNames: string[] = [],
  subresources: string[] = [],
  categories?: string[],
): ResourceInfo {
  const deprecated = deprecationWarning(group ? `${group}/${version}` : version, kind);
  return {
    group,
    version,
    kind,
    resource,
    singular: kind.toLowerCase(),
    namespaced,
    shortNames,
    verbs: RW,
    subresources,
    categories,
    ...(deprecated ? { deprecated } : {}),
  };
}

/** Built-in resources of a v1.33 kube-apiserver that the engine serves. */
export const BUILTIN_RESOURCES: ResourceInfo[] = [
  // namespaces' REST has no DeleteCollection; bindings only take create (discovery's verbs)
  {
    ...r('', 'v1', 'Namespace', 'namespaces', false, ['ns'], ['status', 'finalize']),
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  },
  r('', 'v1', 'Node', 'nodes', false, ['no'], ['status', 'proxy']),
  r('', 'v1', 'Pod', 'pods', true, ['po'], ['status', 'binding', 'eviction', 'log', 'ephemeralcontainers', 'resize'], ['all']),
  { ...r('', 'v1', 'Binding', 'bindings', true), verbs: ['create'] },
  // read-only and never stored (apiserver/componentstatus.ts); deprecated in v1.19
  { ...r('', 'v1', 'ComponentStatus', 'componentstatuses', false, ['cs']), verbs: ['get', 'list'] },
  r('', 'v1', 'Service', 'services', true, ['svc'], ['status', 'proxy'], ['all']),
  r('', 'v1', 'Endpoints', 'endpoints', true, ['ep']),
  r('', 'v1', 'ConfigMap', 'configmaps', true, ['cm']),
  r('', 'v1', 'Secret', 'secrets', true),
  r('', 'v1', 'ServiceAccount', 'serviceaccounts', true, ['sa'], ['token']),
  r('', 'v1', 'Event', 'events', true, ['ev']),
  r('', 'v1', 'PersistentVolume', 'persistentvolumes', false, ['pv'], ['status']),
  r('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc'], ['status']),
  r('', 'v1', 'ReplicationController', 'replicationcontrollers', true, ['rc'], ['status', 'scale'], ['all']),
  r('', 'v1', 'LimitRange', 'limitranges', true, ['limits']),
  r('', 'v1', 'ResourceQuota', 'resourcequotas', true, ['quota'], ['status']),
  r('', 'v1', 'PodTemplate', 'podtemplates', true),
  r('apps', 'v1', 'Deployment', 'deployments', true, ['deploy'], ['status', 'scale'], ['all']),
  r('apps', 'v1', 'ReplicaSet', 'replicasets', true, ['rs'], ['status', 'scale'], ['all']),
  r('apps', 'v1', 'StatefulSet', 'statefulsets', true, ['sts'], ['status', 'scale'], ['all']),
  r('apps', 'v1', 'DaemonSet', 'daemonsets', true, ['ds'], ['status'], ['all']),
  r('apps', 'v1', 'ControllerRevision', 'controllerrevisions', true),
  r('batch', 'v1', 'Job', 'jobs', true, [], ['status'], ['all']),
  r('batch', 'v1', 'CronJob', 'cronjobs', true, ['cj'], ['status'], ['all']),
  r('autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, ['hpa'], ['status'], ['all']),
  r('autoscaling', 'v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, ['hpa'], ['status'], ['all']),
  r('coordination.k8s.io', 'v1', 'Lease', 'leases', true),
  r('discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true),
  r('networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, ['ing'], ['status']),
  r('networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', false),
  r('networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true, ['netpol']),
  r('storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', false, ['sc']),
  r('storage.k8s.io', 'v1', 'CSIDriver', 'csidrivers', false),
  r('storage.k8s.io', 'v1', 'VolumeAttachment', 'volumeattachments', false, [], ['status']),
  r('scheduling.k8s.io', 'v1', 'PriorityClass', 'priorityclasses', false, ['pc']),
  r('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, ['pdb'], ['status']),
  r('rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true),
  r('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true),
  r('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false),
  r('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  // the api-extensions category (kubectl get api-extensions): CRDs, webhook configurations, admission policies
  r(
    'apiextensions.k8s.io',
    'v1',
    'CustomResourceDefinition',
    'customresourcedefinitions',
    false,
    ['crd', 'crds'],
    ['status'],
    ['api-extensions'],
  ),
  r(
    'admissionregistration.k8s.io',
    'v1',
    'ValidatingWebhookConfiguration',
    'validatingwebhookconfigurations',
    false,
    [],
    [],
    ['api-extensions'],
  ),
  r(
    'admissionregistration.k8s.io',
    'v1',
    'MutatingWebhookConfiguration',
    'mutatingwebhookconfigurations',
    false,
    [],
    [],
    ['api-extensions'],
  ),
  r(
    'admissionregistration.k8s.io',
    'v1',
    'ValidatingAdmissionPolicy',
    'validatingadmissionpolicies',
    false,
    [],
    ['status'],
    ['api-extensions'],
  ),
  r(
    'admissionregistration.k8s.io',
    'v1',
    'ValidatingAdmissionPolicyBinding',
    'validatingadmissionpolicybindings',
    false,
    [],
    [],
    ['api-extensions'],
  ),
  r('events.k8s.io', 'v1', 'Event', 'events', true, ['ev']),
  r('node.k8s.io', 'v1', 'RuntimeClass', 'runtimeclasses', false),
  r('certificates.k8s.io', 'v1', 'CertificateSigningRequest', 'certificatesigningrequests', false, ['csr'], ['approval', 'status']),
  r('flowcontrol.apiserver.k8s.io', 'v1', 'FlowSchema', 'flowschemas', false, [], ['status']),
  r('flowcontrol.apiserver.k8s.io', 'v1', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', false, [], ['status']),
];

/** "apps/v1" → ["apps", "v1"]; "v1" → ["", "v1"]. */
export function parseApiVersion(apiVersion: string): [string, string] {
  const i = apiVersion.indexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

/** "deployments.apps" or "pods": the group-qualified resource used in error messages. */
export function groupResource(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return info.group ? `${info.resource}.${info.group}` : info.resource;
}

/** "Deployment.apps" or "Pod": the group-qualified kind used in 422 messages. */
export function groupKind(info: Pick<ResourceInfo, 'group' | 'kind'>): string {
  return info.group ? `${info.kind}.${info.group}` : info.kind;
}

/** "apps/v1" or "v1". */
export function apiVersionOf(info: Pick<ResourceInfo, 'group' | 'version'>): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/**
 * A mutable registry (the RESTMapper + discovery). The first entry registered for a
 * (group, resource) is its preferred version; every version of a resource shares storage.
 */
export class ResourceRegistry {
  private byGVK = new Map<string, ResourceInfo>();
  private byGR = new Map<string, ResourceInfo>();

  constructor(infos: ResourceInfo[] = BUILTIN_RESOURCES) {
    for (const i of infos) this.add(i);
  }

  /** Adds (or replaces) a served version. */
  add(info: ResourceInfo): void {
    this.byGVK.set(`${info.group}/${info.version}/${info.kind}`, info);
    const gr = groupResource(info);
    if (!this.byGR.has(gr) || this.byGR.get(gr)!.custom) this.byGR.set(gr, info);
  }

  /** Removes every version of a resource (a deleted CRD). */
  removeGroupResource(group: string, resource: string): void {
    for (const [k, v] of this.byGVK) if (v.group === group && v.resource === resource) this.byGVK.delete(k);
    this.byGR.delete(group ? `${resource}.${group}` : resource);
  }

  /** Looks up apiVersion + kind; undefined when nothing serves it ("no matches for kind"). */
  forKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    const [g, v] = parseApiVersion(apiVersion);
    return this.byGVK.get(`${g}/${v}/${kind}`);
  }

  /** Preferred version of a group/resource, e.g. ("apps", "deployments"). */
  forResource(group: string, resource: string): ResourceInfo | undefined {
    return this.byGR.get(group ? `${resource}.${group}` : resource);
  }

  /** Any served version for a kind in a group (for "did you mean" and storage). */
  kindsInGroup(group: string, kind: string): ResourceInfo[] {
    return [...this.byGVK.values()].filter((i) => i.group === group && i.kind === kind);
  }

  /**
   * Resolves what a user typed after `kubectl get` (`po`, `pods`, `pod`, `deploy`,
   * `deployments.apps`, `Deployment`), as kubectl's RESTMapper does. Undefined when unknown.
   */
  resolve(name: string): ResourceInfo | undefined {
    const n = name.toLowerCase();
    const [base, ...groupParts] = n.split('.');
    const group = groupParts.join('.');
    for (const i of this.byGR.values()) {
      if (group && i.group !== group) continue;
      if (i.resource === base || i.singular === base || i.kind.toLowerCase() === base || i.shortNames.includes(base)) {
        // prefer the core/preferred entry: events → core Event
        return i;
      }
    }
    return undefined;
  }

  /** Every preferred resource (one per group/resource). */
  all(): ResourceInfo[] {
    return [...this.byGR.values()];
  }

  /** Every served group/version/kind. */
  allVersions(): ResourceInfo[] {
    return [...this.byGVK.values()];
  }
}
