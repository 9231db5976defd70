/**
 * The large-cluster path on the page (worker/pod-summary.ts): the first summary drops every
 * Pod the store holds (no per-Pod object stays on the main thread), Pod changes are ignored
 * while summarized, a null summary ends it; and the graph model gets one summary card per node.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ObjectChangeMsg, PodSummary, TickBatch } from '../../worker/protocol';
import { createKubeStore } from './store';
import { reduceBatch } from './reducers';
import type { KObject } from './types';
import { buildModel } from '../graph/model';
import { DEFAULT_VIEW } from '../graph/view-store';
import { estimateMeasure } from '../graph/text-measure';
import { computeTopology } from './topology';
import { statusLine, summaryCardId, summaryShape, withPodSummaries } from '../graph/pod-summary-model';

let store = createKubeStore();
beforeEach(() => {
  store = createKubeStore();
});

function feed(b: Partial<TickBatch>): void {
  store.setState((s) =>
    reduceBatch(s, {
      gen: 0,
      reset: false,
      simMs: 0,
      startMs: 0,
      changes: [],
      events: [],
      hops: [],
      deadlines: [],
      running: true,
      speed: 1,
      profile: 'kubernetes-defaults',
      fault: null,
      applySeq: null,
      ...b,
    }),
  );
}

function added(kind: string, name: string, ns: string | null = 'default', spec: Record<string, unknown> = {}): ObjectChangeMsg {
  const o = { apiVersion: 'v1', kind, metadata: { name, ...(ns ? { namespace: ns } : {}) }, spec } as KObject;
  return { type: 'ADDED', resource: `${kind.toLowerCase()}s`, key: ns ? `${kind}/${ns}/${name}` : `${kind}/${name}`, object: o, row: null };
}

const summary: PodSummary = {
  threshold: 1000,
  leaveThreshold: 800,
  all: {
    total: 1500,
    ready: 1490,
    statuses: [
      ['Running', 1490],
      ['Pending', 10],
    ],
  },
  nodes: [
    {
      node: 'node-1',
      total: 1000,
      ready: 995,
      statuses: [
        ['Running', 995],
        ['Pending', 5],
      ],
    },
    {
      node: '',
      total: 500,
      ready: 495,
      statuses: [
        ['Running', 495],
        ['Pending', 5],
      ],
    },
  ],
  moreNodes: 0,
  owners: [
    {
      owner: 'ReplicaSet/default/huge-abc',
      total: 1500,
      ready: 1490,
      statuses: [
        ['Running', 1490],
        ['Pending', 10],
      ],
    },
  ],
  moreOwners: 0,
};

describe('reduceBatch: the summarized Pods', () => {
  it('the first summary drops the Pods; Pod changes are ignored while summarized; null ends it', () => {
    feed({ changes: [added('Node', 'node-1', null), added('Pod', 'a', 'default', { nodeName: 'node-1' }), added('Deployment', 'huge')] });
    expect(store.getState().topology.pods).toHaveLength(1);
    feed({ podSummary: summary, podSample: { rows: [], total: 1500 } });
    let s = store.getState();
    expect([...s.objects.keys()]).toEqual(['Node/node-1', 'Deployment/default/huge']);
    expect(s.topology.pods).toEqual([]);
    expect(s.podSummary).toBe(summary);
    expect(s.podSample?.total).toBe(1500);
    feed({ changes: [added('Pod', 'b'), added('ReplicaSet', 'huge-abc')] });
    s = store.getState();
    expect([...s.objects.keys()]).toEqual(['Node/node-1', 'Deployment/default/huge', 'ReplicaSet/default/huge-abc']);
    expect(s.podSummary).toBe(summary); // absent: unchanged
    feed({ podSummary: null, podSample: null, changes: [added('Pod', 'c')] });
    s = store.getState();
    expect(s.podSummary).toBeNull();
    expect(s.podSample).toBeNull();
    expect(s.objects.has('Pod/default/c')).toBe(true);
  });

  it('a reset without a summary clears it', () => {
    feed({ podSummary: summary });
    feed({ reset: true, gen: 1 });
    expect(store.getState().podSummary).toBeNull();
  });
});

describe('withPodSummaries', () => {
  it('one summary card in each node named and in the unscheduled area; the nodes grow to hold it', () => {
    const objects = new Map(
      [added('Node', 'node-1', null), added('Node', 'node-2', null)].map((c) => [
        c.key,
        { key: c.key, resource: c.resource, object: c.object, row: null },
      ]),
    );
    const base = buildModel(computeTopology(objects), DEFAULT_VIEW);
    const m = withPodSummaries(base, summaryShape(summary), estimateMeasure);
    const cards = m.nodes.filter((n) => n.type === 'podSummary');
    expect(cards.map((n) => [n.id, n.parentId])).toEqual([
      [summaryCardId('node-1'), 'Node/node-1'],
      [summaryCardId(''), 'area:unscheduled'],
    ]);
    const node1 = m.nodes.find((n) => n.id === 'Node/node-1')!;
    const card = cards[0];
    expect(node1.height).toBeGreaterThanOrEqual(card.position.y + card.height!);
    expect(m.blocks.find((b) => b.id === 'Node/node-1')!.height).toBe(node1.height);
    expect(withPodSummaries(base, null, estimateMeasure)).toBe(base);
    expect(statusLine(summary.nodes[0])).toBe('995 Running · 5 Pending');
    expect(
      statusLine({
        total: 66_667,
        ready: 0,
        statuses: [
          ['Running', 66_650],
          ['Pending', 17],
        ],
      }),
    ).toBe('66,650 Running · 17 Pending');
  });
});
