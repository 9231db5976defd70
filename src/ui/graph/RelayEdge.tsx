/**
 * A link between a component and kube-apiserver. When a relay hop travels it, a dot runs
 * along the path in the hop's direction (keyed by the hop's seq, so each hop replays it).
 */
import { memo } from 'react';
import { BaseEdge, getBezierPath, useStore, type EdgeProps, type ReactFlowState } from '@xyflow/react';
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
            <animateMotion
              dur="0.7s"
              fill="freeze"
              path={path}
              keyPoints={pulse.toApiserver ? '0;1' : '1;0'}
              keyTimes="0;1"
              calcMode="linear"
            />
            <animate attributeName="opacity" values="1;1;0" keyTimes="0;0.8;1" dur="0.9s" fill="freeze" />
          </circle>
        </g>
      )}
    </>
  );
});

/** The box (flow coordinates) of the node that holds `id`, as "x y w h", or '' when `id` is top-level. */
const parentBox =
  (id: string) =>
  (s: ReactFlowState): string => {
    const child = s.nodeLookup.get(id);
    const parent = child?.parentId ? s.nodeLookup.get(child.parentId) : undefined;
    if (!parent) return '';
    const p = parent.internals.positionAbsolute;
    return `${p.x} ${p.y} ${parent.measured.width ?? parent.width ?? 0} ${parent.measured.height ?? parent.height ?? 0}`;
  };

const noBox = () => '';

/**
 * An edge that enters a Pod inside a node from above: down from the source to the gap above the
 * node, along it to the gap left of the node, down that gap and into the Pod's left side, so it
 * never crosses the node's agents or header. Returns null when the source is not above the node.
 */
export function busPath(sx: number, sy: number, tx: number, ty: number, box: string): string | null {
  if (!box) return null;
  const [x, y] = box.split(' ').map(Number);
  const laneY = y - 9;
  const laneX = x - 6;
  if (sy > laneY - 2) return null;
  const r = 4;
  const dx = laneX < sx ? -r : r;
  return `M ${sx},${sy} L ${sx},${laneY - r} Q ${sx},${laneY} ${sx + dx},${laneY} L ${laneX - dx},${laneY} Q ${laneX},${laneY} ${laneX},${laneY + r} L ${laneX},${ty - r} Q ${laneX},${ty} ${laneX + r},${ty} L ${tx},${ty}`;
}

/** An edge between objects (ownership, selection, binding…); its wrapper carries `rel-<rel>` for styling. */
export const OwnerEdge = memo(function OwnerEdge(props: EdgeProps<OwnerFlowEdge>) {
  const box = useStore(props.targetHandleId === 'l' ? parentBox(props.target) : noBox);
  const [bezier] = getBezierPath(props);
  const path = (props.targetHandleId === 'l' && busPath(props.sourceX, props.sourceY, props.targetX, props.targetY, box)) || bezier;
  return <BaseEdge id={props.id} path={path} className="owner-edge" />;
});
