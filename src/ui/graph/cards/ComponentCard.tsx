/** A control-plane component (kube-apiserver, etcd, kube-controller-manager, kube-scheduler) or kubectl. */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { ComponentFlowNode } from '../flow-types';
import { APISERVER_CARD, CONTROLLER_MANAGER_CARD, SCHEDULER_CARD } from '../participants';
import { useKubeStore } from '../../store/store';
import { selectLeaderInstances } from '../../store/selectors';
import { Handles } from './Handles';
import { Flash } from './Flash';
import { useHopHighlight } from './useHopHighlight';
import { UserControllerCard } from '../../controllers/UserControllerCard';

/** The leader-elected component a card stands for, or '' (its Lease in kube-system has that name). */
function electedComponent(card: string): string {
  return card === CONTROLLER_MANAGER_CARD ? 'kube-controller-manager' : card === SCHEDULER_CARD ? 'kube-scheduler' : '';
}

export const ComponentCard = memo(function ComponentCard({ data }: NodeProps<ComponentFlowNode>) {
  if (data.user) return <UserControllerCard card={data.card} name={data.title} />;
  return <PlainComponentCard data={data} />;
});

function PlainComponentCard({ data }: { data: ComponentFlowNode['data'] }) {
  const lit = useHopHighlight(data.card);
  const elected = electedComponent(data.card);
  const instances = useKubeStore(selectLeaderInstances(elected || '-'));
  return (
    <div
      className={`card component ${data.card === APISERVER_CARD ? 'apiserver' : ''} ${lit ? 'hop-lit' : ''}`}
      data-testid="component-card"
      data-component={data.title}
      data-instances={elected ? instances : undefined}
    >
      <Handles />
      {data.card !== APISERVER_CARD && <Flash card={data.card} />}
      <div className="title">{data.title}</div>
      {elected && instances.includes(' ') ? (
        <Leadership instances={instances} />
      ) : (
        <div className="subtitle" title={data.tip}>
          {data.subtitle}
        </div>
      )}
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

/**
 * An HA control plane's instances of the component: the leader's node (★), or "no leader"
 * while the Lease still names a node that is down, and how many stand by; every instance
 * with its role in the tooltip.
 */
function Leadership({ instances }: { instances: string }) {
  const { t } = useTranslation();
  const list = instances.split(' ').map((w) => {
    const i = w.lastIndexOf(':');
    return { node: w.slice(0, i), role: w.slice(i + 1) };
  });
  const leader = list.find((x) => x.role === 'leader');
  const standby = list.filter((x) => x.role === 'standby').length;
  const tip = list.map((x) => `${x.node}: ${t(`graph.role.${x.role}`)}`).join('\n');
  return (
    <div className="subtitle leadership" title={tip} data-testid="leadership" data-leader={leader?.node ?? ''}>
      {leader ? `★ ${leader.node}` : t('graph.noLeader')} · {t('graph.standbys', { count: standby })}
    </div>
  );
}
