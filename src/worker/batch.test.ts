import { describe, expect, it } from 'vitest';
import type { KObject } from '../cluster/api/types';
import type { ResourceRow } from '../cluster/kubectl/printers';
import { ChangeBatcher } from './batch';

function pod(name: string, phase: string): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, status: { phase } };
}
const row = (o: KObject) =>
  ({
    kind: o.kind,
    namespace: o.metadata.namespace ?? null,
    name: o.metadata.name,
    status: o.status?.phase ?? '',
    columns: {},
  }) as ResourceRow;

describe('ChangeBatcher', () => {
  it('keeps one change per key with the latest object', () => {
    const b = new ChangeBatcher();
    b.add('ADDED', 'pods', pod('a', 'Pending'));
    b.add('MODIFIED', 'pods', pod('a', 'Pending'));
    b.add('MODIFIED', 'pods', pod('a', 'Running'));
    b.add('MODIFIED', 'pods', pod('b', 'Running'));
    const out = b.drain(row);
    expect(out.map((c) => [c.type, c.key, c.row?.status])).toEqual([
      ['ADDED', 'Pod/default/a', 'Running'],
      ['MODIFIED', 'Pod/default/b', 'Running'],
    ]);
    expect(b.size).toBe(0);
  });

  it('drops an object added and deleted within the tick', () => {
    const b = new ChangeBatcher();
    b.add('ADDED', 'pods', pod('a', 'Pending'));
    b.add('DELETED', 'pods', pod('a', 'Pending'));
    expect(b.drain(row)).toEqual([]);
  });

  it('sends DELETED (without a row) after MODIFIED, and MODIFIED when a name is re-created', () => {
    const b = new ChangeBatcher();
    b.add('MODIFIED', 'pods', pod('a', 'Running'));
    b.add('DELETED', 'pods', pod('a', 'Running'));
    b.add('DELETED', 'pods', pod('b', 'Running'));
    b.add('ADDED', 'pods', pod('b', 'Pending'));
    const out = b.drain(row);
    expect(out.map((c) => [c.type, c.key, c.row?.status ?? null])).toEqual([
      ['DELETED', 'Pod/default/a', null],
      ['MODIFIED', 'Pod/default/b', 'Pending'],
    ]);
  });

  it('computes each row once per key', () => {
    const b = new ChangeBatcher();
    for (let i = 0; i < 10; i++) b.add('MODIFIED', 'pods', pod('a', `p${i}`));
    let calls = 0;
    b.drain((o) => {
      calls++;
      return row(o);
    });
    expect(calls).toBe(1);
  });

  it('drains at most `limit` changes, oldest first; the rest keep folding until the next drain', () => {
    const b = new ChangeBatcher();
    for (const n of ['a', 'b', 'c', 'd']) b.add('ADDED', 'pods', pod(n, 'Pending'));
    expect(b.drain(row, 2).map((c) => [c.type, c.key])).toEqual([
      ['ADDED', 'Pod/default/a'],
      ['ADDED', 'Pod/default/b'],
    ]);
    expect(b.size).toBe(2);
    // c (not sent yet) folds as before: ADDED + MODIFIED → ADDED; d: ADDED + DELETED → nothing
    b.add('MODIFIED', 'pods', pod('c', 'Running'));
    b.add('DELETED', 'pods', pod('d', 'Pending'));
    // a was sent: its deletion is a change of its own
    b.add('DELETED', 'pods', pod('a', 'Pending'));
    expect(b.drain(row, 2).map((c) => [c.type, c.key, c.row?.status ?? null])).toEqual([
      ['ADDED', 'Pod/default/c', 'Running'],
      ['DELETED', 'Pod/default/a', null],
    ]);
    expect(b.size).toBe(0);
  });
});
