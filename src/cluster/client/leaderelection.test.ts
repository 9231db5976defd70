import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { users } from './clientset';
import { LeaseLock } from './leaselock';
import { JITTER_FACTOR, LEADER_ELECTION_DEFAULTS, LeaderElector } from './leaderelection';

const T0 = Date.UTC(2026, 0, 1);
const at = (ms: number) => new Date(T0 + ms).toISOString().replace(/Z$/, '000Z');

/** Two candidates `a` and `b` for the Lease kube-system/demo on a default cluster, at time zero. */
function setup() {
  const c = new Cluster({ seed: 1 });
  const log: string[] = [];
  const mk = (id: string, seed: string) => {
    const client = c.ctx.client({ ...users.controllerManager(), participant: `demo (${id})` });
    const lock = new LeaseLock('kube-system', 'demo', id, client.resource('coordination.k8s.io', 'leases'), c.ctx.recorder(client, 'demo'));
    return new LeaderElector(
      {
        lock,
        ...LEADER_ELECTION_DEFAULTS,
        participant: `demo (${id})`,
        callbacks: {
          onStartedLeading: () => log.push(`${c.now() - T0} ${id} started leading`),
          onStoppedLeading: () => log.push(`${c.now() - T0} ${id} stopped leading`),
          onNewLeader: (l) => log.push(`${c.now() - T0} ${id} sees ${l}`),
        },
      },
      c.clock,
      c.rng.derive(seed),
      c.relay,
    );
  };
  const lease = () => c.get('leases.coordination.k8s.io', 'kube-system', 'demo')?.spec;
  const events = () =>
    c
      .events()
      .filter((e) => e.involvedObject.name === 'demo')
      .map((e) => `${e.type} ${e.reason} ${e.source.component}: ${e.message}`);
  return { c, log, a: mk('host-a_1', 'a'), b: mk('host-b_2', 'b'), lease, events };
}

describe('LeaderElector (client-go leaderelection.go)', () => {
  it('the first candidate creates the Lease and leads at once; it renews every 2 s, keeping acquireTime', () => {
    const { c, a, log, lease, events } = setup();
    a.run();
    expect(lease()).toEqual({
      holderIdentity: 'host-a_1',
      leaseDurationSeconds: 15,
      acquireTime: at(0),
      renewTime: at(0),
      leaseTransitions: 0,
    });
    expect(log).toEqual(['0 host-a_1 sees host-a_1', '0 host-a_1 started leading']);
    expect(events()).toEqual(['Normal LeaderElection demo: host-a_1 became leader']);
    c.advance(1_999);
    expect(lease()?.renewTime).toBe(at(0));
    c.advance(1);
    expect(lease()).toMatchObject({ acquireTime: at(0), renewTime: at(2_000), leaseTransitions: 0 });
    c.advance(6_000);
    expect(lease()).toMatchObject({ acquireTime: at(0), renewTime: at(8_000), leaseTransitions: 0 });
    const renewals = c.relay.all().filter((h) => h.from === 'demo (host-a_1)' && h.kind === 'request' && h.verb === 'update');
    expect(renewals.map((h) => [h.time - T0, h.category, h.summary])).toEqual(
      [2_000, 4_000, 6_000, 8_000].map((t) => [t, 'heartbeat', 'renew Lease kube-system/demo (host-a_1)']),
    );
  });

  it('a standby retries every RetryPeriod·[1, 2.2) (JitterUntil, factor 1.2) while the Lease is held, and never writes', () => {
    const { c, a, b, log, lease } = setup();
    a.run();
    b.run();
    c.advance(60_000);
    const tries = c.relay.all().filter((h) => h.from === 'demo (host-b_2)' && h.kind === 'note');
    const gaps = tries.slice(1).map((h, i) => h.time - tries[i].time);
    expect(tries[0].summary).toMatch(/^lease kube-system\/demo is held by host-a_1 and has not yet expired; retry in \d\.\d s$/);
    expect(gaps.length).toBeGreaterThan(10);
    for (const g of gaps) {
      expect(g).toBeGreaterThanOrEqual(2_000);
      expect(g).toBeLessThan(2_000 * (1 + JITTER_FACTOR));
    }
    expect(c.relay.all().filter((h) => h.from === 'demo (host-b_2)' && h.kind === 'request')).toEqual([]);
    expect(lease()?.holderIdentity).toBe('host-a_1');
    expect(log).toContain('0 host-b_2 sees host-a_1');
    expect(b.isLeader()).toBe(false);
  });

  it('when the leader dies, the standby takes over once the record it observed is 15 s old: leaseTransitions 1, a new acquireTime, "became leader"', () => {
    const { c, a, b, lease, events, log } = setup();
    a.run();
    b.run();
    c.advance(10_500);
    a.stop(); // its node powers off: last renewal at 10 s
    c.advance(30_000);
    const seen = c.relay.all().filter((h) => h.from === 'demo (host-b_2)' && h.kind === 'note');
    const takeover = c.relay.all().find((h) => h.from === 'demo (host-b_2)' && h.summary.startsWith('acquire Lease'));
    expect(takeover?.summary).toBe('acquire Lease kube-system/demo: host-b_2 (leaseTransitions 1)');
    const tAcq = takeover!.time - T0;
    // b last saw a's record change at its first try after the 10 s renewal; the lease is
    // valid until 15 s after that, and b's next try after that takes it
    const firstSeenAfter = seen.map((h) => h.time - T0).find((t) => t >= 10_000)!;
    expect(tAcq).toBeGreaterThanOrEqual(firstSeenAfter + 15_000);
    expect(tAcq).toBeLessThan(firstSeenAfter + 15_000 + 2_000 * (1 + JITTER_FACTOR));
    expect(tAcq - 10_500).toBeLessThan(15_000 + 2 * 2_000 * (1 + JITTER_FACTOR));
    expect([firstSeenAfter, tAcq]).toEqual([11_426, 28_871]);
    // now 40.5 s: renewed every 2 s since the takeover
    expect(lease()).toEqual({
      holderIdentity: 'host-b_2',
      leaseDurationSeconds: 15,
      acquireTime: at(tAcq),
      renewTime: at(tAcq + 10_000),
      leaseTransitions: 1,
    });
    expect(events()).toEqual(['Normal LeaderElection demo: host-a_1 became leader', 'Normal LeaderElection demo: host-b_2 became leader']);
    expect(log.slice(-2)).toEqual([`${tAcq} host-b_2 sees host-b_2`, `${tAcq} host-b_2 started leading`]);
    c.advance(2_000);
    expect(lease()).toMatchObject({ acquireTime: at(tAcq), renewTime: at(tAcq + 12_000), leaseTransitions: 1 });
  });

  it('a leader whose Lease was taken cannot renew: it stops leading at the RenewDeadline (10 s after the round began), "stopped leading"', () => {
    const { c, a, lease, events, log } = setup();
    a.run();
    c.advance(3_000);
    // someone else writes the Lease (as `kubectl edit lease` would), valid for 15 s
    const rc = c.kubectlClient.resource('coordination.k8s.io', 'leases');
    const cur = rc.get('kube-system', 'demo', { quiet: true });
    rc.update({ ...cur, spec: { ...cur.spec, holderIdentity: 'intruder', renewTime: at(3_000) } });
    c.advance(20_000);
    // renew rounds: 2 s ok; the round at 4 s fails (409, then the Get shows intruder) and polls until 4 + 10 s
    expect(log).toEqual([
      '0 host-a_1 sees host-a_1',
      '0 host-a_1 started leading',
      '4000 host-a_1 sees intruder',
      '14000 host-a_1 stopped leading',
    ]);
    expect(events()).toEqual([
      'Normal LeaderElection demo: host-a_1 became leader',
      'Normal LeaderElection demo: host-a_1 stopped leading',
    ]);
    expect(lease()?.holderIdentity).toBe('intruder');
    expect(a.state).toBe('stopped');
  });
});
