import { describe, expect, it } from 'vitest';
import { materialize, ResultStore } from './decision';
import { newPodInfo } from './node-info';
import { newStatus, SUCCESS, type NodeScore } from './types';
import { makePod, SchedulerFixture } from './scheduler.fixture';

const FAIL = newStatus('Unschedulable', 'Insufficient cpu');

/** One scripted attempt: filter verdicts (node, plugin, ok) in call order, then score calls. */
interface Script {
  name: string;
  filters: [string, string, boolean][];
  scores?: { plugin: string; weight: number; raw: [string, number][]; normalized?: number[] }[];
  want: { order: string[]; feasible: number; failed: Record<string, string>; totals?: Record<string, number> };
}

const scripts: Script[] = [
  {
    name: 'each node listed once, in evaluation order, with its failing plugin',
    filters: [
      ['a', 'NodeName', true],
      ['a', 'NodeResourcesFit', false],
      ['b', 'NodeName', true],
      ['b', 'NodeResourcesFit', true],
      ['c', 'NodeName', true],
      ['c', 'NodeResourcesFit', true],
    ],
    want: { order: ['a', 'b', 'c'], feasible: 2, failed: { a: 'NodeResourcesFit' } },
  },
  {
    name: 'the nominated node, evaluated first and again in turn, is listed once (first place)',
    filters: [
      ['b', 'NodeResourcesFit', false],
      ['a', 'NodeResourcesFit', true],
      ['b', 'NodeResourcesFit', false],
      ['c', 'NodeResourcesFit', true],
    ],
    want: { order: ['b', 'a', 'c'], feasible: 2, failed: { b: 'NodeResourcesFit' } },
  },
  {
    name: 'a later success of the failing plugin clears the failure (nominated pods what-if)',
    filters: [
      ['a', 'NodeResourcesFit', false],
      ['a', 'NodeResourcesFit', true],
    ],
    want: { order: ['a'], feasible: 1, failed: {} },
  },
  {
    name: 'scores: raw, then normalized × weight; totals summed per node',
    filters: [
      ['a', 'NodeResourcesFit', true],
      ['b', 'NodeResourcesFit', true],
    ],
    scores: [
      {
        plugin: 'NodeResourcesFit',
        weight: 1,
        raw: [
          ['a', 81],
          ['b', 50],
        ],
      },
      {
        plugin: 'TaintToleration',
        weight: 3,
        raw: [
          ['a', 0],
          ['b', 1],
        ],
        normalized: [100, 0],
      },
    ],
    want: { order: ['a', 'b'], feasible: 2, failed: {}, totals: { a: 81 + 300, b: 50 } },
  },
  {
    name: 'a plugin scoring other nodes than the one before keeps its own node list',
    filters: [
      ['a', 'NodeResourcesFit', true],
      ['b', 'NodeResourcesFit', true],
    ],
    scores: [
      {
        plugin: 'NodeResourcesFit',
        weight: 1,
        raw: [
          ['a', 1],
          ['b', 2],
        ],
      },
      { plugin: 'ImageLocality', weight: 1, raw: [['b', 5]] },
      {
        plugin: 'TaintToleration',
        weight: 3,
        raw: [
          ['a', 0],
          ['b', 0],
        ],
        normalized: [100, 100],
      },
    ],
    want: { order: ['a', 'b'], feasible: 2, failed: {}, totals: { a: 1 + 300, b: 2 + 5 + 300 } },
  },
];

describe('ResultStore: the decision record, kept by column and built on demand', () => {
  for (const sc of scripts) {
    it(sc.name, () => {
      const store = new ResultStore();
      const pi = newPodInfo(makePod({ name: 'p' }));
      for (const [node, plugin, ok] of sc.filters) store.recordFilter(pi.uid, node, plugin, ok ? SUCCESS : FAIL);
      for (const s of sc.scores ?? []) {
        for (const [node, v] of s.raw) store.recordScore(pi.uid, node, s.plugin, v, s.weight);
        if (s.normalized)
          store.recordNormalized(
            pi.uid,
            s.plugin,
            s.raw.map(([name], i): NodeScore => ({ name, score: s.normalized![i] })),
          );
      }
      const rec = store.finish(pi, 1, 1000, 3, { result: 'Scheduled', selectedNode: sc.want.order[0] });
      const d = materialize(rec);
      expect(d.nodes.map((n) => n.node)).toEqual(sc.want.order);
      expect(d.feasibleNodes).toBe(sc.want.feasible);
      expect(Object.fromEntries(d.nodes.filter((n) => !n.feasible).map((n) => [n.node, n.failedPlugin]))).toEqual(sc.want.failed);
      for (const n of d.nodes)
        expect(n.filters).toEqual(
          n.feasible ? [] : [{ plugin: n.failedPlugin, passed: false, code: 'Unschedulable', reasons: ['Insufficient cpu'] }],
        );
      if (sc.want.totals) expect(Object.fromEntries(d.nodes.map((n) => [n.node, n.total]))).toEqual(sc.want.totals);
      for (const n of d.nodes) for (const s of n.scores ?? []) expect(s.final).toBe(s.normalized * s.weight);
      expect(materialize(rec)).toBe(d); // built once
    });
  }

  it('keeps the outcome fields and their order (the UI reads the record as JSON)', () => {
    const store = new ResultStore();
    const pi = newPodInfo(makePod({ name: 'p' }));
    store.recordFilter(pi.uid, 'a', 'NodeResourcesFit', SUCCESS);
    const d = materialize(store.finish(pi, 2, 5000, 1, { result: 'Scheduled', selectedNode: 'a' }));
    expect(Object.keys(d)).toEqual([
      'namespace',
      'name',
      'uid',
      'attempt',
      'time',
      'numAllNodes',
      'feasibleNodes',
      'nodes',
      'preFilter',
      'skippedScorePlugins',
      'postFilter',
      'result',
      'selectedNode',
    ]);
    expect(d).toMatchObject({
      namespace: 'default',
      name: 'p',
      attempt: 2,
      time: 5000,
      numAllNodes: 1,
      feasibleNodes: 1,
      result: 'Scheduled',
      selectedNode: 'a',
    });
  });
});

describe('the decision hop names the score plugin that set the host apart', () => {
  it('node-3 (empty) beats node-1 and node-2 (2 CPU, 1Gi each) on least allocated', () => {
    const f = new SchedulerFixture();
    f.createPod({ name: 'a', cpu: '2', memory: '1Gi', nodeName: 'node-1' });
    f.createPod({ name: 'b', cpu: '2', memory: '1Gi', nodeName: 'node-2' });
    f.advance(50);
    f.createPod({ name: 'p', cpu: '1', memory: '1Gi' });
    f.advance(50);
    expect(f.nodeOf('p')).toBe('node-3');
    const d = f.scheduler.decisionFor('default', 'p')!;
    // least allocated: node-3 (75 + 87) / 2 = 81, node-1/2 (25 + 75) / 2 = 50;
    // balanced: node-3 |0.25 − 0.125| / 2 → 93, node-1/2 |0.75 − 0.25| / 2 → 75; taints 100 × 3
    expect(Object.fromEntries(d.nodes.filter((n) => n.feasible).map((n) => [n.node, n.total]))).toEqual({
      'node-1': 425,
      'node-2': 425,
      'node-3': 474,
    });
    expect(d.tiedNodes).toBeUndefined();
    const hop = f.relay.all().find((h) => h.kind === 'decision' && h.name === 'p')!;
    expect(hop.summary).toBe('node-3: score 474 (least allocated) — 3 feasible of 4');
    expect(hop.note).toBe('filtered 3/4 nodes → node-3 (score 474)');
  });
});
