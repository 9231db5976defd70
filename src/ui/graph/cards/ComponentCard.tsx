/** A control-plane component (kube-apiserver, etcd, kube-controller-manager, kube-scheduler) or kubectl. */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { ComponentFlowNode } from '../flow-types';
import { APISERVER_CARD } from '../participants';
import { Handles } from './Handles';
import { Flash } from './Flash';
import { useHopHighlight } from './useHopHighlight';
import { UserControllerCard } from '../../controllers/UserControllerCard';

export const ComponentCard = memo(function ComponentCard({ data }: NodeProps<ComponentFlowNode>) {
  if (data.user) return <UserControllerCard card={data.card} name={data.title} />;
  return <PlainComponentCard data={data} />;
});

function PlainComponentCard({ data }: { data: ComponentFlowNode['data'] }) {
  const lit = useHopHighlight(data.card);
  return (
    <div className={`card component ${data.card === APISERVER_CARD ? 'apiserver' : ''} ${lit ? 'hop-lit' : ''}`} data-testid="component-card" data-component={data.title}>
      <Handles />
      {data.card !== APISERVER_CARD && <Flash card={data.card} />}
      <div className="title">{data.title}</div>
      <div className="subtitle" title={data.tip}>
        {data.subtitle}
      </div>
      {data.items && (
        <ul className="items">
          {data.items.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
