/** Shapes held by the UI store. Engine types cross as `import type` only (docs/architecture.md#dependency-rules). */
import type {
  ApplyResult,
  Deadline,
  KObject,
  KubectlResult,
  PodCounts,
  PodSample,
  PodSummary,
  RelayHop,
  ResourceRow,
  SchedulingDecision,
} from '../../worker/protocol';

export type { ApplyResult, Deadline, KObject, KubectlResult, PodCounts, PodSample, PodSummary, RelayHop, ResourceRow, SchedulingDecision };

/** One stored object as the UI keeps it: the latest JSON and its `kubectl get` row. */
export interface StoredObject {
  key: string;
  resource: string;
  object: KObject;
  row: ResourceRow | null;
  /** Components reconciling this kind; empty: stored only, no controller (src/cluster/reconcilers.ts). */
  controllers?: readonly string[];
}

/** The shape of the graph: changes only when objects appear, vanish, bind or change owner. */
export interface GraphTopology {
  /** Kubernetes Nodes by name (control-plane first, then by name). */
  nodes: { key: string; name: string; controlPlane: boolean }[];
  /** Pods in name order, with the node they are bound to (null: unscheduled). */
  pods: { key: string; node: string | null; owner: string | null; claims?: string[] }[];
  replicaSets: { key: string; owner: string | null }[];
  deployments: { key: string }[];
  /** StatefulSets, DaemonSets, Jobs and CronJobs (a Job's owner is its CronJob), by key. */
  workloads: { key: string; owner: string | null }[];
  services: { key: string }[];
  /** EndpointSlices with their Service (label kubernetes.io/service-name) and the Pods their endpoints target. */
  endpointSlices: { key: string; service: string | null; pods: string[] }[];
  /** PVCs with the PV they are bound to (spec.volumeName) and their StorageClass, as store keys. */
  pvcs: { key: string; volume: string | null; storageClass: string | null }[];
  pvs: { key: string; storageClass: string | null }[];
  storageClasses: { key: string }[];
  /** HPAs with their scaleTargetRef as a store key ("Deployment/NS/NAME"). */
  hpas: { key: string; target: string | null }[];
  /** Ingresses with the Services their rules and default backend route to (sorted, unique). */
  ingresses: { key: string; services: string[] }[];
}

/** A relay hop currently travelling along a link of the graph. */
export interface Pulse {
  seq: number;
  /** true: from the participant to kube-apiserver; false: back. */
  toApiserver: boolean;
  summary: string;
}
