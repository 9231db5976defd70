/** React Flow node and edge types of the cluster graph (`FlowNode`, never plain "Node"). */
import type { Edge, Node } from '@xyflow/react';

export type NodeGroupData = { key: string; name: string; controlPlane: boolean; width: number; height: number };
export type ComponentData = { card: string; title: string; subtitle: string; items?: string[] };
export type KubeletData = { node: string };
export type PodData = { key: string };
export type WorkloadData = { key: string };
export type AreaData = { count: number; width: number; height: number };

export type NodeGroupFlowNode = Node<NodeGroupData, 'nodeGroup'>;
export type ComponentFlowNode = Node<ComponentData, 'component'>;
export type KubeletFlowNode = Node<KubeletData, 'kubelet'>;
export type PodFlowNode = Node<PodData, 'pod'>;
export type WorkloadFlowNode = Node<WorkloadData, 'workload'>;
export type AreaFlowNode = Node<AreaData, 'area'>;

export type FlowNode = NodeGroupFlowNode | ComponentFlowNode | KubeletFlowNode | PodFlowNode | WorkloadFlowNode | AreaFlowNode;

export type RelayEdgeData = { link: string };
export type RelayFlowEdge = Edge<RelayEdgeData, 'relay'>;
export type OwnerFlowEdge = Edge<Record<string, never>, 'owner'>;
export type FlowEdge = RelayFlowEdge | OwnerFlowEdge;
