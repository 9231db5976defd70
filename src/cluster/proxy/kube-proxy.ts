/**
 * kube-proxy on one node, iptables mode (cmd/kube-proxy/app/server.go,
 * pkg/proxy/iptables/proxier.go). Upstream it is a DaemonSet Pod in kube-system; here it is a
 * per-node component started next to the kubelet and gone while the machine is powered off.
 *
 * It watches Services and EndpointSlices with its own informers (ServiceAccount
 * `system:serviceaccount:kube-system:kube-proxy`, relay participant `kube-proxy/<node>`; the
 * label selector `!service.kubernetes.io/service-proxy-name,!service.kubernetes.io/headless`
 * as server.go sets it), builds the service-port map (pkg/proxy/servicechangetracker.go) and
 * the endpoints map (pkg/proxy/endpointslicecache.go: endpoints deduplicated by `ip:port`,
 * sorted by that string), and renders the rules ({@link syncProxyRules}).
 *
 * Syncs are batched as the BoundedFrequencyRunner does with --iptables-min-sync-period (1 s,
 * the v1.33 default): a change right after a quiet period syncs at once, further changes
 * within a second of the last sync wait for it. Each sync records one relay `decision` hop
 * `kube-proxy/<node>` → `kube-proxy/<node>` ("synced 21 rules: default/peekcart → 3 endpoints").
 */
import type { KObject } from '../api/types';
import type { RequestUser } from '../apiserver/apiserver';
import type { Client } from '../client/clientset';
import { SharedInformer } from '../client/informer';
import { newListWatchFromClient } from '../client/listwatch';
import type { ComponentContext } from '../component-context';
import type { TimerHandle } from '../sim/clock';
import { servicePortKey, type EndpointInfo, type ProxierState, type Ruleset, type ServicePortInfo } from './proxier';
import { computeSync, type RulesetCache } from './ruleset-cache';

/** The kube-proxy identity (its ServiceAccount in kube-system), one participant per node. */
export function kubeProxyUser(nodeName: string): RequestUser {
  return {
    name: 'system:serviceaccount:kube-system:kube-proxy',
    participant: `kube-proxy/${nodeName}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  };
}

/** KubeProxyConfiguration values this model uses (kubeadm defaults). */
export interface KubeProxyOptions {
  /** iptables.minSyncPeriod (1 s) */
  minSyncPeriodMs?: number;
  /** clusterCIDR for detect-local-mode ClusterCIDR (kubeadm: networking.podSubnet) */
  clusterCIDR?: string;
  /** the cluster's shared sync results (one copy of the rules for nodes with the same state); none: computed per sync */
  rulesetCache?: RulesetCache;
}
const PROXY_SELECTOR = '!service.kubernetes.io/service-proxy-name,!service.kubernetes.io/headless';

export class KubeProxy {
  readonly participant: string;
  readonly client: Client;
  readonly minSyncPeriodMs: number;
  readonly clusterCIDR: string;
  private services: SharedInformer | null = null;
  private slices: SharedInformer | null = null;
  private on = false;
  private timer: TimerHandle | null = null;
  private pendingCause: number | null = null;
  private lastSyncAt = -Infinity;
  private current: Ruleset | null = null;
  private currentText = '';
  private lastCounts: ReadonlyMap<string, string> = new Map();
  private readonly rulesetCache: RulesetCache | undefined;
  /** The node's InternalIP (read from its Node at start; `addrtype LOCAL` matches it). */
  nodeIP: string | null = null;
  /** Number of syncs so far (tests, UI). */
  syncCount = 0;

  constructor(
    private readonly ctx: ComponentContext,
    readonly nodeName: string,
    opts: KubeProxyOptions = {},
  ) {
    this.participant = `kube-proxy/${nodeName}`;
    this.client = ctx.client(kubeProxyUser(nodeName));
    this.minSyncPeriodMs = opts.minSyncPeriodMs ?? 1_000;
    this.clusterCIDR = opts.clusterCIDR ?? '10.244.0.0/16';
    this.rulesetCache = opts.rulesetCache;
  }

  /** True while the node's machine is on. */
  get powered(): boolean {
    return this.on;
  }

  /** Starts kube-proxy: list+watch Services and EndpointSlices, then the first full sync. Idempotent. */
  start(): void {
    if (this.on) return;
    this.on = true;
    this.ctx.relay.withCause(null, () => {
      this.readNodeIP();
      if (this.services && this.slices) {
        this.services.restart();
        this.slices.restart();
      } else {
        this.services = this.informer('', 'services');
        this.slices = this.informer('discovery.k8s.io', 'endpointslices');
        this.services.start();
        this.slices.start();
      }
      // OnServiceSynced / OnEndpointSlicesSynced: sync unconditionally once per lifetime
      this.sync();
    });
  }

  /** The machine powers off: informers stop, pending syncs are dropped, the kernel's rules are gone. */
  powerOff(): void {
    if (!this.on) return;
    this.on = false;
    this.services?.stop();
    this.slices?.stop();
    this.ctx.clock.cancel(this.timer);
    this.timer = null;
    this.current = null;
    this.currentText = '';
    this.lastCounts = new Map();
    this.lastSyncAt = -Infinity;
  }

  /** The machine powers on: a fresh kube-proxy start (relist, full sync). */
  powerOn(): void {
    this.start();
  }

  /** The rules as `iptables-save` prints them (`*filter` then `*nat`); "" while powered off. */
  rules(): string {
    return this.currentText;
  }

  /** The structured rules of the last sync (tables, per-service view, SEP chains); null while powered off. */
  ruleset(): Ruleset | null {
    return this.current;
  }

  /** Simulated time of the last sync (ms), or null. */
  get lastSyncTime(): number | null {
    return Number.isFinite(this.lastSyncAt) ? this.lastSyncAt : null;
  }

  private informer(group: string, resource: string): SharedInformer {
    if (!this.client.restMapper.forResource(group, resource)) throw new Error(`${resource} are not served`);
    const inf = new SharedInformer(newListWatchFromClient(this.client, group, resource, { labelSelector: PROXY_SELECTOR }));
    inf.addEventHandler({
      participant: this.participant,
      onAdd: (_o, initial) => {
        if (!initial) this.requestSync();
      },
      onUpdate: (o, n) => {
        if (o.metadata.resourceVersion !== n.metadata.resourceVersion) this.requestSync();
      },
      onDelete: () => this.requestSync(),
    });
    return inf;
  }

  private readNodeIP(): void {
    try {
      const node = this.client.resource('', 'nodes').get('', this.nodeName, { quiet: true });
      const addr = (node.status?.addresses ?? []).find((a: { type: string }) => a.type === 'InternalIP');
      this.nodeIP = addr?.address ?? this.nodeIP;
    } catch {
      // the Node is not registered yet: NodePorts then only match 127.0.0.1 until the next sync
    }
  }

  /** proxier.Sync → BoundedFrequencyRunner.Run: at most one sync per minSyncPeriod. */
  private requestSync(): void {
    if (!this.on) return;
    if (this.pendingCause === null) this.pendingCause = this.ctx.relay.currentCause;
    if (this.timer) return;
    const delay = Math.max(0, this.lastSyncAt + this.minSyncPeriodMs - this.ctx.clock.now());
    this.timer = this.ctx.clock.setTimer(
      delay,
      () => {
        this.timer = null;
        const cause = this.pendingCause;
        this.pendingCause = null;
        this.ctx.relay.withCause(cause, () => this.sync());
      },
      { label: `${this.participant}: syncProxyRules` },
    );
  }

  /** syncProxyRules: rebuilds every rule from the informer caches (always a full sync here). */
  sync(): void {
    if (!this.on || !this.services || !this.slices) return;
    if (!this.nodeIP) this.readNodeIP();
    this.lastSyncAt = this.ctx.clock.now();
    this.syncCount++;
    const state = this.buildState();
    const { rs, text, ruleCount, counts } = this.rulesetCache ? this.rulesetCache.sync(state) : computeSync(state);
    const changes: string[] = [];
    for (const [k, v] of counts) if (this.lastCounts.get(k) !== v) changes.push(`${k} → ${v}`);
    for (const k of this.lastCounts.keys()) if (!counts.has(k)) changes.push(`${k} removed`);
    const unchanged = text === this.currentText;
    this.current = rs;
    this.currentText = text;
    this.lastCounts = counts;
    const shown = changes.slice(0, 4).join(', ') + (changes.length > 4 ? `, +${changes.length - 4} more` : '');
    this.ctx.relay.record({
      from: this.participant,
      to: this.participant,
      kind: 'decision',
      summary: `synced ${ruleCount} rules${unchanged ? ' (unchanged)' : ''}${shown ? `: ${shown}` : ''}`,
    });
  }

  private buildState(): ProxierState {
    const services: ServicePortInfo[] = [];
    for (const svc of this.services!.list()) services.push(...servicePorts(svc));
    const wanted = new Set(services.map(servicePortKey));
    const endpoints = new Map<string, Map<string, EndpointInfo>>();
    for (const slice of this.slices!.list()) {
      const svcName = slice.metadata.labels?.['kubernetes.io/service-name'];
      if (!svcName || (slice.addressType && slice.addressType !== 'IPv4')) continue;
      const ns = slice.metadata.namespace ?? '';
      for (const p of slice.ports ?? []) {
        if (p.port === undefined || p.port === null) continue;
        const key = `${ns}/${svcName}${p.name ? `:${p.name}` : ''}/${p.protocol ?? 'TCP'}`;
        if (!wanted.has(key)) continue;
        let set = endpoints.get(key);
        if (!set) endpoints.set(key, (set = new Map()));
        for (const e of slice.endpoints ?? []) {
          const ip = e.addresses?.[0];
          if (!ip) continue;
          const c = e.conditions ?? {};
          const ep: EndpointInfo = {
            ip,
            port: p.port,
            ready: c.ready ?? true,
            serving: c.serving ?? true,
            terminating: c.terminating ?? false,
            isLocal: e.nodeName === this.nodeName,
            nodeName: e.nodeName,
            pod: e.targetRef?.kind === 'Pod' ? { namespace: e.targetRef.namespace ?? ns, name: e.targetRef.name } : undefined,
          };
          const k = `${ip}:${p.port}`;
          const prev = set.get(k);
          if (!prev || (!prev.ready && ep.ready)) set.set(k, ep);
        }
      }
    }
    const out = new Map<string, EndpointInfo[]>();
    for (const [k, set] of endpoints) {
      out.set(
        k,
        [...set.values()].sort((a, b) => (`${a.ip}:${a.port}` < `${b.ip}:${b.port}` ? -1 : 1)),
      );
    }
    return { services, endpoints: out, clusterCIDR: this.clusterCIDR };
  }
}

/**
 * servicechangetracker.go serviceToServiceMap + serviceport.go newBaseServiceInfo: one entry
 * per port of a Service that has a ClusterIP (headless and ExternalName Services are skipped).
 */
export function servicePorts(svc: KObject): ServicePortInfo[] {
  const spec = svc.spec ?? {};
  const clusterIP: string = spec.clusterIP ?? '';
  if (!clusterIP || clusterIP === 'None' || spec.type === 'ExternalName') return [];
  const ns = svc.metadata.namespace ?? '';
  const name = svc.metadata.name;
  const vips: string[] = (svc.status?.loadBalancer?.ingress ?? [])
    .filter((i: { ip?: string; ipMode?: string }) => i.ip && i.ipMode !== 'Proxy')
    .map((i: { ip: string }) => i.ip);
  return (spec.ports ?? []).map((p: Record<string, any>) => {
    const info: ServicePortInfo = {
      namespace: ns,
      name,
      portName: p.name ?? '',
      nameString: `${ns}/${name}${p.name ? `:${p.name}` : ''}`,
      protocol: p.protocol ?? 'TCP',
      clusterIP,
      port: p.port,
      nodePort: p.nodePort ?? 0,
      externalIPs: spec.externalIPs ?? [],
      loadBalancerVIPs: spec.type === 'LoadBalancer' ? vips : [],
      loadBalancerSourceRanges: spec.type === 'LoadBalancer' ? (spec.loadBalancerSourceRanges ?? []) : [],
      sessionAffinityClientIP: spec.sessionAffinity === 'ClientIP',
      stickyMaxAgeSeconds: spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800,
      externalPolicyLocal: false,
      internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
      healthCheckNodePort: 0,
    };
    const ext = info.nodePort !== 0 || info.loadBalancerVIPs.length > 0 || info.externalIPs.length > 0;
    info.externalPolicyLocal = ext && spec.externalTrafficPolicy === 'Local';
    if (info.externalPolicyLocal && spec.type === 'LoadBalancer') info.healthCheckNodePort = spec.healthCheckNodePort ?? 0;
    return info;
  });
}
