import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { EventCache } from './record';

describe('Events', () => {
  it('identical events aggregate into one Event with a count (EventCorrelator)', () => {
    const c = new Cluster({ seed: 1 });
    const recorder = c.ctx.recorder(c.kubectlClient, 'test-controller');
    const ref = { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p', uid: 'u1' };
    recorder.event(ref, 'Warning', 'BackOff', 'Back-off restarting failed container');
    c.advance(10_000);
    recorder.event(ref, 'Warning', 'BackOff', 'Back-off restarting failed container');
    const evs = c.events().filter((e) => e.reason === 'BackOff');
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({
      count: 2,
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:10Z',
      source: { component: 'test-controller' },
    });
  });

  it('expire one hour after their last update (--event-ttl=1h)', () => {
    const c = new Cluster({ seed: 1 });
    const recorder = c.ctx.recorder(c.kubectlClient, 'test-controller');
    recorder.event({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p', uid: 'u1' }, 'Normal', 'Hello', 'hi');
    c.advance(59 * 60_000);
    expect(c.events().some((e) => e.reason === 'Hello')).toBe(true);
    c.advance(2 * 60_000);
    expect(c.events().some((e) => e.reason === 'Hello')).toBe(false);
  });

  it('the aggregation cache is a bounded LRU (4096 entries)', () => {
    const cache = new EventCache();
    for (let i = 0; i < 5000; i++) cache.logs.set(`k${i}`, { namespace: 'default', name: `e${i}`, count: 1, firstTimestamp: '' });
    expect(cache.logs.size).toBe(4096);
    expect(cache.logs.get('k0')).toBeUndefined();
    expect(cache.logs.get('k4999')?.name).toBe('e4999');
  });

  it('the spam filter writes 25 Events per source and object, then one per 5 minutes; the count keeps counting (EventSourceObjectSpamFilter)', () => {
    const c = new Cluster({ seed: 1 });
    const recorder = c.ctx.recorder(c.kubectlClient, 'test-controller');
    const ref = { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p', uid: 'u1' };
    for (let i = 0; i < 40; i++) {
      recorder.event(ref, 'Warning', 'BackOff', 'Back-off restarting failed container');
      c.advance(1_000);
    }
    const ev = () => c.events().find((e) => e.reason === 'BackOff')!;
    expect([ev().count, ev().lastTimestamp]).toEqual([25, '2026-01-01T00:00:24Z']);
    c.advance(300_000 - 16_000);
    recorder.event(ref, 'Warning', 'BackOff', 'Back-off restarting failed container');
    // 41 occurrences counted, the 41st written once a token refilled (5 min after the 25th)
    expect([ev().count, ev().lastTimestamp]).toEqual([41, '2026-01-01T00:05:24Z']);
    // another object from the same source has its own bucket
    recorder.event({ ...ref, name: 'q', uid: 'u2' }, 'Warning', 'BackOff', 'Back-off restarting failed container');
    expect(
      c
        .events()
        .filter((e) => e.reason === 'BackOff')
        .map((e) => [e.involvedObject.name, e.count]),
    ).toEqual([
      ['p', 41],
      ['q', 1],
    ]);
  });

  it('the 10th distinct message of one reason within 10 minutes is combined (EventAggregator)', () => {
    const c = new Cluster({ seed: 1 });
    const recorder = c.ctx.recorder(c.kubectlClient, 'test-controller');
    const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'd', uid: 'u1' };
    for (let i = 1; i <= 12; i++) recorder.event(ref, 'Normal', 'ScalingReplicaSet', `Scaled up replica set d-abc from ${i - 1} to ${i}`);
    const msgs = c
      .events()
      .filter((e) => e.involvedObject.name === 'd')
      .map((e) => [e.message, e.count]);
    expect(msgs).toHaveLength(10);
    expect(msgs.slice(8)).toEqual([
      ['Scaled up replica set d-abc from 8 to 9', 1],
      ['(combined from similar events): Scaled up replica set d-abc from 11 to 12', 3],
    ]);
  });
});
