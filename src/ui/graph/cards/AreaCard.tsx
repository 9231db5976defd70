/** Where Pods wait before kube-scheduler binds them (Pending, no spec.nodeName). */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { AreaFlowNode } from '../flow-types';

export const AreaCard = memo(function AreaCard({ data }: NodeProps<AreaFlowNode>) {
  return (
    <div className="area-card" style={{ width: data.width, height: data.height }} data-testid="unscheduled-area">
      <div className="node-header">
        <span className="node-name">unscheduled</span>
      </div>
      <div className="node-sub">
        <span className="badge">{data.count}</span> Pending, no node yet
      </div>
    </div>
  );
});
