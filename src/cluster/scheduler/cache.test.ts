/**
 * SchedulerCache's HavePodsWithAffinityList / HavePodsWithRequiredAntiAffinityList stay equal
 * to a walk over every NodeInfo, under random adds, updates, assumes, forgets, removals and
 * node deletions.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Node, Pod } from '../api/objects';
import { SchedulerCache } from './cache';

type Op =
  | { op: 'add' | 'assume'; pod: number; node: number; aff: number }
  | { op: 'remove' | 'forget'; pod: number }
  | { op: 'addNode' | 'removeNode'; node: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('add' as const, 'assume' as const), pod: fc.nat(7), node: fc.nat(3), aff: fc.nat(2) }),
  fc.record({ op: fc.constantFrom('remove' as const, 'forget' as const), pod: fc.nat(7) }),
  fc.record({ op: fc.constantFrom('addNode' as const, 'removeNode' as const), node: fc.nat(3) }),
);

const node = (i: number): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}` } },
  status: {},
});

function pod(i: number, nodeName: string, aff: number): Pod {
  const term = { labelSelector: { matchLabels: { app: 'x' } }, topologyKey: 'kubernetes.io/hostname' };
  const affinity =
    aff === 0
      ? undefined
      : aff === 1
        ? { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term }] } }
        : { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p${i}`, namespace: 'default', uid: `u${i}`, labels: { app: 'x' } },
    spec: { nodeName, containers: [], ...(affinity ? { affinity } : {}) },
  };
}

const names = (l: { name: string }[]) => l.map((n) => n.name).sort();

describe('SchedulerCache affinity lists (property)', () => {
  it('equal a filter over every listed node', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const c = new SchedulerCache(() => 0);
        for (let i = 0; i < 4; i++) c.addOrUpdateNode(node(i));
        const placed = new Map<number, Pod>();
        for (const o of ops) {
          switch (o.op) {
            case 'add': {
              const p = pod(o.pod, `n${o.node}`, o.aff);
              c.addPod(p);
              placed.set(o.pod, p);
              break;
            }
            case 'assume': {
              if (placed.has(o.pod)) break;
              const p = pod(o.pod, '', o.aff);
              c.assumePod(p, `n${o.node}`);
              placed.set(o.pod, p);
              break;
            }
            case 'forget': {
              const p = placed.get(o.pod);
              if (p && c.isAssumed(p)) {
                c.forgetPod(p);
                placed.delete(o.pod);
              }
              break;
            }
            case 'remove': {
              const p = placed.get(o.pod);
              if (p) c.removePod(p);
              placed.delete(o.pod);
              break;
            }
            case 'addNode':
              c.addOrUpdateNode(node(o.node));
              break;
            case 'removeNode':
              c.removeNode(`n${o.node}`);
              break;
          }
          const all = c.list();
          expect(names(c.havePodsWithAffinityList())).toEqual(names(all.filter((n) => n.podsWithAffinity.size > 0)));
          expect(names(c.havePodsWithRequiredAntiAffinityList())).toEqual(
            names(all.filter((n) => n.podsWithRequiredAntiAffinity.size > 0)),
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});
