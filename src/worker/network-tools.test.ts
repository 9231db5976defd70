/**
 * The worker's network tools (issue 5): dnsLookup, setLoad/loads and sendRequests through
 * ClusterHost; setLoad and sendRequests are in the session log and replay to the same state
 * (the same Pods answer the same requests: routing draws from the seeded RNG).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { ClusterHost } from './cluster-api';
import { testHost } from './test-host';

const APP = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.27, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{port: 80, nodePort: 30080}]
`;

const host = () => testHost({ subscribe: false }).host;

describe('ClusterHost network tools', () => {
  const h = host();
  h.apply(APP);
  h.kubectl('get pods'); // an action, so the log carries on
  const c = (h as unknown as { cluster: Cluster }).cluster;
  c.settle(120_000);

  it('dnsLookup answers as nslookup and is logged (its queries are relay hops)', () => {
    const before = h.exportState().steps.length;
    const r = h.dnsLookup('web', 'default');
    expect(r).toMatchObject({ status: 'NOERROR', fqdn: 'web.default.svc.cluster.local', queries: ['web.default.svc.cluster.local'] });
    expect(r.records).toEqual([
      { name: 'web.default.svc.cluster.local', type: 'A', ttl: 30, data: c.get('services', 'default', 'web')!.spec.clusterIP },
    ]);
    expect(h.dnsLookup('nope', 'kube-system')).toMatchObject({
      status: 'NXDOMAIN',
      queries: ['nope.kube-system.svc.cluster.local', 'nope.svc.cluster.local', 'nope.cluster.local', 'nope'],
    });
    expect(
      h
        .exportState()
        .steps.slice(before)
        .map((e) => e.step.kind),
    ).toEqual(['dnsLookup', 'dnsLookup']);
  });

  it('setLoad is listed by loads() and logged; bad input throws', () => {
    h.setLoad({ namespace: 'default', workload: 'deployment/web', totalCpuMillicores: 600 });
    h.setLoad({ namespace: 'default', workload: 'deployment/web', totalCpuMillicores: 900 });
    expect(h.loads()).toEqual([{ namespace: 'default', workload: 'deployment/web', totalCpuMillicores: 900 }]);
    expect(() => h.setLoad({ namespace: 'default', workload: 'deployment/web', totalCpuMillicores: -1 })).toThrow(
      'setLoad: invalid CPU -1',
    );
    expect(h.exportState().steps.filter((e) => e.step.kind === 'setLoad').length).toBe(3);
  });

  it('a reload replays loads and requests to the same outcome', () => {
    const first = h.sendRequests({ source: { kind: 'external' }, url: 'http://172.18.0.3:30080/', count: 10 });
    expect(first.every((r) => r.ok && r.viaNode === 'node-1')).toBe(true);
    c.advance(30_000);
    const top = h.kubectl('top pods').output;
    expect(top).toMatch(/web-\S+ +300m /);
    const log = h.exportState();
    expect(log.steps.filter((e) => e.step.kind === 'request')).toHaveLength(1);
    const relay = (x: ClusterHost) => (x as unknown as { cluster: Cluster }).cluster.relay.lastSeq;
    const seq = relay(h);
    const again = host();
    again.importState(log);
    // every hop again, the DNS tool's included
    expect(relay(again)).toBe(seq);
    expect(again.loads()).toEqual([{ namespace: 'default', workload: 'deployment/web', totalCpuMillicores: 900 }]);
    expect(again.kubectl('top pods').output).toBe(top);
    // the RNG is in the same place: the next batch picks the same Pods on both
    const next = (x: ClusterHost) =>
      x.sendRequests({ source: { kind: 'external' }, url: 'http://172.18.0.3:30080/', count: 10 }).map((r) => r.podKey);
    expect(next(again)).toEqual(next(h));
  });
});
