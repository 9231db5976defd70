/**
 * The resourcequota controller, after pkg/controller/resourcequota/resource_quota_controller.go
 * (syncResourceQuota) and resource_quota_monitor.go (replenishment):
 * - a ResourceQuota added, or whose spec.hard changed, is synced: status.hard is copied from
 *   spec.hard and status.used recomputed from what is stored in its namespace
 *   (quota.CalculateUsage over the evaluators of quota/evaluators.ts: pods, count/pods, cpu,
 *   requests.*, limits.*, services, services.nodeports, services.loadbalancers, configmaps,
 *   secrets, persistentvolumeclaims, requests.storage, count/<resource>[.<group>] …), masked to
 *   the hard names, each name without objects at "0"; the status is written only when it differs;
 * - replenishment: a Pod deleted or turned terminal (Succeeded/Failed), a Service deleted or
 *   whose type changed, a PersistentVolumeClaim deleted or resized, any other tracked object
 *   deleted requeues the quotas of its namespace (creates were charged by the admission plugin,
 *   quota/admission.ts);
 * - every quota is resynced every 5 minutes (--resource-quota-sync-period).
 * No events. Relay participant `resourcequota-controller`.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { users, type Client } from '../client/clientset';
import { RateLimitingQueue } from '../client/workqueue';
import { deepCopy, deepEqual, metaNamespaceKey, splitKey } from '../api/types';
import type { APIObject, PersistentVolumeClaim, Pod, ResourceQuota, Service } from '../api/objects';
import { evaluatorFor, quotaV1Pod, trackedGroupResources } from '../quota/evaluators';
import { add, mask, units, usageEquals, usageOf, usageToList, type Usage } from '../quota/resources';

/** Relay participant and service account of the controller. */
export const ResourceQuotaControllerName = 'resourcequota-controller';
/** --resource-quota-sync-period (5m0s), simulated ms. */
export const RESOURCE_QUOTA_SYNC_PERIOD_MS = 5 * 60_000;

/** Resources whose informers replenish on update as well as on delete (resource_quota_monitor.go). */
const WATCHED = ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'];

export class ResourceQuotaController {
  readonly name = ResourceQuotaControllerName;
  readonly queue: RateLimitingQueue;
  private readonly client: Client;
  private readonly quotas: SharedInformer<ResourceQuota>;
  /** The replenishment informers by resource (WATCHED): objects of several kinds. */
  private readonly informers = new Map<string, SharedInformer<APIObject>>();
  private paused = false;

  /** Wires the ResourceQuota informer and the replenishment informers. */
  constructor(
    private readonly ctx: ComponentContext,
    factory: SharedInformerFactory,
  ) {
    this.client = ctx.client(users.controller(ResourceQuotaControllerName));
    this.quotas = factory.informerFor<ResourceQuota>('', 'resourcequotas');
    this.queue = new RateLimitingQueue('resourcequota_primary', ctx.clock, ctx.relay, (key) => this.syncResourceQuotaFromKey(key));
    this.quotas.addEventHandler({
      participant: ResourceQuotaControllerName,
      onAdd: (q) => this.queue.add(metaNamespaceKey(q)),
      // only spec changes matter: the controller's own status writes do not requeue
      onUpdate: (o, q) => {
        if (!deepEqual(o.spec?.hard, q.spec?.hard)) this.queue.add(metaNamespaceKey(q));
      },
    });
    for (const r of WATCHED) {
      const inf: SharedInformer<APIObject> = r === 'resourcequotas' ? this.quotas : factory.informerFor<APIObject>('', r);
      this.informers.set(r, inf);
      inf.addEventHandler({
        participant: ResourceQuotaControllerName,
        onUpdate: (o, n) => {
          if (this.replenishOnUpdate(r, o, n)) this.replenishQuota(r, n.metadata.namespace ?? '');
        },
        onDelete: (o) => this.replenishQuota(r, o.metadata.namespace ?? ''),
      });
    }
  }

  /** Starts the periodic full resync. */
  run(): void {
    this.schedule();
  }

  pause(): void {
    this.paused = true;
    this.queue.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.queue.resume();
  }

  /** Every quota, requeued. */
  resync(): void {
    for (const q of this.quotas.list()) this.queue.add(metaNamespaceKey(q));
  }

  private schedule(): void {
    this.ctx.clock.setTimer(
      RESOURCE_QUOTA_SYNC_PERIOD_MS,
      () => {
        if (!this.paused) this.ctx.relay.withCause(null, () => this.resync());
        this.schedule();
      },
      { label: `${ResourceQuotaControllerName}: resync every 5m` },
    );
  }

  /** The monitor's update filter: only changes that release usage. */
  private replenishOnUpdate(resource: string, o: APIObject, n: APIObject): boolean {
    const now = this.ctx.clock.now();
    // the resource names the objects' kind
    if (resource === 'pods') return quotaV1Pod(o as Pod, now) && !quotaV1Pod(n as Pod, now);
    if (resource === 'services') return ((o as Service).spec?.type ?? '') !== ((n as Service).spec?.type ?? '');
    if (resource === 'persistentvolumeclaims') {
      const [oc, nc] = [o as PersistentVolumeClaim, n as PersistentVolumeClaim];
      return !deepEqual(oc.spec?.resources?.requests?.storage, nc.spec?.resources?.requests?.storage);
    }
    return false;
  }

  /** replenishQuota: the quotas of the namespace that track the resource are requeued. */
  private replenishQuota(resource: string, namespace: string): void {
    const ev = evaluatorFor(resource);
    for (const q of this.quotas.list()) {
      if (q.metadata.namespace !== namespace) continue;
      if (ev.matchingResources(Object.keys(q.status?.hard ?? {})).length) this.queue.add(metaNamespaceKey(q));
    }
  }

  private syncResourceQuotaFromKey(key: string): void {
    const q = this.quotas.get(key);
    if (!q) return;
    this.syncResourceQuota(q);
  }

  /** The objects of a group-qualified resource in a namespace (an informer's cache, or a quiet list). */
  private objectsOf(gr: string, namespace: string): APIObject[] {
    const inf = this.informers.get(gr);
    if (inf) return inf.list().filter((o) => o.metadata.namespace === namespace);
    const dot = gr.indexOf('.');
    const [resource, group] = dot < 0 ? [gr, ''] : [gr.slice(0, dot), gr.slice(dot + 1)];
    const info = this.client.restMapper.forResource(group, resource);
    if (!info || !info.namespaced) return [];
    return this.client.resource<APIObject>(group, resource).list(namespace, { quiet: true }).items;
  }

  /** quota.CalculateUsage: the observed usage of the hard names, zero where nothing counts. */
  calculateUsage(q: ResourceQuota): Usage {
    const hard = Object.keys(q.spec?.hard ?? {});
    const ns = q.metadata.namespace ?? '';
    const now = this.ctx.clock.now();
    let used: Usage = new Map();
    for (const gr of trackedGroupResources(hard)) {
      const ev = evaluatorFor(gr);
      const names = ev.matchingResources(hard);
      if (!names.length) continue;
      // CalculateUsageStats: each tracked name starts at zero (DecimalSI)
      let stats: Usage = new Map(names.map((n) => [n, { ...units(0) }]));
      for (const o of this.objectsOf(gr, ns)) if (ev.matches(q, o)) stats = add(stats, ev.usage(o, now));
      used = add(used, mask(stats, names));
    }
    return mask(used, hard);
  }

  /** syncResourceQuota: status.hard = spec.hard, status.used recomputed; written when changed. */
  syncResourceQuota(q: ResourceQuota): void {
    const hard = usageOf(q.spec?.hard);
    const prevUsed = usageOf(q.status?.used);
    // the previous observation, each computed value replacing its own, masked to the hard names
    const merged: Usage = new Map(prevUsed);
    for (const [k, v] of this.calculateUsage(q)) merged.set(k, v);
    const used = mask(merged, hard.keys());
    const statusLimitsDirty = !deepEqual(q.spec?.hard ?? {}, q.status?.hard ?? {});
    const dirty = statusLimitsDirty || q.status?.hard === undefined || q.status?.used === undefined || !usageEquals(used, prevUsed);
    if (!dirty) return;
    const copy = deepCopy(q);
    const status = { hard: usageToList(hard), used: usageToList(used) };
    copy.status = status;
    const [ns, name] = splitKey(metaNamespaceKey(q));
    this.client.resource<ResourceQuota>('', 'resourcequotas').updateStatus(copy, {
      summary: `ResourceQuota ${ns}/${name} status: used ${
        Object.entries(status.used)
          .map(([k, v]) => `${k}=${v}`)
          .join(',') || '{}'
      }`,
    });
  }
}
