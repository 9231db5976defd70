/**
 * Which kube-relay components reconcile each kind (the UI's "stored only — no controller"
 * marker for the rest). A kind missing here is kept by kube-apiserver in etcd and served
 * back, but nothing in this cluster acts on it: an Ingress of a class no controller serves
 * (ingress-nginx serves class `nginx`), a NetworkPolicy without a network plugin that enforces it, Roles and bindings (the
 * authorizer reads them; no controller acts on them), webhook configurations, custom resources other than Machine.
 *
 * Names are the relay participant names of docs/architecture.md#relay-participants (per-node components without the
 * `/NODE` suffix). The garbage collector acts on every kind with ownerReferences; it is
 * listed only where it is the reason an object goes away on its own.
 */
export const RECONCILERS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['deployment-controller'],
  ReplicaSet: ['replicaset-controller', 'garbage-collector-controller'],
  ReplicationController: ['replication-controller', 'garbage-collector-controller'],
  // every loop that writes Pods: binds, runs, creates/deletes them for an owner, marks them
  // NotReady with their node, evicts, or cleans up orphans
  Pod: [
    'kube-scheduler',
    'kubelet',
    'replicaset-controller',
    'replication-controller',
    'statefulset-controller',
    'daemonset-controller',
    'job-controller',
    'node-lifecycle-controller',
    'taint-eviction-controller',
    'pod-garbage-collector-controller',
    'garbage-collector-controller',
  ],
  Node: ['kubelet', 'node-lifecycle-controller'],
  Namespace: ['namespace-controller'],
  Service: ['endpointslice-controller', 'endpoints-controller', 'service-controller', 'kube-proxy', 'coredns'],
  Endpoints: ['endpoints-controller'],
  EndpointSlice: ['endpointslice-controller', 'kube-proxy'],
  StatefulSet: ['statefulset-controller'],
  DaemonSet: ['daemonset-controller'],
  ControllerRevision: ['statefulset-controller', 'daemonset-controller'],
  Job: ['job-controller', 'ttl-after-finished-controller'],
  CronJob: ['cronjob-controller'],
  HorizontalPodAutoscaler: ['horizontal-pod-autoscaler-controller'],
  PodDisruptionBudget: ['disruption-controller'],
  PersistentVolume: ['persistentvolume-binder-controller', 'pv-protection-controller'],
  PersistentVolumeClaim: ['persistentvolume-binder-controller', 'pvc-protection-controller'],
  StorageClass: ['provisioner'],
  Ingress: ['ingress-nginx-controller'],
  IngressClass: ['ingress-nginx-controller'],
  Machine: ['machine-controller'],
  Lease: ['kubelet', 'node-lifecycle-controller'],
  Event: ['kube-apiserver (1h TTL)'],
};

/** The components reconciling `kind`, or an empty list when objects of that kind are stored only. */
export function reconcilersOf(kind: string): readonly string[] {
  return RECONCILERS[kind] ?? [];
}
