/** A Deployment or ReplicaSet, with its READY count. */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { WorkloadFlowNode } from '../flow-types';
import { useKubeStore } from '../../store/store';
import { selectObject } from '../../store/selectors';
import { Handles } from './Handles';

const PREFIX: Record<string, string> = { Deployment: 'deployment.apps', ReplicaSet: 'replicaset.apps' };

export const WorkloadCard = memo(function WorkloadCard({ data }: NodeProps<WorkloadFlowNode>) {
  const stored = useKubeStore(selectObject(data.key));
  if (!stored) return null;
  const o = stored.object;
  const ready = stored.row?.ready ?? stored.row?.columns.READY ?? `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`;
  return (
    <div className={`card workload ${o.kind.toLowerCase()}`} data-testid="workload-card" data-kind={o.kind} data-name={o.metadata.name}>
      <Handles />
      <div className="title" title={`${PREFIX[o.kind] ?? o.kind}/${o.metadata.name}`}>
        <span className="kind">{o.kind === 'Deployment' ? 'deploy' : 'rs'}</span> {o.metadata.name}
      </div>
      <div className="subtitle">
        ready {ready}
        {o.kind === 'Deployment' && ` · up-to-date ${o.status?.updatedReplicas ?? 0}`}
      </div>
    </div>
  );
});
