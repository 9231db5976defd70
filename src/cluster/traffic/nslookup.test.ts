/** nslookup's output (bind 9, as the docs' dnsutils Pod prints it) for each kind of answer. */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

const HEADER = 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n';

describe('nslookup through cluster DNS', () => {
  const c = new Cluster({ seed: 5 });
  c.apply(`apiVersion: v1
kind: Service
metadata: {name: db, namespace: default}
spec: {clusterIP: None, selector: {app: db}, ports: [{port: 3306}]}
---
apiVersion: v1
kind: Service
metadata: {name: mail}
spec: {type: ExternalName, externalName: smtp.example.com}
`);
  c.settle(60_000);

  it.each([
    {
      name: 'kubernetes',
      ns: 'default',
      status: 'NOERROR',
      output: `${HEADER}Name:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n`,
      queries: 1,
    },
    {
      name: 'kube-dns.kube-system',
      ns: 'default',
      status: 'NOERROR',
      output: `${HEADER}Name:\tkube-dns.kube-system.svc.cluster.local\nAddress: 10.96.0.10\n\n`,
      queries: 2,
    },
    {
      name: 'mail',
      ns: 'default',
      status: 'NOERROR',
      output: `${HEADER}mail.default.svc.cluster.local\tcanonical name = smtp.example.com.\n\n`,
      queries: 1,
    },
    { name: 'db', ns: 'default', status: 'NXDOMAIN', output: `${HEADER}** server can't find db: NXDOMAIN\n\n`, queries: 4 },
    {
      name: 'kubernetes',
      ns: 'kube-system',
      status: 'NXDOMAIN',
      output: `${HEADER}** server can't find kubernetes: NXDOMAIN\n\n`,
      queries: 4,
    },
  ])('$name from $ns → $status', ({ name, ns, status, output, queries }) => {
    const r = c.dnsLookup(name, ns);
    expect(r.status).toBe(status);
    expect(r.output).toBe(output);
    expect(r.queries).toHaveLength(queries);
  });

  it('times out when CoreDNS has no ready endpoint', () => {
    c.kubectl('scale deployment coredns -n kube-system --replicas=0');
    c.settle(120_000);
    const r = c.dnsLookup('kubernetes', 'default');
    expect(r).toMatchObject({
      status: 'TIMEOUT',
      queries: [],
      records: [],
      fqdn: null,
      output: ';; connection timed out; no servers could be reached\n\n',
    });
  });
});
