/**
 * A simulated cloud load-balancer controller: the `service-controller` of
 * cloud-controller-manager (k8s.io/cloud-provider/controllers/service/controller.go), with a
 * provider that hands out external IPs from a pool, as MetalLB does in kind clusters
 * (172.18.255.200–172.18.255.250). For every Service of type LoadBalancer it records
 * EnsuringLoadBalancer "Ensuring load balancer", provisions (2 s of simulated cloud time),
 * writes status.loadBalancer.ingress[0].ip, and records EnsuredLoadBalancer "Ensured load
 * balancer"; the IP is released when the Service is deleted or changes type (DeletingLoadBalancer,
 * DeletedLoadBalancer), guarded by the service.kubernetes.io/load-balancer-cleanup finalizer.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import { users, type Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { deepCopy, metaNamespaceKey } from '../api/types';
import type { Service } from '../api/objects';

const PARTICIPANT = 'service-controller';
/** Simulated time the cloud takes to program a load balancer. */
export const LB_PROVISION_MS = 2_000;
/** servicehelper.LoadBalancerCleanupFinalizer (k8s.io/cloud-provider/service/helpers). */
export const LB_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';

export class ServiceLoadBalancerController {
  readonly name = PARTICIPANT;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly queue: RateLimitingQueue;
  private readonly services: SharedInformer<Service>;
  private readonly assigned = new Map<string, string>(); // service key → IP
  private readonly provisioning = new Set<string>();

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client({ ...users.controller('service-controller'), participant: PARTICIPANT });
    this.recorder = ctx.recorder(this.client, 'service-controller');
    this.queue = new RateLimitingQueue('service', ctx.clock, ctx.relay, (key) => this.syncService(key));
    this.services = informers.informerFor<Service>('', 'services');
    this.services.addEventHandler({
      participant: PARTICIPANT,
      filter: (s) =>
        s.spec?.type === 'LoadBalancer' ||
        this.assigned.has(metaNamespaceKey(s)) ||
        (s.metadata.finalizers ?? []).includes(LB_CLEANUP_FINALIZER),
      onAdd: (s) => this.queue.add(metaNamespaceKey(s)),
      onUpdate: (o, s) => {
        // needsUpdate: a change of whether the Service wants a load balancer is recorded first
        const wants = (x: Service) => x.spec?.type === 'LoadBalancer';
        if (wants(o) !== wants(s)) this.recorder.event(s, 'Normal', 'Type', `${o.spec?.type} -> ${s.spec?.type}`);
        this.queue.add(metaNamespaceKey(s));
      },
      onDelete: (s) => this.queue.add(metaNamespaceKey(s)),
    });
  }

  run(): void {}
  pause(): void {
    this.queue.paused = true;
  }
  resume(): void {
    this.queue.resume();
  }

  private allocate(): string | undefined {
    const used = new Set(this.assigned.values());
    for (let i = 200; i <= 250; i++) {
      const ip = `172.18.255.${i}`;
      if (!used.has(ip)) return ip;
    }
    return undefined;
  }

  /**
   * syncService (syncLoadBalancerIfNeeded): ensure or delete the Service's load balancer. The
   * `service.kubernetes.io/load-balancer-cleanup` finalizer is added before provisioning and
   * removed once the load balancer is gone, so a deleted Service waits for its cleanup
   * (DeletingLoadBalancer "Deleting load balancer", then DeletedLoadBalancer "Deleted load
   * balancer"), as on a type change away from LoadBalancer.
   */
  syncService(key: string): void {
    const svc = this.services.get(key);
    if (!svc) {
      this.assigned.delete(key);
      return;
    }
    const hasFinalizer = (svc.metadata.finalizers ?? []).includes(LB_CLEANUP_FINALIZER);
    const wants = svc.spec?.type === 'LoadBalancer' && !svc.metadata.deletionTimestamp;
    if (!wants) {
      if (!hasFinalizer && !this.assigned.has(key)) return;
      if (this.assigned.delete(key)) {
        this.recorder.event(svc, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
        this.ctx.relay.record({
          from: PARTICIPANT,
          to: PARTICIPANT,
          kind: 'decision',
          summary: `Service ${key} no longer needs a load balancer → release its IP`,
        });
      }
      const cur = hasFinalizer ? this.setFinalizer(svc, false) : svc;
      this.recorder.event(svc, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
      if (!svc.metadata.deletionTimestamp && cur.status?.loadBalancer?.ingress?.length) this.writeStatus(cur, []);
      return;
    }
    const ip = this.assigned.get(key);
    const current = svc.status?.loadBalancer?.ingress?.[0]?.ip;
    if (ip && current === ip) return;
    if (this.provisioning.has(key)) return;
    if (ip) {
      this.writeStatus(svc, [{ ip, ipMode: 'VIP' }]);
      return;
    }
    const next = this.allocate();
    if (!next) {
      this.recorder.event(
        svc,
        'Warning',
        'SyncLoadBalancerFailed',
        'Error syncing load balancer: failed to ensure load balancer: no available IPs in the pool',
      );
      return;
    }
    this.recorder.event(svc, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    if (!(svc.metadata.finalizers ?? []).includes(LB_CLEANUP_FINALIZER)) this.setFinalizer(svc, true);
    this.ctx.relay.record({
      from: PARTICIPANT,
      to: PARTICIPANT,
      kind: 'decision',
      summary: `Service ${key} type LoadBalancer → provision ${next} in the cloud`,
    });
    this.assigned.set(key, next);
    this.provisioning.add(key);
    const cause = this.ctx.relay.currentCause;
    this.ctx.clock.setTimer(
      LB_PROVISION_MS,
      () => {
        this.provisioning.delete(key);
        this.ctx.relay.withCause(cause, () => {
          const cur = this.services.get(key);
          if (!cur || cur.spec?.type !== 'LoadBalancer') return void this.queue.add(key);
          this.writeStatus(cur, [{ ip: next, ipMode: 'VIP' }]);
          this.recorder.event(cur, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
        });
      },
      { deadline: true, label: `load balancer for Service ${key}`, object: `Service/${key}` },
    );
  }

  /** addFinalizer / removeFinalizer: the cleanup finalizer on or off (an update of the Service). */
  private setFinalizer(svc: Service, on: boolean): Service {
    const next = deepCopy(svc);
    const rest = (next.metadata.finalizers ?? []).filter((f) => f !== LB_CLEANUP_FINALIZER);
    if (on) next.metadata.finalizers = [...rest, LB_CLEANUP_FINALIZER];
    else if (rest.length) next.metadata.finalizers = rest;
    else delete next.metadata.finalizers;
    return this.client
      .resource<Service>('', 'services')
      .update(next, { summary: `Service ${metaNamespaceKey(svc)} ${on ? 'add' : 'remove'} finalizer ${LB_CLEANUP_FINALIZER}` });
  }

  private writeStatus(svc: Service, ingress: { ip: string; ipMode: string }[]): void {
    const next = deepCopy(svc);
    next.status = { ...next.status, loadBalancer: ingress.length ? { ingress } : {} };
    this.client.resource<Service>('', 'services').updateStatus(next, {
      summary: `Service ${metaNamespaceKey(svc)} status.loadBalancer.ingress=${ingress.map((i) => i.ip).join(',') || '[]'}`,
    });
  }
}
