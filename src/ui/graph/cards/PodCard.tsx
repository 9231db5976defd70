/** A Pod: its whole name, its `kubectl get pods` STATUS (coloured) and READY, and its IP, one a line. */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { PodFlowNode } from '../flow-types';
import { useKubeStore } from '../../store/store';
import { selectObject } from '../../store/selectors';
import { statusTone } from '../../format';
import { Handles } from './Handles';

export const PodCard = memo(function PodCard({ data }: NodeProps<PodFlowNode>) {
  const stored = useKubeStore(selectObject(data.key));
  if (!stored) return null;
  const o = stored.object;
  const status = stored.row?.status ?? (o.status?.phase as string | undefined) ?? 'Unknown';
  const node = (o.spec?.nodeName as string | undefined) ?? '';
  const ns = o.metadata.namespace ?? 'default';
  return (
    <div
      className={`card pod tone-${statusTone(status)}`}
      data-testid="pod-card"
      data-pod={`${ns}/${o.metadata.name}`}
      data-status={status}
      data-node={node}
      title={`${ns}/${o.metadata.name}\n${status}${o.status?.podIP ? `\nIP ${o.status.podIP}` : ''}`}
    >
      <Handles />
      <div className="pod-name">{o.metadata.name}</div>
      <div className="pod-meta">
        <span className="pod-status">{status}</span>
        <span>{stored.row?.ready ?? ''}</span>
      </div>
      <div className="ip">{(o.status?.podIP as string | undefined) ?? ''}</div>
    </div>
  );
});
