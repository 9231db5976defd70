/**
 * EndpointSliceController: keeps, for every Service with a selector, EndpointSlices that list
 * the IPs of the Pods it selects — the seed's §5 loop (a Service's stable ClusterIP in front
 * of changing Pod IPs). Follows pkg/controller/endpointslice/endpointslice_controller.go and
 * staging/src/k8s.io/endpointslice/reconciler.go:
 * - slices are named by generateName `<service>-` and labelled
 *   `kubernetes.io/service-name=<service>` and
 *   `endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io`, owned by the
 *   Service (controller ownerReference);
 * - one slice per distinct port mapping, at most 100 endpoints per slice
 *   (--max-endpoints-per-slice);
 * - an endpoint per Pod with an IP that is not terminal: conditions ready (Pod Ready and not
 *   terminating), serving (Pod Ready), terminating (deletionTimestamp set); nodeName and a
 *   targetRef to the Pod;
 * - a named targetPort is resolved per Pod against its containers' ports; a Pod without the
 *   named port still becomes an endpoint, in a slice without that port — kube-proxy then has
 *   no backend for the Service port (why a Service can "have endpoints" and still fail).
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformerFactory, SharedInformer } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import { watchServicesAndPods } from './service-membership';
import { users, type Client } from '../client/clientset';
import { deepEqual, metaNamespaceKey, newControllerRef, splitKey, type ObjectMeta } from '../api/types';
import type { EndpointSlice, Pod, Service } from '../api/objects';
import { fromLabelSelector } from '../api/labels';
import { StatusError } from '../api/errors';

const PARTICIPANT = 'endpointslice-controller';
/** Value of endpointslice.kubernetes.io/managed-by for slices this controller owns. */
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
/** --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;

interface EndpointPort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

interface Endpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  nodeName?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}

function podReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Resolves a Service port's targetPort for a Pod (podutil.FindPort); undefined when the Pod lacks a named port. */
export function findPort(pod: Pod, svcPort: { port: number; targetPort?: number | string; protocol?: string }): number | undefined {
  const tp = svcPort.targetPort ?? svcPort.port;
  if (typeof tp === 'number') return tp;
  if (/^\d+$/.test(tp)) return Number(tp);
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.name === tp && (p.protocol ?? 'TCP') === (svcPort.protocol ?? 'TCP')) return p.containerPort;
    }
  }
  return undefined;
}

export class EndpointSliceController {
  readonly name = PARTICIPANT;
  private readonly client: Client;
  private readonly queue: RateLimitingQueue;
  private readonly services: SharedInformer<Service>;
  private readonly pods: SharedInformer<Pod>;
  private readonly slices: SharedInformer<EndpointSlice>;

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client(users.controller(PARTICIPANT));
    this.queue = new RateLimitingQueue('endpointslice', ctx.clock, ctx.relay, (key) => this.syncService(key));
    this.services = informers.informerFor<Service>('', 'services');
    this.pods = informers.informerFor<Pod>('', 'pods');
    this.slices = informers.informerFor<EndpointSlice>('discovery.k8s.io', 'endpointslices');
    this.slices.addIndexer('service', (s) => {
      const svc = s.metadata.labels?.['kubernetes.io/service-name'];
      return svc && s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === MANAGED_BY ? [`${s.metadata.namespace}/${svc}`] : [];
    });
    watchServicesAndPods(this.services, this.pods, PARTICIPANT, this.queue);
  }

  run(): void {}
  pause(): void {
    this.queue.paused = true;
  }
  resume(): void {
    this.queue.resume();
  }
  /** Re-enqueues every Service (after a resume). */
  resync(): void {
    for (const s of this.services.list()) if (s.spec?.selector) this.queue.add(metaNamespaceKey(s));
  }

  /** syncService: computes the desired slices and creates, updates or deletes to match. */
  syncService(key: string): void {
    const [ns, name] = splitKey(key);
    const svc = this.services.get(key);
    if (!svc || !svc.spec?.selector || svc.metadata.deletionTimestamp) return; // the garbage collector removes owned slices
    if (svc.spec.type === 'ExternalName') return;
    const sel = fromLabelSelector({ matchLabels: svc.spec.selector });
    const pods = this.pods.list(ns, sel).filter((p) => p.status?.podIP && p.status.phase !== 'Succeeded' && p.status.phase !== 'Failed');
    pods.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    // group endpoints by their resolved port list
    const groups = new Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }>();
    for (const pod of pods) {
      const ports: EndpointPort[] = [];
      for (const sp of svc.spec.ports ?? []) {
        const port = findPort(pod, sp);
        if (port === undefined) continue;
        ports.push({
          name: sp.name ?? '',
          port,
          protocol: sp.protocol ?? 'TCP',
          ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
        });
      }
      const k = JSON.stringify(ports);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { ports, endpoints: [] }));
      const terminating = !!pod.metadata.deletionTimestamp;
      const ready = podReady(pod);
      g.endpoints.push({
        addresses: [pod.status!.podIP!], // pods without an IP are filtered out above
        conditions: { ready: ready && !terminating, serving: ready, terminating },
        ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
        targetRef: { kind: 'Pod', namespace: ns, name: pod.metadata.name, uid: pod.metadata.uid ?? '' },
      });
    }
    const desired: { ports: EndpointPort[]; endpoints: Endpoint[] }[] = [];
    for (const g of groups.values()) {
      for (let i = 0; i < g.endpoints.length; i += MAX_ENDPOINTS_PER_SLICE)
        desired.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
    }
    // nothing selected: one placeholder slice with no ports and no endpoints (reconciler.go)
    const placeholder = desired.length === 0;
    const existing = this.slices.byIndex('service', key).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    if (placeholder) desired.push({ ports: [], endpoints: [] });
    const total = desired.reduce((n, d) => n + d.endpoints.length, 0);
    const ready = desired.reduce((n, d) => n + d.endpoints.filter((e) => e.conditions.ready).length, 0);
    const unchanged =
      existing.length === desired.length &&
      existing.every((s, i) => deepEqual(s.ports ?? [], desired[i].ports) && deepEqual(s.endpoints ?? [], desired[i].endpoints));
    if (unchanged) return;
    // the reconciliation's note for the sequence diagram: "3 ready endpoints" (", 1 not ready")
    const note = `${ready} ready endpoint${ready === 1 ? '' : 's'}${total > ready ? `, ${total - ready} not ready` : ''}`;
    const seq = this.ctx.relay.record({
      from: PARTICIPANT,
      to: PARTICIPANT,
      kind: 'decision',
      resource: 'services',
      namespace: ns,
      name,
      summary: `Service ${ns}/${name}: ${pods.length} selected Pods → ${total} endpoints (${ready} ready) in ${desired.length} slice(s)`,
      reconcile: this.ctx.relay.newReconcile(),
      note,
    });
    try {
      this.ctx.relay.withCause(seq, () => this.writeSlices(ns, name, svc, desired, existing, placeholder));
    } catch (e) {
      // a stale cache (409) or a slice deleted meanwhile (404): retried with back-off
      if (e instanceof StatusError)
        this.ctx.relay.record({ from: PARTICIPANT, to: PARTICIPANT, kind: 'note', summary: `retry Service ${key}: ${e.message}` });
      throw e;
    }
  }

  /** The writes of one sync: update/create the desired slices, delete the extra ones. */
  private writeSlices(
    ns: string,
    name: string,
    svc: Service,
    desired: { ports: EndpointPort[]; endpoints: Endpoint[] }[],
    existing: EndpointSlice[],
    placeholder: boolean,
  ): void {
    const rc = this.client.resource<EndpointSlice>('discovery.k8s.io', 'endpointslices');
    desired.forEach((d, i) => {
      const cur = existing[i];
      const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}) };
      if (!svc.spec.clusterIP || svc.spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
      labels['endpointslice.kubernetes.io/managed-by'] = MANAGED_BY;
      labels['kubernetes.io/service-name'] = name;
      const endpoints = placeholder ? null : d.endpoints;
      if (cur) {
        if (deepEqual(cur.ports ?? [], d.ports) && deepEqual(cur.endpoints ?? [], d.endpoints)) return;
        rc.update(
          { ...cur, metadata: { ...cur.metadata, labels }, ports: d.ports, endpoints },
          { summary: `update EndpointSlice ${ns}/${cur.metadata.name}: ${d.endpoints.length} endpoints` },
        );
      } else {
        rc.create(ns, {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: {
            generateName: `${name}-`,
            namespace: ns,
            labels,
            ownerReferences: [newControllerRef(svc)],
            annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': this.ctx.clock.nowRFC3339() },
          } as unknown as ObjectMeta, // no name: the apiserver generates it from generateName
          addressType: 'IPv4',
          endpoints,
          ports: d.ports,
        });
      }
    });
    for (const extra of existing.slice(desired.length)) rc.delete(ns, extra.metadata.name);
  }
}
