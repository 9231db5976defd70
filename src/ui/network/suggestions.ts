/**
 * What the Network panel offers to type, derived from the store's objects (pure, unit-tested):
 * DNS names a Pod can look up, traffic sources, URLs a client can send requests to, and the
 * namespaces to look up from. Names follow the Kubernetes DNS-Based Service Discovery spec
 * (kubernetes/dns docs/specification.md): `<svc>`, `<svc>.<ns>`, `<svc>.<ns>.svc.cluster.local`
 * and `<hostname>.<subdomain>.<ns>.svc.cluster.local` for Pods behind a headless Service.
 */
import type { KObject } from '../store/types';

/** The cluster domain the simulated kubelets write into resolv.conf (dns/coredns.ts). */
export const CLUSTER_DOMAIN = 'cluster.local';

function ns(o: KObject): string {
  return o.metadata.namespace ?? 'default';
}

function byKind(objects: Iterable<KObject>, kind: string): KObject[] {
  const out: KObject[] = [];
  for (const o of objects) if (o.kind === kind) out.push(o);
  return out;
}

function isHeadless(svc: KObject): boolean {
  return svc.spec?.clusterIP === 'None';
}

/**
 * DNS names to suggest, in Service order (namespace, name): for every Service `name`,
 * `name.ns`, `name.ns.svc.cluster.local`; then every Pod with `spec.hostname` whose
 * `spec.subdomain` names a headless Service in its namespace (StatefulSet Pods), fully qualified.
 */
export function dnsNameSuggestions(objects: Iterable<KObject>): string[] {
  const all = [...objects];
  const services = byKind(all, 'Service').sort((a, b) => ns(a).localeCompare(ns(b)) || a.metadata.name.localeCompare(b.metadata.name));
  const out: string[] = [];
  for (const s of services) {
    const { name } = s.metadata;
    out.push(name, `${name}.${ns(s)}`, `${name}.${ns(s)}.svc.${CLUSTER_DOMAIN}`);
  }
  const headless = new Set(services.filter(isHeadless).map((s) => `${ns(s)}/${s.metadata.name}`));
  const pods = byKind(all, 'Pod')
    .filter((p) => p.spec?.hostname && p.spec?.subdomain && headless.has(`${ns(p)}/${p.spec.subdomain}`))
    .map((p) => `${p.spec.hostname}.${p.spec.subdomain}.${ns(p)}.svc.${CLUSTER_DOMAIN}`)
    .sort();
  return [...new Set([...out, ...pods])];
}

/** Namespaces to look up from: `default` first, then the others by name (always includes `default`). */
export function namespaceOptions(objects: Iterable<KObject>): string[] {
  const names = new Set(['default']);
  for (const o of objects) if (o.kind === 'Namespace') names.add(o.metadata.name);
  return ['default', ...[...names].filter((n) => n !== 'default').sort()];
}

/** A Pod that can send requests: bound, phase Running and not being deleted. */
function isRunning(p: KObject): boolean {
  return p.status?.phase === 'Running' && !p.metadata.deletionTimestamp;
}

/** Traffic sources: `external`, then every running Pod as `NS/NAME` (sorted). */
export function trafficSources(objects: Iterable<KObject>): string[] {
  const pods = byKind(objects, 'Pod')
    .filter(isRunning)
    .map((p) => `${ns(p)}/${p.metadata.name}`)
    .sort();
  return ['external', ...pods];
}

/** One URL offered by the traffic generator. */
export interface UrlSuggestion {
  url: string;
  /** who can reach it: `pod` (cluster DNS names, ClusterIPs) or `external` (NodePort, LoadBalancer, Ingress) */
  from: 'pod' | 'external';
  /** what it goes through, e.g. "Service default/web (ClusterIP)" */
  via: string;
}

/** `:port` unless it is HTTP's default 80. */
function portSuffix(port: number | undefined): string {
  return port === undefined || port === 80 ? '' : `:${port}`;
}

/** InternalIP of every Node, by node name. */
function nodeIPs(objects: KObject[]): { name: string; ip: string }[] {
  return byKind(objects, 'Node')
    .map((n) => ({
      name: n.metadata.name,
      ip: (n.status?.addresses ?? []).find((a: { type: string }) => a.type === 'InternalIP')?.address as string | undefined,
    }))
    .filter((n): n is { name: string; ip: string } => !!n.ip)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** NodePort URLs are offered on at most this many nodes per port (any node's kube-proxy routes them). */
export const NODEPORT_NODES = 3;

/**
 * URLs the traffic generator suggests, per Service (namespace, name order): from Pods
 * `http://NAME.NS` and `http://CLUSTER_IP` (`:PORT` when not 80; the first port only for the
 * DNS name), from outside `http://NODE_IP:NODE_PORT` for each NodePort (on the first
 * {@link NODEPORT_NODES} nodes by name) and `http://LB_IP` for each LoadBalancer ingress IP;
 * then for every Ingress rule `http://HOST/PATH` (the Ingress's address when the rule has no
 * host, and its default backend as `http://ADDRESS/`). ExternalName Services offer their DNS
 * name only. Duplicates are dropped, first wins.
 */
export function urlSuggestions(objects: Iterable<KObject>): UrlSuggestion[] {
  const all = [...objects];
  const nodes = nodeIPs(all);
  const out: UrlSuggestion[] = [];
  const services = byKind(all, 'Service').sort((a, b) => ns(a).localeCompare(ns(b)) || a.metadata.name.localeCompare(b.metadata.name));
  for (const s of services) {
    const type: string = s.spec?.type ?? 'ClusterIP';
    const via = `Service ${ns(s)}/${s.metadata.name} (${isHeadless(s) ? 'headless' : type})`;
    const ports: { port?: number; nodePort?: number }[] = s.spec?.ports ?? [];
    out.push({ url: `http://${s.metadata.name}.${ns(s)}${portSuffix(ports[0]?.port)}`, from: 'pod', via });
    if (type === 'ExternalName') continue;
    const ip: string | undefined = s.spec?.clusterIP;
    if (ip && ip !== 'None') for (const p of ports) out.push({ url: `http://${ip}${portSuffix(p.port)}`, from: 'pod', via });
    if (type === 'NodePort' || type === 'LoadBalancer')
      for (const p of ports)
        if (p.nodePort)
          for (const n of nodes.slice(0, NODEPORT_NODES))
            out.push({ url: `http://${n.ip}:${p.nodePort}`, from: 'external', via: `${via} via ${n.name}` });
    if (type === 'LoadBalancer')
      for (const ing of (s.status?.loadBalancer?.ingress ?? []) as { ip?: string; hostname?: string }[]) {
        const host = ing.ip ?? ing.hostname;
        if (host) for (const p of ports) out.push({ url: `http://${host}${portSuffix(p.port)}`, from: 'external', via });
      }
  }
  const ingresses = byKind(all, 'Ingress').sort((a, b) => ns(a).localeCompare(ns(b)) || a.metadata.name.localeCompare(b.metadata.name));
  for (const ing of ingresses) {
    const via = `Ingress ${ns(ing)}/${ing.metadata.name}`;
    const lb = ((ing.status?.loadBalancer?.ingress ?? []) as { ip?: string; hostname?: string }[])
      .map((i) => i.ip ?? i.hostname)
      .find(Boolean);
    for (const rule of (ing.spec?.rules ?? []) as { host?: string; http?: { paths?: { path?: string }[] } }[]) {
      const host = rule.host || lb;
      if (!host) continue;
      const paths = rule.http?.paths?.length ? rule.http.paths : [{ path: '/' }];
      for (const p of paths)
        out.push({ url: `http://${host}${p.path?.startsWith('/') ? p.path : `/${p.path ?? ''}`}`, from: 'external', via });
    }
    if (ing.spec?.defaultBackend && lb) out.push({ url: `http://${lb}/`, from: 'external', via: `${via} (default backend)` });
  }
  const seen = new Set<string>();
  return out.filter((u) => (seen.has(u.url) ? false : (seen.add(u.url), true)));
}

/** The suggestions ordered for a source: reachable ones first (a Pod reaches both kinds; outside, only `external`). */
export function urlSuggestionsFor(suggestions: UrlSuggestion[], source: string): UrlSuggestion[] {
  if (source !== 'external') return suggestions;
  return [...suggestions.filter((s) => s.from === 'external'), ...suggestions.filter((s) => s.from === 'pod')];
}
