/**
 * The model's blocks → an ELK graph (elkjs, Eclipse Layout Kernel's `layered` algorithm) and
 * elk's answer → block positions. Pure: elk-runner.ts runs the graph in elkjs's Web Worker; the
 * unit tests run it with elkjs's bundled build in Node.
 *
 * What elk decides and what it does not:
 * - Rows (model.ts ROW) are elk layers, top to bottom (`elk.direction: DOWN`): one partition per
 *   row, and per line when placement.ts wraps the node row (`elk.partitioning.activate`, and
 *   interactive layering on a row coordinate, so a row is exactly one layer).
 * - The order inside a row is placement.ts's (nodes in name order; object cards ordered by the
 *   x of what they link to): the blocks go to elk in that order and elk is told to keep it
 *   (`considerModelOrder.strategy: NODES_AND_EDGES`, `crossingMinimization.forceNodeModelOrder`).
 * - elk decides the x of every block (network-simplex node placement: cards over what they link
 *   to, short straight edges, no overlap, `GAP_X` apart).
 * - y stays placement.ts's (rows of the real card heights), so a Pod added to a node (a taller
 *   node) needs no new elk layout: elk sees every block with one height, and its answer depends
 *   only on {@link ElkInput.signature} (block ids, widths, rows, order and links).
 * - The control-plane strip and kubectl are not given to elk (their links are relay edges to
 *   kube-apiserver inside the strip, which would pull the strip sideways); as in placement.ts,
 *   the strip is centred over the node row elk placed, kubectl left of it level with
 *   kube-apiserver.
 */
import type { ElkNode, LayoutOptions } from 'elkjs/lib/elk-api.js';
import { KUBECTL_CARD } from './participants';
import { ROW, STRIP_B_Y, type GraphModel } from './model';
import { GAP_X, type Positions } from './placement';

/** Height every block has in elk's graph (y is not elk's: see the module comment). */
const ELK_H = 40;
/** y handed to elk per partition (interactive layering groups blocks by y). */
const PARTITION_PITCH = 1000;

/** Layout options of the root graph (elkjs 0.12, ELK 0.10 option ids). */
export const ELK_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.partitioning.activate': 'true',
  'elk.separateConnectedComponents': 'false',
  'elk.layered.layering.strategy': 'INTERACTIVE',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.crossingMinimization.forceNodeModelOrder': 'true',
  // network simplex: the shortest, straightest edges overall; unlike Brandes–Köpf's balanced
  // alignment it leaves a row alone when an unlinked card joins another one (elk-layout.test.ts)
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  'elk.spacing.nodeNode': String(GAP_X),
  'elk.spacing.edgeNode': String(GAP_X / 2),
  'elk.spacing.edgeEdge': String(GAP_X / 2),
  'elk.layered.spacing.nodeNodeBetweenLayers': '40',
  'elk.edgeRouting': 'POLYLINE',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
};

/** One layout request: the graph for elk and the signature of what elk sees. */
export interface ElkInput {
  /**
   * Everything elk's answer depends on: the boxes it is given (id, width, partition, ports) in
   * model order and their links. Equal signatures → equal elk answers (elk is deterministic).
   */
  signature: string;
  graph: ElkNode;
  /** Node-row line box id → its blocks and their x inside the line (`[block id, dx]`). */
  lines: ReadonlyMap<string, readonly (readonly [string, number])[]>;
}

/** Blocks elk lays out: all but the top row (kubectl and the control-plane strip). */
const isElkBlock = (row: number) => row !== ROW.top;

/**
 * The ELK graph of `model`, given the positions placement.ts chose for it (`placed`: their y
 * separates the partitions, their x orders each partition).
 *
 * Each line of the node row goes to elk as one box, its nodes side by side as placement.ts put
 * them (equal gaps, name order), an edge at a node or Pod ending at a fixed port at that x
 * (`portConstraints: FIXED_POS`, north side for links from above, south for links below). So
 * the node row stays a tidy row and elk places the object cards over and under it. An object
 * row placement.ts wrapped into lines (many Deployments, Services…) is not elk's: its long
 * edges' dummy nodes would push the cards of the lines in between sideways until the row is as
 * wide as unwrapped; it keeps placement.ts's x, moved as elk moved the node row (applyElk).
 */
export function toElkInput(model: GraphModel, placed: Positions): ElkInput {
  const at = (id: string) => placed.get(id) ?? { x: 0, y: 0 };
  const ysOf = new Map<number, Set<number>>();
  for (const b of model.blocks) ysOf.set(b.row, (ysOf.get(b.row) ?? new Set()).add(at(b.id).y));
  const blocks = model.blocks.filter((b) => isElkBlock(b.row) && (b.row === ROW.nodes || (ysOf.get(b.row)?.size ?? 0) <= 1));
  const ys = [...new Set(blocks.map((b) => at(b.id).y))].sort((a, b) => a - b);
  const partition = new Map(blocks.map((b) => [b.id, ys.indexOf(at(b.id).y)]));
  blocks.sort((a, b) => (partition.get(a.id) ?? 0) - (partition.get(b.id) ?? 0) || at(a.id).x - at(b.id).x);

  // node-row lines: one box each
  const lineOf = new Map<string, { id: string; left: number }>();
  const lines = new Map<string, [string, number][]>();
  const boxes: { id: string; width: number; partition: number; left: number }[] = [];
  for (const b of blocks) {
    const p = partition.get(b.id) ?? 0;
    if (b.row !== ROW.nodes) {
      boxes.push({ id: b.id, width: b.width, partition: p, left: at(b.id).x });
      continue;
    }
    const id = `line:${p}`;
    let box = boxes.find((x) => x.id === id);
    // blocks come left to right: the first of a line sets its left edge
    if (!box) boxes.push((box = { id, width: 0, partition: p, left: at(b.id).x }));
    const left = box.left;
    lineOf.set(b.id, { id, left });
    lines.set(id, [...(lines.get(id) ?? []), [b.id, at(b.id).x - left]]);
    box.width = Math.max(box.width, at(b.id).x - left + b.width);
  }

  // links between boxes, pointing down; an end in a node line is a port at the node's (or Pod's) centre
  const ports = new Map<string, { box: string; x: number; side: 'NORTH' | 'SOUTH' }>();
  const end = (id: string, side: 'NORTH' | 'SOUTH'): string | undefined => {
    const c = model.childAt.get(id);
    const block = c?.block ?? id;
    const line = lineOf.get(block);
    if (!line) return partition.has(block) ? block : undefined;
    const cx = at(block).x - line.left + (c ? c.cx : (blocks.find((b) => b.id === block)?.width ?? 0) / 2);
    const port = `${line.id}:${side === 'NORTH' ? 'n' : 's'}${cx}`;
    ports.set(port, { box: line.id, x: cx, side });
    return port;
  };
  const boxOf = (end: string) => ports.get(end)?.box ?? end;
  const partOf = (id: string) => boxes.find((b) => b.id === boxOf(id))?.partition;
  const seen = new Set<string>();
  const links: [string, string][] = [];
  for (const e of model.edges) {
    if (e.type !== 'owner') continue;
    const ps = partition.get(model.childAt.get(e.source)?.block ?? e.source);
    const pt = partition.get(model.childAt.get(e.target)?.block ?? e.target);
    if (ps === undefined || pt === undefined || ps === pt) continue;
    const [upper, lower] = ps < pt ? [e.source, e.target] : [e.target, e.source];
    const s = end(upper, 'SOUTH');
    const t = end(lower, 'NORTH');
    if (!s || !t || partOf(s) === partOf(t)) continue;
    const id = `${s}>${t}`;
    if (seen.has(id)) continue;
    seen.add(id);
    links.push([s, t]);
  }
  links.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const usedPorts = [...ports].filter(([id]) => links.some(([s, t]) => s === id || t === id)).sort((a, b) => (a[0] < b[0] ? -1 : 1));

  const signature = [
    ...boxes.map((b) => `${b.id}|${b.width}|${b.partition}`),
    ...[...lines].map(([id, members]) => `${id}=${members.map(([m, dx]) => `${m}@${dx}`).join(',')}`),
    ...links.map(([s, t]) => `${s}>${t}`),
  ].join('\n');
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: ELK_OPTIONS,
    children: boxes.map((b) => {
      const own = usedPorts.filter(([, p]) => p.box === b.id);
      return {
        id: b.id,
        width: b.width,
        height: ELK_H,
        x: 0,
        y: b.partition * PARTITION_PITCH,
        layoutOptions: {
          'elk.partitioning.partition': String(b.partition),
          ...(lines.has(b.id) ? { 'elk.portConstraints': 'FIXED_POS' } : {}),
        },
        ...(own.length
          ? {
              ports: own.map(([id, p]) => ({
                id,
                width: 1,
                height: 1,
                x: p.x,
                y: p.side === 'NORTH' ? -1 : ELK_H,
                layoutOptions: { 'elk.port.side': p.side },
              })),
            }
          : {}),
      };
    }),
    edges: links.map(([s, t], i) => ({ id: `e${i}`, sources: [s], targets: [t] })),
  };
  return { signature, graph, lines };
}

/** Left x of every block elk placed (a node line's blocks at their place in it), whole px, the leftmost at 0. */
export function elkXs(out: ElkNode, lines: ElkInput['lines']): Map<string, number> {
  const kids = out.children ?? [];
  const left = kids.length ? Math.min(...kids.map((c) => c.x ?? 0)) : 0;
  const xs = new Map<string, number>();
  for (const c of kids) {
    const x = Math.round((c.x ?? 0) - left);
    const members = lines.get(c.id);
    if (members) for (const [id, dx] of members) xs.set(id, x + dx);
    else xs.set(c.id, x);
  }
  return xs;
}

/**
 * Final positions: each elk block at elk's x and the provisional y; the control-plane strip
 * centred over the node row, kubectl left of it (as placement.ts does); everything shifted so
 * the leftmost card starts at x = 0. Blocks elk did not see keep their provisional position
 * (the rows of a wrapped object row shifted as elk shifted the node row).
 */
export function applyElk(
  model: GraphModel,
  provisional: Positions,
  xs: ReadonlyMap<string, number>,
): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  // a wrapped object row (not elk's) moves as elk moved the node row
  const first = model.blocks.find((b) => b.row === ROW.nodes && xs.has(b.id) && provisional.has(b.id));
  const shift = first ? (xs.get(first.id) ?? 0) - (provisional.get(first.id)?.x ?? 0) : 0;
  const topIds = new Set(model.blocks.filter((b) => b.row === ROW.top).map((b) => b.id));
  for (const [id, p] of provisional) {
    const x = xs.get(id);
    out.set(id, x !== undefined ? { x, y: p.y } : topIds.has(id) ? p : { x: p.x + shift, y: p.y });
  }
  const top = model.blocks.filter((b) => b.row === ROW.top);
  const strip = top.find((b) => b.id !== KUBECTL_CARD);
  const kubectl = top.find((b) => b.id === KUBECTL_CARD);
  const nodeRow = model.blocks.filter((b) => b.row === ROW.nodes && xs.has(b.id));
  if (strip && nodeRow.length) {
    const left = Math.min(...nodeRow.map((b) => xs.get(b.id) ?? 0));
    const right = Math.max(...nodeRow.map((b) => (xs.get(b.id) ?? 0) + b.width));
    const x = Math.max(left + (kubectl ? kubectl.width + 2 * GAP_X : 0), Math.round((left + right - strip.width) / 2));
    out.set(strip.id, { x, y: out.get(strip.id)?.y ?? 0 });
    if (kubectl) out.set(kubectl.id, { x: x - 2 * GAP_X - kubectl.width, y: STRIP_B_Y });
  }
  // an object line sticking out right of the picture (the node row, the strip) moves left into it:
  // elk does not see links inside a row (a PV beside its claim), so such a line may trail off
  const blockOf = new Map(model.blocks.map((b) => [b.id, b]));
  const rightOf = (id: string) => (out.get(id)?.x ?? 0) + (blockOf.get(id)?.width ?? 0);
  const frame = [...nodeRow, ...(strip ? [strip] : [])].map((b) => b.id);
  if (frame.length) {
    const picture = Math.max(...frame.map(rightOf));
    const lines = new Map<number, string[]>();
    for (const b of model.blocks) {
      if (b.row === ROW.top || b.row === ROW.nodes || !out.has(b.id)) continue;
      const y = out.get(b.id)?.y ?? 0;
      lines.set(y, [...(lines.get(y) ?? []), b.id]);
    }
    for (const ids of lines.values()) {
      const right = Math.max(...ids.map(rightOf));
      const left = Math.min(...ids.map((id) => out.get(id)?.x ?? 0));
      const shift = right > picture ? Math.min(right - picture, Math.max(0, left)) : 0;
      if (shift > 0) for (const id of ids) out.set(id, { x: (out.get(id)?.x ?? 0) - shift, y: out.get(id)?.y ?? 0 });
    }
  }
  const minX = Math.min(0, ...[...out.values()].map((p) => p.x));
  if (minX < 0) for (const [id, p] of out) out.set(id, { x: p.x - minX, y: p.y });
  return out;
}

/**
 * x of every elk block while elk works on a new structure: each block elk placed before keeps
 * `prevXs`' x; a new block goes where placement.ts put it, shifted as its nearest already-known
 * neighbour in its row (left, else right) was shifted by elk; then each row is swept left to right
 * so no two blocks are closer than `GAP_X` (order: placement.ts's). So the cards that are already
 * on screen stay put (or move aside for a newcomer) and the newcomer shows up in the same frame
 * near where elk will put it. Without `prevXs`: placement.ts's x.
 */
export function carryOver(model: GraphModel, placed: Positions, prevXs: ReadonlyMap<string, number> | undefined): Map<string, number> {
  const at = (id: string) => placed.get(id) ?? { x: 0, y: 0 };
  const rows = new Map<number, { id: string; width: number }[]>();
  for (const b of model.blocks) {
    if (!isElkBlock(b.row)) continue;
    const y = at(b.id).y;
    rows.set(y, [...(rows.get(y) ?? []), { id: b.id, width: b.width }]);
  }
  const out = new Map<string, number>();
  for (const row of rows.values()) {
    row.sort((a, b) => at(a.id).x - at(b.id).x);
    const shift = (i: number): number => {
      for (let j = i - 1; j >= 0; j--) {
        const x = prevXs?.get(row[j].id);
        if (x !== undefined) return x - at(row[j].id).x;
      }
      for (let j = i + 1; j < row.length; j++) {
        const x = prevXs?.get(row[j].id);
        if (x !== undefined) return x - at(row[j].id).x;
      }
      return 0;
    };
    let end = -Infinity;
    row.forEach((b, i) => {
      const want = prevXs?.get(b.id) ?? at(b.id).x + shift(i);
      const x = Math.max(want, end);
      out.set(b.id, x);
      end = x + b.width + GAP_X;
    });
  }
  return out;
}
