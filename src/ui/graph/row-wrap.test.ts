/**
 * Long object rows wrap (placement.ts's lines, elk-layout.ts keeps them): an online-boutique-like
 * cluster (12 Deployments, 12 Services, their ReplicaSets and EndpointSlices over 3 worker nodes)
 * in a 1280×800 window's graph pane.
 */
import { describe, expect, it } from 'vitest';
import ELK from 'elkjs/lib/elk.bundled.js';
import { emptyTopology } from '../store/topology';
import type { GraphTopology } from '../store/types';
import { buildModel, ROW, type GraphModel } from './model';
import { DEFAULT_VIEW } from './view-store';
import { placeBlocks, READABLE_ZOOM, wrapRow, type Pane, type Positions } from './placement';
import { applyElk, elkXs, toElkInput } from './elk-layout';

const APPS = [
  'adservice',
  'cartservice',
  'checkoutservice',
  'currencyservice',
  'emailservice',
  'frontend',
  'loadgenerator',
  'paymentservice',
  'productcatalogservice',
  'recommendationservice',
  'redis-cart',
  'shippingservice',
];
const WORKERS = ['node-1', 'node-2', 'node-3'];
/** About the graph pane of a 1280×800 window. */
const PANE: Pane = { width: 760, height: 640 };

/** online-boutique: a Deployment → ReplicaSet → one Pod per app, Pods round-robin over the nodes; a Service → EndpointSlice per app but loadgenerator, plus frontend-external. */
function boutique(): GraphTopology {
  const t = emptyTopology();
  t.nodes = [
    { key: 'Node/control-plane', name: 'control-plane', controlPlane: true },
    ...WORKERS.map((n) => ({ key: `Node/${n}`, name: n, controlPlane: false })),
  ];
  t.deployments = APPS.map((a) => ({ key: `Deployment/default/${a}` }));
  t.replicaSets = APPS.map((a) => ({ key: `ReplicaSet/default/${a}-7f9c`, owner: `Deployment/default/${a}` }));
  t.pods = APPS.map((a, i) => ({ key: `Pod/default/${a}-7f9c-x${i}`, node: WORKERS[i % 3], owner: `ReplicaSet/default/${a}-7f9c` }));
  const services = [...APPS.filter((a) => a !== 'loadgenerator').map((a) => [a, a]), ['frontend-external', 'frontend']];
  t.services = services.map(([s]) => ({ key: `Service/default/${s}` }));
  t.endpointSlices = services.map(([s, app]) => ({
    key: `EndpointSlice/default/${s}-q2w3e`,
    service: `Service/default/${s}`,
    pods: [`Pod/default/${app}-7f9c-x${APPS.indexOf(app)}`],
  }));
  return t;
}

const elk = new ELK();

/** Ids of a row in reading order: line by line (y), left to right. */
function reading(model: GraphModel, p: Positions, row: number): string[] {
  const at = (id: string) => p.get(id) ?? { x: NaN, y: NaN };
  return model.blocks
    .filter((b) => b.row === row)
    .map((b) => b.id)
    .sort((a, b) => at(a).y - at(b).y || at(a).x - at(b).x);
}

/** Pairs of top-level blocks whose boxes overlap. */
function overlaps(model: GraphModel, p: Positions): string[] {
  const box = model.blocks.map((b) => ({ id: b.id, x: p.get(b.id)?.x ?? 0, y: p.get(b.id)?.y ?? 0, w: b.width, h: b.height }));
  const out: string[] = [];
  for (let i = 0; i < box.length; i++)
    for (let j = i + 1; j < box.length; j++) {
      const [a, b] = [box[i], box[j]];
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) out.push(`${a.id} × ${b.id}`);
    }
  return out;
}

const rowYs = (model: GraphModel, p: Positions, row: number) => [
  ...new Set(model.blocks.filter((b) => b.row === row).map((b) => p.get(b.id)?.y)),
];
const right = (model: GraphModel, p: Positions, row: number) =>
  Math.max(...model.blocks.filter((b) => b.row === row).map((b) => (p.get(b.id)?.x ?? 0) + b.width));
const left = (model: GraphModel, p: Positions, row: number) =>
  Math.min(...model.blocks.filter((b) => b.row === row).map((b) => p.get(b.id)?.x ?? 0));

async function layouts(): Promise<{ model: GraphModel; placed: Positions; final: Positions }> {
  const model = buildModel(boutique(), DEFAULT_VIEW);
  const placed = placeBlocks(model, PANE);
  const input = toElkInput(model, placed);
  return { model, placed, final: applyElk(model, placed, elkXs(await elk.layout(input.graph), input.lines)) };
}

describe('online-boutique: long object rows wrap', () => {
  const cases = [
    { name: 'placement.ts (provisional)', pick: (l: Awaited<ReturnType<typeof layouts>>) => l.placed },
    { name: 'elk-layout.ts (final)', pick: (l: Awaited<ReturnType<typeof layouts>>) => l.final },
  ];
  for (const c of cases)
    it(`${c.name}: owners and owned rows wrap no wider than the pane at the readable zoom; order kept; no overlap`, async () => {
      const l = await layouts();
      const p = c.pick(l);
      const limit = Math.max(right(l.model, p, ROW.nodes) - left(l.model, p, ROW.nodes), PANE.width / READABLE_ZOOM);
      for (const row of [ROW.owners, ROW.owned]) {
        expect(rowYs(l.model, p, row).length, `row ${row} lines`).toBeGreaterThan(1);
        expect(right(l.model, p, row) - left(l.model, p, row), `row ${row} width`).toBeLessThanOrEqual(limit);
        // elk keeps placement.ts's lines and their order
        expect(reading(l.model, p, row), `row ${row}`).toEqual(reading(l.model, l.placed, row));
      }
      // each Deployment reads in the order of its ReplicaSet
      const deployments = reading(l.model, p, ROW.owners).filter((id) => id.startsWith('Deployment/'));
      const replicaSets = reading(l.model, p, ROW.owned).filter((id) => id.startsWith('ReplicaSet/'));
      expect(deployments.map((d) => d.replace('Deployment/', 'ReplicaSet/') + '-7f9c')).toEqual(replicaSets);
      // the rows stay above the nodes: owners, then owned, then the node row
      expect(Math.max(...rowYs(l.model, p, ROW.owners).map(Number))).toBeLessThan(Math.min(...rowYs(l.model, p, ROW.owned).map(Number)));
      expect(Math.max(...rowYs(l.model, p, ROW.owned).map(Number))).toBeLessThan(Math.min(...rowYs(l.model, p, ROW.nodes).map(Number)));
      expect(overlaps(l.model, p)).toEqual([]);
    });

  it('without a pane the rows do not wrap (one line each)', () => {
    const model = buildModel(boutique(), DEFAULT_VIEW);
    const p = placeBlocks(model);
    for (const row of [ROW.owners, ROW.owned, ROW.nodes]) expect(rowYs(model, p, row), `row ${row}`).toHaveLength(1);
    expect(overlaps(model, p)).toEqual([]);
  });
});

describe('wrapRow', () => {
  const b = (id: string, width: number) => ({ id, row: ROW.owners, width, height: 40 });
  const cases: { name: string; widths: number[]; limit: number; lines: string[][] }[] = [
    { name: 'fits: one line', widths: [100, 100, 100], limit: 400, lines: [['a', 'b', 'c']] },
    {
      name: 'five of 100 in 350: two balanced lines, order kept',
      widths: [100, 100, 100, 100, 100],
      limit: 350,
      lines: [
        ['a', 'b', 'c'],
        ['d', 'e'],
      ],
    },
    {
      name: 'six of 100 in 450: 3 + 3, not 4 + 2',
      widths: [100, 100, 100, 100, 100, 100],
      limit: 450,
      lines: [
        ['a', 'b', 'c'],
        ['d', 'e', 'f'],
      ],
    },
    { name: 'a card wider than the limit stands alone', widths: [100, 500, 100], limit: 300, lines: [['a'], ['b'], ['c']] },
  ];
  for (const c of cases)
    it(c.name, () => {
      const blocks = c.widths.map((w, i) => b(String.fromCharCode(97 + i), w));
      expect(wrapRow(blocks, c.limit).map((l) => l.map((x) => x.id))).toEqual(c.lines);
    });
});
