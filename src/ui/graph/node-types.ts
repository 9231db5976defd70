/** Module-level node and edge types (React Flow hygiene: stable identities). */
import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import { NodeCard } from './cards/NodeCard';
import { ComponentCard } from './cards/ComponentCard';
import { KubeletCard } from './cards/KubeletCard';
import { PodCard } from './cards/PodCard';
import { WorkloadCard } from './cards/WorkloadCard';
import { AreaCard } from './cards/AreaCard';
import { ObjectCard } from './cards/ObjectCard';
import { PodGroupCard } from './cards/PodGroupCard';
import { PodSummaryCard } from './cards/PodSummaryCard';
import { OwnerEdge, RelayEdge } from './RelayEdge';

export const nodeTypes = {
  nodeGroup: NodeCard,
  component: ComponentCard,
  kubelet: KubeletCard,
  pod: PodCard,
  workload: WorkloadCard,
  area: AreaCard,
  object: ObjectCard,
  podGroup: PodGroupCard,
  podSummary: PodSummaryCard,
} satisfies NodeTypes;

export const edgeTypes = {
  relay: RelayEdge,
  owner: OwnerEdge,
} satisfies EdgeTypes;
