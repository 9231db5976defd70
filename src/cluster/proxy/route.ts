/**
 * Where a connection goes: walks one node's kube-proxy rules the way netfilter would for the
 * first packet of a new connection — nat PREROUTING (from a Pod or from outside) or nat OUTPUT
 * (from the node itself) into KUBE-SERVICES, KUBE-NODEPORTS, KUBE-EXT-…, KUBE-SVC-…
 * (`-m statistic --mode random` drawn from the seeded RNG exactly as xt_statistic does:
 * `(random & 0x7fffffff) < threshold`), KUBE-SEP-… and its DNAT; when nothing DNATs, the
 * filter table (INPUT / FORWARD / OUTPUT → KUBE-SERVICES, KUBE-EXTERNAL-SERVICES) may REJECT
 * ("has no endpoints") or DROP. The result names the chosen endpoint and Pod, or why the
 * connection fails, plus every rule that matched, for the UI to animate.
 *
 * Follows the rules pkg/proxy/iptables/proxier.go writes; netfilter semantics as in
 * net/netfilter (xt_statistic.c, xt_addrtype.c, xt_mark.c).
 */
import type { Rng } from '../sim/rng';
import { renderRule, statisticThreshold, type Rule, type Table } from './iptables';
import type { Ruleset } from './proxier';
import type { KubeProxy } from './kube-proxy';

/** The connection to route. */
export interface Destination {
  /** ClusterIP, external IP, load-balancer IP, or a node IP (for a NodePort) */
  ip: string;
  port: number;
  /** default TCP */
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

/** Who opens the connection. */
export interface RouteSource {
  /** "pod" (default; traffic arrives through PREROUTING), "node" (host process: OUTPUT), "external" (PREROUTING, off-cluster source) */
  kind?: 'pod' | 'node' | 'external';
  /** source IP (default: a Pod IP 10.244.0.2, the node IP, or 192.0.2.10 for external) */
  ip?: string;
}

/** The outcome of {@link route}. */
export type RouteResult =
  | {
      verdict: 'DNAT';
      /** chosen backend */
      endpoint: { ip: string; port: number };
      pod?: { namespace: string; name: string };
      /** "default/peekcart" or "default/peekcart:http" */
      service: string;
      /** true when KUBE-MARK-MASQ marked it (source NAT to the node on the way out) */
      masquerade: boolean;
      /** chains entered, in order */
      chains: string[];
      /** matched rules as iptables-save prints them */
      rules: string[];
    }
  | { verdict: 'REJECT' | 'DROP'; reason: string; chains: string[]; rules: string[] }
  | { verdict: 'NO_RULE'; reason: string; chains: string[]; rules: string[] };

function ipToInt(ip: string): number {
  const p = ip.split('.').map(Number);
  return ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0;
}

/** True when `ip` is inside `cidr` ("10.244.0.0/16", or a bare address = /32). */
export function inCIDR(ip: string, cidr: string): boolean {
  const [base, bits = '32'] = cidr.split('/');
  const n = Number(bits);
  if (n === 0) return true;
  const mask = n === 32 ? 0xffffffff : ~((1 << (32 - n)) - 1) >>> 0;
  return (ipToInt(ip) & mask) >>> 0 === (ipToInt(base) & mask) >>> 0;
}

interface Packet {
  src: string;
  dst: string;
  proto: string;
  dport: number;
  mark: number;
  local: (ip: string) => boolean;
}

type Verdict = { kind: 'continue' } | { kind: 'terminal'; target: string; rule: Rule };

class Walker {
  chains: string[] = [];
  rules: string[] = [];
  masquerade = false;
  constructor(private readonly rng: Rng) {}

  walk(table: Table, chain: string, pkt: Packet, depth = 0): Verdict {
    if (depth > 32) throw new Error(`iptables: chain loop at ${chain}`);
    this.chains.push(chain);
    for (const r of table.rules) {
      if (r.chain !== chain || !this.matches(r, pkt)) continue;
      this.rules.push(renderRule(r));
      const t = r.target;
      if (t === '') continue;
      if (t === 'RETURN') return { kind: 'continue' };
      if (t === 'MARK') {
        pkt.mark |= 0x4000;
        this.masquerade = true;
        continue;
      }
      if (t === 'DNAT' || t === 'ACCEPT' || t === 'DROP' || t === 'REJECT') return { kind: 'terminal', target: t, rule: r };
      if (table.chains.includes(t)) {
        const v = this.walk(table, t, pkt, depth + 1);
        if (v.kind === 'terminal') return v;
      }
    }
    return { kind: 'continue' };
  }

  private matches(r: Rule, p: Packet): boolean {
    if (r.src && inCIDR(p.src, r.src) === !!r.srcNeg) return false;
    if (r.dst && inCIDR(p.dst, r.dst) === !!r.dstNeg) return false;
    if (r.proto && r.proto !== p.proto) return false;
    for (const m of r.matches) {
      switch (m.kind) {
        case 'comment':
          break;
        case 'proto':
          if (m.proto !== p.proto || (m.dport !== undefined && m.dport !== p.dport)) return false;
          break;
        case 'addrtype':
          if (!p.local(m.dir === 'dst' ? p.dst : p.src)) return false;
          break;
        case 'statistic':
          if (!((this.rng.uint32() & 0x7fffffff) < statisticThreshold(m.probability))) return false;
          break;
        case 'mark': {
          const hit = (p.mark & 0x4000) !== 0;
          if (hit === m.neg) return false;
          break;
        }
        case 'conntrack': {
          // the first packet of a new connection
          const hit = m.states.split(',').includes('NEW');
          if (hit === m.neg) return false;
          break;
        }
        case 'recent':
          // client-IP affinity memory is not modelled: a check never hits, a set is a no-op
          if (m.mode === 'rcheck') return false;
          break;
      }
    }
    return true;
  }
}

/**
 * Routes a new connection through a node's rules.
 * @param proxy the node's kube-proxy (or a bare rule set plus its node IP)
 * @param rng the seeded RNG (the statistic match draws from it)
 */
export function route(
  proxy: KubeProxy | { ruleset: Ruleset; nodeIP: string | null },
  dest: Destination,
  rng: Rng,
  source: RouteSource = {},
): RouteResult {
  const rs = 'ruleset' in proxy && typeof proxy.ruleset !== 'function' ? proxy.ruleset : (proxy as KubeProxy).ruleset();
  if (!rs)
    return { verdict: 'NO_RULE', reason: `${(proxy as KubeProxy).nodeName ?? 'node'} is powered off: no rules`, chains: [], rules: [] };
  const nodeIP = proxy.nodeIP;
  const kind = source.kind ?? 'pod';
  const src = source.ip ?? (kind === 'node' ? (nodeIP ?? '127.0.0.1') : kind === 'external' ? '192.0.2.10' : '10.244.0.2');
  const local = (ip: string) => ip === nodeIP || inCIDR(ip, '127.0.0.0/8');
  const pkt: Packet = { src, dst: dest.ip, proto: (dest.protocol ?? 'TCP').toLowerCase(), dport: dest.port, mark: 0, local };
  const w = new Walker(rng);
  const v = w.walk(rs.nat, kind === 'node' ? 'OUTPUT' : 'PREROUTING', pkt);
  if (v.kind === 'terminal' && v.target === 'DNAT') {
    const sep = rs.sep.get(v.rule.chain);
    const [ip, port] = (v.rule.targetArgs ?? '').replace('--to-destination ', '').split(':');
    return {
      verdict: 'DNAT',
      endpoint: { ip, port: Number(port) },
      pod: sep?.pod,
      service: sep?.service ?? '',
      masquerade: w.masquerade,
      chains: w.chains,
      rules: w.rules,
    };
  }
  const fchain = kind === 'node' ? 'OUTPUT' : local(dest.ip) ? 'INPUT' : 'FORWARD';
  const f = w.walk(rs.filter, fchain, pkt);
  if (f.kind === 'terminal' && (f.target === 'REJECT' || f.target === 'DROP')) {
    const c = f.rule.matches.find((m) => m.kind === 'comment');
    const why = c && c.kind === 'comment' ? c.text : f.rule.chain;
    const reason = f.target === 'REJECT' ? `connection refused (icmp-port-unreachable): ${why}` : `dropped: ${why}`;
    return { verdict: f.target, reason, chains: w.chains, rules: w.rules };
  }
  return {
    verdict: 'NO_RULE',
    reason: `no kube-proxy rule matches ${dest.ip}:${dest.port}/${dest.protocol ?? 'TCP'}: the packet is routed as addressed`,
    chains: w.chains,
    rules: w.rules,
  };
}
