/**
 * The model's blocks → an ELK graph (layered, top to bottom, one partition per row) and back,
 * plus a synchronous row placement used until elk answers. Pure: elk-runner.ts runs the graph
 * in elkjs's Web Worker.
 *
 * Stable positions: blocks go to elk in model order (row, then key) with
 * `considerModelOrder`; once a layout exists, every block that had a position is passed with
 * it and `crossingMinimization.semiInteractive` keeps their order inside each row, new blocks
 * joining at the end of their row. So cards do not swap places as objects come and go.
 */
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import type { GraphModel } from './model';

/** Top-left corners of blocks by id, flow coordinates. */
export type Positions = ReadonlyMap<string, { x: number; y: number }>;

const GAP_X = 16;
const GAP_Y = 40;
/** y given to ELK per row (interactive layering only compares them). */
const ROW_PITCH = 10_000;

export const ELK_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.partitioning.activate': 'true',
  'elk.separateConnectedComponents': 'false',
  'elk.spacing.nodeNode': String(GAP_X),
  'elk.layered.spacing.nodeNodeBetweenLayers': String(GAP_Y),
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  // one layer per row: interactive layering reads each block's y (its row)
  'elk.layered.layering.strategy': 'INTERACTIVE',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.nodePlacement.bk.fixedAlignment': 'LEFTUP',
  'elk.edgeRouting': 'POLYLINE',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
};

/** The ELK input for a model; `prev` positions (a previous layout) fix the order inside rows. */
export function toElkGraph(model: GraphModel, prev?: Positions): ElkNode {
  const interactive = !!prev && prev.size > 0;
  const endOfRow = new Map<number, number>();
  if (interactive) {
    for (const b of model.blocks) {
      const p = prev.get(b.id);
      if (p) endOfRow.set(b.row, Math.max(endOfRow.get(b.row) ?? 0, p.x + b.width + GAP_X));
    }
  }
  return {
    id: 'root',
    layoutOptions: interactive ? { ...ELK_OPTIONS, 'elk.layered.crossingMinimization.semiInteractive': 'true' } : ELK_OPTIONS,
    children: model.blocks.map((b) => {
      const n: ElkNode = { id: b.id, width: b.width, height: b.height, x: 0, y: b.row * ROW_PITCH, layoutOptions: { 'elk.partitioning.partition': String(b.row), 'elk.alignment': 'TOP' } };
      if (interactive) {
        const p = prev.get(b.id);
        const x = p ? p.x : (endOfRow.get(b.row) ?? 0);
        if (!p) endOfRow.set(b.row, x + b.width + GAP_X);
        n.x = x;
        // semi-interactive crossing minimisation reads the order from elk.position
        n.layoutOptions = { ...n.layoutOptions, 'elk.position': `(${x},${n.y})` };
      }
      return n;
    }),
    edges: model.links.map(([s, t], i) => ({ id: `e${i}`, sources: [s], targets: [t] })),
  };
}

/** Block positions out of an ELK result. */
export function fromElk(out: ElkNode): Map<string, { x: number; y: number }> {
  return new Map((out.children ?? []).map((c) => [c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) }]));
}

/** Rows side by side, left to right in model order: the placement shown until elk answers. */
export function rowPlacement(model: GraphModel): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  const heights = new Map<number, number>();
  for (const b of model.blocks) heights.set(b.row, Math.max(heights.get(b.row) ?? 0, b.height));
  const rowY = new Map<number, number>();
  let y = 0;
  for (const row of [...heights.keys()].sort((a, b) => a - b)) {
    rowY.set(row, y);
    y += (heights.get(row) ?? 0) + GAP_Y;
  }
  const x = new Map<number, number>();
  for (const b of model.blocks) {
    const at = x.get(b.row) ?? 0;
    out.set(b.id, { x: at, y: rowY.get(b.row) ?? 0 });
    x.set(b.row, at + b.width + GAP_X);
  }
  return out;
}
