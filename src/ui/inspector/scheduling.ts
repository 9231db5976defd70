/** Pure: the scheduler's decision record as a table (one row per node, one column per score plugin). */
import type { SchedulingDecision } from '../store/types';

export interface DecisionRow {
  node: string;
  chosen: boolean;
  feasible: boolean;
  /** The filter plugin that rejected the node, and why. */
  failedPlugin?: string;
  reasons: string[];
  /** plugin → final score (normalized × weight); absent when the node was not scored. */
  scores: Record<string, number>;
  total?: number;
}

export interface DecisionTable {
  plugins: string[];
  rows: DecisionRow[];
}

export function decisionTable(d: SchedulingDecision): DecisionTable {
  const plugins: string[] = [];
  for (const n of d.nodes) for (const s of n.scores ?? []) if (!plugins.includes(s.plugin)) plugins.push(s.plugin);
  const rows = d.nodes.map((n): DecisionRow => {
    const scores: Record<string, number> = {};
    for (const s of n.scores ?? []) scores[s.plugin] = s.final;
    return {
      node: n.node,
      chosen: n.node === d.selectedNode,
      feasible: n.feasible,
      failedPlugin: n.failedPlugin,
      reasons: n.reasons ?? [],
      scores,
      total: n.total,
    };
  });
  // the chosen node first, then feasible by total, then the rejected ones, each by name
  const rank = (r: DecisionRow) => (r.chosen ? 0 : r.feasible ? 1 : 2);
  rows.sort((a, b) => rank(a) - rank(b) || (b.total ?? -1) - (a.total ?? -1) || a.node.localeCompare(b.node, 'en', { numeric: true }));
  return { plugins, rows };
}
