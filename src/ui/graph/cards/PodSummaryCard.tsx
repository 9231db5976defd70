/**
 * The large-cluster path (graph/pod-summary-model.ts): one node's Pods as counts — "node-1:
 * 66,667 Pods" over "66,650 Running · 17 Pending" and the ready count — in place of one card
 * per Pod. `[data-testid=pod-summary][data-node=NAME or ""][data-count=N][data-ready=N]`.
 */
import { memo, useMemo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { PodSummaryFlowNode } from '../flow-types';
import type { KubeState } from '../../store/store';
import { useKubeStore } from '../../store/store';
import { statusTone } from '../../format';
import { formatCount, statusLine } from '../pod-summary-model';
import { Handles } from './Handles';

/** The summary's counts of one node (undefined when it has no Pods now), memoized per node. */
function nodeCountsSelector(node: string) {
  return (s: KubeState) => s.podSummary?.nodes.find((n) => n.node === node);
}

export const PodSummaryCard = memo(function PodSummaryCard({ data }: NodeProps<PodSummaryFlowNode>) {
  const counts = useKubeStore(useMemo(() => nodeCountsSelector(data.node), [data.node]));
  const total = counts?.total ?? 0;
  const line = counts ? statusLine(counts) : '';
  const tone = statusTone(counts?.statuses[0]?.[0] ?? 'Pending');
  const where = data.node || 'unscheduled';
  return (
    <div
      className={`card pod pod-summary tone-${tone}`}
      data-testid="pod-summary"
      data-node={data.node}
      data-count={total}
      data-ready={counts?.ready ?? 0}
      title={`${where}: ${formatCount(total)} Pods\n${line}\n${formatCount(counts?.ready ?? 0)} ready`}
    >
      <Handles />
      <div className="pod-name">
        {where}: {formatCount(total)} Pods
      </div>
      <div className="pod-meta">
        <span className="pod-status">{line}</span>
      </div>
      <div className="pod-meta">{formatCount(counts?.ready ?? 0)} ready</div>
    </div>
  );
});
