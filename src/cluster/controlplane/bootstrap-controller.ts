/**
 * kube-apiserver's own bootstrap controller for the `kubernetes` Service
 * (pkg/controlplane/controller/kubernetesservice/controller.go): `RunKubernetesService` runs
 * `UpdateKubernetesService` at start-up and then every `EndpointInterval` (10 s, a
 * non-sliding period from the apiserver's start), which creates default/kubernetes when it is
 * missing (`CreateOrUpdateMasterServiceIfNeeded`: ClusterIP 10.96.0.1, port `https` 443 →
 * 6443, labels component=apiserver, provider=kubernetes) and has the endpoint reconciler
 * (pkg/controlplane/reconcilers, EndpointsAdapter) write the Endpoints and EndpointSlice of the
 * same name with the apiserver's address. So a deleted `kubernetes` Service (or its endpoints)
 * comes back at the next 10-second tick.
 *
 * The engine does not keep a standing 10 s timer on an idle cluster: a deletion of one of the
 * three objects schedules the next tick of that period (a known deadline, so `settle` runs
 * through it), where the missing ones are recreated.
 */
import type { KObject } from '../api/types';
import type { ComponentContext } from '../component-context';
import { users } from '../apiserver/authentication/user';
import type { StoreEvent } from '../storage/mvcc';
import type { APIServerStorage } from '../apiserver/internal';

/** EndpointInterval: the period of the kubernetes Service reconciliation, simulated ms. */
export const ENDPOINT_INTERVAL_MS = 10_000;

/** The `kubernetes` Service as CreateOrUpdateMasterServiceIfNeeded creates it. */
export function kubernetesService(): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      type: 'ClusterIP',
      sessionAffinity: 'None',
    },
  } as KObject;
}

/** The Endpoints the endpoint reconciler writes for the apiserver at `ip` (port 6443). */
export function kubernetesEndpoints(ip: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
  } as KObject;
}

/** The EndpointSlice the EndpointsAdapter writes beside it. */
export function kubernetesEndpointSlice(ip: string): KObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [ip], conditions: { ready: true } }],
    ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
  } as KObject;
}

/** The three objects the controller keeps, by store resource and key. */
const KEPT: [resource: string, group: string, plural: string][] = [
  ['services', '', 'services'],
  ['endpoints', '', 'endpoints'],
  ['endpointslices.discovery.k8s.io', 'discovery.k8s.io', 'endpointslices'],
];

/** The kubernetesservice controller and the endpoint reconciler of the apiserver at `ip`. */
export class KubernetesServiceController {
  private readonly startMs: number;
  private pending = false;
  private stop: (() => void) | undefined;

  /**
   * @param storage the apiserver's own storage (apiserver/internal.ts): this controller runs inside kube-apiserver
   * @param ip the apiserver's advertised address (the control-plane node's InternalIP)
   */
  constructor(
    private readonly ctx: ComponentContext,
    private readonly storage: APIServerStorage,
    private readonly ip: string,
  ) {
    this.startMs = ctx.clock.now();
  }

  /** Starts watching for deletions of the three objects. */
  start(): void {
    this.stop = this.storage.listen((ev) => this.onEvent(ev));
  }

  /** Stops the controller. */
  close(): void {
    this.stop?.();
  }

  private onEvent(ev: StoreEvent): void {
    if (ev.type !== 'DELETED' || ev.key !== 'default/kubernetes' || !KEPT.some(([r]) => r === ev.resource) || this.pending) return;
    const now = this.ctx.clock.now();
    const next = this.startMs + (Math.floor((now - this.startMs) / ENDPOINT_INTERVAL_MS) + 1) * ENDPOINT_INTERVAL_MS;
    this.pending = true;
    this.ctx.clock.setTimer(next - now, () => this.updateKubernetesService(), {
      label: 'kube-apiserver: recreate the kubernetes Service',
      deadline: true,
      object: 'Service/default/kubernetes',
    });
  }

  /** UpdateKubernetesService: recreate whichever of the three is missing. */
  private updateKubernetesService(): void {
    this.pending = false;
    const sys = this.ctx.client(users.system('kube-apiserver'));
    const desired: Record<string, () => KObject> = {
      services: kubernetesService,
      endpoints: () => kubernetesEndpoints(this.ip),
      'endpointslices.discovery.k8s.io': () => kubernetesEndpointSlice(this.ip),
    };
    for (const [resource, group, plural] of KEPT) {
      if (this.storage.getObject(resource, 'default', 'kubernetes')) continue;
      // the default namespace may itself be gone (or going); the next deletion retries
      if (!this.storage.getObject('namespaces', '', 'default')) return;
      sys.resource(group, plural).create('default', desired[resource](), {
        summary: `create ${resource === 'services' ? 'Service' : resource === 'endpoints' ? 'Endpoints' : 'EndpointSlice'} default/kubernetes (bootstrap controller)`,
      });
    }
  }
}

/** The system namespaces controller's period, simulated ms. */
export const SYSTEM_NAMESPACES_INTERVAL_MS = 60_000;

/**
 * kube-apiserver's system namespaces controller
 * (pkg/controlplane/controller/systemnamespaces): every minute from the apiserver's start it
 * creates kube-system, kube-public and kube-node-lease when missing. NamespaceLifecycle keeps
 * the first two (and `default`) from being deleted, so in practice a deleted kube-node-lease is
 * back at the next one-minute tick after it is gone. As above, the engine schedules that tick
 * only after such a deletion.
 */
export class SystemNamespacesController {
  private readonly startMs: number;
  private pending = false;
  private stop: (() => void) | undefined;

  /** @param storage the apiserver's own storage (apiserver/internal.ts): this controller runs inside kube-apiserver */
  constructor(
    private readonly ctx: ComponentContext,
    private readonly storage: APIServerStorage,
  ) {
    this.startMs = ctx.clock.now();
  }

  /** Starts watching for deletions of the system namespaces. */
  start(): void {
    this.stop = this.storage.listen((ev) => {
      if (ev.type !== 'DELETED' || ev.resource !== 'namespaces' || !SYSTEM_NAMESPACES.includes(ev.key) || this.pending) return;
      const now = this.ctx.clock.now();
      const next = this.startMs + (Math.floor((now - this.startMs) / SYSTEM_NAMESPACES_INTERVAL_MS) + 1) * SYSTEM_NAMESPACES_INTERVAL_MS;
      this.pending = true;
      this.ctx.clock.setTimer(next - now, () => this.sync(), {
        label: 'kube-apiserver: recreate the system namespaces',
        deadline: true,
        object: `Namespace/${ev.key}`,
      });
    });
  }

  /** Stops the controller. */
  close(): void {
    this.stop?.();
  }

  /** sync: createNamespaceIfNeeded for each system namespace. */
  private sync(): void {
    this.pending = false;
    const ns = this.ctx.client(users.system('kube-apiserver')).resource('', 'namespaces');
    for (const name of SYSTEM_NAMESPACES) {
      if (this.storage.getObject('namespaces', '', name)) continue;
      ns.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KObject, {
        summary: `create Namespace ${name} (system namespaces controller)`,
      });
    }
  }
}

/** The namespaces the system namespaces controller keeps. */
const SYSTEM_NAMESPACES = ['kube-system', 'kube-public', 'kube-node-lease'];
