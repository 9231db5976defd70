/**
 * MVCCStore.list keeps its sorted key order across updates and re-sorts after a create or a
 * delete; eventsSince finds the events after a revision by binary search. Each checked against
 * the plain definition (every entry, sorted by "namespace/name"; every kept event, filtered).
 */
import { describe, expect, it } from 'vitest';
import type { KObject } from '../api/types';
import { Rng } from '../sim/rng';
import { MVCCStore } from './mvcc';

const pod = (ns: string, name: string, v = 0): KObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: ns, name }, spec: { v } }) as KObject;
const names = (s: MVCCStore, ns?: string) =>
  s.list('pods', ns).map((e) => `${e.obj.metadata.namespace}/${e.obj.metadata.name}@${e.obj.spec.v}`);

describe('MVCCStore.list order', () => {
  it.each([
    {
      name: 'creates out of order',
      ops: [
        ['c', 'default', 'b'],
        ['c', 'default', 'a'],
        ['c', 'apps', 'z'],
      ],
      ns: undefined,
      want: ['apps/z@0', 'default/a@0', 'default/b@0'],
    },
    {
      name: 'an update keeps the order and shows the new value',
      ops: [
        ['c', 'default', 'b'],
        ['c', 'default', 'a'],
        ['u', 'default', 'b'],
      ],
      ns: undefined,
      want: ['default/a@0', 'default/b@1'],
    },
    {
      name: 'a delete after a list',
      ops: [['c', 'default', 'b'], ['c', 'default', 'a'], ['l'], ['d', 'default', 'a']],
      ns: undefined,
      want: ['default/b@0'],
    },
    {
      name: 'a create after a list',
      ops: [['c', 'default', 'b'], ['l'], ['c', 'default', 'a']],
      ns: undefined,
      want: ['default/a@0', 'default/b@0'],
    },
    {
      name: 'one namespace, not its prefix namesakes',
      ops: [
        ['c', 'de', 'x'],
        ['c', 'default', 'b'],
        ['c', 'default', 'a'],
        ['c', 'def', 'y'],
      ],
      ns: 'default',
      want: ['default/a@0', 'default/b@0'],
    },
  ])('$name', ({ ops, ns, want }) => {
    const s = new MVCCStore();
    for (const [op, n, name] of ops) {
      const key = `${n}/${name}`;
      if (op === 'c') s.create('pods', key, pod(n, name));
      else if (op === 'u') s.update('pods', key, pod(n, name, 1));
      else if (op === 'd') s.delete('pods', key);
      else s.list('pods');
    }
    expect(names(s, ns)).toEqual(want);
  });

  it('equals a fresh sort of every entry over 3,000 random creates, updates, deletes and lists', () => {
    const rng = new Rng(5);
    const s = new MVCCStore();
    const live = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const ns = ['a', 'b', 'default'][rng.intn(3)];
      const key = `${ns}/p-${rng.intn(200)}`;
      const op = rng.intn(4);
      const name = key.split('/')[1];
      if (op === 0 && !live.has(key)) {
        s.create('pods', key, pod(ns, name, i));
        live.set(key, i);
      } else if (op === 1 && live.has(key)) {
        s.update('pods', key, pod(ns, name, i));
        live.set(key, i);
      } else if (op === 2 && live.has(key)) {
        s.delete('pods', key);
        live.delete(key);
      }
      const want = [...live].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map(([k, v]) => `${k}@${v}`);
      expect(names(s)).toEqual(want);
      expect(names(s, ns)).toEqual(want.filter((w) => w.startsWith(`${ns}/`)));
    }
  });
});

describe('MVCCStore.eventsSince', () => {
  it('equals a filter of the kept history from every revision', () => {
    const s = new MVCCStore(50);
    const all: { rev: number; resource: string }[] = [];
    s.listen((ev) => all.push({ rev: ev.rev, resource: ev.resource }));
    for (let i = 0; i < 120; i++) s.create(i % 3 ? 'pods' : 'nodes', `default/p-${i}`, pod('default', `p-${i}`));
    for (let from = s.compactedRevision; from <= s.revision + 1; from++) {
      for (const r of ['pods', 'nodes']) {
        const got = s.eventsSince(r, from);
        expect(got === 'gone' ? got : got.map((e) => e.rev)).toEqual(
          all.filter((e) => e.rev > from && e.rev > s.compactedRevision && e.resource === r).map((e) => e.rev),
        );
      }
    }
    expect(s.eventsSince('pods', s.compactedRevision - 1)).toBe('gone');
  });
});
