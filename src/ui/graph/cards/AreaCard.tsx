/**
 * Where Pods wait before kube-scheduler binds them (Pending, no spec.nodeName). The count sits
 * in the header and the caption stays on one line, so the Pod cards below never cover them.
 */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { AreaFlowNode } from '../flow-types';
import { useKubeStore, type KubeState } from '../../store/store';

/** While the Pods are summarized (pod-summary-model.ts): the unscheduled Pods' count; undefined otherwise. */
const selectSummarizedUnscheduled = (s: KubeState) =>
  s.podSummary ? (s.podSummary.nodes.find((n) => n.node === '')?.total ?? 0) : undefined;

export const AreaCard = memo(function AreaCard({ data }: NodeProps<AreaFlowNode>) {
  const summarized = useKubeStore(selectSummarizedUnscheduled);
  return (
    <div className="area-card" style={{ width: data.width, height: data.height }} data-testid="unscheduled-area">
      <div className="node-header">
        <span className="node-name">unscheduled</span>
        <span className="badge" data-testid="unscheduled-count">
          {summarized ?? data.count}
        </span>
      </div>
      <div className="node-sub" title="Pending, no node yet">
        <span className="area-sub-text">Pending, no node yet</span>
      </div>
    </div>
  );
});
