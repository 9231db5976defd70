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
    expect(evs[0]).toMatchObject({ count: 2, firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:10Z', source: { component: 'test-controller' } });
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
    for (let i = 0; i < 5000; i++) cache.set(`k${i}`, { namespace: 'default', name: `e${i}`, count: 1 });
    expect(cache.byKey.size).toBe(4096);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k4999')?.name).toBe('e4999');
  });
});
