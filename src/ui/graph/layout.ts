/**
 * Positions the model's blocks (at elk-positions.ts's positions: placement.ts at once, elkjs's
 * when it has answered) and keeps
 * identity: a node or edge whose position, size and data equal the previous layout's is returned
 * as the previous object (docs/style.md#ui-state), so React Flow and the memoized cards skip it.
 * Cards select their live object by key themselves; the layout only changes when the topology,
 * the view or the block positions do.
 */
import type { FlowEdge, FlowNode } from './flow-types';
import type { GraphModel } from './model';
import type { Positions } from './placement';

export { UNSCHEDULED_AREA, POD_W, POD_H, NODE_W } from './model';

export interface Layout {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const va = a[k];
    const vb = b[k];
    if (Array.isArray(va) && Array.isArray(vb)) {
      if (va.length !== vb.length || va.some((x, i) => x !== vb[i])) return false;
    } else if (va !== vb) return false;
  }
  return true;
}

function sameNode(a: FlowNode, b: FlowNode): boolean {
  return (
    a.type === b.type &&
    a.parentId === b.parentId &&
    a.position.x === b.position.x &&
    a.position.y === b.position.y &&
    a.width === b.width &&
    a.height === b.height &&
    shallowEqual(a.data as Record<string, unknown>, b.data as Record<string, unknown>)
  );
}

function sameEdge(a: FlowEdge, b: FlowEdge): boolean {
  return (
    a.type === b.type &&
    a.source === b.source &&
    a.target === b.target &&
    a.sourceHandle === b.sourceHandle &&
    a.targetHandle === b.targetHandle &&
    a.className === b.className
  );
}

/**
 * Places the model: top-level nodes at `positions` (elk-positions.ts's answer for this model);
 * reuses `prev` objects that did not change.
 */
export function layoutGraph(model: GraphModel, positions: Positions, prev?: Layout): Layout {
  const at = (id: string) => positions.get(id) ?? { x: 0, y: 0 };
  const nodes = model.nodes.map((n) => (n.parentId ? n : { ...n, position: at(n.id) }));
  if (!prev) return { nodes, edges: model.edges };
  const prevNodes = new Map(prev.nodes.map((n) => [n.id, n]));
  const prevEdges = new Map(prev.edges.map((e) => [e.id, e]));
  return {
    nodes: nodes.map((n) => {
      const p = prevNodes.get(n.id);
      return p && sameNode(p, n) ? p : n;
    }),
    edges: model.edges.map((e) => {
      const p = prevEdges.get(e.id);
      return p && sameEdge(p, e) ? p : e;
    }),
  };
}
