/**
 * syncProxyRules in miniature: from the service-port map and the endpoints map to the
 * `*filter` and `*nat` tables — pkg/proxy/iptables/proxier.go (syncProxyRules,
 * writeServiceToEndpointRules), pkg/proxy/topology.go (CategorizeEndpoints),
 * pkg/proxy/serviceport.go and endpoint.go (what a service port / endpoint knows).
 *
 * Modelled configuration (kubeadm defaults): IPv4 single stack, masquerade bit 14 (0x4000),
 * detect-local-mode ClusterCIDR with the cluster CIDR 10.244.0.0/16, localhostNodePorts on,
 * nodePortAddresses unset (NodePorts on every local address), --random-fully supported,
 * no nfacct counters, not in large-cluster mode (comments always written).
 */
import {
  builtinJumps,
  computeProbability,
  KUBE_EXTERNAL_SERVICES,
  KUBE_FIREWALL,
  KUBE_FORWARD,
  KUBE_MARK_MASQ,
  KUBE_NODEPORTS,
  KUBE_POSTROUTING,
  KUBE_PROXY_CANARY,
  KUBE_PROXY_FIREWALL,
  KUBE_SERVICES,
  MASQUERADE_MARK,
  serviceExternalChainName,
  serviceFirewallChainName,
  servicePortEndpointChainName,
  servicePortPolicyClusterChain,
  servicePortPolicyLocalChainName,
  type Match,
  type Rule,
  type Table,
} from './iptables';

/** pkg/proxy/serviceport.go BaseServicePortInfo, for one port of one Service. */
export interface ServicePortInfo {
  namespace: string;
  name: string;
  /** spec.ports[].name ("" for a single unnamed port) */
  portName: string;
  /** ServicePortName.String(): "ns/name" or "ns/name:port" */
  nameString: string;
  protocol: 'TCP' | 'UDP' | 'SCTP';
  clusterIP: string;
  port: number;
  nodePort: number;
  externalIPs: string[];
  loadBalancerVIPs: string[];
  loadBalancerSourceRanges: string[];
  sessionAffinityClientIP: boolean;
  stickyMaxAgeSeconds: number;
  externalPolicyLocal: boolean;
  internalPolicyLocal: boolean;
  healthCheckNodePort: number;
}

/** pkg/proxy/endpoint.go BaseEndpointInfo, plus the Pod it came from (for the UI). */
export interface EndpointInfo {
  ip: string;
  port: number;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  /** endpoint.nodeName equals this node */
  isLocal: boolean;
  nodeName?: string;
  pod?: { namespace: string; name: string };
}

/** `ip:port` (net.JoinHostPort), the endpoint's String(). */
export function endpointString(ep: EndpointInfo): string {
  return `${ep.ip}:${ep.port}`;
}

/** servicePortInfo.ExternallyAccessible. */
export function externallyAccessible(s: ServicePortInfo): boolean {
  return s.nodePort !== 0 || s.loadBalancerVIPs.length > 0 || s.externalIPs.length > 0;
}
function usesClusterEndpoints(s: ServicePortInfo): boolean {
  return !s.internalPolicyLocal || externallyAccessible(s);
}
function usesLocalEndpoints(s: ServicePortInfo): boolean {
  return s.internalPolicyLocal || (s.externalPolicyLocal && externallyAccessible(s));
}

/**
 * topology.go CategorizeEndpoints (without topology hints): ready endpoints, or when none is
 * ready anywhere the serving-and-terminating ones (KEP-1669); local ones for Local policies.
 */
export function categorizeEndpoints(endpoints: EndpointInfo[], svc: ServicePortInfo) {
  let cluster: EndpointInfo[] = [];
  let local: EndpointInfo[] = [];
  let hasAny = false;
  if (usesClusterEndpoints(svc)) {
    cluster = endpoints.filter((e) => e.ready);
    if (cluster.length === 0) cluster = endpoints.filter((e) => e.serving && e.terminating);
    if (cluster.length > 0) hasAny = true;
  }
  if (!usesLocalEndpoints(svc)) return { cluster, local, all: cluster, hasAny };
  let localReady = false;
  let localServingTerminating = false;
  for (const e of endpoints) {
    if (e.ready) {
      hasAny = true;
      if (e.isLocal) localReady = true;
    } else if (e.serving && e.terminating) {
      hasAny = true;
      if (e.isLocal) localServingTerminating = true;
    }
  }
  if (localReady) local = endpoints.filter((e) => e.isLocal && e.ready);
  else if (localServingTerminating) local = endpoints.filter((e) => e.isLocal && e.serving && e.terminating);
  if (!usesClusterEndpoints(svc)) return { cluster, local, all: local, hasAny };
  const m = new Map<string, EndpointInfo>();
  for (const e of [...cluster, ...local]) m.set(endpointString(e), e);
  const all = [...m.values()].sort((a, b) => (endpointString(a) < endpointString(b) ? -1 : 1));
  return { cluster, local, all, hasAny };
}

/** What one sync produced, per service port (the UI's structured view). */
export interface ServicePortRules {
  nameString: string;
  protocol: string;
  clusterIP: string;
  port: number;
  nodePort: number;
  /** KUBE-SVC-… chain (also when unused) */
  svcChain: string;
  extChain: string;
  /** endpoints the internal-traffic chain (KUBE-SVC, or KUBE-SVL for internalTrafficPolicy Local) balances over, in rule order */
  endpoints: { endpoint: string; sepChain: string; probability: string | null; pod?: { namespace: string; name: string } }[];
  /** "REJECT" when there are no usable endpoints, "DROP" for Local policy without local endpoints */
  filtered: 'REJECT' | 'DROP' | null;
}

/** Input of {@link syncProxyRules}. */
export interface ProxierState {
  services: ServicePortInfo[];
  /** endpoints by ServicePortInfo.nameString + "/" + protocol */
  endpoints: Map<string, EndpointInfo[]>;
  /** the cluster CIDR of detect-local-mode ClusterCIDR */
  clusterCIDR: string;
}

/** The tables plus the structured per-service view. */
export interface Ruleset {
  filter: Table;
  nat: Table;
  services: ServicePortRules[];
  /** SEP chain → endpoint (DNAT destination and Pod) */
  sep: Map<string, { ip: string; port: number; pod?: { namespace: string; name: string }; service: string }>;
}

/** endpointsMap key of a service port. */
export function servicePortKey(s: { nameString: string; protocol: string }): string {
  return `${s.nameString}/${s.protocol}`;
}

const comment = (text: string): Match => ({ kind: 'comment', text });

/** proxier.go syncProxyRules: the full rule set for the current state. */
export function syncProxyRules(state: ProxierState): Ruleset {
  const filter: Table = {
    name: 'filter',
    builtins: ['INPUT', 'FORWARD', 'OUTPUT'],
    chains: [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_FORWARD, KUBE_NODEPORTS, KUBE_PROXY_FIREWALL, KUBE_PROXY_CANARY, KUBE_FIREWALL],
    rules: builtinJumps('filter'),
  };
  const nat: Table = {
    name: 'nat',
    builtins: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
    chains: [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ, KUBE_PROXY_CANARY],
    rules: builtinJumps('nat'),
  };
  const fr = filter.rules;
  const nr = nat.rules;
  const mark = `${MASQUERADE_MARK}/${MASQUERADE_MARK}`;
  nr.push({ chain: KUBE_POSTROUTING, matches: [{ kind: 'mark', neg: true, mark }], target: 'RETURN' });
  nr.push({ chain: KUBE_POSTROUTING, matches: [], target: 'MARK', targetArgs: `--set-xmark ${MASQUERADE_MARK}/0x0` });
  nr.push({
    chain: KUBE_POSTROUTING,
    matches: [comment('kubernetes service traffic requiring SNAT')],
    target: 'MASQUERADE',
    targetArgs: '--random-fully',
  });
  nr.push({ chain: KUBE_MARK_MASQ, matches: [], target: 'MARK', targetArgs: `--set-xmark ${mark}` });
  fr.push({
    chain: KUBE_FIREWALL,
    src: '127.0.0.0/8',
    srcNeg: true,
    dst: '127.0.0.0/8',
    matches: [comment('block incoming localnet connections'), { kind: 'conntrack', neg: true, states: 'RELATED,ESTABLISHED,DNAT' }],
    target: 'DROP',
  });

  const out: ServicePortRules[] = [];
  const sep: Ruleset['sep'] = new Map();
  const services = [...state.services].sort((a, b) =>
    a.nameString === b.nameString ? (a.protocol < b.protocol ? -1 : 1) : a.nameString < b.nameString ? -1 : 1,
  );
  for (const svc of services) {
    const protocol = svc.protocol.toLowerCase();
    const name = svc.nameString;
    const all = state.endpoints.get(servicePortKey(svc)) ?? [];
    const { cluster, local, all: reachable, hasAny } = categorizeEndpoints(all, svc);
    const clusterPolicyChain = servicePortPolicyClusterChain(name, protocol);
    const localPolicyChain = servicePortPolicyLocalChainName(name, protocol);
    const externalTrafficChain = serviceExternalChainName(name, protocol);
    const fwChain = serviceFirewallChainName(name, protocol);
    const usesClusterPolicyChain = cluster.length > 0 && usesClusterEndpoints(svc);
    const usesLocalPolicyChain = local.length > 0 && usesLocalEndpoints(svc);
    let internalTrafficChain = clusterPolicyChain;
    let hasInternal = hasAny;
    if (svc.internalPolicyLocal) {
      internalTrafficChain = localPolicyChain;
      if (local.length === 0) hasInternal = false;
    }
    let externalPolicyChain = clusterPolicyChain;
    let hasExternal = hasAny;
    if (svc.externalPolicyLocal) {
      externalPolicyChain = localPolicyChain;
      if (local.length === 0) hasExternal = false;
    }
    const usesExternalTrafficChain = hasAny && externallyAccessible(svc);
    const usesFWChain = hasAny && svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
    const lbChain = usesFWChain ? fwChain : externalTrafficChain;
    let intTarget = '';
    let intComment = '';
    let extTarget = '';
    let extComment = '';
    if (!hasAny) {
      intTarget = extTarget = 'REJECT';
      intComment = extComment = `${name} has no endpoints`;
    } else {
      if (!hasInternal) {
        intTarget = 'DROP';
        intComment = `${name} has no local endpoints`;
      }
      if (!hasExternal) {
        extTarget = 'DROP';
        extComment = `${name} has no local endpoints`;
      }
    }
    const vip = (chain: string, dst: string, text: string, target: string, port = svc.port): Rule => ({
      chain,
      dst,
      proto: protocol,
      matches: [comment(text), { kind: 'proto', proto: protocol, dport: port }],
      target,
      ...(target === 'REJECT' ? { targetArgs: '--reject-with icmp-port-unreachable' } : {}),
    });
    // ClusterIP
    if (hasInternal) nr.push(vip(KUBE_SERVICES, svc.clusterIP, `${name} cluster IP`, internalTrafficChain));
    else fr.push(vip(KUBE_SERVICES, svc.clusterIP, intComment, intTarget));
    // external IPs
    for (const ip of svc.externalIPs) {
      if (hasAny) nr.push(vip(KUBE_SERVICES, ip, `${name} external IP`, externalTrafficChain));
      if (!hasExternal) fr.push(vip(KUBE_EXTERNAL_SERVICES, ip, extComment, extTarget));
    }
    // load-balancer ingress
    for (const ip of svc.loadBalancerVIPs) {
      if (hasAny) nr.push(vip(KUBE_SERVICES, ip, `${name} loadbalancer IP`, lbChain));
      if (usesFWChain) fr.push(vip(KUBE_PROXY_FIREWALL, ip, `${name} traffic not accepted by ${fwChain}`, 'DROP'));
    }
    if (!hasExternal) for (const ip of svc.loadBalancerVIPs) fr.push(vip(KUBE_EXTERNAL_SERVICES, ip, extComment, extTarget));
    // NodePort
    if (svc.nodePort !== 0) {
      if (hasAny)
        nr.push({
          chain: KUBE_NODEPORTS,
          proto: protocol,
          matches: [comment(name), { kind: 'proto', proto: protocol, dport: svc.nodePort }],
          target: externalTrafficChain,
        });
      if (!hasExternal) {
        fr.push({
          chain: KUBE_EXTERNAL_SERVICES,
          proto: protocol,
          matches: [
            comment(extComment),
            { kind: 'addrtype', dir: 'dst', type: 'LOCAL' },
            { kind: 'proto', proto: protocol, dport: svc.nodePort },
          ],
          target: extTarget,
          ...(extTarget === 'REJECT' ? { targetArgs: '--reject-with icmp-port-unreachable' } : {}),
        });
      }
    }
    if (svc.healthCheckNodePort !== 0) {
      fr.push({
        chain: KUBE_NODEPORTS,
        proto: 'tcp',
        matches: [comment(`${name} health check node port`), { kind: 'proto', proto: 'tcp', dport: svc.healthCheckNodePort }],
        target: 'ACCEPT',
      });
    }
    // internal traffic: masquerade off-cluster sources (detect-local ClusterCIDR)
    if (hasInternal)
      nr.push({ ...vip(internalTrafficChain, svc.clusterIP, `${name} cluster IP`, KUBE_MARK_MASQ), src: state.clusterCIDR, srcNeg: true });
    if (usesExternalTrafficChain) {
      nat.chains.push(externalTrafficChain);
      if (!svc.externalPolicyLocal) {
        nr.push({
          chain: externalTrafficChain,
          matches: [comment(`masquerade traffic for ${name} external destinations`)],
          target: KUBE_MARK_MASQ,
        });
      } else {
        nr.push({
          chain: externalTrafficChain,
          src: state.clusterCIDR,
          matches: [comment(`pod traffic for ${name} external destinations`)],
          target: clusterPolicyChain,
        });
        nr.push({
          chain: externalTrafficChain,
          matches: [comment(`masquerade LOCAL traffic for ${name} external destinations`), { kind: 'addrtype', dir: 'src', type: 'LOCAL' }],
          target: KUBE_MARK_MASQ,
        });
        nr.push({
          chain: externalTrafficChain,
          matches: [comment(`route LOCAL traffic for ${name} external destinations`), { kind: 'addrtype', dir: 'src', type: 'LOCAL' }],
          target: clusterPolicyChain,
        });
      }
      if (hasExternal) nr.push({ chain: externalTrafficChain, matches: [], target: externalPolicyChain });
    }
    if (usesFWChain) {
      nat.chains.push(fwChain);
      for (const range of svc.loadBalancerSourceRanges)
        nr.push({ chain: fwChain, src: range, matches: [comment(`${name} loadbalancer IP`)], target: externalTrafficChain });
      nr.push({ chain: fwChain, matches: [comment(`other traffic to ${name} will be dropped by KUBE-PROXY-FIREWALL`)], target: '' });
    }
    const lbCluster: ServicePortRules['endpoints'] = [];
    const lbLocal: ServicePortRules['endpoints'] = [];
    if (usesClusterPolicyChain) {
      nat.chains.push(clusterPolicyChain);
      writeServiceToEndpointRules(nr, svc, clusterPolicyChain, cluster, protocol, lbCluster);
    }
    if (usesLocalPolicyChain) {
      nat.chains.push(localPolicyChain);
      writeServiceToEndpointRules(nr, svc, localPolicyChain, local, protocol, lbLocal);
    }
    for (const ep of reachable) {
      const chain = servicePortEndpointChainName(name, protocol, endpointString(ep));
      nat.chains.push(chain);
      nr.push({ chain, src: ep.ip, matches: [comment(name)], target: KUBE_MARK_MASQ });
      const m: Match[] = [comment(name)];
      if (svc.sessionAffinityClientIP) m.push({ kind: 'recent', name: chain, mode: 'set' });
      m.push({ kind: 'proto', proto: protocol });
      nr.push({ chain, proto: protocol, matches: m, target: 'DNAT', targetArgs: `--to-destination ${endpointString(ep)}` });
      sep.set(chain, { ip: ep.ip, port: ep.port, pod: ep.pod, service: name });
    }
    out.push({
      nameString: name,
      protocol,
      clusterIP: svc.clusterIP,
      port: svc.port,
      nodePort: svc.nodePort,
      svcChain: clusterPolicyChain,
      extChain: externalTrafficChain,
      endpoints: svc.internalPolicyLocal ? lbLocal : lbCluster,
      filtered: !hasAny ? 'REJECT' : !hasInternal || !hasExternal ? 'DROP' : null,
    });
  }
  // the tail call to KUBE-NODEPORTS: NodePorts on every local address (localhostNodePorts on)
  nr.push({
    chain: KUBE_SERVICES,
    matches: [
      comment('kubernetes service nodeports; NOTE: this must be the last rule in this chain'),
      { kind: 'addrtype', dir: 'dst', type: 'LOCAL' },
    ],
    target: KUBE_NODEPORTS,
  });
  fr.push({ chain: KUBE_FORWARD, matches: [{ kind: 'conntrack', neg: false, states: 'INVALID' }], target: 'DROP' });
  fr.push({ chain: KUBE_FORWARD, matches: [comment('kubernetes forwarding rules'), { kind: 'mark', neg: false, mark }], target: 'ACCEPT' });
  fr.push({
    chain: KUBE_FORWARD,
    matches: [comment('kubernetes forwarding conntrack rule'), { kind: 'conntrack', neg: false, states: 'RELATED,ESTABLISHED' }],
    target: 'ACCEPT',
  });
  return { filter, nat, services: out, sep };
}

/** proxier.go writeServiceToEndpointRules: affinity checks, then 1/n, 1/(n-1)… probabilities; the last rule always matches. */
function writeServiceToEndpointRules(
  nr: Rule[],
  svc: ServicePortInfo,
  svcChain: string,
  endpoints: EndpointInfo[],
  protocol: string,
  record: ServicePortRules['endpoints'],
): void {
  const name = svc.nameString;
  if (svc.sessionAffinityClientIP) {
    for (const ep of endpoints) {
      const sepChain = servicePortEndpointChainName(name, protocol, endpointString(ep));
      nr.push({
        chain: svcChain,
        matches: [
          comment(`${name} -> ${endpointString(ep)}`),
          { kind: 'recent', name: sepChain, mode: 'rcheck', seconds: svc.stickyMaxAgeSeconds },
        ],
        target: sepChain,
      });
    }
  }
  const n = endpoints.length;
  endpoints.forEach((ep, i) => {
    const sepChain = servicePortEndpointChainName(name, protocol, endpointString(ep));
    const m: Match[] = [comment(`${name} -> ${endpointString(ep)}`)];
    const probability = i < n - 1 ? computeProbability(n - i) : null;
    if (probability) m.push({ kind: 'statistic', probability });
    nr.push({ chain: svcChain, matches: m, target: sepChain });
    record.push({ endpoint: endpointString(ep), sepChain, probability, pod: ep.pod });
  });
}
