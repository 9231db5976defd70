/**
 * What the EndpointSlice and Endpoints controllers share: enqueue a Service when it changes,
 * and every Service selecting a Pod when that Pod changes — upstream's
 * pkg/controller/util/endpoint (ServiceSelectorCache, GetPodServiceMemberships) used by both
 * endpointslice_controller.go and endpoints_controller.go. Parsed selectors are cached per
 * Service resourceVersion, so a Pod event does not rebuild every Service's selector.
 */
import type { SharedInformer } from '../client/informer';
import type { RateLimitingQueue } from '../client/workqueue';
import { deepEqual, metaNamespaceKey } from '../api/types';
import type { Pod, Service } from '../api/objects';
import { fromLabelSelector, matches, type Selector } from '../api/labels';

export class ServiceSelectorCache {
  private cache = new Map<string, { rv: string | undefined; sel: Selector }>();

  constructor(private readonly services: SharedInformer<Service>) {}

  /** Services (with a selector) in the Pod's namespace that select it. */
  servicesFor(pod: Pod): Service[] {
    const out: Service[] = [];
    for (const s of this.services.list(pod.metadata.namespace)) {
      if (!s.spec?.selector) continue;
      const key = metaNamespaceKey(s);
      let hit = this.cache.get(key);
      if (!hit || hit.rv !== s.metadata.resourceVersion) {
        hit = { rv: s.metadata.resourceVersion, sel: fromLabelSelector({ matchLabels: s.spec.selector }) };
        this.cache.set(key, hit);
      }
      if (matches(hit.sel, pod.metadata.labels)) out.push(s);
    }
    return out;
  }

  forget(service: Service): void {
    this.cache.delete(metaNamespaceKey(service));
  }
}

/**
 * Registers the Service and Pod handlers of a Service-endpoints controller: Services with a
 * selector are enqueued on every change; a Pod change enqueues the Services selecting it (old
 * and new labels). Returns the selector cache for the sync.
 */
export function watchServicesAndPods(
  services: SharedInformer<Service>,
  pods: SharedInformer<Pod>,
  participant: string,
  queue: RateLimitingQueue,
): ServiceSelectorCache {
  const cache = new ServiceSelectorCache(services);
  const enqueueForPod = (p: Pod) => {
    for (const s of cache.servicesFor(p)) queue.add(metaNamespaceKey(s));
  };
  services.addEventHandler({
    participant,
    filter: (s) => !!s.spec?.selector,
    onAdd: (s) => queue.add(metaNamespaceKey(s)),
    onUpdate: (_o, s) => queue.add(metaNamespaceKey(s)),
    onDelete: (s) => {
      cache.forget(s);
      queue.add(metaNamespaceKey(s));
    },
  });
  pods.addEventHandler({
    participant,
    filter: (p) => cache.servicesFor(p).length > 0,
    onAdd: enqueueForPod,
    onUpdate: (o, p) => {
      if (o.metadata.resourceVersion === p.metadata.resourceVersion) return;
      enqueueForPod(p);
      if (!deepEqual(o.metadata.labels, p.metadata.labels)) enqueueForPod(o);
    },
    onDelete: enqueueForPod,
  });
  return cache;
}
