/**
 * Cluster DNS: what CoreDNS's `kubernetes` plugin answers (coredns plugin/kubernetes, per the
 * Kubernetes DNS-Based Service Discovery spec, kubernetes/dns docs/specification.md) and how
 * a Pod's stub resolver walks its resolv.conf search path (the kubelet writes
 * `search <ns>.svc.cluster.local svc.cluster.local cluster.local`, `nameserver 10.96.0.10`,
 * `options ndots:5` for dnsPolicy ClusterFirst — pkg/kubelet/network/dns/dns.go).
 *
 * Records served (zone cluster.local, TTL 30 as kubeadm's Corefile sets):
 * - `<svc>.<ns>.svc.cluster.local` A → the ClusterIP; for a headless Service the ready
 *   endpoint addresses (also not-ready ones with publishNotReadyAddresses); ExternalName → CNAME;
 * - `<hostname>.<svc>.<ns>.svc.cluster.local` A → the endpoint with that hostname
 *   (StatefulSet Pods behind their headless governing Service);
 * - `<a-b-c-d>.<ns>.pod.cluster.local` A → a.b.c.d (`pods insecure`);
 * - everything else in the zone is NXDOMAIN; names outside go to `forward . /etc/resolv.conf`,
 *   which the simulation does not have (NXDOMAIN, marked forwarded).
 *
 * CoreDNS watches Services, EndpointSlices and Namespaces with its own informers (ServiceAccount
 * `system:serviceaccount:kube-system:coredns`, relay participant `coredns`). Every query is a
 * relay request hop from the asking Pod to `coredns` and a response hop back.
 */
import type { KObject } from '../api/types';
import type { RequestUser } from '../apiserver/apiserver';
import { SharedInformer } from '../client/informer';
import { newListWatchFromClient } from '../client/listwatch';
import type { ComponentContext } from '../component-context';
import { CLUSTER_DOMAIN } from './coredns';
import { searchPath } from '../component-helpers/dns';

/** One resource record of an answer. */
export interface DNSRecord {
  name: string;
  type: 'A' | 'CNAME';
  ttl: number;
  data: string;
}

/** The answer to one question (one fully-qualified name). */
export interface DNSAnswer {
  rcode: 'NOERROR' | 'NXDOMAIN';
  records: DNSRecord[];
  /** true when the name is outside the cluster domain (CoreDNS would forward it upstream) */
  forwarded?: boolean;
}

/** The result of a stub-resolver lookup through the search path. */
export interface DNSResult {
  /** the name asked for */
  name: string;
  /** NOERROR with records, NXDOMAIN, or TIMEOUT when no CoreDNS endpoint is ready */
  status: 'NOERROR' | 'NXDOMAIN' | 'TIMEOUT';
  records: DNSRecord[];
  /** the first A record's address, if any */
  address?: string;
  /** the fully-qualified name that answered */
  fqdn?: string;
  /** every query sent, in order (the search-path expansion) */
  queries: string[];
  /** nslookup's words when it fails */
  message?: string;
}

/** Options of {@link ClusterDNS.resolve}. */
export interface ResolveOptions {
  /** relay participant asking (default `pod/<namespace>`; use `pod/<ns>/<name>` for a Pod) */
  from?: string;
  /** options ndots (default 5) */
  ndots?: number;
}

/** The CoreDNS identity. */
export const corednsUser = (): RequestUser => ({
  name: 'system:serviceaccount:kube-system:coredns',
  participant: 'coredns',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
});

/** The Pod DNS configuration the kubelet writes, re-exported from component-helpers/dns.ts. */
export { searchPath, resolvConf, NODE_RESOLV, podDNSConfig, formatResolvConf, type DNSConfig } from '../component-helpers/dns';

const TTL = 30;

export class ClusterDNS {
  private services: SharedInformer | null = null;
  private slices: SharedInformer | null = null;
  private namespaces: SharedInformer | null = null;

  constructor(
    private readonly ctx: ComponentContext,
    readonly domain = CLUSTER_DOMAIN,
  ) {}

  /** Starts CoreDNS's informers (idempotent; resolve starts them on first use). */
  start(): void {
    if (this.services) return;
    const client = this.ctx.client(corednsUser());
    const mk = (group: string, resource: string) => {
      if (!client.restMapper.forResource(group, resource)) throw new Error(`${resource} are not served`);
      const inf = new SharedInformer(newListWatchFromClient(client, group, resource));
      inf.start();
      return inf;
    };
    this.ctx.relay.withCause(null, () => {
      this.services = mk('', 'services');
      this.slices = mk('discovery.k8s.io', 'endpointslices');
      this.namespaces = mk('', 'namespaces');
    });
  }

  /**
   * Resolves `name` as a Pod in `fromNamespace` would (glibc res_search): a name ending in "."
   * is absolute; one with at least ndots dots is tried as-is first, otherwise the search list
   * comes first and the name as-is last.
   */
  resolve(name: string, fromNamespace: string, search?: string[], opts: ResolveOptions = {}): DNSResult {
    this.start();
    const from = opts.from ?? `pod/${fromNamespace}`;
    const ndots = opts.ndots ?? 5;
    const list = search ?? searchPath(fromNamespace, this.domain);
    const q = name.toLowerCase();
    const candidates: string[] = [];
    if (q.endsWith('.')) candidates.push(q.slice(0, -1));
    else {
      const dots = q.split('.').length - 1;
      if (dots >= ndots) candidates.push(q);
      for (const s of list) candidates.push(`${q}.${s}`);
      if (dots < ndots) candidates.push(q);
    }
    if (!this.serverReady()) {
      const message = ';; connection timed out; no servers could be reached';
      this.ctx.relay.record({
        from,
        to: 'coredns',
        kind: 'note',
        summary: `A ${candidates[0]}? no ready kube-dns endpoint: ${message.slice(3)}`,
      });
      return { name, status: 'TIMEOUT', records: [], queries: [], message };
    }
    const queries: string[] = [];
    for (const fqdn of candidates) {
      queries.push(fqdn);
      const req = this.ctx.relay.record({ from, to: 'coredns', kind: 'request', verb: 'A', summary: `A ${fqdn}?` });
      const ans = this.query(fqdn);
      const text = ans.records.length
        ? `A ${fqdn} → ${ans.records.map((r) => (r.type === 'CNAME' ? `CNAME ${r.data}` : r.data)).join(', ')}`
        : `${ans.rcode === 'NXDOMAIN' ? 'NXDOMAIN' : 'NODATA'} ${fqdn}${ans.forwarded ? ' (forwarded upstream: not simulated)' : ''}`;
      this.ctx.relay.record({ from: 'coredns', to: from, kind: 'response', verb: 'A', summary: text, cause: req });
      if (ans.records.length) {
        const a = ans.records.find((r) => r.type === 'A');
        return { name, status: 'NOERROR', records: ans.records, address: a?.data, fqdn, queries };
      }
    }
    return { name, status: 'NXDOMAIN', records: [], queries, message: `** server can't find ${name}: NXDOMAIN` };
  }

  /** True unless the kube-dns Service exists and none of its endpoints is ready (then queries time out). */
  private serverReady(): boolean {
    const svc = this.services!.get('kube-system/kube-dns');
    if (!svc) return true;
    return this.endpointsOf('kube-system', 'kube-dns').some((e) => e.ready);
  }

  private endpointsOf(ns: string, svc: string): { ip: string; ready: boolean; hostname?: string }[] {
    const out: { ip: string; ready: boolean; hostname?: string }[] = [];
    const seen = new Set<string>();
    for (const s of this.slices!.list(ns)) {
      if (s.metadata.labels?.['kubernetes.io/service-name'] !== svc) continue;
      for (const e of s.endpoints ?? []) {
        const ip = e.addresses?.[0];
        if (!ip || seen.has(ip)) continue;
        seen.add(ip);
        out.push({ ip, ready: e.conditions?.ready ?? true, hostname: e.hostname });
      }
    }
    return out.sort((a, b) => ipCompare(a.ip, b.ip));
  }

  /** One question to CoreDNS (a fully-qualified name, no trailing dot). */
  query(fqdn: string): DNSAnswer {
    this.start();
    const name = fqdn.toLowerCase().replace(/\.$/, '');
    const zone = this.domain;
    if (name !== zone && !name.endsWith(`.${zone}`)) return { rcode: 'NXDOMAIN', records: [], forwarded: true };
    const labels = name === zone ? [] : name.slice(0, -(zone.length + 1)).split('.');
    const nx: DNSAnswer = { rcode: 'NXDOMAIN', records: [] };
    const nodata: DNSAnswer = { rcode: 'NOERROR', records: [] };
    const a = (ip: string): DNSRecord => ({ name, type: 'A', ttl: TTL, data: ip });
    if (labels.length === 0) return nodata;
    const kind = labels[labels.length - 1];
    const rest = labels.slice(0, -1);
    if (kind === 'svc') {
      if (rest.length === 0) return nodata;
      const ns = rest[rest.length - 1];
      if (!this.namespaces!.get(ns)) return nx;
      if (rest.length === 1) return nodata;
      const svc = this.services!.get(`${ns}/${rest[rest.length - 2]}`);
      if (!svc) return nx;
      const spec = svc.spec ?? {};
      if (rest.length === 2) {
        if (spec.type === 'ExternalName')
          return {
            rcode: 'NOERROR',
            records: [{ name, type: 'CNAME', ttl: TTL, data: `${String(spec.externalName).replace(/\.$/, '')}.` }],
          };
        if (spec.clusterIP && spec.clusterIP !== 'None') return { rcode: 'NOERROR', records: [a(spec.clusterIP)] };
        const eps = this.endpointsOf(ns, svc.metadata.name).filter((e) => e.ready || spec.publishNotReadyAddresses);
        return eps.length ? { rcode: 'NOERROR', records: eps.map((e) => a(e.ip)) } : nx;
      }
      if (rest.length === 3 && spec.clusterIP === 'None') {
        const host = rest[0];
        const ep = this.endpointsOf(ns, svc.metadata.name).find((e) => e.hostname === host && (e.ready || spec.publishNotReadyAddresses));
        return ep ? { rcode: 'NOERROR', records: [a(ep.ip)] } : nx;
      }
      return nx;
    }
    if (kind === 'pod') {
      if (rest.length !== 2) return rest.length === 1 && this.namespaces!.get(rest[0]) ? nodata : nx;
      const [dashed, ns] = rest;
      if (!this.namespaces!.get(ns)) return nx;
      const ip = dashed.replace(/-/g, '.');
      return /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(ip) && ip.split('.').every((o) => Number(o) <= 255)
        ? { rcode: 'NOERROR', records: [a(ip)] }
        : nx;
    }
    return nx;
  }

  /** The Services CoreDNS currently knows (its informer cache). */
  knownServices(): KObject[] {
    this.start();
    return this.services!.list();
  }
}

function ipCompare(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}
