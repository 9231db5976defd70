/**
 * NetworkPolicyDescriber (describeNetworkPolicy, describeNetworkPolicySpec,
 * printNetworkPolicySpecIngressFrom / EgressTo), ResourceQuotaDescriber (describeQuota) and
 * LimitRangeDescriber (describeLimitRange, describeLimitRangeSpec) of
 * k8s.io/kubectl/pkg/describe/describe.go; the namespace describer's quota block
 * (DescribeResourceQuotas) shares the scope help texts.
 */
import type { KObject } from '../../api/types';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { formatLabelSelector } from '../../api/labels';
import { PrefixWriter, goQuantity, printAnnotationsMultiline, printLabelsMultiline } from './describe-util';

/** Go's time.Time.String() of a metav1.Time in UTC: "2026-01-01 00:00:00 +0000 UTC" (fraction only when non-zero). */
export function goTimeString(ts: string | undefined): string {
  if (!ts) return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(Date.parse(ts));
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  const ms = d.getUTCMilliseconds();
  const frac = ms ? `.${p(ms, 3).replace(/0+$/, '')}` : '';
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${frac} +0000 UTC`;
}

/** A NetworkPolicyPeer's selectors and ipBlock. */
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

/** printNetworkPolicySpecIngressFrom / printNetworkPolicySpecEgressTo: `peers` is "from" or "to". */
function printRules(w: PrefixWriter, rules: KObject[] | undefined, dir: 'ingress' | 'egress'): void {
  const ind = '    ';
  const [peerKey, title, anyPeer] =
    dir === 'ingress'
      ? (['from', 'From', 'From: <any> (traffic not restricted by source)'] as const)
      : (['to', 'To', 'To: <any> (traffic not restricted by destination)'] as const);
  if (!rules?.length) {
    w.write(0, `${ind}<none> (Selected pods are isolated for ${dir} connectivity)\n`);
    return;
  }
  rules.forEach((rule, i) => {
    const ports: KObject[] = rule?.ports ?? [];
    if (!ports.length) w.write(0, `${ind}To Port: <any> (traffic allowed to all ports)\n`);
    for (const port of ports) {
      const proto = port.protocol ?? 'TCP';
      const p = port.port === undefined || port.port === null ? '<nil>' : String(port.port);
      if (port.endPort === undefined || port.endPort === null) w.write(0, `${ind}To Port: ${p}/${proto}\n`);
      else w.write(0, `${ind}To Port Range: ${p}-${port.endPort}/${proto}\n`);
    }
    const peers: Peer[] = rule?.[peerKey] ?? [];
    if (!peers.length) w.write(0, `${ind}${anyPeer}\n`);
    for (const peer of peers) {
      w.write(0, `${ind}${title}:\n`);
      if (peer.podSelector && peer.namespaceSelector) {
        w.write(1, `${ind}NamespaceSelector: ${formatLabelSelector(peer.namespaceSelector)}\n`);
        w.write(1, `${ind}PodSelector: ${formatLabelSelector(peer.podSelector)}\n`);
      } else if (peer.podSelector) w.write(1, `${ind}PodSelector: ${formatLabelSelector(peer.podSelector)}\n`);
      else if (peer.namespaceSelector) w.write(1, `${ind}NamespaceSelector: ${formatLabelSelector(peer.namespaceSelector)}\n`);
      else if (peer.ipBlock) {
        w.write(1, `${ind}IPBlock:\n`);
        w.write(2, `${ind}CIDR: ${peer.ipBlock.cidr}\n`);
        w.write(2, `${ind}Except: ${(peer.ipBlock.except ?? []).join(', ')}\n`);
      }
    }
    if (i !== rules.length - 1) w.write(0, `${ind}----------\n`);
  });
}

/** describeNetworkPolicy: header ("Created on" is Go's time.String()), then describeNetworkPolicySpec. */
export function describeNetworkPolicy(np: KObject): string {
  const w = new PrefixWriter();
  const sp = np.spec ?? {};
  w.write(0, `Name:\t${np.metadata.name}\n`);
  w.write(0, `Namespace:\t${np.metadata.namespace ?? ''}\n`);
  w.write(0, `Created on:\t${goTimeString(np.metadata.creationTimestamp)}\n`);
  printLabelsMultiline(w, 'Labels', np.metadata.labels);
  printAnnotationsMultiline(w, 'Annotations', np.metadata.annotations);
  w.write(0, 'Spec:\n');
  w.write(1, 'PodSelector: ');
  const sel = sp.podSelector ?? {};
  if (!Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length)
    w.write(2, '<none> (Allowing the specific traffic to all pods in this namespace)\n');
  else w.write(2, `${formatLabelSelector(sel)}\n`);
  const types: string[] = sp.policyTypes ?? [];
  if (types.includes('Ingress')) {
    w.write(1, 'Allowing ingress traffic:\n');
    printRules(w, sp.ingress, 'ingress');
  } else w.write(1, 'Not affecting ingress traffic\n');
  if (types.includes('Egress')) {
    w.write(1, 'Allowing egress traffic:\n');
    printRules(w, sp.egress, 'egress');
  } else w.write(1, 'Not affecting egress traffic\n');
  w.write(1, `Policy Types: ${types.join(', ')}\n`);
  return w.toString();
}

/** helpTextForResourceQuotaScope ("" for the other scopes, which print no help line). */
export function quotaScopeHelp(scope: string): string {
  switch (scope) {
    case 'Terminating':
      return 'Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.';
    case 'NotTerminating':
      return 'Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.';
    case 'BestEffort':
      return 'Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.';
    case 'NotBestEffort':
      return 'Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.';
    default:
      return '';
  }
}

/** The quota's spec.scopes, sorted (sort.Strings), as describeQuota and DescribeResourceQuotas print them. */
export function sortedScopes(q: KObject): string[] {
  return [...((q.spec?.scopes ?? []) as string[])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * describeQuota: the rows come from status.hard (sorted by name) with status.used beside them
 * ("0" when the quota controller has not counted a resource). The simulated control plane runs
 * no resourcequota controller, so status stays empty and the table has headers only — exactly
 * what real kubectl prints against it.
 */
export function describeResourceQuota(q: KObject): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${q.metadata.name}\n`);
  w.write(0, `Namespace:\t${q.metadata.namespace ?? ''}\n`);
  const scopes = sortedScopes(q);
  if (scopes.length) {
    w.write(0, `Scopes:\t${scopes.join(', ')}\n`);
    for (const s of scopes) if (quotaScopeHelp(s)) w.write(0, ` * ${quotaScopeHelp(s)}\n`);
  }
  w.write(0, 'Resource\tUsed\tHard\n');
  w.write(0, '--------\t----\t----\n');
  const hard: Record<string, string> = q.status?.hard ?? {};
  const used: Record<string, string> = q.status?.used ?? {};
  for (const r of Object.keys(hard).sort()) w.write(0, `${r}\t${goQuantity(used[r] ?? '0')}\t${goQuantity(hard[r])}\n`);
  return w.toString();
}

/**
 * describeLimitRangeSpec: one row per (item, resource) named in any of min/max/defaultRequest/
 * default/maxLimitRequestRatio, "-" where unset. Upstream walks a Go map, so the order of the
 * resources within one item is random; here they are sorted.
 */
export function limitRangeRows(lr: KObject, prefix: string): string[] {
  const rows: string[] = [];
  for (const item of (lr.spec?.limits ?? []) as KObject[]) {
    const maps = [item.min, item.max, item.defaultRequest, item.default, item.maxLimitRequestRatio].map(
      (m) => (m ?? {}) as Record<string, string>,
    );
    const names = [...new Set(maps.flatMap((m) => Object.keys(m)))].sort();
    for (const k of names)
      rows.push(`${prefix}${item.type ?? ''}\t${k}\t${maps.map((m) => (m[k] === undefined ? '-' : goQuantity(m[k]))).join('\t')}\n`);
  }
  return rows;
}

/** describeLimitRange: Name, Namespace and the limits table. */
export function describeLimitRange(lr: KObject): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${lr.metadata.name}\n`);
  w.write(0, `Namespace:\t${lr.metadata.namespace ?? ''}\n`);
  w.write(0, 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
  w.write(0, '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
  for (const row of limitRangeRows(lr, '')) w.write(0, row);
  return w.toString();
}
