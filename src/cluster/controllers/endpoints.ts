/**
 * EndpointsController (pkg/controller/endpoint/endpoints_controller.go): the legacy v1
 * Endpoints object for every Service with a selector — still run by kube-controller-manager in
 * v1.33 (the API is deprecated in favour of EndpointSlices, which endpointslice.ts keeps).
 * The Endpoints object is named like the Service and carries its labels plus
 * `endpoints.kubernetes.io/managed-by: endpoint-controller` (and
 * `service.kubernetes.io/headless` for headless Services); ready Pods go to `addresses`,
 * not-ready ones to `notReadyAddresses` (all to `addresses` with publishNotReadyAddresses);
 * terminating and terminal Pods are left out; subsets are packed per port set
 * (endpoints.RepackSubsets) and sorted.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformerFactory, SharedInformer } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import { watchServicesAndPods } from './service-membership';
import { users, type Client } from '../client/clientset';
import { deepEqual, metaNamespaceKey, splitKey } from '../api/types';
import type { Endpoints, Pod, Service } from '../api/objects';
import { fromLabelSelector } from '../api/labels';
import { StatusError } from '../api/errors';
import { findPort } from './endpointslice';

const PARTICIPANT = 'endpoints-controller';
/** Value of endpoints.kubernetes.io/managed-by on Endpoints this controller owns. */
export const ENDPOINTS_MANAGED_BY = 'endpoint-controller';

interface Address {
  ip: string;
  nodeName?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}
interface Port {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}
interface Subset {
  addresses?: Address[];
  notReadyAddresses?: Address[];
  ports: Port[];
}

function podReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

export class EndpointsController {
  readonly name = PARTICIPANT;
  private readonly client: Client;
  private readonly queue: RateLimitingQueue;
  private readonly services: SharedInformer<Service>;
  private readonly pods: SharedInformer<Pod>;
  private readonly endpoints: SharedInformer<Endpoints>;

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client({ ...users.controller('endpoint-controller'), participant: PARTICIPANT });
    this.queue = new RateLimitingQueue('endpoint', ctx.clock, ctx.relay, (key) => this.syncService(key));
    this.services = informers.informerFor<Service>('', 'services');
    this.pods = informers.informerFor<Pod>('', 'pods');
    this.endpoints = informers.informerFor<Endpoints>('', 'endpoints');
    watchServicesAndPods(this.services, this.pods, PARTICIPANT, this.queue);
  }

  run(): void {}
  pause(): void {
    this.queue.paused = true;
  }
  resume(): void {
    this.queue.resume();
  }
  resync(): void {
    for (const s of this.services.list()) if (s.spec?.selector) this.queue.add(metaNamespaceKey(s));
  }

  /** syncService: computes the subsets and creates or updates the Endpoints object. */
  syncService(key: string): void {
    const [ns, name] = splitKey(key);
    const svc = this.services.get(key);
    const rc = this.client.resource<Endpoints>('', 'endpoints');
    if (!svc) {
      const cur = this.endpoints.get(key);
      if (cur && cur.metadata.labels?.['endpoints.kubernetes.io/managed-by'] === ENDPOINTS_MANAGED_BY) {
        try {
          rc.delete(ns, name);
        } catch (e) {
          if (!(e instanceof StatusError && e.code === 404)) throw e;
        }
      }
      return;
    }
    if (!svc.spec?.selector || svc.spec.type === 'ExternalName') return;
    const publishNotReady = svc.spec.publishNotReadyAddresses === true;
    const sel = fromLabelSelector({ matchLabels: svc.spec.selector });
    const bySet = new Map<string, Subset>();
    const pods = this.pods.list(ns, sel).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    for (const pod of pods) {
      if (!pod.status?.podIP || pod.status.phase === 'Succeeded' || pod.status.phase === 'Failed') continue;
      if (pod.metadata.deletionTimestamp && !publishNotReady) continue;
      const addr: Address = {
        ip: pod.status.podIP,
        ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
        targetRef: { kind: 'Pod', namespace: ns, name: pod.metadata.name, uid: pod.metadata.uid ?? '' },
      };
      const ports: Port[] = [];
      for (const sp of svc.spec.ports ?? []) {
        const port = findPort(pod, sp);
        if (port === undefined) continue;
        ports.push({
          ...(sp.name ? { name: sp.name } : {}),
          port,
          protocol: sp.protocol ?? 'TCP',
          ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
        });
      }
      if (!ports.length && (svc.spec.ports ?? []).length) continue;
      ports.sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : a.port - b.port));
      const k = JSON.stringify(ports);
      let s = bySet.get(k);
      if (!s) bySet.set(k, (s = { ports }));
      if (publishNotReady || podReady(pod)) (s.addresses ??= []).push(addr);
      else (s.notReadyAddresses ??= []).push(addr);
    }
    const byIP = (a: Address, b: Address) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0);
    const subsets = [...bySet.values()]
      .map((s) => ({
        ...(s.addresses ? { addresses: s.addresses.sort(byIP) } : {}),
        ...(s.notReadyAddresses ? { notReadyAddresses: s.notReadyAddresses.sort(byIP) } : {}),
        ports: s.ports,
      }))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}) };
    if (!svc.spec.clusterIP || svc.spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    labels['endpoints.kubernetes.io/managed-by'] = ENDPOINTS_MANAGED_BY;
    const cur = this.endpoints.get(key);
    if (cur && deepEqual(cur.subsets ?? [], subsets) && deepEqual(cur.metadata.labels ?? {}, labels)) return;
    const ready = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
    this.ctx.relay.record({
      from: PARTICIPANT,
      to: PARTICIPANT,
      kind: 'decision',
      namespace: ns,
      name,
      summary: `Endpoints ${ns}/${name}: ${ready} ready address(es)`,
    });
    const annotations = {
      ...(cur?.metadata.annotations ?? {}),
      'endpoints.kubernetes.io/last-change-trigger-time': this.ctx.clock.nowRFC3339(),
    };
    if (cur) {
      rc.update({ ...cur, metadata: { ...cur.metadata, labels, annotations }, subsets });
    } else {
      rc.create(ns, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: ns, labels, annotations }, subsets });
    }
  }
}
