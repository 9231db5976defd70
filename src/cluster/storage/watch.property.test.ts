/**
 * Property: under any seeded sequence of create / update / delete / stale update / watch
 * starts and advances, every watcher's view (built only from its events) equals a fresh
 * list, resourceVersions strictly increase per watcher, and stale writes get 409 Conflict.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { APIServer } from '../apiserver/apiserver';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { StatusError } from '../api/errors';
import { users } from '../client/clientset';
import type { KObject, WatchEvent } from '../api/types';

type Op =
  | { op: 'create'; name: number; label: number }
  | { op: 'update'; name: number; label: number }
  | { op: 'staleUpdate'; name: number }
  | { op: 'delete'; name: number }
  | { op: 'watch'; selector: number | null }
  | { op: 'advance'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), name: fc.nat(7), label: fc.nat(2) }),
  fc.record({ op: fc.constant('update' as const), name: fc.nat(7), label: fc.nat(2) }),
  fc.record({ op: fc.constant('staleUpdate' as const), name: fc.nat(7) }),
  fc.record({ op: fc.constant('delete' as const), name: fc.nat(7) }),
  fc.record({ op: fc.constant('watch' as const), selector: fc.option(fc.nat(2), { nil: null }) }),
  fc.record({ op: fc.constant('advance' as const), ms: fc.nat(5) }),
);

function setup() {
  const clock = new SimClock();
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, new Rng(7), relay, {});
  const u = users.kubectl();
  const ns = api.registry.forResource('', 'namespaces')!;
  api.create(u, ns, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  return { clock, api, u, cm: api.registry.forResource('', 'configmaps')! };
}

describe('watch consistency (property)', () => {
  it('every watcher view equals a fresh list; resourceVersions strictly increase', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const { clock, api, u, cm } = setup();
        const watchers: { selector: number | null; view: Map<string, KObject>; lastRV: number }[] = [];
        for (const o of ops) {
          const name = `cm-${'name' in o ? o.name : 0}`;
          try {
            switch (o.op) {
              case 'create':
                api.create(u, cm, 'default', {
                  apiVersion: 'v1',
                  kind: 'ConfigMap',
                  metadata: { name, labels: { l: String(o.label) } },
                  data: { v: '0' },
                });
                break;
              case 'update': {
                const cur = api.get(u, cm, 'default', name, { quiet: true });
                api.update(u, cm, 'default', {
                  ...cur,
                  metadata: { ...cur.metadata, labels: { l: String(o.label) } },
                  data: { v: String(Number(cur.data.v) + 1) },
                });
                break;
              }
              case 'staleUpdate': {
                const cur = api.get(u, cm, 'default', name, { quiet: true });
                api.update(u, cm, 'default', { ...cur, data: { v: 'x' } });
                let conflict = false;
                try {
                  api.update(u, cm, 'default', { ...cur, data: { v: 'y' } });
                } catch (e) {
                  conflict = e instanceof StatusError && e.code === 409 && e.reason === 'Conflict';
                }
                expect(conflict).toBe(true);
                break;
              }
              case 'delete':
                api.delete(u, cm, 'default', name);
                break;
              case 'watch': {
                const sel = o.selector === null ? undefined : `l=${o.selector}`;
                const list = api.list(u, cm, 'default', { labelSelector: sel, quiet: true });
                const w = {
                  selector: o.selector,
                  view: new Map(list.items.map((i) => [i.metadata.name, i])),
                  lastRV: Number(list.metadata.resourceVersion),
                };
                watchers.push(w);
                api.watch(u, cm, 'default', { resourceVersion: list.metadata.resourceVersion, labelSelector: sel }, (ev: WatchEvent) => {
                  const rv = Number(ev.object.metadata.resourceVersion);
                  expect(rv).toBeGreaterThan(w.lastRV);
                  w.lastRV = rv;
                  if (ev.type === 'DELETED') w.view.delete(ev.object.metadata.name);
                  else w.view.set(ev.object.metadata.name, ev.object);
                });
                break;
              }
              case 'advance':
                clock.advance(o.ms);
                break;
            }
          } catch (e) {
            if (!(e instanceof StatusError)) throw e;
          }
        }
        clock.advance(10);
        for (const w of watchers) {
          const sel = w.selector === null ? undefined : `l=${w.selector}`;
          const fresh = api.list(u, cm, 'default', { labelSelector: sel, quiet: true }).items;
          expect([...w.view.keys()].sort()).toEqual(fresh.map((i) => i.metadata.name).sort());
          for (const f of fresh) expect(w.view.get(f.metadata.name)?.metadata.resourceVersion).toBe(f.metadata.resourceVersion);
        }
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('a watch from a compacted resourceVersion fails with 410 Gone', () => {
    const { api, u, cm } = setup();
    api.store.historyLimit = 5;
    for (let i = 0; i < 20; i++) api.create(u, cm, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } });
    let err: StatusError | undefined;
    try {
      api.watch(u, cm, 'default', { resourceVersion: '2' }, () => {});
    } catch (e) {
      err = e as StatusError;
    }
    expect(err?.code).toBe(410);
    expect(err?.status.reason).toBe('Expired');
    expect(err?.message).toMatch(/^too old resource version: 2 \(\d+\)$/);
  });

  it('a write that changes nothing creates no revision and no event', () => {
    const { clock, api, u, cm } = setup();
    const c = api.create(u, cm, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'same' }, data: { a: '1' } }).object;
    const events: string[] = [];
    api.watch(u, cm, 'default', { resourceVersion: c.metadata.resourceVersion }, (ev) => events.push(ev.type));
    const again = api.update(u, cm, 'default', { ...c }).object;
    clock.advance(5);
    expect(again.metadata.resourceVersion).toBe(c.metadata.resourceVersion);
    expect(events).toEqual([]);
  });
});
