/** PodCIDRSet: the lowest 10.244.N.0/24 no stored Node holds, followed through creates, updates and deletes. */
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../api/types';
import { MVCCStore } from '../../storage/mvcc';
import { PodCIDRSet, podCIDRIndex } from './pod-cidr-set';

const node = (name: string, cidr?: string): KObject =>
  ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: cidr ? { podCIDR: cidr } : {} }) as KObject;

describe('podCIDRIndex', () => {
  it.each([
    ['10.244.7.0/24', 7],
    ['10.244.0.0/24', 0],
    ['10.245.1.0/24', undefined],
    ['10.244.1.0/16', undefined],
    [undefined, undefined],
  ])('%s → %s', (cidr, want) => expect(podCIDRIndex(node('n', cidr))).toBe(want));
});

describe('PodCIDRSet.lowestFree', () => {
  it.each([
    { name: 'empty store', ops: [] as [string, string, string?][], want: 0 },
    {
      name: 'after 0 and 1',
      ops: [
        ['c', 'a', '10.244.0.0/24'],
        ['c', 'b', '10.244.1.0/24'],
      ],
      want: 2,
    },
    {
      name: 'a gap is filled first',
      ops: [
        ['c', 'a', '10.244.0.0/24'],
        ['c', 'b', '10.244.2.0/24'],
      ],
      want: 1,
    },
    {
      name: 'a deleted Node frees its CIDR',
      ops: [
        ['c', 'a', '10.244.0.0/24'],
        ['c', 'b', '10.244.1.0/24'],
        ['d', 'a'],
      ],
      want: 0,
    },
    { name: 'a Node without podCIDR holds nothing', ops: [['c', 'a']], want: 0 },
    {
      name: 'an update that sets the CIDR occupies it',
      ops: [
        ['c', 'a'],
        ['u', 'a', '10.244.0.0/24'],
      ],
      want: 1,
    },
    {
      name: 'two Nodes on one index: free only when both let go',
      ops: [
        ['c', 'a', '10.244.0.0/24'],
        ['c', 'b', '10.244.0.0/24'],
        ['d', 'a'],
      ],
      want: 1,
    },
    {
      name: 'both gone',
      ops: [
        ['c', 'a', '10.244.0.0/24'],
        ['c', 'b', '10.244.0.0/24'],
        ['d', 'a'],
        ['d', 'b'],
      ],
      want: 0,
    },
  ])('$name → $want', ({ ops, want }) => {
    const store = new MVCCStore();
    const set = new PodCIDRSet(store);
    for (const [op, name, cidr] of ops) {
      if (op === 'c') store.create('nodes', name, node(name, cidr));
      else if (op === 'u') store.update('nodes', name, node(name, cidr));
      else store.delete('nodes', name);
    }
    expect(set.lowestFree()).toBe(want);
  });

  it('counts the Nodes stored before it was made', () => {
    const store = new MVCCStore();
    store.create('nodes', 'a', node('a', '10.244.0.0/24'));
    store.create('nodes', 'b', node('b', '10.244.1.0/24'));
    expect(new PodCIDRSet(store).lowestFree()).toBe(2);
  });
});
