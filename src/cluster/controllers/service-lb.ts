/**
 * A simulated cloud load-balancer controller: the `service-controller` of
 * cloud-controller-manager (k8s.io/cloud-provider/controllers/service/controller.go), with a
 * provider that hands out external IPs from a pool, as MetalLB does in kind clusters
 * (172.18.255.200–172.18.255.250). For every Service of type LoadBalancer it records
 * EnsuringLoadBalancer "Ensuring load balancer", provisions (2 s of simulated cloud time),
 * writes status.loadBalancer.ingress[0].ip, and records EnsuredLoadBalancer "Ensured load
 * balancer"; the IP is released when the Service is deleted or changes type.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import { users, type Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { deepCopy, metaNamespaceKey, type KObject } from '../api/types';

const PARTICIPANT = 'service-controller';
/** Simulated time the cloud takes to program a load balancer. */
export const LB_PROVISION_MS = 2_000;

export class ServiceLoadBalancerController {
  readonly name = PARTICIPANT;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly queue: RateLimitingQueue;
  private readonly services: SharedInformer;
  private readonly assigned = new Map<string, string>(); // service key → IP
  private readonly provisioning = new Set<string>();

  constructor(private readonly ctx: ComponentContext, informers: SharedInformerFactory) {
    this.client = ctx.client({ ...users.controller('service-controller'), participant: PARTICIPANT });
    this.recorder = ctx.recorder(this.client, 'service-controller');
    this.queue = new RateLimitingQueue('service', ctx.clock, ctx.relay, (key) => this.syncService(key));
    this.services = informers.informerFor('', 'services');
    this.services.addEventHandler({
      participant: PARTICIPANT,
      filter: (s) => s.spec?.type === 'LoadBalancer' || this.assigned.has(metaNamespaceKey(s)),
      onAdd: (s) => this.queue.add(metaNamespaceKey(s)),
      onUpdate: (_o, s) => this.queue.add(metaNamespaceKey(s)),
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

  /** syncService: ensure or delete the Service's load balancer. */
  syncService(key: string): void {
    const svc = this.services.get(key);
    const wants = svc && svc.spec?.type === 'LoadBalancer' && !svc.metadata.deletionTimestamp;
    if (!wants) {
      if (this.assigned.delete(key)) {
        this.ctx.relay.record({ from: PARTICIPANT, to: PARTICIPANT, kind: 'decision', summary: `Service ${key} no longer needs a load balancer → release its IP` });
        if (svc) this.recorder.event(svc, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
        if (svc?.status?.loadBalancer?.ingress?.length) this.writeStatus(svc, []);
      }
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
      this.recorder.event(svc, 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: failed to ensure load balancer: no available IPs in the pool');
      return;
    }
    this.recorder.event(svc, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    this.ctx.relay.record({ from: PARTICIPANT, to: PARTICIPANT, kind: 'decision', summary: `Service ${key} type LoadBalancer → provision ${next} in the cloud` });
    this.assigned.set(key, next);
    this.provisioning.add(key);
    const cause = this.ctx.relay.currentCause;
    this.ctx.clock.setTimer(LB_PROVISION_MS, () => {
      this.provisioning.delete(key);
      this.ctx.relay.withCause(cause, () => {
        const cur = this.services.get(key);
        if (!cur || cur.spec?.type !== 'LoadBalancer') return void this.queue.add(key);
        this.writeStatus(cur, [{ ip: next, ipMode: 'VIP' }]);
        this.recorder.event(cur, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
      });
    }, { deadline: true, label: `load balancer for Service ${key}`, object: `Service/${key}` });
  }

  private writeStatus(svc: KObject, ingress: { ip: string; ipMode: string }[]): void {
    const next = deepCopy(svc);
    next.status = { ...next.status, loadBalancer: ingress.length ? { ingress } : {} };
    this.client.resource('', 'services').updateStatus(next, { summary: `Service ${metaNamespaceKey(svc)} status.loadBalancer.ingress=${ingress.map((i) => i.ip).join(',') || '[]'}` });
  }
}
