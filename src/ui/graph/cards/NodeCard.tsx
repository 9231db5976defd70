/**
 * A Kubernetes Node as a group card holding its kubelet and Pods. `data-ready` follows the
 * Node's Ready condition: True → true, False → false, Unknown (the node controller stopped
 * hearing heartbeats) → unknown.
 */
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import type { NodeGroupFlowNode } from '../flow-types';
import { useKubeStore } from '../../store/store';
import { selectObject, selectPoweredOffNode } from '../../store/selectors';
import { cluster } from '../../cluster-client';
import type { KObject } from '../../store/types';
import { NodeCountdown } from './NodeCountdown';
import { StandaloneContainers } from './StandaloneContainers';
import { Icon } from '../../Icon';
import { useTranslation } from 'react-i18next';

type Readiness = 'true' | 'false' | 'unknown';

export function nodeReadiness(node: KObject | undefined): Readiness {
  const ready = (node?.status?.conditions as { type: string; status: string }[] | undefined)?.find((c) => c.type === 'Ready');
  if (ready?.status === 'True') return 'true';
  if (ready?.status === 'False') return 'false';
  return 'unknown';
}

export const NodeCard = memo(function NodeCard({ data }: NodeProps<NodeGroupFlowNode>) {
  const stored = useKubeStore(selectObject(data.key));
  const off = useKubeStore(selectPoweredOffNode(data.name));
  // an HA control plane's nodes can be killed too (watch the leader's Lease expire)
  const ha = useKubeStore((s) => s.topology.nodes.filter((n) => n.controlPlane).length > 1);
  const { t } = useTranslation();
  const ready = nodeReadiness(stored?.object);
  const status = stored?.row?.status ?? (ready === 'true' ? 'Ready' : ready === 'false' ? 'NotReady' : 'Unknown');
  return (
    <div
      className={`node-card ready-${ready} ${data.controlPlane ? 'control-plane' : 'worker'} ${off ? 'off' : ''}`}
      style={{ width: data.width, height: data.height }}
      data-testid="node-card"
      data-node={data.name}
      data-ready={ready}
    >
      <div className="node-header">
        <span className="node-name" title={data.name}>
          {data.name}
        </span>
        {(!data.controlPlane || ha) &&
          (off ? (
            <button
              type="button"
              className="nodrag mini"
              data-testid="restore-node"
              data-node={data.name}
              title={t('node.restoreTitle', { node: data.name })}
              aria-label={t('node.restoreLabel', { node: data.name })}
              onClick={(e) => {
                e.stopPropagation();
                void cluster.restoreNode(data.name);
              }}
            >
              <Icon name="power" />
            </button>
          ) : (
            <button
              type="button"
              className="nodrag mini danger"
              data-testid="kill-node"
              data-node={data.name}
              title={t('node.killTitle', { node: data.name })}
              aria-label={t('node.killLabel', { node: data.name })}
              onClick={(e) => {
                e.stopPropagation();
                void cluster.killNode(data.name);
              }}
            >
              <Icon name="power" />
            </button>
          ))}
        {!data.controlPlane && (
          <button
            type="button"
            className="nodrag mini"
            data-testid="remove-node"
            data-node={data.name}
            title={t('node.removeTitle', { node: data.name })}
            aria-label={t('node.removeLabel', { node: data.name })}
            onClick={(e) => {
              e.stopPropagation();
              void cluster.removeNode(data.name);
            }}
          >
            <Icon name="remove" />
          </button>
        )}
      </div>
      <div className="node-sub">
        <span className={`badge ready-${ready}`}>{status}</span>
        {data.controlPlane && <span>NoSchedule</span>}
        {!data.controlPlane && <NodeCountdown node={data.name} />}
        <StandaloneContainers node={data.name} />
      </div>
    </div>
  );
});
