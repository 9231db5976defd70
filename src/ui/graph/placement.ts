/**
 * Where the model's blocks go at once: rows top to bottom (model.ts ROW), the worker nodes as
 * the main row in name order, every object card above or below them as close as it can get to
 * the cards it has edges to, so ownership and selection edges stay short. Pure and synchronous:
 * the same model and pane give the same positions.
 *
 * These are the provisional positions and the source of the layout's order: elkjs (elk-layout.ts,
 * off the main thread) takes the rows, their y, the node lines and the left-to-right order in
 * every row from here and decides the final x of the object cards; until it answers, a new card
 * stands where this module puts it (elk-positions.ts).
 *
 * - nodes: left to right in model order; when the pane is given and wrapping the row makes the
 *   whole picture bigger on screen (many nodes in a pane wider than tall), the row wraps.
 * - object rows: placed outward from the nodes (owned, owners, clients above; claims, volumes,
 *   classes below); each card wants its centre at the mean x of its already placed neighbours
 *   (a Pod inside a node counts at its own x); overlaps are resolved by least-squares clusters
 *   (pool adjacent violators), so a row keeps the order of what it points at.
 * - the control-plane strip is centred over the nodes, kubectl left of it level with
 *   kube-apiserver.
 */
import type { FlowEdge } from './flow-types';
import { KUBECTL_CARD } from './participants';
import { ROW, STRIP_B_Y, type Block, type GraphModel } from './model';

/** Top-left corners of blocks by id, flow coordinates. */
export type Positions = ReadonlyMap<string, { x: number; y: number }>;

/** Size of the graph pane in CSS px (0 × 0: unknown). */
export interface Pane {
  width: number;
  height: number;
}

/** Horizontal gap between blocks in a row, and between rows. */
export const GAP_X = 12;
export const GAP_Y = 22;

type Item = { block: Block; want: number; order: number };

/** Left x of each item (sorted by `want`, the desired centre) with no overlap, least squares. */
function resolveRow(items: Item[]): Map<string, number> {
  type Cluster = { items: Item[]; width: number; sum: number; left: number };
  const clusters: Cluster[] = [];
  for (const it of items) {
    // a cluster's best left edge is the mean of (want − offset − width/2) over its items
    let c: Cluster = { items: [it], width: it.block.width, sum: it.want - it.block.width / 2, left: it.want - it.block.width / 2 };
    for (;;) {
      const prev = clusters.at(-1);
      if (!prev || prev.left + prev.width + GAP_X <= c.left) break;
      clusters.pop();
      const offset = prev.width + GAP_X;
      const sum = prev.sum + c.sum - offset * c.items.length;
      const items2 = [...prev.items, ...c.items];
      c = { items: items2, width: offset + c.width, sum, left: sum / items2.length };
    }
    clusters.push(c);
  }
  const out = new Map<string, number>();
  for (const c of clusters) {
    let x = c.left;
    for (const it of c.items) {
      out.set(it.block.id, Math.round(x));
      x += it.block.width + GAP_X;
    }
  }
  return out;
}

/** The block and x-offset (centre) an edge endpoint stands at. */
function endpoint(model: GraphModel, id: string, width: ReadonlyMap<string, number>): { block: string; cx: number } {
  return model.childAt.get(id) ?? { block: id, cx: (width.get(id) ?? 0) / 2 };
}

/** Worker-node lines for `perLine` nodes a line (the unscheduled area ends the last line). */
function nodeLines(nodes: Block[], perLine: number): Block[][] {
  const lines: Block[][] = [];
  for (let i = 0; i < nodes.length; i += perLine) lines.push(nodes.slice(i, i + perLine));
  return lines;
}

const lineWidth = (line: Block[]) => line.reduce((w, b) => w + b.width, 0) + GAP_X * Math.max(0, line.length - 1);
const rowHeight = (row: Block[]) => row.reduce((h, b) => Math.max(h, b.height), 0);

/** How many nodes a line: the choice that shows the whole graph largest in `pane`. */
function chooseLine(nodes: Block[], otherWidth: number, otherHeight: number, pane: Pane | undefined): number {
  if (!pane || pane.width <= 0 || pane.height <= 0 || nodes.length < 4) return Math.max(1, nodes.length);
  let best = nodes.length;
  let bestZoom = 0;
  for (let per = nodes.length; per >= 2; per--) {
    const lines = nodeLines(nodes, per);
    const w = Math.max(otherWidth, ...lines.map(lineWidth));
    const h = otherHeight + lines.reduce((s, l) => s + rowHeight(l) + GAP_Y, 0);
    const zoom = Math.min(pane.width / w, pane.height / h);
    if (zoom > bestZoom * 1.05) {
      best = per;
      bestZoom = zoom;
    }
  }
  return best;
}

/** Positions of every block of `model`; `pane` (the graph pane's size) may wrap the node row. */
export function placeBlocks(model: GraphModel, pane?: Pane): Map<string, { x: number; y: number }> {
  const rows = new Map<number, Block[]>();
  for (const b of model.blocks) rows.set(b.row, [...(rows.get(b.row) ?? []), b]);
  const width = new Map(model.blocks.map((b) => [b.id, b.width]));
  const out = new Map<string, { x: number; y: number }>();
  const top = rows.get(ROW.top) ?? [];
  const strip = top.find((b) => b.id !== KUBECTL_CARD);
  const kubectl = top.find((b) => b.id === KUBECTL_CARD);
  const topWidth = (strip?.width ?? 0) + (kubectl ? kubectl.width + 2 * GAP_X : 0);

  // row heights and y, with the node row wrapped into lines
  const objectRows = [...rows.keys()].filter((r) => r !== ROW.top && r !== ROW.nodes).sort((a, b) => a - b);
  const otherHeight = (strip ? strip.height + GAP_Y : 0) + objectRows.reduce((s, r) => s + rowHeight(rows.get(r) ?? []) + GAP_Y, 0);
  const widest = Math.max(topWidth, ...objectRows.map((r) => lineWidth(rows.get(r) ?? [])));
  const nodes = rows.get(ROW.nodes) ?? [];
  const lines = nodeLines(nodes, chooseLine(nodes, widest, otherHeight, pane));
  const rowY = new Map<number, number>();
  let y = strip ? strip.height + GAP_Y : 0;
  for (const r of objectRows.filter((r) => r < ROW.nodes)) {
    rowY.set(r, y);
    y += rowHeight(rows.get(r) ?? []) + GAP_Y;
  }
  for (const line of lines) {
    let x = 0;
    for (const b of line) {
      out.set(b.id, { x, y });
      x += b.width + GAP_X;
    }
    y += rowHeight(line) + GAP_Y;
  }
  for (const r of objectRows.filter((r) => r > ROW.nodes)) {
    rowY.set(r, y);
    y += rowHeight(rows.get(r) ?? []) + GAP_Y;
  }

  // object rows, outward from the nodes: each card near its placed neighbours
  const span = Math.max(topWidth, ...lines.map(lineWidth));
  const neighbours = new Map<string, string[]>();
  const note = (a: string, b: string) => neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
  for (const e of model.edges as FlowEdge[]) {
    if (e.type !== 'owner') continue;
    note(e.source, e.target);
    note(e.target, e.source);
  }
  // object cards have no children: their edges start and end at the card itself
  const anchorsOf = (b: Block): number[] => {
    const xs: number[] = [];
    for (const other of neighbours.get(b.id) ?? []) {
      const o = endpoint(model, other, width);
      const p = out.get(o.block);
      if (p && o.block !== b.id) xs.push(p.x + o.cx);
    }
    return xs;
  };
  const order = [...objectRows.filter((r) => r < ROW.nodes).reverse(), ...objectRows.filter((r) => r > ROW.nodes)];
  for (const r of order) {
    const blocks = rows.get(r) ?? [];
    const anchored: Item[] = [];
    const loose: Block[] = [];
    blocks.forEach((b, i) => {
      const xs = anchorsOf(b);
      if (xs.length) anchored.push({ block: b, want: xs.reduce((s, x) => s + x, 0) / xs.length, order: i });
      else loose.push(b);
    });
    anchored.sort((a, b) => a.want - b.want || a.order - b.order);
    const xs = resolveRow(anchored);
    // keep a row that fits inside the picture's width inside it (no overhang left or right)
    if (anchored.length) {
      const left = Math.min(...anchored.map((it) => xs.get(it.block.id) ?? 0));
      const right = Math.max(...anchored.map((it) => (xs.get(it.block.id) ?? 0) + it.block.width));
      const shift = right - left > span ? 0 : left < 0 ? -left : right > span ? span - right : 0;
      if (shift) for (const [id, x] of xs) xs.set(id, x + shift);
    }
    let end = Math.max(0, ...anchored.map((it) => (xs.get(it.block.id) ?? 0) + it.block.width + GAP_X));
    if (!anchored.length) end = 0;
    for (const b of anchored) out.set(b.block.id, { x: xs.get(b.block.id) ?? 0, y: rowY.get(r) ?? 0 });
    for (const b of loose) {
      out.set(b.id, { x: end, y: rowY.get(r) ?? 0 });
      end += b.width + GAP_X;
    }
  }

  // the strip centred over the nodes, kubectl to its left level with kube-apiserver
  const nodesWidth = Math.max(0, ...lines.map(lineWidth));
  if (strip) {
    const x = Math.max(kubectl ? kubectl.width + 2 * GAP_X : 0, Math.round((nodesWidth - strip.width) / 2));
    out.set(strip.id, { x, y: 0 });
    if (kubectl) out.set(kubectl.id, { x: x - 2 * GAP_X - kubectl.width, y: STRIP_B_Y });
  } else if (kubectl) out.set(kubectl.id, { x: 0, y: 0 });

  // shift so that the leftmost card starts at x = 0
  const minX = Math.min(0, ...[...out.values()].map((p) => p.x));
  if (minX < 0) for (const [id, p] of out) out.set(id, { x: p.x - minX, y: p.y });
  return out;
}
