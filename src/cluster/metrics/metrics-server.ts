/**
 * A simulated metrics-server (kubernetes-sigs/metrics-server): serves the resource metrics API
 * (metrics.k8s.io/v1beta1 PodMetrics / NodeMetrics) that the HPA controller and `kubectl top`
 * read. Real metrics-server scrapes each kubelet's /metrics/resource every `--metric-resolution`
 * (15 s) and reports a rate over the last window; here usage comes from a per-workload load
 * control, sampled at scrape instants (multiples of 15 s of simulated time):
 *
 *  - `setLoad(namespace, "app=web" | "deployment/web", { totalCpuMillicores })` spreads a total
 *    over the Pods that are Ready at the scrape, so scaling out lowers per-Pod usage (the HPA
 *    demo); `{ cpuMillicoresPerPod }` gives each Pod the same usage; `memoryBytesPerPod` likewise.
 *  - otherwise a Pod's template annotations `kwok.x-k8s.io/usage-cpu` / `kwok.x-k8s.io/usage-memory`
 *    (kwok's metrics-usage style) set its usage; otherwise idle usage (1m CPU, 8 MiB per container).
 *
 * A Pod has metrics once it is Running and its containers have run for one resolution window
 * before the scrape (metrics-server needs two cumulative samples). A load change shows from the
 * next scrape on. Units: CPU in millicores, memory in bytes, times in simulated ms.
 */
import type { ComponentContext } from '../component-context';
import { SharedInformer } from '../client/informer';
import { newListWatchFromClient } from '../client/listwatch';
import { users, type Client } from '../client/clientset';
import type { KObject } from '../api/types';
import { fromLabelSelector, matches, parseSelector, type Selector } from '../api/labels';
import { bytesOf, cpuMillis } from '../api/quantity';

/** --metric-resolution default (15 s), ms. */
export const MetricResolutionMs = 15_000;
/** Idle usage of a container with no load: CPU millicores and memory bytes. */
export const IdleCpuMillicores = 1;
export const IdleMemoryBytes = 8 * 1024 * 1024;

/** A load setting for the Pods a selector or workload picks. */
export interface LoadSpec {
  /** CPU used by each Ready Pod, millicores. */
  cpuMillicoresPerPod?: number;
  /** CPU spread evenly over the Ready Pods, millicores. */
  totalCpuMillicores?: number;
  /** Memory used by each Pod, bytes. */
  memoryBytesPerPod?: number;
}

/** One container's usage at a scrape. */
export interface ContainerUsage {
  name: string;
  cpuMillicores: number;
  memoryBytes: number;
}

/** One Pod's usage sample (metrics.k8s.io PodMetrics, numerically). */
export interface PodUsage {
  namespace: string;
  name: string;
  /** scrape instant, simulated ms */
  timestamp: number;
  /** sampling window, ms */
  windowMs: number;
  containers: ContainerUsage[];
}

/** The metrics API as the HPA controller's resource metrics client sees it (metricsclient.PodMetricsesGetter). */
export interface ResourceMetricsAPI {
  /** PodMetrics of the Pods in `namespace` matching `selector`, as of the last scrape. */
  podUsage(namespace: string, selector?: Selector): PodUsage[];
}

interface LoadVersion extends LoadSpec {
  since: number;
}

interface LoadEntry {
  namespace: string;
  target: string;
  versions: LoadVersion[];
}

/** The simulated metrics-server. */
export class MetricsServer implements ResourceMetricsAPI {
  private readonly pods: SharedInformer;
  private readonly loads = new Map<string, LoadEntry>();
  private readonly client: Client;

  /** @param ctx shared clock and apiserver; Pods are watched with metrics-server's own identity. */
  constructor(private readonly ctx: ComponentContext) {
    this.client = ctx.client(users.controller('metrics-server'));
    if (!this.client.restMapper.forResource('', 'pods')) throw new Error('metrics-server: no pods resource');
    this.pods = new SharedInformer(newListWatchFromClient(this.client, '', 'pods'));
  }

  /** Starts the Pod watch (the kubelets' pod lists, in miniature). */
  start(): void {
    this.pods.start();
  }

  /**
   * Sets the load of the Pods picked by a label selector ("app=web") or a workload
   * ("deployment/web", "statefulset/db", "replicaset/x"; its spec.selector, read at each scrape).
   * Takes effect from the next scrape. An empty spec clears it.
   */
  setLoad(namespace: string, selectorOrWorkload: string, load: LoadSpec): void {
    const key = `${namespace}\u0000${selectorOrWorkload}`;
    const entry = this.loads.get(key) ?? { namespace, target: selectorOrWorkload, versions: [] };
    const now = this.ctx.clock.now();
    entry.versions = entry.versions.filter((v) => v.since < now);
    entry.versions.push({ ...load, since: now });
    // keep the version in effect at the last scrape plus the newer ones
    const lastScrape = this.scrapeAt(now);
    while (entry.versions.length > 1 && entry.versions[1].since <= lastScrape) entry.versions.shift();
    this.loads.set(key, entry);
  }

  /** Clears every load setting of a namespace (or all). */
  clearLoads(namespace?: string): void {
    for (const [k, e] of this.loads) if (namespace === undefined || e.namespace === namespace) this.loads.delete(k);
  }

  /** The last scrape instant at or before `now` (multiples of the resolution), ms. */
  scrapeAt(now = this.ctx.clock.now()): number {
    return now - (now % MetricResolutionMs);
  }

  podUsage(namespace: string, selector?: Selector): PodUsage[] {
    const at = this.scrapeAt();
    const pods = this.pods.list(namespace, selector).filter((p) => this.hasMetrics(p, at));
    const perPod = new Map<KObject, { cpu?: number; mem?: number }>();
    for (const e of this.loads.values()) {
      if (e.namespace !== namespace) continue;
      const v = [...e.versions].reverse().find((x) => x.since <= at);
      if (!v) continue;
      const sel = this.resolveTarget(e);
      if (!sel) continue;
      const picked = pods.filter((p) => matches(sel, p.metadata.labels));
      const ready = picked.filter(isReady);
      for (const p of picked) {
        const cur = perPod.get(p) ?? {};
        if (v.totalCpuMillicores !== undefined)
          cur.cpu = isReady(p) && ready.length ? Math.round(v.totalCpuMillicores / ready.length) : undefined;
        else if (v.cpuMillicoresPerPod !== undefined) cur.cpu = isReady(p) ? v.cpuMillicoresPerPod : undefined;
        if (v.memoryBytesPerPod !== undefined) cur.mem = v.memoryBytesPerPod;
        perPod.set(p, cur);
      }
    }
    return pods.map((p) => this.usageOf(p, perPod.get(p), at)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** metrics.k8s.io/v1beta1 PodMetrics objects (for `kubectl top pod`), CPU in nanocores and memory in Ki as metrics-server prints them. */
  podMetrics(namespace?: string, selector?: Selector): KObject[] {
    const namespaces = namespace !== undefined ? [namespace] : [...new Set(this.pods.list().map((p) => p.metadata.namespace ?? ''))].sort();
    const out: KObject[] = [];
    for (const ns of namespaces) {
      for (const u of this.podUsage(ns, selector)) {
        const pod = this.pods.get(`${ns}/${u.name}`);
        out.push({
          apiVersion: 'metrics.k8s.io/v1beta1',
          kind: 'PodMetrics',
          metadata: {
            name: u.name,
            namespace: ns,
            creationTimestamp: this.ctx.clock.nowRFC3339(),
            ...(pod?.metadata.labels ? { labels: { ...pod.metadata.labels } } : {}),
          },
          timestamp: new Date(u.timestamp).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          window: `${u.windowMs / 1000}s`,
          containers: u.containers.map((c) => ({
            name: c.name,
            usage: { cpu: `${c.cpuMillicores * 1_000_000}n`, memory: `${Math.round(c.memoryBytes / 1024)}Ki` },
          })),
        });
      }
    }
    return out;
  }

  /** Per-node usage (NodeMetrics for `kubectl top node`): the sum of its Pods' usage, millicores and bytes. */
  nodeUsage(): Map<string, { cpuMillicores: number; memoryBytes: number }> {
    const out = new Map<string, { cpuMillicores: number; memoryBytes: number }>();
    const namespaces = [...new Set(this.pods.list().map((p) => p.metadata.namespace ?? ''))];
    for (const ns of namespaces) {
      for (const u of this.podUsage(ns)) {
        const node = this.pods.get(`${ns}/${u.name}`)?.spec?.nodeName;
        if (!node) continue;
        const cur = out.get(node) ?? { cpuMillicores: 0, memoryBytes: 0 };
        for (const c of u.containers) {
          cur.cpuMillicores += c.cpuMillicores;
          cur.memoryBytes += c.memoryBytes;
        }
        out.set(node, cur);
      }
    }
    return out;
  }

  private resolveTarget(e: LoadEntry): Selector | undefined {
    const m = /^([A-Za-z.]+)\/([a-z0-9.-]+)$/.exec(e.target);
    if (!m) {
      try {
        return parseSelector(e.target);
      } catch {
        return undefined;
      }
    }
    const kind = m[1].toLowerCase().split('.')[0];
    const res: Record<string, [string, string]> = {
      deployment: ['apps', 'deployments'],
      deployments: ['apps', 'deployments'],
      deploy: ['apps', 'deployments'],
      statefulset: ['apps', 'statefulsets'],
      statefulsets: ['apps', 'statefulsets'],
      sts: ['apps', 'statefulsets'],
      replicaset: ['apps', 'replicasets'],
      replicasets: ['apps', 'replicasets'],
      rs: ['apps', 'replicasets'],
      daemonset: ['apps', 'daemonsets'],
      daemonsets: ['apps', 'daemonsets'],
      ds: ['apps', 'daemonsets'],
    };
    const r = res[kind];
    if (!r) return undefined;
    let w: KObject;
    try {
      w = this.client.resource(r[0], r[1]).get(e.namespace, m[2], { quiet: true });
    } catch {
      return undefined;
    }
    return w.spec?.selector ? fromLabelSelector(w.spec.selector) : undefined;
  }

  /** Running, with every container started at least one resolution before the scrape. */
  private hasMetrics(p: KObject, at: number): boolean {
    if (p.status?.phase !== 'Running' || p.metadata.deletionTimestamp) return false;
    const cs: KObject[] = p.status?.containerStatuses ?? [];
    if (!cs.length) return false;
    return cs.every((c) => {
      const started = c.state?.running?.startedAt;
      return started && Date.parse(started) + MetricResolutionMs <= at;
    });
  }

  private usageOf(p: KObject, load: { cpu?: number; mem?: number } | undefined, at: number): PodUsage {
    const containers: KObject[] = p.spec?.containers ?? [];
    const ann = p.metadata.annotations ?? {};
    const n = Math.max(1, containers.length);
    let cpu = load?.cpu;
    let mem = load?.mem;
    if (cpu === undefined && ann['kwok.x-k8s.io/usage-cpu']) cpu = safe(() => cpuMillis(ann['kwok.x-k8s.io/usage-cpu']));
    if (mem === undefined && ann['kwok.x-k8s.io/usage-memory']) mem = safe(() => bytesOf(ann['kwok.x-k8s.io/usage-memory']));
    return {
      namespace: p.metadata.namespace ?? '',
      name: p.metadata.name,
      timestamp: at,
      windowMs: MetricResolutionMs,
      containers: containers.map((c, i) => ({
        name: c.name,
        cpuMillicores: cpu === undefined ? IdleCpuMillicores : Math.floor(cpu / n) + (i === 0 ? cpu % n : 0),
        memoryBytes: mem === undefined ? IdleMemoryBytes : Math.floor(mem / n) + (i === 0 ? mem % n : 0),
      })),
    };
  }
}

function isReady(p: KObject): boolean {
  return (p.status?.conditions ?? []).some((c: KObject) => c.type === 'Ready' && c.status === 'True');
}

function safe(fn: () => number): number | undefined {
  try {
    const v = fn();
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
