/** A node agent: its kubelet (standing in for containerd too) or its kube-proxy, each a relay participant. */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { KubeletFlowNode } from '../flow-types';
import { kubeProxyCard, kubeletCard } from '../participants';
import { useKubeStore } from '../../store/store';
import { selectPoweredOffNode } from '../../store/selectors';
import { Handles } from './Handles';
import { Flash } from './Flash';
import { useHopHighlight } from './useHopHighlight';

export const KubeletCard = memo(function KubeletCard({ data }: NodeProps<KubeletFlowNode>) {
  const off = useKubeStore(selectPoweredOffNode(data.node));
  const id = data.role === 'kube-proxy' ? kubeProxyCard(data.node) : kubeletCard(data.node);
  const lit = useHopHighlight(id);
  return (
    <div className={`card kubelet ${off ? 'off' : ''} ${lit ? 'hop-lit' : ''}`} title={id} data-testid="agent-card" data-agent={id}>
      <Handles />
      <Flash card={id} />
      <span className="title">{data.role}</span>
      <span className="subtitle">{off ? 'stopped' : data.role === 'kubelet' ? 'containerd' : 'iptables'}</span>
    </div>
  );
});
