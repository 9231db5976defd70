/**
 * A Pod's DNS configuration as the kubelet writes it into the sandbox's /etc/resolv.conf, and the
 * cluster's DNS constants (the kubelet's clusterDNS and clusterDomain): shared by the kubelet
 * (kubelet/pod-workers.ts), CoreDNS (dns/resolver.ts walks the same search path as the Pod's stub
 * resolver) and nslookup (traffic/), so it sits below all three.
 * Follows pkg/kubelet/network/dns/dns.go (GetPodDNS, appendDNSConfig) and containerd's
 * resolv.conf writer.
 */
import type { KObject } from '../api/types';

/** kubeadm's DNS Service IP: the 10th IP of the service subnet 10.96.0.0/12. */
export const DNS_SERVICE_IP = '10.96.0.10';
/** kubelet clusterDomain / kubeadm networking.dnsDomain. */
export const CLUSTER_DOMAIN = 'cluster.local';

/** The search list the kubelet writes into a ClusterFirst Pod's /etc/resolv.conf. */
export function searchPath(namespace: string, domain = CLUSTER_DOMAIN): string[] {
  return [`${namespace}.svc.${domain}`, `svc.${domain}`, domain];
}

/** A ClusterFirst Pod's /etc/resolv.conf, as the kubelet writes it. */
export function resolvConf(namespace: string, domain = CLUSTER_DOMAIN, nameserver = DNS_SERVICE_IP): string {
  return `search ${searchPath(namespace, domain).join(' ')}\nnameserver ${nameserver}\noptions ndots:5\n`;
}

/**
 * The node's own resolver configuration, what dnsPolicy Default hands a Pod: a kind node's
 * /etc/resolv.conf (kind's entrypoint points Docker's embedded DNS at the network gateway).
 */
export const NODE_RESOLV = { nameservers: ['172.18.0.1'], searches: [] as string[], options: ['ndots:0'] };

/** A resolver configuration (runtimeapi.DNSConfig): nameservers, search domains, options. */
export interface DNSConfig {
  nameservers: string[];
  searches: string[];
  options: string[];
}

const unique = (xs: string[]): string[] => [...new Set(xs)];

/**
 * A Pod's DNS configuration by spec.dnsPolicy (pkg/kubelet/network/dns/dns.go GetPodDNS):
 * ClusterFirst (the default) → CoreDNS with the cluster search path and `ndots:5`, except for
 * hostNetwork Pods, which fall back to Default; ClusterFirstWithHostNet → CoreDNS always;
 * Default → the node's resolv.conf; None → nothing. spec.dnsConfig is then appended
 * (appendDNSConfig: nameservers and searches appended without duplicates, options merged by
 * name, a later value winning).
 */
export function podDNSConfig(pod: KObject, domain = CLUSTER_DOMAIN, nameserver = DNS_SERVICE_IP): DNSConfig {
  const spec = (pod.spec ?? {}) as {
    dnsPolicy?: string;
    hostNetwork?: boolean;
    dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: { name: string; value?: string }[] };
  };
  let policy = spec.dnsPolicy ?? 'ClusterFirst';
  if (policy === 'ClusterFirst' && spec.hostNetwork) policy = 'Default';
  const cfg: DNSConfig =
    policy === 'None'
      ? { nameservers: [], searches: [], options: [] }
      : policy === 'Default'
        ? { nameservers: [...NODE_RESOLV.nameservers], searches: [...NODE_RESOLV.searches], options: [...NODE_RESOLV.options] }
        : { nameservers: [nameserver], searches: searchPath(pod.metadata.namespace ?? 'default', domain), options: ['ndots:5'] };
  const extra = spec.dnsConfig;
  if (!extra) return cfg;
  cfg.nameservers = unique([...cfg.nameservers, ...(extra.nameservers ?? [])]);
  cfg.searches = unique([...cfg.searches, ...(extra.searches ?? [])]);
  const opts = new Map<string, string>();
  for (const o of cfg.options) {
    const i = o.indexOf(':');
    opts.set(i < 0 ? o : o.slice(0, i), o);
  }
  for (const o of extra.options ?? []) opts.set(o.name, o.value !== undefined ? `${o.name}:${o.value}` : o.name);
  cfg.options = [...opts.values()];
  return cfg;
}

/** /etc/resolv.conf as containerd writes it from a DNSConfig (search, nameserver lines, options). */
export function formatResolvConf(cfg: DNSConfig): string {
  let out = '';
  if (cfg.searches.length) out += `search ${cfg.searches.join(' ')}\n`;
  for (const n of cfg.nameservers) out += `nameserver ${n}\n`;
  if (cfg.options.length) out += `options ${cfg.options.join(' ')}\n`;
  return out;
}
