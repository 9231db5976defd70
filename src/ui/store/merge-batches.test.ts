import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ObjectChangeMsg, TickBatch } from '../../worker/protocol';
import { createKubeStore } from './store';
import { reduceBatch } from './reducers';
import { mergeBatches } from './merge-batches';
import type { KObject } from './types';

function batch(b: Partial<TickBatch>): TickBatch {
  return {
    gen: 1,
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
  };
}

function change(type: ObjectChangeMsg['type'], kind: string, name: string, rv: number, node = ''): ObjectChangeMsg {
  const object = {
    apiVersion: 'v1',
    kind,
    metadata: { name, namespace: 'default', resourceVersion: String(rv) },
    spec: { nodeName: node },
  } as unknown as KObject;
  return {
    type,
    resource: `${kind.toLowerCase()}s`,
    key: `${kind}/default/${name}`,
    object,
    row: type === 'DELETED' ? null : { kind, namespace: 'default', name, status: `rv${rv}`, columns: {} },
  };
}

/** Folds batches into a fresh store, one reduceBatch per batch. */
function fold(batches: readonly TickBatch[]) {
  const store = createKubeStore();
  for (const b of batches) store.setState((s) => reduceBatch(s, b));
  const s = store.getState();
  return {
    objects: [...s.objects.entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
    events: [...s.events.entries()],
    hops: s.hops,
    simMs: s.simMs,
    gen: s.gen,
    topology: s.topology,
    applySeq: s.applySeq,
  };
}

describe('mergeBatches', () => {
  const cases: { name: string; batches: TickBatch[]; want: { count: number; changes: [string, string][][] } }[] = [
    {
      name: 'a Pod created, bound and running across three ticks reaches the store once, as ADDED with its latest state',
      batches: [
        batch({ changes: [change('ADDED', 'Pod', 'web-1', 1)] }),
        batch({ changes: [change('MODIFIED', 'Pod', 'web-1', 2, 'node-1')] }),
        batch({ changes: [change('MODIFIED', 'Pod', 'web-1', 3, 'node-1')] }),
      ],
      want: { count: 1, changes: [[['ADDED', 'Pod/default/web-1']]] },
    },
    {
      name: 'a Pod created and deleted between two updates never reaches the store',
      batches: [batch({ changes: [change('ADDED', 'Pod', 'web-1', 1)] }), batch({ changes: [change('DELETED', 'Pod', 'web-1', 2)] })],
      want: { count: 1, changes: [[]] },
    },
    {
      name: 'deleted and re-created under the same name: one MODIFIED',
      batches: [batch({ changes: [change('DELETED', 'Pod', 'web-1', 1)] }), batch({ changes: [change('ADDED', 'Pod', 'web-1', 2)] })],
      want: { count: 1, changes: [[['MODIFIED', 'Pod/default/web-1']]] },
    },
    {
      name: 'a reset starts a new run; the deltas after it fold into it',
      batches: [
        batch({ changes: [change('ADDED', 'Pod', 'a', 1)] }),
        batch({ reset: true, gen: 2, changes: [change('ADDED', 'Pod', 'b', 2)] }),
        batch({ gen: 2, changes: [change('DELETED', 'Pod', 'b', 3)] }),
      ],
      want: { count: 2, changes: [[['ADDED', 'Pod/default/a']], []] },
    },
    {
      name: 'a batch of another generation starts a new run',
      batches: [batch({ gen: 1, changes: [change('ADDED', 'Pod', 'a', 1)] }), batch({ gen: 2, changes: [change('ADDED', 'Pod', 'b', 1)] })],
      want: { count: 2, changes: [[['ADDED', 'Pod/default/a']], [['ADDED', 'Pod/default/b']]] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const merged = mergeBatches(c.batches);
      expect(merged).toHaveLength(c.want.count);
      expect(merged.map((b) => b.changes.map((ch) => [ch.type, ch.key]))).toEqual(c.want.changes);
      expect(fold(merged)).toEqual(fold(c.batches));
    });
  }

  it('keeps the latest snapshot fields and the latest defined optional field', () => {
    const [m] = mergeBatches([
      batch({ simMs: 100, applySeq: 7, standalone: [], hops: [{ seq: 1 } as never] }),
      batch({ simMs: 150, running: false, hops: [{ seq: 2 } as never, { seq: 3 } as never] }),
    ]);
    expect(m).toMatchObject({ simMs: 150, running: false, applySeq: null, standalone: [] });
    expect(m.hops.map((h) => h.seq)).toEqual([1, 2, 3]);
  });

  it('folding the merged batches gives the store the same objects, events and hops as folding each batch (property)', () => {
    const names = ['a', 'b', 'c', 'd'];
    // a tick: per name an optional op; events likewise; ops are made valid against what exists
    const tick = fc.record({
      pods: fc.array(
        fc.tuple(fc.constantFrom(...names), fc.constantFrom('add', 'modify', 'delete'), fc.constantFrom('', 'node-1', 'node-2')),
        { maxLength: 6 },
      ),
      events: fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom('add', 'modify', 'delete')), { maxLength: 4 }),
      hops: fc.nat({ max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(tick, { minLength: 1, maxLength: 12 }), (ticks) => {
        const pods = new Set<string>();
        const events = new Set<string>();
        let rv = 0;
        let seq = 0;
        const batches = ticks.map((t, i) => {
          // one change per key per tick, as the worker's ChangeBatcher sends them
          const seen = new Set<string>();
          const changes: ObjectChangeMsg[] = [];
          for (const [n, op, node] of t.pods) {
            if (seen.has(n)) continue;
            seen.add(n);
            if (!pods.has(n)) {
              pods.add(n);
              changes.push(change('ADDED', 'Pod', n, ++rv, node));
            } else if (op === 'delete') {
              pods.delete(n);
              changes.push(change('DELETED', 'Pod', n, ++rv));
            } else changes.push(change('MODIFIED', 'Pod', n, ++rv, node));
          }
          const seenE = new Set<string>();
          const evs: ObjectChangeMsg[] = [];
          for (const [n, op] of t.events) {
            if (seenE.has(n)) continue;
            seenE.add(n);
            if (!events.has(n)) {
              events.add(n);
              evs.push(change('ADDED', 'Event', n, ++rv));
            } else if (op === 'delete') {
              events.delete(n);
              evs.push(change('DELETED', 'Event', n, ++rv));
            } else evs.push(change('MODIFIED', 'Event', n, ++rv));
          }
          const hops = Array.from(
            { length: t.hops },
            () =>
              ({
                seq: ++seq,
                time: seq,
                from: 'kubectl',
                to: 'kube-apiserver',
                kind: 'request',
                summary: `hop ${seq}`,
                cause: null,
              }) as never,
          );
          return batch({ reset: i === 0, simMs: i * 50, changes, events: evs, hops });
        });
        expect(fold(mergeBatches(batches))).toEqual(fold(batches));
      }),
      { numRuns: 300, seed: 8 },
    );
  });
});
