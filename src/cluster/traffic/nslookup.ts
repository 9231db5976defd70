/**
 * `nslookup NAME` run inside a Pod, as the Kubernetes docs' dnsutils Pod prints it
 * (registry.k8s.io/e2e-test-images/jessie-dnsutils: ISC BIND 9's nslookup, bin/dig/nslookup.c):
 *
 * ```
 * Server:		10.96.0.10
 * Address:	10.96.0.10#53
 *
 * Name:	peekcart.default.svc.cluster.local
 * Address: 10.96.0.12
 * ```
 * A CNAME answer (ExternalName) prints `NAME	canonical name = TARGET.`; NXDOMAIN prints
 * `** server can't find NAME: NXDOMAIN`; no ready CoreDNS endpoint prints
 * `;; connection timed out; no servers could be reached`.
 *
 * The lookup walks the Pod's search path through {@link ClusterDNS.resolve}, so every query is
 * a relay hop to `coredns`.
 */
import type { ClusterDNS } from '../dns/resolver';
import { DNS_SERVICE_IP } from '../component-helpers/dns';
import type { DnsLookupResult } from '../userland/traffic-types';

/**
 * Resolves `name` as a ClusterFirst Pod in `fromNamespace` would and renders nslookup's output.
 * @param from relay participant asking (default `pod/<namespace>`)
 */
export function nslookup(dns: ClusterDNS, name: string, fromNamespace: string, from?: string): DnsLookupResult {
  const r = dns.resolve(name.trim(), fromNamespace, undefined, from ? { from } : {});
  const header = `Server:\t\t${DNS_SERVICE_IP}\nAddress:\t${DNS_SERVICE_IP}#53\n\n`;
  const records = r.records.map((x) => ({ name: x.name, type: x.type, ttl: x.ttl, data: x.data }));
  let output: string;
  if (r.status === 'TIMEOUT') output = `${r.message ?? ';; connection timed out; no servers could be reached'}\n\n`;
  else if (r.status === 'NXDOMAIN') output = `${header}** server can't find ${name.trim()}: NXDOMAIN\n\n`;
  else {
    const lines: string[] = [];
    for (const rec of records) {
      if (rec.type === 'CNAME') lines.push(`${rec.name}\tcanonical name = ${rec.data}`);
      else lines.push(`Name:\t${rec.name}\nAddress: ${rec.data}`);
    }
    output = `${header}${lines.join('\n')}\n\n`;
  }
  return { name: name.trim(), status: r.status, fqdn: r.fqdn ?? null, records, queries: r.queries, output };
}
