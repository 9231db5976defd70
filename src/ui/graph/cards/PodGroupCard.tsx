/**
 * Pods of one owner on one node, collapsed into a chip ("web-7c9f ×24", with their statuses);
 * a click expands the group (the chip then heads its Pods) or collapses it again.
 */
import { memo, useMemo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { PodGroupFlowNode } from '../flow-types';
import { useKubeStore } from '../../store/store';
import { podGroupStatusSelector } from '../graph-selectors';
import { statusTone } from '../../format';
import { Handles } from './Handles';

export const PodGroupCard = memo(function PodGroupCard({ data }: NodeProps<PodGroupFlowNode>) {
  const status = useKubeStore(useMemo(() => podGroupStatusSelector(data.keys), [data.keys]));
  const owner = data.owner.slice(data.owner.lastIndexOf('/') + 1);
  const first = status.split(' · ')[0] ?? '';
  const tone = statusTone(first.slice(first.indexOf(' ') + 1));
  return (
    <div
      className={`card pod pod-group tone-${tone} ${data.expanded ? 'expanded' : ''}`}
      data-testid="pod-group"
      data-group={data.id}
      data-count={data.keys.length}
      aria-expanded={data.expanded}
      role="button"
      title={`${data.owner}: ${data.keys.length} Pods\n${status}`}
    >
      <Handles />
      <div className="pod-name">
        {data.expanded ? '▾' : '▸'} {owner} ×{data.keys.length}
      </div>
      <div className="pod-meta">
        <span className="pod-status">{status}</span>
      </div>
    </div>
  );
});
