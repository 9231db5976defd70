/**
 * The iptables rules kube-proxy writes, as data: chains, rules with their matches, and the
 * `iptables-save` text a user would see on a node. Chain names and formats follow
 * pkg/proxy/iptables/proxier.go (iptables mode, the default); rule text is what iptables-save
 * prints back after iptables-restore normalized it (addresses first as `-d 10.96.0.10/32`,
 * `-m tcp` after the comment, `--or-mark` shown as `--set-xmark 0x4000/0x4000`, statistic
 * probabilities as the kernel stores them: `%.11f` of a 31-bit fraction).
 */
import { chainHash } from '../util/hash';

/** A match module of a rule, in the order kube-proxy wrote it. */
export type Match =
  | { kind: 'comment'; text: string }
  | { kind: 'proto'; proto: string; dport?: number }
  | { kind: 'addrtype'; dir: 'src' | 'dst'; type: 'LOCAL' }
  | { kind: 'statistic'; probability: string }
  | { kind: 'mark'; neg: boolean; mark: string }
  | { kind: 'conntrack'; neg: boolean; states: string }
  | { kind: 'recent'; name: string; mode: 'set' | 'rcheck'; seconds?: number };

/** One `-A CHAIN …` rule. */
export interface Rule {
  chain: string;
  /** `-s` CIDR (`!` when srcNeg) */
  src?: string;
  srcNeg?: boolean;
  /** `-d` CIDR (`!` when dstNeg) */
  dst?: string;
  dstNeg?: boolean;
  /** `-p` protocol, lower case */
  proto?: string;
  matches: Match[];
  /** `-j` target: a chain, or ACCEPT, DROP, REJECT, RETURN, DNAT, MARK, MASQUERADE; "" for none */
  target: string;
  /** target options as printed, e.g. `--to-destination 10.244.1.5:8080` */
  targetArgs?: string;
}

/** A table: chain declarations (built-in with policy, or kube-proxy's) and rules. */
export interface Table {
  name: 'filter' | 'nat';
  builtins: string[];
  chains: string[];
  rules: Rule[];
}

// ---- chain names (proxier.go) --------------------------------------------------------------
export const KUBE_SERVICES = 'KUBE-SERVICES';
export const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
export const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
export const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
export const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
export const KUBE_FORWARD = 'KUBE-FORWARD';
export const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
export const KUBE_PROXY_CANARY = 'KUBE-PROXY-CANARY';
export const KUBE_FIREWALL = 'KUBE-FIREWALL';
/** --iptables-masquerade-bit 14 → mark 0x4000 */
export const MASQUERADE_MARK = '0x4000';

/** proxier.go portProtoHash: base32(sha256(servicePortName + protocol))[:16]. */
export function portProtoHash(servicePortName: string, protocol: string): string {
  return chainHash(servicePortName + protocol);
}
/** servicePortPolicyClusterChain: `KUBE-SVC-<hash>`; protocol lower case ("tcp"). */
export function servicePortPolicyClusterChain(servicePortName: string, protocol: string): string {
  return 'KUBE-SVC-' + portProtoHash(servicePortName, protocol);
}
/** servicePortPolicyLocalChainName: `KUBE-SVL-<hash>`. */
export function servicePortPolicyLocalChainName(servicePortName: string, protocol: string): string {
  return 'KUBE-SVL-' + portProtoHash(servicePortName, protocol);
}
/** serviceFirewallChainName: `KUBE-FW-<hash>`. */
export function serviceFirewallChainName(servicePortName: string, protocol: string): string {
  return 'KUBE-FW-' + portProtoHash(servicePortName, protocol);
}
/** serviceExternalChainName: `KUBE-EXT-<hash>`. */
export function serviceExternalChainName(servicePortName: string, protocol: string): string {
  return 'KUBE-EXT-' + portProtoHash(servicePortName, protocol);
}
/** servicePortEndpointChainName: `KUBE-SEP-` + base32(sha256(name + protocol + "ip:port"))[:16]. */
export function servicePortEndpointChainName(servicePortName: string, protocol: string, endpoint: string): string {
  return 'KUBE-SEP-' + chainHash(servicePortName + protocol + endpoint);
}

/**
 * The probability kube-proxy writes for the i-th of n remaining endpoints: proxier.go
 * computeProbability, `fmt.Sprintf("%0.10f", 1.0/float64(n))`.
 */
export function computeProbability(n: number): string {
  return (1 / n).toFixed(10);
}

/**
 * How iptables-save prints a statistic probability: libxt_statistic stores
 * `lround(0x80000000 * p)` and prints `%.11f` of it divided by 0x80000000
 * ("0.3333333333" → "0.33333333349").
 */
export function savedProbability(p: string): string {
  return (statisticThreshold(p) / 0x80000000).toFixed(11);
}

/** The kernel's 31-bit threshold: a packet matches when `(random & 0x7fffffff) < threshold`. */
export function statisticThreshold(p: string): number {
  return Math.round(0x80000000 * Number(p));
}

function cidr(a: string): string {
  return a.includes('/') ? a : `${a}/32`;
}

function quote(s: string): string {
  return `"${s}"`;
}

/** One rule as iptables-save prints it. */
export function renderRule(r: Rule): string {
  const p: string[] = ['-A', r.chain];
  if (r.src) p.push(...(r.srcNeg ? ['!'] : []), '-s', cidr(r.src));
  if (r.dst) p.push(...(r.dstNeg ? ['!'] : []), '-d', cidr(r.dst));
  if (r.proto) p.push('-p', r.proto);
  for (const m of r.matches) {
    switch (m.kind) {
      case 'comment':
        p.push('-m', 'comment', '--comment', quote(m.text));
        break;
      case 'proto':
        p.push('-m', m.proto, ...(m.dport !== undefined ? ['--dport', String(m.dport)] : []));
        break;
      case 'addrtype':
        p.push('-m', 'addrtype', m.dir === 'dst' ? '--dst-type' : '--src-type', m.type);
        break;
      case 'statistic':
        p.push('-m', 'statistic', '--mode', 'random', '--probability', savedProbability(m.probability));
        break;
      case 'mark':
        p.push('-m', 'mark', ...(m.neg ? ['!'] : []), '--mark', m.mark);
        break;
      case 'conntrack':
        p.push('-m', 'conntrack', ...(m.neg ? ['!'] : []), '--ctstate', m.states);
        break;
      case 'recent':
        if (m.mode === 'set') p.push('-m', 'recent', '--set', '--name', m.name, '--mask', '255.255.255.255', '--rsource');
        else
          p.push(
            '-m',
            'recent',
            '--rcheck',
            '--seconds',
            String(m.seconds),
            '--reap',
            '--name',
            m.name,
            '--mask',
            '255.255.255.255',
            '--rsource',
          );
        break;
    }
  }
  // a rule without a target only counts packets (the last rule of a KUBE-FW chain)
  if (r.target) p.push('-j', r.target);
  if (r.targetArgs) p.push(r.targetArgs);
  return p.join(' ');
}

const POLICIES: Record<string, string> = {
  PREROUTING: 'ACCEPT',
  INPUT: 'ACCEPT',
  FORWARD: 'ACCEPT',
  OUTPUT: 'ACCEPT',
  POSTROUTING: 'ACCEPT',
};

/**
 * A table as iptables-save prints it: `*filter`, built-in chains with policy and counters,
 * then user chains sorted by name, then rules grouped chain by chain in that order, `COMMIT`.
 */
export function renderTable(t: Table): string {
  const lines = [`*${t.name}`];
  for (const c of t.builtins) lines.push(`:${c} ${POLICIES[c] ?? 'ACCEPT'} [0:0]`);
  const user = [...new Set(t.chains)].sort();
  for (const c of user) lines.push(`:${c} - [0:0]`);
  const byChain = new Map<string, Rule[]>();
  for (const r of t.rules) {
    let l = byChain.get(r.chain);
    if (!l) byChain.set(r.chain, (l = []));
    l.push(r);
  }
  for (const c of [...t.builtins, ...user]) for (const r of byChain.get(c) ?? []) lines.push(renderRule(r));
  lines.push('COMMIT');
  return lines.join('\n') + '\n';
}

/** The jumps into kube-proxy's chains from the built-in chains (proxier.go iptablesJumpChains, as a node shows them). */
export function builtinJumps(table: 'filter' | 'nat'): Rule[] {
  const c = (text: string): Match => ({ kind: 'comment', text });
  const ctNew: Match = { kind: 'conntrack', neg: false, states: 'NEW' };
  if (table === 'nat') {
    return [
      { chain: 'PREROUTING', matches: [c('kubernetes service portals')], target: KUBE_SERVICES },
      { chain: 'OUTPUT', matches: [c('kubernetes service portals')], target: KUBE_SERVICES },
      { chain: 'POSTROUTING', matches: [c('kubernetes postrouting rules')], target: KUBE_POSTROUTING },
    ];
  }
  return [
    { chain: 'INPUT', matches: [ctNew, c('kubernetes load balancer firewall')], target: KUBE_PROXY_FIREWALL },
    { chain: 'INPUT', matches: [c('kubernetes health check service ports')], target: KUBE_NODEPORTS },
    { chain: 'INPUT', matches: [ctNew, c('kubernetes externally-visible service portals')], target: KUBE_EXTERNAL_SERVICES },
    { chain: 'INPUT', matches: [], target: KUBE_FIREWALL },
    { chain: 'FORWARD', matches: [ctNew, c('kubernetes load balancer firewall')], target: KUBE_PROXY_FIREWALL },
    { chain: 'FORWARD', matches: [c('kubernetes forwarding rules')], target: KUBE_FORWARD },
    { chain: 'FORWARD', matches: [ctNew, c('kubernetes service portals')], target: KUBE_SERVICES },
    { chain: 'FORWARD', matches: [ctNew, c('kubernetes externally-visible service portals')], target: KUBE_EXTERNAL_SERVICES },
    { chain: 'OUTPUT', matches: [ctNew, c('kubernetes load balancer firewall')], target: KUBE_PROXY_FIREWALL },
    { chain: 'OUTPUT', matches: [ctNew, c('kubernetes service portals')], target: KUBE_SERVICES },
    { chain: 'OUTPUT', matches: [], target: KUBE_FIREWALL },
  ];
}
