/**
 * elk-layout.ts with real elkjs (its bundled build, in Node): rows and order as placement.ts
 * decides, stable positions as objects come and go, deterministic answers, provisional positions
 * close to elk's; carryOver; the runner's queue (one layout in flight, the latest queued).
 */
import { describe, expect, it } from 'vitest';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { emptyTopology } from '../store/topology';
import type { GraphTopology } from '../store/types';
import { buildModel, ROW, UNSCHEDULED_AREA, type GraphModel } from './model';
import { DEFAULT_VIEW } from './view-store';
import { GAP_X, placeBlocks, type Positions } from './placement';
import { applyElk, carryOver, elkXs, toElkInput } from './elk-layout';
import { createElkRunner } from './elk-runner';

const RS = 'ReplicaSet/default/web-5d4f';
const SLICE = 'EndpointSlice/default/web-abcde';

/** The seed's shape: 3 worker nodes, Deployment web → ReplicaSet → `pods` Pods spread over the nodes, Service web → its slice → the Pods. */
function cluster(pods: number, workers = ['node-1', 'node-2', 'node-3']): GraphTopology {
  const t = emptyTopology();
  t.nodes = [
    { key: 'Node/control-plane', name: 'control-plane', controlPlane: true },
    ...workers.map((n) => ({ key: `Node/${n}`, name: n, controlPlane: false })),
  ];
  t.deployments = [{ key: 'Deployment/default/web' }];
  t.replicaSets = [{ key: RS, owner: 'Deployment/default/web' }];
  const names = ['a1b2c', 'd3e4f', 'g5h6i', 'j7k8l', 'm9n0p'].slice(0, pods);
  t.pods = names.map((n, i) => ({ key: `Pod/default/web-5d4f-${n}`, node: workers[i % 3], owner: RS }));
  t.services = [{ key: 'Service/default/web' }];
  t.endpointSlices = [{ key: SLICE, service: 'Service/default/web', pods: t.pods.map((p) => p.key) }];
  return t;
}

const elk = new ELK();

/** placement.ts's positions, then elk's, for a topology. */
async function layOut(t: GraphTopology): Promise<{ model: GraphModel; placed: Positions; final: Positions; signature: string }> {
  const model = buildModel(t, DEFAULT_VIEW);
  const placed = placeBlocks(model);
  const input = toElkInput(model, placed);
  const out = await elk.layout(input.graph);
  return { model, placed, final: applyElk(model, placed, elkXs(out, input.lines)), signature: input.signature };
}

/** Block ids of a row, left to right. */
function rowOrder(model: GraphModel, p: Positions, row: number): string[] {
  return model.blocks
    .filter((b) => b.row === row)
    .map((b) => b.id)
    .sort((a, b) => (p.get(a)?.x ?? 0) - (p.get(b)?.x ?? 0));
}

const xOf = (p: Positions, id: string) => p.get(id)?.x ?? NaN;

/** A block's width in the model (cards are as wide as their text). */
function widthOf(model: { blocks: { id: string; width: number }[] }, id: string): number {
  return model.blocks.find((b) => b.id === id)?.width ?? NaN;
}

describe('elk layout of the model', () => {
  it('rows top to bottom, nodes in name order, each object row in placement order, no overlap', async () => {
    const { model, placed, final } = await layOut(cluster(3));
    expect(rowOrder(model, final, ROW.nodes)).toEqual(['Node/node-1', 'Node/node-2', 'Node/node-3', UNSCHEDULED_AREA]);
    expect(rowOrder(model, final, ROW.owners)).toEqual(['Deployment/default/web', 'Service/default/web']);
    expect(rowOrder(model, final, ROW.owned)).toEqual([RS, SLICE]);
    for (const row of [ROW.owners, ROW.owned, ROW.nodes])
      expect(rowOrder(model, final, row), `row ${row}`).toEqual(rowOrder(model, placed, row));
    // y is placement.ts's
    for (const b of model.blocks) expect(final.get(b.id)?.y, b.id).toBe(placed.get(b.id)?.y);
    // the node row stays placement.ts's tidy row: equal gaps
    const nodes = rowOrder(model, final, ROW.nodes);
    const step = widthOf(model, 'Node/node-1') + GAP_X;
    expect(nodes.slice(1).map((id, i) => xOf(final, id) - xOf(final, nodes[i]))).toEqual([step, step, step]);
    for (const row of [ROW.owners, ROW.owned]) {
      const ids = rowOrder(model, final, row);
      for (let i = 1; i < ids.length; i++)
        expect(xOf(final, ids[i])).toBeGreaterThanOrEqual(xOf(final, ids[i - 1]) + widthOf(model, ids[i - 1]) + GAP_X);
    }
  });

  it('the same model gives the same positions (a fresh elk instance too)', async () => {
    const a = await layOut(cluster(3));
    const model = buildModel(cluster(3), DEFAULT_VIEW);
    const input = toElkInput(model, placeBlocks(model));
    const out: ElkNode = await new ELK().layout(input.graph);
    expect(input.signature).toBe(a.signature);
    expect([...applyElk(model, placeBlocks(model), elkXs(out, input.lines))]).toEqual([...a.final]);
  });

  it('provisional (placement.ts) and elk positions of the seed differ by at most 80 px', async () => {
    const { model, placed, final } = await layOut(cluster(3));
    const dx = model.blocks.map((b) => Math.abs(xOf(final, b.id) - xOf(placed, b.id)));
    expect(Math.max(...dx)).toBeLessThanOrEqual(80);
  });

  it.each([
    ['scale 3 → 4', 3, 4],
    ['scale 4 → 3', 4, 3],
  ])('%s: Pods inside nodes are not elk’s business: same signature, no card moves sideways', async (_name, from, to) => {
    const a = await layOut(cluster(from));
    const b = await layOut(cluster(to));
    expect(b.signature).toBe(a.signature);
    for (const blk of a.model.blocks) expect(xOf(b.final, blk.id), blk.id).toBe(xOf(a.final, blk.id));
  });

  it('an unlinked Service joins the owners row; no other card moves', async () => {
    const a = await layOut(cluster(3));
    const t = cluster(3);
    t.services = [...t.services, { key: 'Service/default/zz-other' }];
    const b = await layOut(t);
    expect(rowOrder(b.model, b.final, ROW.owners)).toEqual(['Deployment/default/web', 'Service/default/web', 'Service/default/zz-other']);
    for (const blk of a.model.blocks) expect(xOf(b.final, blk.id), blk.id).toBe(xOf(a.final, blk.id));
  });

  it('a 4th node joins the node row at the right; only the unscheduled area moves (by one node)', async () => {
    const a = await layOut(cluster(3));
    const b = await layOut(cluster(3, ['node-1', 'node-2', 'node-3', 'node-4']));
    expect(rowOrder(b.model, b.final, ROW.nodes)).toEqual(['Node/node-1', 'Node/node-2', 'Node/node-3', 'Node/node-4', UNSCHEDULED_AREA]);
    for (const blk of a.model.blocks) {
      if (blk.row === ROW.top) continue; // the strip re-centres over the longer row
      expect(xOf(b.final, blk.id), blk.id).toBe(
        xOf(a.final, blk.id) + (blk.id === UNSCHEDULED_AREA ? widthOf(b.model, 'Node/node-4') + GAP_X : 0),
      );
    }
  });
});

describe('a wrapped node row', () => {
  it('each line placement.ts wraps (8 nodes, 520×380 pane) is one elk box: name order kept in every line', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `node-${i + 1}`);
    const model = buildModel(cluster(3, names), DEFAULT_VIEW);
    const placed = placeBlocks(model, { width: 520, height: 380 });
    const input = toElkInput(model, placed);
    const lineCount = new Set(names.map((n) => placed.get(`Node/${n}`)?.y)).size;
    expect(lineCount).toBeGreaterThan(1);
    // one box a line of the node row (the unscheduled area may end up on a line of its own)
    expect([...input.lines.keys()]).toHaveLength(
      new Set(model.blocks.filter((b) => b.row === ROW.nodes).map((b) => placed.get(b.id)?.y)).size,
    );
    const final = applyElk(model, placed, elkXs(await elk.layout(input.graph), input.lines));
    const lineYs = [...new Set(names.map((n) => final.get(`Node/${n}`)?.y))];
    expect(lineYs).toHaveLength(lineCount);
    for (const y of lineYs) {
      const line = names.filter((n) => final.get(`Node/${n}`)?.y === y);
      expect(line.map((n) => xOf(final, `Node/${n}`))).toEqual([...line.map((n) => xOf(final, `Node/${n}`))].sort((a, b) => a - b));
    }
  });
});

describe('carryOver', () => {
  it('keeps the x elk gave the known blocks; a newcomer lands beside them, nothing overlaps', async () => {
    const a = await layOut(cluster(3));
    const t = cluster(3);
    t.services = [...t.services, { key: 'Service/default/zz-other' }];
    const model = buildModel(t, DEFAULT_VIEW);
    const placed = placeBlocks(model);
    const prev = new Map([...a.final].map(([id, p]) => [id, p.x]));
    const xs = carryOver(model, placed, prev);
    for (const blk of a.model.blocks) if (blk.row !== ROW.top) expect(xs.get(blk.id), blk.id).toBe(prev.get(blk.id));
    expect(xs.get('Service/default/zz-other')).toBe((prev.get('Service/default/web') ?? NaN) + 146 + GAP_X);
  });

  it('without an elk answer: placement.ts’s x', () => {
    const model = buildModel(cluster(3), DEFAULT_VIEW);
    const placed = placeBlocks(model);
    const xs = carryOver(model, placed, undefined);
    for (const b of model.blocks) if (b.row !== ROW.top) expect(xs.get(b.id), b.id).toBe(placed.get(b.id)?.x);
  });
});

describe('elk runner', () => {
  it('runs one layout at a time; requests made meanwhile collapse into the latest', async () => {
    const started: string[] = [];
    const finish: (() => void)[] = [];
    const layout = (g: ElkNode) => {
      started.push(String(g.children?.length));
      return new Promise<ElkNode>((resolve) => finish.push(() => resolve(elk.layout(g))));
    };
    const answers: string[] = [];
    const runner = createElkRunner(layout, (signature, xs) => answers.push(`${signature.split('\n').length}:${xs ? xs.size : 'failed'}`));
    const inputs = [1, 2, 3].map((n) => {
      const t = cluster(3);
      t.services = [...t.services, ...Array.from({ length: n }, (_, i) => ({ key: `Service/default/extra-${i}` }))];
      const m = buildModel(t, DEFAULT_VIEW);
      return toElkInput(m, placeBlocks(m));
    });
    for (const i of inputs) runner.request(i);
    expect(started).toEqual(['6']); // 4 object cards + extra-0 + the node line
    expect(runner.busy()).toBe(true);
    finish[0]();
    await expect.poll(() => started).toEqual(['6', '8']);
    finish[1]();
    await expect.poll(() => answers.length).toBe(2);
    expect(runner.busy()).toBe(false);
    // the first and the latest were laid out; the middle one never started
    expect(answers).toEqual([`${inputs[0].signature.split('\n').length}:9`, `${inputs[2].signature.split('\n').length}:11`]);
  });
});
