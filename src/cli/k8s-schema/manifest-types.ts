/**
 * The manifest union the editor's JSON Schema is generated from (`npm run gen:k8s`,
 * src/cli/gen-k8s-schema.ts). kubernetes-types marks apiVersion/kind optional, so each kind
 * is intersected with its required literals. These are the Kubernetes 1.30
 * API types (kubernetes-types 1.30.0); the engine behaves as v1.33.
 */
import type {
  ConfigMap,
  Endpoints,
  LimitRange,
  Namespace,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  ResourceQuota,
  Secret,
  Service,
  ServiceAccount,
} from 'kubernetes-types/core/v1';
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { Ingress, IngressClass, NetworkPolicy } from 'kubernetes-types/networking/v1';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1';

type K<T, V extends string, N extends string> = T & { apiVersion: V; kind: N };

export type Manifest =
  | K<Pod, 'v1', 'Pod'>
  | K<Service, 'v1', 'Service'>
  | K<ConfigMap, 'v1', 'ConfigMap'>
  | K<Secret, 'v1', 'Secret'>
  | K<Namespace, 'v1', 'Namespace'>
  | K<ServiceAccount, 'v1', 'ServiceAccount'>
  | K<PersistentVolumeClaim, 'v1', 'PersistentVolumeClaim'>
  | K<PersistentVolume, 'v1', 'PersistentVolume'>
  | K<Endpoints, 'v1', 'Endpoints'>
  | K<LimitRange, 'v1', 'LimitRange'>
  | K<ResourceQuota, 'v1', 'ResourceQuota'>
  | K<Deployment, 'apps/v1', 'Deployment'>
  | K<ReplicaSet, 'apps/v1', 'ReplicaSet'>
  | K<StatefulSet, 'apps/v1', 'StatefulSet'>
  | K<DaemonSet, 'apps/v1', 'DaemonSet'>
  | K<Job, 'batch/v1', 'Job'>
  | K<CronJob, 'batch/v1', 'CronJob'>
  | K<StorageClass, 'storage.k8s.io/v1', 'StorageClass'>
  | K<Ingress, 'networking.k8s.io/v1', 'Ingress'>
  | K<IngressClass, 'networking.k8s.io/v1', 'IngressClass'>
  | K<NetworkPolicy, 'networking.k8s.io/v1', 'NetworkPolicy'>
  | K<HorizontalPodAutoscaler, 'autoscaling/v2', 'HorizontalPodAutoscaler'>
  | K<PodDisruptionBudget, 'policy/v1', 'PodDisruptionBudget'>
  | K<PriorityClass, 'scheduling.k8s.io/v1', 'PriorityClass'>
  | K<Role, 'rbac.authorization.k8s.io/v1', 'Role'>
  | K<ClusterRole, 'rbac.authorization.k8s.io/v1', 'ClusterRole'>
  | K<RoleBinding, 'rbac.authorization.k8s.io/v1', 'RoleBinding'>
  | K<ClusterRoleBinding, 'rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'>;
