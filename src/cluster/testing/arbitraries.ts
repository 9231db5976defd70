/**
 * fast-check arbitraries for the invariant sequences (invariants.ts): user actions weighted
 * towards applies and time passing, so that rollouts actually happen between faults.
 */
import fc from 'fast-check';
import type { Action } from './invariants';

const intOrPercent = fc.oneof(fc.constantFrom(0, 1, 2), fc.constantFrom('0%', '25%', '50%', '100%'));

/** One apply with random replicas (0–6), maxSurge and maxUnavailable (never both zero: validation rejects that). */
export const applyArb: fc.Arbitrary<Action> = fc
  .record({ dep: fc.nat(2), replicas: fc.nat(6), maxSurge: intOrPercent, maxUnavailable: intOrPercent, tag: fc.nat(2) })
  .filter((a) => !(String(a.maxSurge).replace('%', '') === '0' && String(a.maxUnavailable).replace('%', '') === '0'))
  .map((a) => ({ op: 'apply' as const, ...a }));

/** Any action of a sequence. */
export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: applyArb },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('scale' as const), dep: fc.nat(2), replicas: fc.nat(6) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('setImage' as const), dep: fc.nat(2), tag: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('killNode' as const), node: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restoreNode' as const), node: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'addNode' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('deletePod' as const), pod: fc.nat(50) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('advance' as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 3_000, max: 400_000 })),
    }),
  },
);

/** A sequence: a first apply, then 1–`max` actions. */
export const sequenceArb = (max: number): fc.Arbitrary<Action[]> =>
  fc.tuple(applyArb, fc.array(actionArb, { minLength: 1, maxLength: max })).map(([first, rest]) => [first, ...rest]);
