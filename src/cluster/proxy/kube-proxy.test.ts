import { describe, expect, it } from 'vitest';
import { proxyTestEnv } from './proxy.fixture';
import { KubeProxy } from './kube-proxy';
import { computeProbability, savedProbability } from './iptables';
import { route } from './route';
import { Rng } from '../sim/rng';

const FILTER_HEAD = `*filter
:INPUT ACCEPT [0:0]
:FORWARD ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:KUBE-EXTERNAL-SERVICES - [0:0]
:KUBE-FIREWALL - [0:0]
:KUBE-FORWARD - [0:0]
:KUBE-NODEPORTS - [0:0]
:KUBE-PROXY-CANARY - [0:0]
:KUBE-PROXY-FIREWALL - [0:0]
:KUBE-SERVICES - [0:0]
-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL
-A INPUT -m comment --comment "kubernetes health check service ports" -j KUBE-NODEPORTS
-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES
-A INPUT -j KUBE-FIREWALL
-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL
-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD
-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES
-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL
-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A OUTPUT -j KUBE-FIREWALL
-A KUBE-FIREWALL ! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP
-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP
-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT
-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
`;

const peekcartEndpoints = [
  { ip: '10.244.1.5', pod: 'peekcart-a', node: 'node-1' },
  { ip: '10.244.2.6', pod: 'peekcart-b', node: 'node-2' },
  { ip: '10.244.3.7', pod: 'peekcart-c', node: 'node-3' },
];

function env3() {
  const env = proxyTestEnv();
  env.node('node-1', '172.18.0.3');
  env.service('peekcart', { clusterIP: '10.96.0.20', selector: { app: 'peekcart' }, ports: [{ port: 80, targetPort: 8080 }] });
  const slice = env.slice('peekcart', [{ port: 8080 }], peekcartEndpoints);
  const kp = new KubeProxy(env.ctx, 'node-1');
  kp.start();
  return { env, kp, slice };
}

describe('kube-proxy iptables rules', () => {
  it('renders the full iptables-save dump of a 3-endpoint ClusterIP Service', () => {
    const { kp } = env3();
    expect(kp.rules()).toBe(
      FILTER_HEAD +
        `COMMIT
*nat
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
:KUBE-MARK-MASQ - [0:0]
:KUBE-NODEPORTS - [0:0]
:KUBE-POSTROUTING - [0:0]
:KUBE-PROXY-CANARY - [0:0]
:KUBE-SEP-I5FRCDDIHZKT6T2Y - [0:0]
:KUBE-SEP-K4BBV7YGTY6TROOE - [0:0]
:KUBE-SEP-SQOCUFJ2B3JQUNIS - [0:0]
:KUBE-SERVICES - [0:0]
:KUBE-SVC-QNWUJ3JAL2NWCKI4 - [0:0]
-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING
-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000
-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0
-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully
-A KUBE-SEP-I5FRCDDIHZKT6T2Y -s 10.244.2.6/32 -m comment --comment "default/peekcart" -j KUBE-MARK-MASQ
-A KUBE-SEP-I5FRCDDIHZKT6T2Y -p tcp -m comment --comment "default/peekcart" -m tcp -j DNAT --to-destination 10.244.2.6:8080
-A KUBE-SEP-K4BBV7YGTY6TROOE -s 10.244.3.7/32 -m comment --comment "default/peekcart" -j KUBE-MARK-MASQ
-A KUBE-SEP-K4BBV7YGTY6TROOE -p tcp -m comment --comment "default/peekcart" -m tcp -j DNAT --to-destination 10.244.3.7:8080
-A KUBE-SEP-SQOCUFJ2B3JQUNIS -s 10.244.1.5/32 -m comment --comment "default/peekcart" -j KUBE-MARK-MASQ
-A KUBE-SEP-SQOCUFJ2B3JQUNIS -p tcp -m comment --comment "default/peekcart" -m tcp -j DNAT --to-destination 10.244.1.5:8080
-A KUBE-SERVICES -d 10.96.0.20/32 -p tcp -m comment --comment "default/peekcart cluster IP" -m tcp --dport 80 -j KUBE-SVC-QNWUJ3JAL2NWCKI4
-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS
-A KUBE-SVC-QNWUJ3JAL2NWCKI4 ! -s 10.244.0.0/16 -d 10.96.0.20/32 -p tcp -m comment --comment "default/peekcart cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ
-A KUBE-SVC-QNWUJ3JAL2NWCKI4 -m comment --comment "default/peekcart -> 10.244.1.5:8080" -m statistic --mode random --probability 0.33333333349 -j KUBE-SEP-SQOCUFJ2B3JQUNIS
-A KUBE-SVC-QNWUJ3JAL2NWCKI4 -m comment --comment "default/peekcart -> 10.244.2.6:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-I5FRCDDIHZKT6T2Y
-A KUBE-SVC-QNWUJ3JAL2NWCKI4 -m comment --comment "default/peekcart -> 10.244.3.7:8080" -j KUBE-SEP-K4BBV7YGTY6TROOE
COMMIT
`,
    );
  });

  it('renders a NodePort Service: KUBE-NODEPORTS → KUBE-EXT → KUBE-SVC', () => {
    const env = proxyTestEnv();
    env.node('node-1', '172.18.0.3');
    env.service('web', {
      type: 'NodePort',
      clusterIP: '10.96.0.30',
      selector: { app: 'web' },
      ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }],
    });
    env.slice('web', [{ name: 'http', port: 8080 }], [{ ip: '10.244.1.8', pod: 'web-a', node: 'node-1' }]);
    const kp = new KubeProxy(env.ctx, 'node-1');
    kp.start();
    const nat = kp.rules().slice(kp.rules().indexOf('*nat'));
    expect(nat).toBe(`*nat
:PREROUTING ACCEPT [0:0]
:INPUT ACCEPT [0:0]
:OUTPUT ACCEPT [0:0]
:POSTROUTING ACCEPT [0:0]
:KUBE-EXT-CDGGSHYLG3RE2FKL - [0:0]
:KUBE-MARK-MASQ - [0:0]
:KUBE-NODEPORTS - [0:0]
:KUBE-POSTROUTING - [0:0]
:KUBE-PROXY-CANARY - [0:0]
:KUBE-SEP-FZKIUYKCK5HASUBH - [0:0]
:KUBE-SERVICES - [0:0]
:KUBE-SVC-CDGGSHYLG3RE2FKL - [0:0]
-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING
-A KUBE-EXT-CDGGSHYLG3RE2FKL -m comment --comment "masquerade traffic for default/web:http external destinations" -j KUBE-MARK-MASQ
-A KUBE-EXT-CDGGSHYLG3RE2FKL -j KUBE-SVC-CDGGSHYLG3RE2FKL
-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000
-A KUBE-NODEPORTS -p tcp -m comment --comment "default/web:http" -m tcp --dport 30080 -j KUBE-EXT-CDGGSHYLG3RE2FKL
-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0
-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully
-A KUBE-SEP-FZKIUYKCK5HASUBH -s 10.244.1.8/32 -m comment --comment "default/web:http" -j KUBE-MARK-MASQ
-A KUBE-SEP-FZKIUYKCK5HASUBH -p tcp -m comment --comment "default/web:http" -m tcp -j DNAT --to-destination 10.244.1.8:8080
-A KUBE-SERVICES -d 10.96.0.30/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-CDGGSHYLG3RE2FKL
-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS
-A KUBE-SVC-CDGGSHYLG3RE2FKL ! -s 10.244.0.0/16 -d 10.96.0.30/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ
-A KUBE-SVC-CDGGSHYLG3RE2FKL -m comment --comment "default/web:http -> 10.244.1.8:8080" -j KUBE-SEP-FZKIUYKCK5HASUBH
COMMIT
`);
    // NodePort on the node's IP reaches the Pod, masqueraded (KUBE-EXT marks it)
    const r = route(kp, { ip: '172.18.0.3', port: 30080 }, new Rng(1), { kind: 'external' });
    expect(r).toMatchObject({
      verdict: 'DNAT',
      endpoint: { ip: '10.244.1.8', port: 8080 },
      pod: { namespace: 'default', name: 'web-a' },
      masquerade: true,
    });
    expect(r.chains).toEqual([
      'PREROUTING',
      'KUBE-SERVICES',
      'KUBE-NODEPORTS',
      'KUBE-EXT-CDGGSHYLG3RE2FKL',
      'KUBE-MARK-MASQ',
      'KUBE-SVC-CDGGSHYLG3RE2FKL',
      'KUBE-SEP-FZKIUYKCK5HASUBH',
    ]);
  });

  it('probabilities for 1–4 endpoints: 1/n, 1/(n-1)…, the last without statistic', () => {
    expect([1, 2, 3, 4].map(computeProbability)).toEqual(['1.0000000000', '0.5000000000', '0.3333333333', '0.2500000000']);
    expect(['0.2500000000', '0.3333333333', '0.5000000000', '0.2000000000'].map(savedProbability)).toEqual([
      '0.25000000000',
      '0.33333333349',
      '0.50000000000',
      '0.20000000019',
    ]);
    for (let n = 1; n <= 4; n++) {
      const env = proxyTestEnv();
      env.service('s', { clusterIP: '10.96.0.50', selector: { a: 'b' }, ports: [{ port: 80 }] });
      env.slice(
        's',
        [{ port: 80 }],
        Array.from({ length: n }, (_, i) => ({ ip: `10.244.1.${10 + i}`, pod: `s-${i}` })),
      );
      const kp = new KubeProxy(env.ctx, 'node-1');
      kp.start();
      const lines = kp
        .rules()
        .split('\n')
        .filter((l) => l.includes('-m comment --comment "default/s -> '));
      const probs = lines.map((l) => l.match(/--probability (\S+)/)?.[1] ?? null);
      const expected: (string | null)[][] = [
        ['0.25000000000', '0.33333333349', '0.50000000000'],
        ['0.33333333349', '0.50000000000'],
        ['0.50000000000'],
        [],
      ];
      expect(probs).toEqual([...expected[4 - n], null]);
    }
  });

  it('REJECTs a Service without endpoints in the filter table, and route says so', () => {
    const env = proxyTestEnv();
    env.service('mysql', { clusterIP: '10.96.0.40', selector: { app: 'mysql' }, ports: [{ port: 3306 }] });
    const kp = new KubeProxy(env.ctx, 'node-1');
    kp.start();
    expect(kp.rules()).toContain(
      FILTER_HEAD +
        '-A KUBE-SERVICES -d 10.96.0.40/32 -p tcp -m comment --comment "default/mysql has no endpoints" -m tcp --dport 3306 -j REJECT --reject-with icmp-port-unreachable\nCOMMIT\n',
    );
    expect(kp.rules()).not.toContain('KUBE-SVC-');
    const r = route(kp, { ip: '10.96.0.40', port: 3306 }, new Rng(1));
    expect(r).toMatchObject({ verdict: 'REJECT', reason: 'connection refused (icmp-port-unreachable): default/mysql has no endpoints' });
  });

  it('drops a not-ready endpoint after the next sync (minSyncPeriod batching) and falls back to serving-terminating', () => {
    const { env, kp, slice } = env3();
    const t0 = env.clock.now();
    env.clock.advance(5_000);
    const hops = () => env.relay.all().filter((h) => h.from === 'kube-proxy/node-1' && h.kind === 'decision');
    expect(hops().map((h) => h.summary)).toEqual(['synced 20 rules: default/peekcart → 3 endpoints']);
    // peekcart-b turns not ready
    const s2 = env.updateSlice(
      slice,
      [{ port: 8080 }],
      [peekcartEndpoints[0], { ...peekcartEndpoints[1], ready: false }, peekcartEndpoints[2]],
    );
    env.clock.advance(10);
    expect(kp.syncCount).toBe(2);
    expect(kp.rules()).not.toContain('10.244.2.6');
    expect(kp.rules()).toContain(
      '-A KUBE-SVC-QNWUJ3JAL2NWCKI4 -m comment --comment "default/peekcart -> 10.244.1.5:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-SQOCUFJ2B3JQUNIS\n-A KUBE-SVC-QNWUJ3JAL2NWCKI4 -m comment --comment "default/peekcart -> 10.244.3.7:8080" -j KUBE-SEP-K4BBV7YGTY6TROOE\n',
    );
    // a second change within 1 s waits for minSyncPeriod
    const s3 = env.updateSlice(
      s2,
      [{ port: 8080 }],
      peekcartEndpoints.map((e) => ({ ...e, ready: false, serving: true, terminating: true })),
    );
    env.clock.advance(100);
    expect(kp.syncCount).toBe(2);
    env.clock.advance(1_000);
    expect(kp.syncCount).toBe(3);
    expect(kp.lastSyncTime).toBe(t0 + 5_000 + 1 + 1_000);
    // all terminating but serving: used as a fallback (KEP-1669)
    expect(kp.ruleset()!.services[0].endpoints.map((e) => e.endpoint)).toEqual(['10.244.1.5:8080', '10.244.2.6:8080', '10.244.3.7:8080']);
    env.updateSlice(
      s3,
      [{ port: 8080 }],
      peekcartEndpoints.map((e) => ({ ...e, ready: false, serving: false, terminating: true })),
    );
    env.clock.advance(2_000);
    expect(kp.rules()).toContain('"default/peekcart has no endpoints"');
    expect(
      hops()
        .map((h) => h.summary)
        .slice(1),
    ).toEqual([
      'synced 17 rules: default/peekcart → 2 endpoints',
      'synced 20 rules: default/peekcart → 3 endpoints',
      'synced 10 rules: default/peekcart → no endpoints (REJECT)',
    ]);
  });

  it('route load-balances with the seeded RNG as xt_statistic would', () => {
    const { kp } = env3();
    const rng = new Rng(7);
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const r = route(kp, { ip: '10.96.0.20', port: 80 }, rng);
      if (r.verdict !== 'DNAT') throw new Error(r.reason);
      counts.set(r.pod!.name, (counts.get(r.pod!.name) ?? 0) + 1);
    }
    for (const n of ['peekcart-a', 'peekcart-b', 'peekcart-c']) expect(Math.abs(counts.get(n)! - 1000)).toBeLessThan(100);
    const a = route(kp, { ip: '10.96.0.20', port: 80 }, new Rng(3));
    const b = route(kp, { ip: '10.96.0.20', port: 80 }, new Rng(3));
    expect(a).toEqual(b);
    expect(route(kp, { ip: '10.96.0.20', port: 81 }, rng).verdict).toBe('NO_RULE');
  });

  it('powerOff drops the rules; powerOn relists and syncs', () => {
    const { env, kp, slice } = env3();
    kp.powerOff();
    expect(kp.rules()).toBe('');
    env.updateSlice(slice, [{ port: 8080 }], peekcartEndpoints.slice(0, 1));
    env.clock.advance(2_000);
    expect(kp.rules()).toBe('');
    expect(route(kp, { ip: '10.96.0.20', port: 80 }, new Rng(1)).verdict).toBe('NO_RULE');
    kp.powerOn();
    env.clock.advance(10);
    expect(kp.ruleset()!.services[0].endpoints.map((e) => e.endpoint)).toEqual(['10.244.1.5:8080']);
  });
});
