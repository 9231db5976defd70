/**
 * A link between a component and kube-apiserver. When a relay hop travels it, a dot runs
 * along the path in the hop's direction (keyed by the hop's seq, so each hop replays it).
 */
import { memo } from 'react';
import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import type { OwnerFlowEdge, RelayFlowEdge } from './flow-types';
import { useKubeStore } from '../store/store';
import { selectPulse } from '../store/selectors';
import { useHopHighlight } from './cards/useHopHighlight';

export const RelayEdge = memo(function RelayEdge(props: EdgeProps<RelayFlowEdge>) {
  const [path] = getBezierPath(props);
  const pulse = useKubeStore(selectPulse(props.data?.link ?? ''));
  const lit = useHopHighlight(props.data?.link ?? '');
  return (
    <>
      <BaseEdge id={props.id} path={path} className={lit ? 'relay-edge hop-lit' : 'relay-edge'} />
      {pulse && (
        <g key={pulse.seq} className={`relay-dot ${pulse.toApiserver ? 'up' : 'down'}`}>
          <title>{pulse.summary}</title>
          <circle r={5}>
            <animateMotion dur="0.7s" fill="freeze" path={path} keyPoints={pulse.toApiserver ? '0;1' : '1;0'} keyTimes="0;1" calcMode="linear" />
            <animate attributeName="opacity" values="1;1;0" keyTimes="0;0.8;1" dur="0.9s" fill="freeze" />
          </circle>
        </g>
      )}
    </>
  );
});

/** An edge between objects (ownership, selection, binding…); its wrapper carries `rel-<rel>` for styling. */
export const OwnerEdge = memo(function OwnerEdge(props: EdgeProps<OwnerFlowEdge>) {
  const [path] = getBezierPath(props);
  return <BaseEdge id={props.id} path={path} className="owner-edge" />;
});
