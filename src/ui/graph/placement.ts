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
import { ROW, STRIP_B_Y, UNSCHEDULED_AREA, type Block, type GraphModel } from './model';

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
/** The lowest zoom the graph's automatic fit uses (ClusterGraph.tsx): rows wrap to stay within the pane at it (11–13 px card text ≥ 7.7 px on screen). */
export const READABLE_ZOOM = 0.7;

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
    // the unscheduled area never stands alone on a line of its own
    const last = lines.at(-1);
    if (lines.length > 1 && last?.length === 1 && last[0].id === UNSCHEDULED_AREA) continue;
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

/** Greedy split of `blocks` (kept in order) into lines at most `limit` wide; then the narrowest width giving as few lines, so the lines come out about equally long. */
export function wrapRow(blocks: Block[], limit: number): Block[][] {
  const split = (w: number): Block[][] => {
    const lines: Block[][] = [];
    let cur: Block[] = [];
    let cw = 0;
    for (const b of blocks) {
      const add = (cur.length ? GAP_X : 0) + b.width;
      if (cur.length && cw + add > w) {
        lines.push(cur);
        cur = [b];
        cw = b.width;
      } else {
        cur.push(b);
        cw += add;
      }
    }
    if (cur.length) lines.push(cur);
    return lines;
  };
  const first = split(limit);
  if (first.length <= 1) return first;
  let lo = Math.max(...blocks.map((b) => b.width)) - 1;
  let hi = limit;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (split(mid).length <= first.length) hi = mid;
    else lo = mid;
  }
  return split(hi);
}

/**
 * How wide an object row may be before it wraps (flow px; Infinity: never). At least the node
 * row and the strip (`floor`), at most the pane's width at {@link READABLE_ZOOM}; in between,
 * the width that shows the whole graph largest in `pane` (rows of model order; among nearly
 * equal choices the wider one, fewer lines).
 */
function chooseRowLimit(objectRows: Block[][], floor: number, fixedHeight: number, pane: Pane | undefined): number {
  if (!pane || pane.width <= 0 || pane.height <= 0) return Infinity;
  const widest = Math.max(0, ...objectRows.map(lineWidth));
  const cap = Math.max(floor, pane.width / READABLE_ZOOM);
  if (widest <= floor) return Infinity;
  let best = Math.min(widest, cap);
  let bestZoom = 0;
  for (let limit = best; limit >= floor; limit = limit > floor && limit * 0.92 < floor ? floor : limit * 0.92) {
    const wrapped = objectRows.map((row) => wrapRow(row, limit));
    const w = Math.max(floor, ...wrapped.flat().map(lineWidth));
    const h = fixedHeight + wrapped.flat().reduce((s, l) => s + rowHeight(l) + GAP_Y, 0);
    const zoom = Math.min(pane.width / w, pane.height / h);
    if (zoom > bestZoom * 1.05) {
      best = limit;
      bestZoom = zoom;
    }
    if (limit === floor) break;
  }
  return best >= widest ? Infinity : best;
}

/**
 * Positions of every block of `model`; `pane` (the graph pane's size) may wrap the node row and
 * the object rows. A wrapped object row reads left to right, top to bottom: its cards ordered by
 * the line, then the x, of what they link to (nodes and object rows wrapped before it), each
 * line as close as it can get over what it links to.
 */
export function placeBlocks(model: GraphModel, pane?: Pane): Map<string, { x: number; y: number }> {
  const rows = new Map<number, Block[]>();
  for (const b of model.blocks) rows.set(b.row, [...(rows.get(b.row) ?? []), b]);
  const width = new Map(model.blocks.map((b) => [b.id, b.width]));
  const out = new Map<string, { x: number; y: number }>();
  const top = rows.get(ROW.top) ?? [];
  const strip = top.find((b) => b.id !== KUBECTL_CARD);
  const kubectl = top.find((b) => b.id === KUBECTL_CARD);
  const topWidth = (strip?.width ?? 0) + (kubectl ? kubectl.width + 2 * GAP_X : 0);

  // the node row wrapped into lines (object rows counted at most as wide as the pane at the readable zoom)
  const objectRows = [...rows.keys()].filter((r) => r !== ROW.top && r !== ROW.nodes).sort((a, b) => a - b);
  const stripHeight = strip ? strip.height + GAP_Y : 0;
  const otherHeight = stripHeight + objectRows.reduce((s, r) => s + rowHeight(rows.get(r) ?? []) + GAP_Y, 0);
  const paneCap = pane && pane.width > 0 ? pane.width / READABLE_ZOOM : Infinity;
  const widest = Math.max(topWidth, Math.min(paneCap, ...objectRows.map((r) => lineWidth(rows.get(r) ?? []))));
  const nodes = rows.get(ROW.nodes) ?? [];
  const lines = nodeLines(nodes, chooseLine(nodes, widest, otherHeight, pane));
  const nodesHeight = lines.reduce((s, l) => s + rowHeight(l) + GAP_Y, 0);
  const span = Math.max(topWidth, ...lines.map(lineWidth));
  const limit = chooseRowLimit(
    objectRows.map((r) => rows.get(r) ?? []),
    span,
    stripHeight + nodesHeight,
    pane,
  );
  /** Line of each block inside its row (0: the row's first line). */
  const lineOf = new Map<string, number>();
  /** Lines of every row, top to bottom. */
  const rowLines = new Map<number, Block[][]>([[ROW.nodes, lines]]);
  lines.forEach((line, i) => {
    let x = 0;
    for (const b of line) {
      out.set(b.id, { x, y: 0 });
      lineOf.set(b.id, i);
      x += b.width + GAP_X;
    }
  });

  // object rows, outward from the nodes: each card near its placed neighbours
  const neighbours = new Map<string, string[]>();
  const note = (a: string, b: string) => neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
  for (const e of model.edges as FlowEdge[]) {
    if (e.type !== 'owner') continue;
    note(e.source, e.target);
    note(e.target, e.source);
  }
  // object cards have no children: their edges start and end at the card itself
  const anchorsOf = (b: Block): { x: number; line: number }[] => {
    const xs: { x: number; line: number }[] = [];
    for (const other of neighbours.get(b.id) ?? []) {
      const o = endpoint(model, other, width);
      const p = out.get(o.block);
      if (p && o.block !== b.id) xs.push({ x: p.x + o.cx, line: lineOf.get(o.block) ?? 0 });
    }
    return xs;
  };
  /** x of `items` (in order, no overlap, near their wants), kept inside the picture's width when they fit in it. */
  const placeLine = (items: Item[], within: number): Map<string, number> => {
    const xs = resolveRow(items);
    if (items.length) {
      const left = Math.min(...items.map((it) => xs.get(it.block.id) ?? 0));
      const right = Math.max(...items.map((it) => (xs.get(it.block.id) ?? 0) + it.block.width));
      const shift = right - left > within ? 0 : left < 0 ? -left : right > within ? within - right : 0;
      if (shift) for (const [id, x] of xs) xs.set(id, x + shift);
    }
    return xs;
  };
  const rowOfBlock = new Map(model.blocks.map((b) => [b.id, b.row]));
  /** Edges between two cards of one row, by each end. */
  const sameRowEdges = new Map<string, FlowEdge[]>();
  for (const e of model.edges as FlowEdge[]) {
    if (e.type !== 'owner' || rowOfBlock.get(e.source) === undefined || rowOfBlock.get(e.source) !== rowOfBlock.get(e.target)) continue;
    for (const id of [e.source, e.target]) sameRowEdges.set(id, [...(sameRowEdges.get(id) ?? []), e]);
  }
  const order = [...objectRows.filter((r) => r < ROW.nodes).reverse(), ...objectRows.filter((r) => r > ROW.nodes)];
  for (const r of order) {
    const blocks = rows.get(r) ?? [];
    const anchored: (Item & { line: number })[] = [];
    const loose: Block[] = [];
    blocks.forEach((b, i) => {
      const as = anchorsOf(b);
      if (as.length)
        anchored.push({
          block: b,
          want: as.reduce((s, a) => s + a.x, 0) / as.length,
          order: i,
          line: as.reduce((s, a) => s + a.line, 0) / as.length,
        });
      else loose.push(b);
    });
    // a card linked only inside its row (an HPA to what it scales, a PV to its claim, a class to
    // its PV) stands beside that card: a source left of its target, a target right of its source
    for (let pass = 0; pass < 3 && loose.length; pass++) {
      for (const b of [...loose]) {
        for (const e of sameRowEdges.get(b.id) ?? []) {
          const other = anchored.find((it) => it.block.id === (e.source === b.id ? e.target : e.source));
          if (!other) continue;
          const left = e.source === b.id;
          anchored.push({
            block: b,
            want: other.want + (left ? -0.001 : 0.001) * (pass + 1),
            order: other.order + (left ? -0.5 : 0.5),
            line: other.line,
          });
          loose.splice(loose.indexOf(b), 1);
          break;
        }
      }
    }
    const wraps = lineWidth(blocks) > limit;
    // a row that fits: by the x of what it links to; a wrapped one: by its line, then x
    anchored.sort((a, b) => (wraps ? a.line - b.line : 0) || a.want - b.want || a.order - b.order);
    const seq = [...anchored.map((it) => it.block), ...loose];
    const parts = wraps ? wrapRow(seq, limit) : [seq];
    rowLines.set(r, parts);
    const item = new Map(anchored.map((it) => [it.block.id, it]));
    parts.forEach((part, i) => {
      const items = part.flatMap((b) => item.get(b.id) ?? []);
      const xs = placeLine(items, wraps ? Math.max(span, limit) : span);
      let end = items.length ? Math.max(...items.map((it) => (xs.get(it.block.id) ?? 0) + it.block.width + GAP_X)) : 0;
      for (const b of part) {
        let x = xs.get(b.id);
        if (x === undefined) {
          x = end;
          end += b.width + GAP_X;
        }
        out.set(b.id, { x, y: 0 });
        lineOf.set(b.id, i);
      }
    });
  }

  // y: the strip, the rows above the nodes, the node lines, the rows below; each line as tall as its tallest card
  let y = stripHeight;
  for (const r of [...objectRows.filter((r) => r < ROW.nodes), ROW.nodes, ...objectRows.filter((r) => r > ROW.nodes)]) {
    for (const line of rowLines.get(r) ?? []) {
      for (const b of line) out.set(b.id, { x: out.get(b.id)?.x ?? 0, y });
      y += rowHeight(line) + GAP_Y;
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
