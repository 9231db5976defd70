/** React Flow node and edge types of the cluster graph (`FlowNode`, never plain "Node"). */
import type { Edge, Node } from '@xyflow/react';

export type NodeGroupData = { key: string; name: string; controlPlane: boolean; width: number; height: number };
export type ComponentData = {
  card: string;
  title: string;
  subtitle: string;
  items?: string[];
  /** the whole story behind a short subtitle (tooltip) */ tip?: string;
  /** a user controller's card (docs/user-controllers.md) */ user?: boolean;
};
/** A node agent card: the kubelet (with containerd) or kube-proxy. */
export type KubeletData = { node: string; role: 'kubelet' | 'kube-proxy' };
export type PodData = { key: string };
export type WorkloadData = { key: string };
export type AreaData = { count: number; width: number; height: number };
/** A Service, EndpointSlice, PVC, PV, StorageClass, HPA, Ingress or StatefulSet/DaemonSet/Job/CronJob card. */
export type ObjectData = { key: string };
/** Pods of one owner on one node, collapsed into a chip (or expanded: the chip heads its Pods). */
export type PodGroupData = { id: string; owner: string; keys: string[]; expanded: boolean };

/** The large-cluster path: one node's (or the unscheduled area's, node "") Pod counts instead of its Pod cards (pod-summary-model.ts). */
export type PodSummaryData = { node: string };

export type NodeGroupFlowNode = Node<NodeGroupData, 'nodeGroup'>;
export type ComponentFlowNode = Node<ComponentData, 'component'>;
export type KubeletFlowNode = Node<KubeletData, 'kubelet'>;
export type PodFlowNode = Node<PodData, 'pod'>;
export type WorkloadFlowNode = Node<WorkloadData, 'workload'>;
export type AreaFlowNode = Node<AreaData, 'area'>;
export type ObjectFlowNode = Node<ObjectData, 'object'>;
export type PodGroupFlowNode = Node<PodGroupData, 'podGroup'>;
export type PodSummaryFlowNode = Node<PodSummaryData, 'podSummary'>;

export type FlowNode =
  | NodeGroupFlowNode
  | ComponentFlowNode
  | KubeletFlowNode
  | PodFlowNode
  | WorkloadFlowNode
  | AreaFlowNode
  | ObjectFlowNode
  | PodGroupFlowNode
  | PodSummaryFlowNode;

export type RelayEdgeData = { link: string };
export type RelayFlowEdge = Edge<RelayEdgeData, 'relay'>;
/**
 * An edge between objects: `rel` says what it means — own (ownerReferences), select (Service →
 * EndpointSlice), endpoint (EndpointSlice → Pod), route (Ingress → Service), scale (HPA →
 * target), claim (Pod → PVC), bind (PVC → PV), class (→ StorageClass).
 */
export type Rel = 'own' | 'select' | 'endpoint' | 'route' | 'scale' | 'claim' | 'bind' | 'class';
export type OwnerFlowEdge = Edge<{ rel: Rel }, 'owner'>;
export type FlowEdge = RelayFlowEdge | OwnerFlowEdge;
