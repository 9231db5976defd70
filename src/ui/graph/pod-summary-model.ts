/**
 * The large-cluster path of the graph (worker/pod-summary.ts): while the worker summarizes the
 * Pods, the topology holds none, and {@link withPodSummaries} puts one summary card into each
 * worker node (and the unscheduled area) of the model buildModel made, where the Pod cards
 * would stand: "node-1: 66,667 Pods" over "66,650 Running · 17 Pending". The cards read their
 * counts from the store themselves (PodSummaryCard.tsx), so the model — and the layout — change
 * only when the set of nodes with Pods does, not with every count.
 */
import type { PodCounts, PodSummary } from '../store/types';
import type { GraphModel } from './model';
import { NODE_PODS_Y, POD_H, UNSCHEDULED_AREA } from './model';
import type { Measure } from './text-measure';

/** Width of a summary card (at least; as wide as its widest text). */
export const SUMMARY_CARD_W = 200;
/** Height of a summary card: the count line and the statuses line, with room for a third. */
export const SUMMARY_CARD_H = POD_H + 14;
/** y of the summary card in the unscheduled area (below its header and caption). */
const AREA_SUMMARY_Y = 44;

/** The id of the summary card of node `node` ("" : the unscheduled area). */
export function summaryCardId(node: string): string {
  return `pod-summary:${node || 'unscheduled'}`;
}

const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** Thousands with commas ("66,667"), as the summary cards and notes print counts (one shared formatter: toLocaleString builds one per call). */
export function formatCount(n: number): string {
  return COUNT_FORMAT.format(n);
}

/** "66,650 Running · 17 Pending": statuses, most Pods first. */
export function statusLine(c: PodCounts): string {
  return c.statuses.map(([st, n]) => `${formatCount(n)} ${st}`).join(' · ');
}

/** The node names a summary has counts for, one per line ("" for the unscheduled area): the model's input (a string, stable across count changes). */
export function summaryShape(s: PodSummary | null): string | null {
  return s ? s.nodes.map((n) => n.node).join('\n') : null;
}

/**
 * `model` with a summary card in each node named by `shape` (see {@link summaryShape}); nodes
 * grow to hold it. Returns `model` itself when `shape` is null (below the threshold).
 */
export function withPodSummaries(model: GraphModel, shape: string | null, measure: Measure): GraphModel {
  if (shape === null) return model;
  const names = new Set(shape.split('\n'));
  const nodes = [...model.nodes];
  const blocks = model.blocks.map((b) => ({ ...b }));
  const childAt = new Map(model.childAt);
  const w = Math.max(
    SUMMARY_CARD_W,
    Math.ceil(measure('node-00: 000,000 Pods', 'podName') + 24),
    Math.ceil(measure('000,000 Running · 000,000 Pending', 'podStatus') + 24),
  );
  const grow = (id: string, width: number, height: number) => {
    const i = nodes.findIndex((n) => n.id === id);
    const n = nodes[i];
    const nw = Math.max(n.width ?? 0, width);
    const nh = Math.max(n.height ?? 0, height);
    nodes[i] = { ...n, width: nw, height: nh, data: { ...n.data, width: nw, height: nh } } as typeof n;
    const b = blocks.find((x) => x.id === id);
    if (b) {
      b.width = nw;
      b.height = nh;
    }
  };
  for (const n of model.nodes) {
    if (n.type === 'nodeGroup' && !n.data.controlPlane && names.has(n.data.name)) {
      const id = summaryCardId(n.data.name);
      nodes.push({
        id,
        type: 'podSummary',
        parentId: n.id,
        position: { x: 8, y: NODE_PODS_Y },
        width: w,
        height: SUMMARY_CARD_H,
        data: { node: n.data.name },
      });
      childAt.set(id, { block: n.id, cx: 8 + w / 2 });
      grow(n.id, 8 + w + 8, NODE_PODS_Y + SUMMARY_CARD_H + 8);
    }
  }
  if (names.has('')) {
    const id = summaryCardId('');
    nodes.push({
      id,
      type: 'podSummary',
      parentId: UNSCHEDULED_AREA,
      position: { x: 8, y: AREA_SUMMARY_Y },
      width: w,
      height: SUMMARY_CARD_H,
      data: { node: '' },
    });
    childAt.set(id, { block: UNSCHEDULED_AREA, cx: 8 + w / 2 });
    grow(UNSCHEDULED_AREA, 8 + w + 8, AREA_SUMMARY_Y + SUMMARY_CARD_H + 8);
  }
  return { ...model, nodes, blocks, childAt };
}
