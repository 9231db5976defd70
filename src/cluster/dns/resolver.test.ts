import { describe, expect, it } from 'vitest';
import { proxyTestEnv } from '../proxy/proxy.fixture';
import { ClusterDNS, resolvConf } from './resolver';
import { Cluster } from '../cluster';
import { route } from '../proxy/route';
import { Rng } from '../sim/rng';

function env() {
  const e = proxyTestEnv();
  e.service('peekcart', { clusterIP: '10.96.0.20', selector: { app: 'peekcart' }, ports: [{ port: 80, targetPort: 8080 }] });
  e.service('mysql', { clusterIP: '10.96.0.40', selector: { app: 'mysql' }, ports: [{ port: 3306 }] });
  e.service('web', { clusterIP: 'None', selector: { app: 'web' }, ports: [{ port: 80 }] });
  e.slice(
    'web',
    [{ port: 80 }],
    [
      { ip: '10.244.2.9', pod: 'web-1', hostname: 'web-1' },
      { ip: '10.244.1.4', pod: 'web-0', hostname: 'web-0' },
      { ip: '10.244.3.3', pod: 'web-2', hostname: 'web-2', ready: false },
    ],
  );
  e.service('db', { type: 'ExternalName', externalName: 'db.example.com' });
  const dns = new ClusterDNS(e.ctx);
  dns.start();
  e.clock.advance(10);
  return { e, dns };
}

describe('cluster DNS (CoreDNS kubernetes plugin + Pod resolv.conf)', () => {
  it('resolves a Service by short name, name.namespace and FQDN', () => {
    const { e, dns } = env();
    expect(dns.resolve('mysql', 'default')).toMatchObject({
      status: 'NOERROR',
      address: '10.96.0.40',
      fqdn: 'mysql.default.svc.cluster.local',
      queries: ['mysql.default.svc.cluster.local'],
    });
    expect(dns.resolve('peekcart.default', 'kube-system')).toMatchObject({
      address: '10.96.0.20',
      fqdn: 'peekcart.default.svc.cluster.local',
      queries: ['peekcart.default.kube-system.svc.cluster.local', 'peekcart.default.svc.cluster.local'],
    });
    expect(dns.resolve('peekcart.default.svc.cluster.local', 'kube-system')).toMatchObject({
      address: '10.96.0.20',
      queries: [
        'peekcart.default.svc.cluster.local.kube-system.svc.cluster.local',
        'peekcart.default.svc.cluster.local.svc.cluster.local',
        'peekcart.default.svc.cluster.local.cluster.local',
        'peekcart.default.svc.cluster.local',
      ],
    });
    expect(dns.resolve('peekcart.default.svc.cluster.local.', 'kube-system').queries).toEqual(['peekcart.default.svc.cluster.local']);
    expect(dns.query('peekcart.default.svc.cluster.local')).toEqual({
      rcode: 'NOERROR',
      records: [{ name: 'peekcart.default.svc.cluster.local', type: 'A', ttl: 30, data: '10.96.0.20' }],
    });
    const hops = e.relay
      .all()
      .filter((h) => h.to === 'coredns' || h.from === 'coredns')
      .filter((h) => h.kind !== 'watch');
    expect(hops.slice(0, 2).map((h) => [h.from, h.to, h.kind, h.summary])).toEqual([
      ['pod/default', 'coredns', 'request', 'A mysql.default.svc.cluster.local?'],
      ['coredns', 'pod/default', 'response', 'A mysql.default.svc.cluster.local → 10.96.0.40'],
    ]);
  });

  it('headless Services answer with ready endpoint IPs; StatefulSet hostnames resolve', () => {
    const { dns } = env();
    expect(dns.resolve('web', 'default').records.map((r) => r.data)).toEqual(['10.244.1.4', '10.244.2.9']);
    expect(dns.resolve('web-1.web', 'default')).toMatchObject({ address: '10.244.2.9', fqdn: 'web-1.web.default.svc.cluster.local' });
    expect(dns.resolve('web-2.web.default.svc.cluster.local', 'default').status).toBe('NXDOMAIN');
    expect(dns.resolve('10-244-1-4.default.pod.cluster.local', 'default').address).toBe('10.244.1.4');
    expect(dns.query('db.default.svc.cluster.local').records).toEqual([
      { name: 'db.default.svc.cluster.local', type: 'CNAME', ttl: 30, data: 'db.example.com.' },
    ]);
  });

  it('NXDOMAIN for missing names, after walking the whole search path', () => {
    const { e, dns } = env();
    const r = dns.resolve('redis', 'default');
    expect(r).toMatchObject({ status: 'NXDOMAIN', message: "** server can't find redis: NXDOMAIN" });
    expect(r.queries).toEqual(['redis.default.svc.cluster.local', 'redis.svc.cluster.local', 'redis.cluster.local', 'redis']);
    expect(dns.resolve('mysql', 'kube-system').status).toBe('NXDOMAIN');
    expect(dns.resolve('mysql.nope.svc.cluster.local', 'default').status).toBe('NXDOMAIN');
    expect(dns.query('example.com')).toEqual({ rcode: 'NXDOMAIN', records: [], forwarded: true });
    expect(e.relay.all().some((h) => h.summary === 'NXDOMAIN redis.default.svc.cluster.local')).toBe(true);
    expect(resolvConf('default')).toBe(
      'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
  });

  it('follows Service changes through its informers', () => {
    const { e, dns } = env();
    e.service('redis', { clusterIP: '10.96.0.60', selector: { app: 'redis' }, ports: [{ port: 6379 }] });
    expect(dns.resolve('redis', 'default').status).toBe('NXDOMAIN'); // not yet delivered (watch latency)
    e.clock.advance(5);
    expect(dns.resolve('redis', 'default').address).toBe('10.96.0.60');
  });
});

describe('kubeadm CoreDNS add-on in a running cluster', () => {
  it('boots coredns Pods behind kube-dns; kube-proxy renders the well-known chains; DNS answers', () => {
    // the cluster deploys the kubeadm CoreDNS add-on at boot and runs kube-proxy on every node
    const c = new Cluster({ seed: 1 });
    const kp = c.kubeProxies.get('node-1')!;
    const dns = c.dns;
    c.settle(120_000);
    const pods = c.list('pods', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns');
    expect(pods).toHaveLength(2);
    expect(
      pods.every((p) => p.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'Ready' && x.status === 'True')),
    ).toBe(true);
    expect(c.get('services', 'kube-system', 'kube-dns')?.spec.clusterIP).toBe('10.96.0.10');
    const rules = kp.rules();
    expect(rules).toContain(
      '-A KUBE-SERVICES -d 10.96.0.10/32 -p udp -m comment --comment "kube-system/kube-dns:dns cluster IP" -m udp --dport 53 -j KUBE-SVC-TCOU7JCQXEZGVUNU',
    );
    expect(rules).toContain(
      '-A KUBE-SERVICES -d 10.96.0.10/32 -p tcp -m comment --comment "kube-system/kube-dns:dns-tcp cluster IP" -m tcp --dport 53 -j KUBE-SVC-ERIFXISQEP7F7OF4',
    );
    expect(rules).toContain(
      '-A KUBE-SERVICES -d 10.96.0.10/32 -p tcp -m comment --comment "kube-system/kube-dns:metrics cluster IP" -m tcp --dport 9153 -j KUBE-SVC-JD5MR3NA4I4DYORP',
    );
    const r = route(kp, { ip: '10.96.0.10', port: 53, protocol: 'UDP' }, new Rng(1));
    expect(r.verdict).toBe('DNAT');
    expect(pods.map((p) => p.metadata.name)).toContain(r.verdict === 'DNAT' ? r.pod?.name : '');
    expect(dns.resolve('kube-dns.kube-system', 'default').address).toBe('10.96.0.10');
    expect(dns.resolve('kubernetes', 'default').address).toBe('10.96.0.1');
  });
});
