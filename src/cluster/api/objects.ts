/**
 * The engine's typed API objects: one alias per kind, as stored by the apiserver and handed out by
 * informers, listers and clients (issue 17 §2). Each kind is the `kubernetes-types` (v1.30) type
 * made {@link Stored}: `apiVersion`, `kind` and `metadata` present (every stored object has them;
 * `metadata.name` too), top-level fields writable. Nested shapes stay the upstream ones (all
 * fields optional, as in the Go structs' `omitempty` JSON).
 *
 * Use them as the type argument of the generic informer, lister and client
 * (`informers.informerFor<ReplicaSet>('apps', 'replicasets')`, `client.resource<Pod>('', 'pods')`):
 * type-only, nothing changes at run time. Fields the engine reads that v1.30's types lack
 * (added by v1.33) are declared here, in the `…133` extensions, so every component sees the same
 * shape. The simulator's own kinds are declared the same way, next to their components.
 */
import type * as apiextensions from 'kubernetes-types/apiextensions/v1';
import type * as apps from 'kubernetes-types/apps/v1';
import type * as autoscalingv1 from 'kubernetes-types/autoscaling/v1';
import type * as autoscaling from 'kubernetes-types/autoscaling/v2';
import type * as batch from 'kubernetes-types/batch/v1';
import type * as coordination from 'kubernetes-types/coordination/v1';
import type * as core from 'kubernetes-types/core/v1';
import type * as discovery from 'kubernetes-types/discovery/v1';
import type * as networking from 'kubernetes-types/networking/v1';
import type * as policy from 'kubernetes-types/policy/v1';
import type * as rbac from 'kubernetes-types/rbac/v1';
import type * as scheduling from 'kubernetes-types/scheduling/v1';
import type * as storage from 'kubernetes-types/storage/v1';
import type { Mutable, ObjectMeta } from './types';

/**
 * A kubernetes-types kind as stored: `apiVersion`, `kind` and `metadata` (with `name`) required,
 * top-level fields writable (kubernetes-types marks `status` readonly; controllers write it).
 * `R` names top-level fields every stored object of the kind has because validation requires
 * them (a Deployment's `spec`: "spec.selector: Required value"); they are typed as present.
 * Assignable to {@link KObject}, so typed objects pass wherever any object goes.
 */
export type Stored<T extends { metadata?: unknown }, R extends Exclude<keyof T, 'apiVersion' | 'kind' | 'metadata'> = never> = Mutable<
  Omit<T, 'apiVersion' | 'kind' | 'metadata' | R>
> & { -readonly [K in R]-?: NonNullable<T[K]> } & {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
};

// ---- core/v1 ------------------------------------------------------------------------------

/** core/v1 Pod. */
export type Pod = Stored<core.Pod, 'spec'>;
/** core/v1 Node. */
export type Node = Stored<core.Node>;
/** core/v1 Namespace. */
export type Namespace = Stored<core.Namespace>;
/** core/v1 Service. */
export type Service = Stored<core.Service, 'spec'>;
/** core/v1 Endpoints. */
export type Endpoints = Stored<core.Endpoints>;
/** core/v1 ConfigMap. */
export type ConfigMap = Stored<core.ConfigMap>;
/** core/v1 Secret. */
export type Secret = Stored<core.Secret>;
/** core/v1 ServiceAccount. */
export type ServiceAccount = Stored<core.ServiceAccount>;
/** core/v1 PersistentVolume. */
export type PersistentVolume = Stored<core.PersistentVolume, 'spec'>;
/** core/v1 PersistentVolumeClaim. */
export type PersistentVolumeClaim = Stored<core.PersistentVolumeClaim, 'spec'>;
/** core/v1 ReplicationController. */
export type ReplicationController = Stored<core.ReplicationController, 'spec'>;
/** core/v1 ResourceQuota. */
export type ResourceQuota = Stored<core.ResourceQuota>;
/** core/v1 Event. */
export type CoreEvent = Stored<core.Event>;

// ---- apps/v1 ------------------------------------------------------------------------------

/** apps/v1 ReplicaSet. */
export type ReplicaSet = Stored<apps.ReplicaSet, 'spec'>;
/** apps/v1 Deployment. */
export type Deployment = Stored<apps.Deployment, 'spec'>;
/** apps/v1 DaemonSet. */
export type DaemonSet = Stored<apps.DaemonSet, 'spec'>;
/** apps/v1 StatefulSet. */
export type StatefulSet = Stored<apps.StatefulSet, 'spec'>;
/** apps/v1 ControllerRevision. */
export type ControllerRevision = Stored<apps.ControllerRevision>;

// ---- other groups -------------------------------------------------------------------------

/** apiextensions.k8s.io/v1 CustomResourceDefinition. */
export type CustomResourceDefinition = Stored<apiextensions.CustomResourceDefinition, 'spec'>;
/** batch/v1 Job. */
export type Job = Stored<batch.Job, 'spec'>;
/** batch/v1 CronJob. */
export type CronJob = Stored<batch.CronJob, 'spec'>;
/**
 * autoscaling/v2 HorizontalPodAutoscaler. `status.currentMetrics` may be null: the registry
 * creates the status with `currentMetrics: null` and the HPA controller writes null while it has
 * no metric statuses (Go's nil slice).
 */
export type HorizontalPodAutoscaler = Stored<
  Omit<autoscaling.HorizontalPodAutoscaler, 'status'> & {
    status?: Omit<autoscaling.HorizontalPodAutoscalerStatus, 'currentMetrics'> & { currentMetrics?: autoscaling.MetricStatus[] | null };
  },
  'spec'
>;
/** autoscaling/v1 HorizontalPodAutoscaler (spec.targetCPUUtilizationPercentage; no metrics, no behavior). */
export type HorizontalPodAutoscalerV1 = Stored<autoscalingv1.HorizontalPodAutoscaler, 'spec'>;
/**
 * A stored HorizontalPodAutoscaler of either served version: the store keeps each object in the
 * version it was written in (`apiVersion` tells them apart), and the HPA controller reads both.
 */
export type AnyHorizontalPodAutoscaler = HorizontalPodAutoscaler | HorizontalPodAutoscalerV1;
/** coordination.k8s.io/v1 Lease. */
export type Lease = Stored<coordination.Lease>;
/**
 * discovery.k8s.io/v1 EndpointSlice. `endpoints` may be null: Go's `Endpoints []Endpoint` has no
 * omitempty, so a slice without endpoints (the controller's placeholder) is stored with `null`.
 */
export type EndpointSlice = Stored<Omit<discovery.EndpointSlice, 'endpoints'> & { endpoints: discovery.Endpoint[] | null }>;
/** networking.k8s.io/v1 Ingress. */
export type Ingress = Stored<networking.Ingress>;
/** networking.k8s.io/v1 IngressClass. */
export type IngressClass = Stored<networking.IngressClass>;
/** policy/v1 PodDisruptionBudget. */
export type PodDisruptionBudget = Stored<policy.PodDisruptionBudget>;
/** rbac.authorization.k8s.io/v1 ClusterRole. */
export type ClusterRole = Stored<rbac.ClusterRole>;
/** scheduling.k8s.io/v1 PriorityClass. */
export type PriorityClass = Stored<scheduling.PriorityClass>;
/** storage.k8s.io/v1 StorageClass. */
export type StorageClass = Stored<storage.StorageClass>;
/** storage.k8s.io/v1 CSINode. */
export type CSINode = Stored<storage.CSINode>;

/**
 * What every kind has (TypeMeta and ObjectMeta; upstream's runtime.Object + metav1.Object), and no
 * more: the type of helpers that work on any kind (claimObjects, byCreationTimestamp, …), used as
 * a bound (`<T extends APIObject>`) so the caller's kind flows through.
 */
// a type literal, not an interface: it then satisfies the informers' and clients' `KObject` bound
export type APIObject = {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
};
