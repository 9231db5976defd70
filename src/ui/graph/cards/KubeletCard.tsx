/** A node's kubelet (standing in for its containerd and kube-proxy as relay participants). */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { KubeletFlowNode } from '../flow-types';
import { kubeletCard } from '../participants';
import { useKubeStore } from '../../store/store';
import { selectPoweredOffNode } from '../../store/selectors';
import { Handles } from './Handles';
import { Flash } from './Flash';

export const KubeletCard = memo(function KubeletCard({ data }: NodeProps<KubeletFlowNode>) {
  const off = useKubeStore(selectPoweredOffNode(data.node));
  return (
    <div className={`card kubelet ${off ? 'off' : ''}`} title={`kubelet/${data.node}`}>
      <Handles />
      <Flash card={kubeletCard(data.node)} />
      <span className="title">kubelet</span>
      <span className="subtitle">{off ? 'stopped' : 'containerd · kube-proxy'}</span>
    </div>
  );
});
