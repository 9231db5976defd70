/**
 * The RBAC bootstrap policy kube-apiserver reconciles at start (its `rbac/bootstrap-roles`
 * post-start hook), as v1.33 defines it in plugin/pkg/auth/authorizer/rbac/bootstrappolicy:
 * policy.go (ClusterRoles, ClusterRoleBindings), controller_policy.go (one
 * `system:controller:<name>` ClusterRole and binding per kube-controller-manager loop, bound
 * to its ServiceAccount in kube-system, as `--use-service-account-credentials` runs them) and
 * namespace_policy.go (the Roles and RoleBindings in kube-system and kube-public). The rules
 * are the data of that folder's testdata/cluster-roles.yaml and controller-roles.yaml.
 *
 * Then what kubeadm adds (cmd/kubeadm/app/phases: the `kubeadm:cluster-admins` binding of
 * the admin kubeconfig's group, kube-proxy's and CoreDNS's), and the ClusterRoles and
 * bindings the add-ons kube-relay simulates ship in their manifests (metrics-server,
 * ingress-nginx, local-path-provisioner) plus kube-relay's own machine controller.
 */
import type { KObject } from '../../api/types';

/** An rbac.authorization.k8s.io/v1 PolicyRule. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A resource rule: API groups, space-separated resources and verbs, optional resourceNames. */
function R(apiGroups: string[], resources: string, verbs: string, resourceNames?: string): PolicyRule {
  const r: PolicyRule = { apiGroups, resources: resources.split(' '), verbs: verbs.split(' ') };
  if (resourceNames) r.resourceNames = resourceNames.split(' ');
  return r;
}
/** A non-resource rule. */
function N(urls: string, verbs: string): PolicyRule {
  return { nonResourceURLs: urls.split(' '), verbs: verbs.split(' ') };
}
const C = ['']; // the core group
const EVENTS = R(['', 'events.k8s.io'], 'events', 'create patch update');
const RW = 'create delete deletecollection patch update';
const READ = 'get list watch';

const AGG = 'rbac.authorization.k8s.io/aggregate-to-';

interface RoleSpec {
  name: string;
  rules: PolicyRule[];
  /** aggregationRule.clusterRoleSelectors[].matchLabels of one label `aggregate-to-<x>`. */
  aggregateFrom?: string;
  /** labels beyond kubernetes.io/bootstrapping (the aggregate-to-* ones). */
  labels?: Record<string, string>;
}

const agg = (...to: string[]): Record<string, string> => Object.fromEntries(to.map((t) => [AGG + t, 'true']));

/** policy.go ClusterRoles() (testdata/cluster-roles.yaml). */
const CLUSTER_ROLES: RoleSpec[] = [
  { name: 'admin', rules: [], aggregateFrom: 'admin' },
  { name: 'cluster-admin', rules: [R(['*'], '*', '*'), N('*', '*')] },
  { name: 'edit', rules: [], aggregateFrom: 'edit', labels: agg('admin') },
  {
    name: 'system:aggregate-to-admin',
    labels: agg('admin'),
    rules: [
      R(['authorization.k8s.io'], 'localsubjectaccessreviews', 'create'),
      R(['rbac.authorization.k8s.io'], 'rolebindings roles', 'create delete deletecollection get list patch update watch'),
    ],
  },
  {
    name: 'system:aggregate-to-edit',
    labels: agg('edit'),
    rules: [
      R(C, 'pods/attach pods/exec pods/portforward pods/proxy secrets services/proxy', READ),
      R(C, 'serviceaccounts', 'impersonate'),
      R(C, 'pods pods/attach pods/exec pods/portforward pods/proxy', RW),
      R(C, 'pods/eviction', 'create'),
      R(
        C,
        'configmaps events persistentvolumeclaims replicationcontrollers replicationcontrollers/scale secrets serviceaccounts services services/proxy',
        RW,
      ),
      R(C, 'serviceaccounts/token', 'create'),
      R(
        ['apps'],
        'daemonsets deployments deployments/rollback deployments/scale replicasets replicasets/scale statefulsets statefulsets/scale',
        RW,
      ),
      R(['autoscaling'], 'horizontalpodautoscalers', RW),
      R(['batch'], 'cronjobs jobs', RW),
      R(
        ['extensions'],
        'daemonsets deployments deployments/rollback deployments/scale ingresses networkpolicies replicasets replicasets/scale replicationcontrollers/scale',
        RW,
      ),
      R(['policy'], 'poddisruptionbudgets', RW),
      R(['networking.k8s.io'], 'ingresses networkpolicies', RW),
      R(['coordination.k8s.io'], 'leases', 'create delete deletecollection get list patch update watch'),
    ],
  },
  {
    name: 'system:aggregate-to-view',
    labels: agg('view'),
    rules: [
      R(
        C,
        'configmaps endpoints persistentvolumeclaims persistentvolumeclaims/status pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status',
        READ,
      ),
      R(
        C,
        'bindings events limitranges namespaces/status pods/log pods/status replicationcontrollers/status resourcequotas resourcequotas/status',
        READ,
      ),
      R(C, 'namespaces', READ),
      R(['discovery.k8s.io'], 'endpointslices', READ),
      R(
        ['apps'],
        'controllerrevisions daemonsets daemonsets/status deployments deployments/scale deployments/status replicasets replicasets/scale replicasets/status statefulsets statefulsets/scale statefulsets/status',
        READ,
      ),
      R(['autoscaling'], 'horizontalpodautoscalers horizontalpodautoscalers/status', READ),
      R(['batch'], 'cronjobs cronjobs/status jobs jobs/status', READ),
      R(
        ['extensions'],
        'daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status networkpolicies replicasets replicasets/scale replicasets/status replicationcontrollers/scale',
        READ,
      ),
      R(['policy'], 'poddisruptionbudgets poddisruptionbudgets/status', READ),
      R(['networking.k8s.io'], 'ingresses ingresses/status networkpolicies', READ),
    ],
  },
  {
    name: 'system:auth-delegator',
    rules: [R(['authentication.k8s.io'], 'tokenreviews', 'create'), R(['authorization.k8s.io'], 'subjectaccessreviews', 'create')],
  },
  {
    name: 'system:basic-user',
    rules: [
      R(['authorization.k8s.io'], 'selfsubjectaccessreviews selfsubjectrulesreviews', 'create'),
      R(['authentication.k8s.io'], 'selfsubjectreviews', 'create'),
    ],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
    rules: [R(['certificates.k8s.io'], 'certificatesigningrequests/nodeclient', 'create')],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    rules: [R(['certificates.k8s.io'], 'certificatesigningrequests/selfnodeclient', 'create')],
  },
  {
    name: 'system:certificates.k8s.io:kube-apiserver-client-approver',
    rules: [R(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/kube-apiserver-client')],
  },
  {
    name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
    rules: [R(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/kube-apiserver-client-kubelet')],
  },
  {
    name: 'system:certificates.k8s.io:kubelet-serving-approver',
    rules: [R(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/kubelet-serving')],
  },
  {
    name: 'system:certificates.k8s.io:legacy-unknown-approver',
    rules: [R(['certificates.k8s.io'], 'signers', 'approve', 'kubernetes.io/legacy-unknown')],
  },
  {
    name: 'system:discovery',
    rules: [N('/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/', 'get')],
  },
  { name: 'system:heapster', rules: [R(C, 'events namespaces nodes pods', READ), R(['extensions'], 'deployments', READ)] },
  { name: 'system:kube-aggregator', rules: [R(C, 'endpoints services', READ)] },
  {
    name: 'system:kube-controller-manager',
    rules: [
      EVENTS,
      R(['coordination.k8s.io'], 'leases', 'create'),
      R(['coordination.k8s.io'], 'leases', 'get update', 'kube-controller-manager'),
      R(C, 'secrets serviceaccounts', 'create'),
      R(C, 'secrets', 'delete'),
      R(C, 'configmaps namespaces secrets serviceaccounts', 'get'),
      R(C, 'secrets serviceaccounts', 'update'),
      R(['authentication.k8s.io'], 'tokenreviews', 'create'),
      R(['authorization.k8s.io'], 'subjectaccessreviews', 'create'),
      R(['*'], '*', 'list watch'),
      R(C, 'serviceaccounts/token', 'create'),
    ],
  },
  { name: 'system:kube-dns', rules: [R(C, 'endpoints services', 'list watch')] },
  {
    name: 'system:kube-scheduler',
    rules: [
      EVENTS,
      R(['coordination.k8s.io'], 'leases', 'create'),
      R(['coordination.k8s.io'], 'leases', 'get update', 'kube-scheduler'),
      R(C, 'nodes', READ),
      R(C, 'pods', 'delete get list watch'),
      R(C, 'bindings pods/binding', 'create'),
      R(C, 'pods/status', 'patch update'),
      R(C, 'replicationcontrollers services', READ),
      R(['apps', 'extensions'], 'replicasets', READ),
      R(['apps'], 'statefulsets', READ),
      R(['policy'], 'poddisruptionbudgets', READ),
      R(C, 'persistentvolumeclaims persistentvolumes', READ),
      R(['authentication.k8s.io'], 'tokenreviews', 'create'),
      R(['authorization.k8s.io'], 'subjectaccessreviews', 'create'),
      R(['storage.k8s.io'], 'csinodes', READ),
      R(C, 'namespaces', READ),
      R(['storage.k8s.io'], 'csidrivers', READ),
      R(['storage.k8s.io'], 'csistoragecapacities', READ),
    ],
  },
  {
    name: 'system:kubelet-api-admin',
    rules: [R(C, 'nodes', READ), R(C, 'nodes', 'proxy'), R(C, 'nodes/log nodes/metrics nodes/proxy nodes/stats', '*')],
  },
  { name: 'system:monitoring', rules: [N('/healthz /healthz/* /livez /livez/* /metrics /metrics/slis /readyz /readyz/*', 'get')] },
  { name: 'system:node', rules: nodeRules() },
  { name: 'system:node-bootstrapper', rules: [R(['certificates.k8s.io'], 'certificatesigningrequests', 'create get list watch')] },
  { name: 'system:node-problem-detector', rules: [R(C, 'nodes', 'get'), R(C, 'nodes/status', 'patch'), EVENTS] },
  {
    name: 'system:node-proxier',
    rules: [R(C, 'endpoints services', 'list watch'), R(C, 'nodes', READ), EVENTS, R(['discovery.k8s.io'], 'endpointslices', 'list watch')],
  },
  {
    name: 'system:persistent-volume-provisioner',
    rules: [
      R(C, 'persistentvolumes', 'create delete get list watch'),
      R(C, 'persistentvolumeclaims', 'get list update watch'),
      R(['storage.k8s.io'], 'storageclasses', READ),
      R(C, 'events', 'watch'),
      EVENTS,
    ],
  },
  { name: 'system:public-info-viewer', rules: [N('/healthz /livez /readyz /version /version/', 'get')] },
  { name: 'system:service-account-issuer-discovery', rules: [N('/.well-known/openid-configuration /openid/v1/jwks', 'get')] },
  {
    name: 'system:volume-scheduler',
    rules: [
      R(C, 'persistentvolumes', 'get list patch update watch'),
      R(['storage.k8s.io'], 'storageclasses', READ),
      R(C, 'persistentvolumeclaims', 'get list patch update watch'),
    ],
  },
  { name: 'view', rules: [], aggregateFrom: 'view', labels: agg('edit') },
];

/**
 * The system:node ClusterRole's rules (policy.go NodeRules()): what the Node authorizer
 * allows a kubelet beyond the objects its graph relates to it.
 */
export function nodeRules(): PolicyRule[] {
  return [
    R(['authentication.k8s.io'], 'tokenreviews', 'create'),
    R(['authorization.k8s.io'], 'localsubjectaccessreviews subjectaccessreviews', 'create'),
    R(C, 'services', READ),
    R(C, 'nodes', 'create get list watch'),
    R(C, 'nodes/status', 'patch update'),
    R(C, 'nodes', 'patch update'),
    R(C, 'events', 'create patch update'),
    R(C, 'pods', READ),
    R(C, 'pods', 'create delete'),
    R(C, 'pods/status', 'patch update'),
    R(C, 'pods/eviction', 'create'),
    R(C, 'configmaps secrets', READ),
    R(C, 'persistentvolumeclaims persistentvolumes', 'get'),
    R(C, 'endpoints', 'get'),
    R(['certificates.k8s.io'], 'certificatesigningrequests', 'create get list watch'),
    R(['coordination.k8s.io'], 'leases', 'create delete get patch update'),
    R(['storage.k8s.io'], 'volumeattachments', 'get'),
    R(C, 'serviceaccounts/token', 'create'),
    R(C, 'persistentvolumeclaims/status', 'get patch update'),
    R(['storage.k8s.io'], 'csidrivers', READ),
    R(['storage.k8s.io'], 'csinodes', 'create delete get patch update'),
    R(['node.k8s.io'], 'runtimeclasses', READ),
  ];
}

/**
 * controller_policy.go: the role of each controller loop, by ServiceAccount name (the role is
 * `system:controller:<sa>`, bound by a ClusterRoleBinding of the same name to the
 * ServiceAccount kube-system/<sa>).
 */
const CONTROLLER_ROLES: [string, PolicyRule[]][] = [
  [
    'attachdetach-controller',
    [
      R(C, 'persistentvolumeclaims persistentvolumes', 'list watch'),
      R(C, 'nodes', READ),
      R(C, 'nodes/status', 'patch update'),
      R(C, 'pods', 'list watch'),
      EVENTS,
      R(['storage.k8s.io'], 'volumeattachments', 'create delete get list watch'),
      R(['storage.k8s.io'], 'csidrivers', READ),
      R(['storage.k8s.io'], 'csinodes', READ),
    ],
  ],
  ['clusterrole-aggregation-controller', [R(['rbac.authorization.k8s.io'], 'clusterroles', 'escalate get list patch update watch')]],
  [
    'cronjob-controller',
    [
      R(['batch'], 'cronjobs', 'get list update watch'),
      R(['batch'], 'jobs', 'create delete get list patch update watch'),
      R(['batch'], 'cronjobs/status', 'update'),
      R(['batch'], 'cronjobs/finalizers', 'update'),
      R(C, 'pods', 'delete list watch'),
      EVENTS,
    ],
  ],
  [
    'daemon-set-controller',
    [
      R(['apps', 'extensions'], 'daemonsets', READ),
      R(['apps', 'extensions'], 'daemonsets/status', 'update'),
      R(['apps', 'extensions'], 'daemonsets/finalizers', 'update'),
      R(C, 'nodes', 'list watch'),
      R(C, 'pods', 'create delete list patch watch'),
      R(C, 'pods/binding', 'create'),
      R(['apps'], 'controllerrevisions', 'create delete get list patch update watch'),
      EVENTS,
    ],
  ],
  [
    'deployment-controller',
    [
      R(['apps', 'extensions'], 'deployments', 'get list update watch'),
      R(['apps', 'extensions'], 'deployments/status', 'update'),
      R(['apps', 'extensions'], 'deployments/finalizers', 'update'),
      R(['apps', 'extensions'], 'replicasets', 'create delete get list patch update watch'),
      R(C, 'pods', 'get list update watch'),
      EVENTS,
    ],
  ],
  [
    'disruption-controller',
    [
      R(['apps', 'extensions'], 'deployments', READ),
      R(['apps', 'extensions'], 'replicasets', READ),
      R(C, 'replicationcontrollers', READ),
      R(['policy'], 'poddisruptionbudgets', READ),
      R(['apps'], 'statefulsets', READ),
      R(['policy'], 'poddisruptionbudgets/status', 'update'),
      R(C, 'pods/status', 'patch update'),
      R(['*'], '*/scale', 'get'),
      EVENTS,
    ],
  ],
  [
    'endpoint-controller',
    [R(C, 'pods services', READ), R(C, 'endpoints', 'create delete get list update watch'), R(C, 'endpoints/restricted', 'create'), EVENTS],
  ],
  [
    'endpointslice-controller',
    [
      R(C, 'nodes pods services', READ),
      R(C, 'services/finalizers', 'update'),
      R(['discovery.k8s.io'], 'endpointslices', 'create delete get list update watch'),
      EVENTS,
    ],
  ],
  [
    'endpointslicemirroring-controller',
    [
      R(C, 'endpoints services', READ),
      R(C, 'services/finalizers', 'update'),
      R(C, 'endpoints/finalizers', 'update'),
      R(['discovery.k8s.io'], 'endpointslices', 'create delete get list update watch'),
      EVENTS,
    ],
  ],
  [
    'ephemeral-volume-controller',
    [R(C, 'pods', READ), R(C, 'pods/finalizers', 'update'), R(C, 'persistentvolumeclaims', 'create get list watch'), EVENTS],
  ],
  [
    'expand-controller',
    [
      R(C, 'persistentvolumes', 'get list patch update watch'),
      R(C, 'persistentvolumeclaims/status', 'patch update'),
      R(C, 'persistentvolumeclaims', READ),
      EVENTS,
    ],
  ],
  ['generic-garbage-collector', [R(['*'], '*', 'delete get list patch update watch'), EVENTS]],
  [
    'horizontal-pod-autoscaler',
    [
      R(['autoscaling'], 'horizontalpodautoscalers', READ),
      R(['autoscaling'], 'horizontalpodautoscalers/status', 'update'),
      R(['*'], '*/scale', 'get update'),
      R(C, 'pods', 'list watch'),
      R(['metrics.k8s.io'], 'pods', 'list watch'),
      R(['custom.metrics.k8s.io'], '*', READ),
      R(['external.metrics.k8s.io'], '*', READ),
      EVENTS,
    ],
  ],
  [
    'job-controller',
    [
      R(['batch'], 'jobs', 'get list patch update watch'),
      R(['batch'], 'jobs/status', 'update'),
      R(['batch'], 'jobs/finalizers', 'update'),
      R(C, 'pods', 'create delete list patch watch'),
      EVENTS,
    ],
  ],
  [
    'namespace-controller',
    [
      R(C, 'namespaces', 'delete get list watch'),
      R(C, 'namespaces/finalize namespaces/status', 'update'),
      R(['*'], '*', 'delete deletecollection get list watch'),
    ],
  ],
  [
    'node-controller',
    [
      R(C, 'nodes', 'delete get list patch update watch'),
      R(C, 'nodes/status', 'patch update'),
      R(C, 'pods/status', 'patch update'),
      R(C, 'pods', 'delete get list watch'),
      EVENTS,
    ],
  ],
  [
    'persistent-volume-binder',
    [
      R(C, 'persistentvolumes', 'create delete get list update watch'),
      R(C, 'persistentvolumes/status', 'update'),
      R(C, 'persistentvolumeclaims', 'get list update watch'),
      R(C, 'persistentvolumeclaims/status', 'update'),
      R(C, 'pods', 'create delete get list watch'),
      R(['storage.k8s.io'], 'storageclasses', READ),
      R(C, 'nodes', 'list watch'),
      EVENTS,
      R(C, 'events', 'watch'),
    ],
  ],
  ['pod-garbage-collector', [R(C, 'pods', 'delete list watch'), R(C, 'nodes', READ), R(C, 'pods/status', 'patch')]],
  ['pv-protection-controller', [R(C, 'persistentvolumes', 'get list update watch'), EVENTS]],
  [
    'pvc-protection-controller',
    [R(C, 'persistentvolumeclaims', 'get list update watch'), R(C, 'persistentvolumeclaims/status', 'update'), R(C, 'pods', READ), EVENTS],
  ],
  [
    'replicaset-controller',
    [
      R(['apps', 'extensions'], 'replicasets', 'get list update watch'),
      R(['apps', 'extensions'], 'replicasets/status', 'update'),
      R(['apps', 'extensions'], 'replicasets/finalizers', 'update'),
      R(C, 'pods', 'create delete list patch watch'),
      EVENTS,
    ],
  ],
  [
    'replication-controller',
    [
      R(C, 'replicationcontrollers', 'get list update watch'),
      R(C, 'replicationcontrollers/status', 'update'),
      R(C, 'replicationcontrollers/finalizers', 'update'),
      R(C, 'pods', 'create delete list patch watch'),
      EVENTS,
    ],
  ],
  ['resourcequota-controller', [R(['*'], '*', 'list watch'), R(C, 'resourcequotas/status', 'update'), EVENTS]],
  ['root-ca-cert-publisher', [R(C, 'configmaps', 'create update'), EVENTS]],
  ['route-controller', [R(C, 'nodes', 'list watch'), R(C, 'nodes/status', 'patch'), EVENTS]],
  ['service-account-controller', [R(C, 'serviceaccounts', 'create'), EVENTS]],
  ['service-controller', [R(C, 'services', READ), R(C, 'services/status', 'patch update'), R(C, 'nodes', 'list watch'), EVENTS]],
  [
    'statefulset-controller',
    [
      R(C, 'pods', 'list watch'),
      R(['apps'], 'statefulsets', READ),
      R(['apps'], 'statefulsets/status', 'update'),
      R(['apps'], 'statefulsets/finalizers', 'update'),
      R(C, 'pods', 'create delete get patch update'),
      R(['apps'], 'controllerrevisions', 'create delete get list patch update watch'),
      R(C, 'persistentvolumeclaims', 'create get list watch'),
      R(C, 'persistentvolumeclaims', 'delete update'),
      R(C, 'pods/finalizers', 'update'),
      EVENTS,
    ],
  ],
  ['taint-eviction-controller', [R(C, 'pods', 'delete get list watch'), R(C, 'pods/status', 'patch update'), EVENTS]],
  ['ttl-after-finished-controller', [R(['batch'], 'jobs', 'delete get list watch'), EVENTS]],
  ['ttl-controller', [R(C, 'nodes', 'list patch update watch'), EVENTS]],
];

/**
 * The add-on policy kube-relay's simulated components run under (kubeadm's `system:coredns`
 * comes with CoreDNS's objects, dns/coredns.ts): metrics-server's
 * `system:metrics-server` (its components.yaml), ingress-nginx's `ingress-nginx` (its
 * deploy.yaml, cluster part), local-path-provisioner's `local-path-provisioner-role`,
 * kube-relay's own `kube-relay:machine-controller`.
 */
const ADDON_ROLES: RoleSpec[] = [
  { name: 'system:metrics-server', rules: [R(C, 'nodes/metrics', 'get'), R(C, 'pods nodes', READ)] },
  // kube-relay's simulated load is set per workload: its metrics-server reads the workload's selector
  { name: 'kube-relay:metrics-server-extras', rules: [R(['apps'], 'deployments replicasets statefulsets daemonsets', 'get list')] },
  {
    name: 'ingress-nginx',
    rules: [
      R(C, 'configmaps endpoints nodes pods secrets namespaces', 'list watch'),
      R(['coordination.k8s.io'], 'leases', 'list watch'),
      R(C, 'nodes', 'get'),
      R(C, 'services', READ),
      R(['networking.k8s.io'], 'ingresses', READ),
      R(C, 'events', 'create patch'),
      R(['networking.k8s.io'], 'ingresses/status', 'update'),
      R(['networking.k8s.io'], 'ingressclasses', READ),
      R(['discovery.k8s.io'], 'endpointslices', 'list watch get'),
    ],
  },
  {
    name: 'local-path-provisioner-role',
    rules: [
      R(C, 'nodes persistentvolumeclaims configmaps pods pods/log', READ),
      R(C, 'persistentvolumes', 'get list watch create patch update delete'),
      R(C, 'events', 'create patch'),
      R(['storage.k8s.io'], 'storageclasses', READ),
    ],
  },
  // kube-relay's scheduler reads PriorityClasses (preemption; upstream the Priority admission plugin resolves them)
  { name: 'kube-relay:kube-scheduler-extras', rules: [R(['scheduling.k8s.io'], 'priorityclasses', READ)] },
  // kube-relay's job controller removes its tracking finalizer with get + update (upstream: a patch)
  { name: 'kube-relay:job-controller-extras', rules: [R(C, 'pods', 'get update')] },
  // kube-relay's service controller updates the load-balancer cleanup finalizer on the Service (upstream: a patch of services/status)
  { name: 'kube-relay:service-controller-extras', rules: [R(C, 'services', 'update')] },
  // kube-relay's pod GC marks a Pod Failed with an update of pods/status (upstream: a patch)
  { name: 'kube-relay:pod-garbage-collector-extras', rules: [R(C, 'pods/status', 'update')] },
  {
    name: 'kube-relay:machine-controller',
    rules: [R(['sim.kube-relay.dev'], 'machines machines/status', 'get list watch update patch'), R(C, 'nodes', READ), EVENTS],
  },
];

/** A subject of a binding (rbacv1.Subject). */
export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
  apiGroup?: string;
}
const U = (name: string): Subject => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
const G = (name: string): Subject => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
const SA = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

/** policy.go ClusterRoleBindings() + kubeadm's + the add-ons': [binding name, ClusterRole, subjects]. */
const CLUSTER_ROLE_BINDINGS: [string, string, Subject[]][] = [
  ['cluster-admin', 'cluster-admin', [G('system:masters')]],
  ['system:monitoring', 'system:monitoring', [G('system:monitoring')]],
  ['system:discovery', 'system:discovery', [G('system:authenticated')]],
  ['system:basic-user', 'system:basic-user', [G('system:authenticated')]],
  ['system:public-info-viewer', 'system:public-info-viewer', [G('system:authenticated'), G('system:unauthenticated')]],
  ['system:node-proxier', 'system:node-proxier', [U('system:kube-proxy')]],
  ['system:kube-controller-manager', 'system:kube-controller-manager', [U('system:kube-controller-manager')]],
  ['system:kube-dns', 'system:kube-dns', [SA('kube-system', 'kube-dns')]],
  ['system:kube-scheduler', 'system:kube-scheduler', [U('system:kube-scheduler')]],
  ['system:volume-scheduler', 'system:volume-scheduler', [U('system:kube-scheduler')]],
  ['system:node', 'system:node', []],
  ['system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [G('system:serviceaccounts')]],
  // kubeadm
  ['kubeadm:cluster-admins', 'cluster-admin', [G('kubeadm:cluster-admins')]],
  ['kubeadm:node-proxier', 'system:node-proxier', [SA('kube-system', 'kube-proxy')]],
  // add-ons
  ['system:metrics-server', 'system:metrics-server', [SA('kube-system', 'metrics-server')]],
  ['ingress-nginx', 'ingress-nginx', [SA('ingress-nginx', 'ingress-nginx')]],
  ['local-path-provisioner-bind', 'local-path-provisioner-role', [SA('local-path-storage', 'local-path-provisioner-service-account')]],
  ['csi-provisioner', 'system:persistent-volume-provisioner', [SA('kube-system', 'csi-provisioner')]],
  ['kube-relay:machine-controller', 'kube-relay:machine-controller', [SA('kube-system', 'machine-controller')]],
  ['kube-relay:job-controller-extras', 'kube-relay:job-controller-extras', [SA('kube-system', 'job-controller')]],
  ['kube-relay:service-controller-extras', 'kube-relay:service-controller-extras', [SA('kube-system', 'service-controller')]],
  ['kube-relay:pod-garbage-collector-extras', 'kube-relay:pod-garbage-collector-extras', [SA('kube-system', 'pod-garbage-collector')]],
  ['kube-relay:metrics-server-extras', 'kube-relay:metrics-server-extras', [SA('kube-system', 'metrics-server')]],
  ['kube-relay:kube-scheduler-extras', 'kube-relay:kube-scheduler-extras', [U('system:kube-scheduler')]],
];

/** namespace_policy.go: Roles per namespace. */
const NAMESPACE_ROLES: [string, string, PolicyRule[]][] = [
  ['kube-public', 'system:controller:bootstrap-signer', [R(C, 'configmaps', READ), R(C, 'configmaps', 'update', 'cluster-info'), EVENTS]],
  ['kube-system', 'extension-apiserver-authentication-reader', [R(C, 'configmaps', READ, 'extension-apiserver-authentication')]],
  [
    'kube-system',
    'system::leader-locking-kube-controller-manager',
    [
      R(['coordination.k8s.io'], 'leases', 'create get list update watch'),
      R(['coordination.k8s.io'], 'leasecandidates', 'create get list update watch'),
    ],
  ],
  [
    'kube-system',
    'system::leader-locking-kube-scheduler',
    [
      R(['coordination.k8s.io'], 'leases', 'create get list update watch'),
      R(['coordination.k8s.io'], 'leasecandidates', 'create get list update watch'),
    ],
  ],
  ['kube-system', 'system:controller:bootstrap-signer', [R(C, 'secrets', READ)]],
  ['kube-system', 'system:controller:cloud-provider', [R(C, 'configmaps', 'create get list watch')]],
  ['kube-system', 'system:controller:token-cleaner', [R(C, 'secrets', 'delete get list watch'), EVENTS]],
];

/** namespace_policy.go: RoleBindings [namespace, name, Role, subjects]. */
const NAMESPACE_ROLE_BINDINGS: [string, string, string, Subject[]][] = [
  ['kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [SA('kube-system', 'bootstrap-signer')]],
  [
    'kube-system',
    'system::extension-apiserver-authentication-reader',
    'extension-apiserver-authentication-reader',
    [U('system:kube-controller-manager'), U('system:kube-scheduler')],
  ],
  [
    'kube-system',
    'system::leader-locking-kube-controller-manager',
    'system::leader-locking-kube-controller-manager',
    [U('system:kube-controller-manager'), SA('kube-system', 'kube-controller-manager')],
  ],
  [
    'kube-system',
    'system::leader-locking-kube-scheduler',
    'system::leader-locking-kube-scheduler',
    [U('system:kube-scheduler'), SA('kube-system', 'kube-scheduler')],
  ],
  ['kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [SA('kube-system', 'bootstrap-signer')]],
  ['kube-system', 'system:controller:cloud-provider', 'system:controller:cloud-provider', [SA('kube-system', 'cloud-provider')]],
  ['kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', [SA('kube-system', 'token-cleaner')]],
];

const BOOTSTRAP_META = (
  name: string,
  extraLabels?: Record<string, string>,
  namespace?: string,
  autoupdate = true,
): KObject['metadata'] => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...extraLabels },
  ...(autoupdate ? { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } } : {}),
});

/**
 * Every object of the bootstrap policy, in the order kube-apiserver's hook reconciles them:
 * ClusterRoles, ClusterRoleBindings, Roles, RoleBindings. Aggregated roles (admin, edit,
 * view) carry their aggregationRule with empty rules; the aggregation controller fills them.
 */
export function bootstrapPolicyObjects(): KObject[] {
  const out: KObject[] = [];
  const api = 'rbac.authorization.k8s.io/v1';
  const roles: RoleSpec[] = [
    ...CLUSTER_ROLES,
    ...CONTROLLER_ROLES.map(([sa, rules]) => ({ name: `system:controller:${sa}`, rules })),
    ...ADDON_ROLES,
  ];
  for (const r of roles) {
    const o: KObject = {
      apiVersion: api,
      kind: 'ClusterRole',
      metadata: BOOTSTRAP_META(r.name, r.labels),
      rules: r.rules.map((x) => ({ ...x })),
    };
    if (r.aggregateFrom) o.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [AGG + r.aggregateFrom]: 'true' } }] };
    out.push(o);
  }
  const crb = (name: string, role: string, subjects: Subject[]): KObject => {
    const o: KObject = {
      apiVersion: api,
      kind: 'ClusterRoleBinding',
      metadata: BOOTSTRAP_META(name),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    };
    if (subjects.length) o.subjects = subjects.map((s) => ({ ...s }));
    return o;
  };
  for (const [name, role, subjects] of CLUSTER_ROLE_BINDINGS) out.push(crb(name, role, subjects));
  for (const [sa] of CONTROLLER_ROLES) out.push(crb(`system:controller:${sa}`, `system:controller:${sa}`, [SA('kube-system', sa)]));
  for (const [ns, name, rules] of NAMESPACE_ROLES)
    out.push({ apiVersion: api, kind: 'Role', metadata: BOOTSTRAP_META(name, undefined, ns), rules: rules.map((x) => ({ ...x })) });
  for (const [ns, name, role, subjects] of NAMESPACE_ROLE_BINDINGS) {
    out.push({
      apiVersion: api,
      kind: 'RoleBinding',
      metadata: BOOTSTRAP_META(name, undefined, ns),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
      subjects: subjects.map((s) => ({ ...s })),
    });
  }
  return out;
}

/** The ServiceAccount name each controller loop runs as (controller_policy.go), by relay participant. */
export const CONTROLLER_SERVICE_ACCOUNTS: ReadonlyMap<string, string> = new Map([
  ['daemonset-controller', 'daemon-set-controller'],
  ['serviceaccount-controller', 'service-account-controller'],
  ['horizontal-pod-autoscaler-controller', 'horizontal-pod-autoscaler'],
  ['persistentvolume-binder-controller', 'persistent-volume-binder'],
  ['endpoints-controller', 'endpoint-controller'],
  ['node-lifecycle-controller', 'node-controller'],
  ['garbage-collector-controller', 'generic-garbage-collector'],
  ['pod-garbage-collector-controller', 'pod-garbage-collector'],
]);
