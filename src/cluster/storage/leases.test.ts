import { describe, expect, it } from 'vitest';
import { SimClock } from '../sim/clock';
import { LeaseManager } from './leases';

/** Plays puts/deletes at simulated seconds and returns when (in s) each key was revoked. */
function play(steps: [atS: number, op: 'put' | 'delete', key: string][], untilS: number): Map<string, number> {
  const clock = new SimClock(0);
  const revoked = new Map<string, number>();
  const leases = new LeaseManager(clock, (_resource, key) => revoked.set(key, clock.now() / 1000));
  for (const [at, op, key] of steps) {
    clock.runUntil(at * 1000);
    if (op === 'put') leases.put('events', key, 3600);
    else leases.delete('events', key);
  }
  clock.runUntil(untilS * 1000);
  return revoked;
}

describe('LeaseManager (lease_manager.go GetLease, etcd lessor)', () => {
  const cases: { name: string; steps: [number, 'put' | 'delete', string][]; want: [string, number][] }[] = [
    { name: 'a lease of ttl + 60 s: an Event written at 0 goes at 3,660 s', steps: [[0, 'put', 'a']], want: [['a', 3660]] },
    {
      name: 'writes of the next 60 s reuse the lease and go with it',
      steps: [
        [0, 'put', 'a'],
        [30, 'put', 'b'],
        [59, 'put', 'c'],
      ],
      want: [
        ['a', 3660],
        ['b', 3660],
        ['c', 3660],
      ],
    },
    {
      name: 'a write 60 s or more after the grant gets a new lease (now + ttl no longer before its expiry)',
      steps: [
        [0, 'put', 'a'],
        [60, 'put', 'b'],
        [61, 'put', 'c'],
      ],
      want: [
        ['a', 3660],
        ['b', 3720],
        ['c', 3720],
      ],
    },
    {
      name: 'a re-write moves the key to the current lease (the TTL restarts)',
      steps: [
        [0, 'put', 'a'],
        [1000, 'put', 'a'],
      ],
      want: [['a', 4660]],
    },
    {
      name: 'a deleted key is not revoked again',
      steps: [
        [0, 'put', 'a'],
        [0, 'put', 'b'],
        [10, 'delete', 'a'],
      ],
      want: [['b', 3660]],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect([...play(c.steps, 10_000)]).toEqual(c.want);
    });

  it('holds one timer per lease, not one per key', () => {
    const clock = new SimClock(0);
    const leases = new LeaseManager(clock, () => {});
    for (let i = 0; i < 1000; i++) {
      clock.runUntil(i * 100);
      leases.put('events', `e${i}`, 3600);
    }
    // 100 s of writes: a lease at 0 s and one at 60 s
    expect(clock.pending).toBe(2);
    expect(leases.size).toBe(1000);
  });
});
