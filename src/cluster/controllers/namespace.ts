/**
 * NamespaceController: when a Namespace is being deleted, delete everything in it, then
 * remove the "kubernetes" finalizer so the apiserver can remove the Namespace — as
 * pkg/controller/namespace/namespace_controller.go and
 * pkg/controller/namespace/deletion/namespaced_resources_deleter.go do.
 *
 * Status conditions set while terminating (upstream types and reasons):
 * NamespaceDeletionDiscoveryFailure, NamespaceDeletionGroupVersionParsingFailure,
 * NamespaceDeletionContentFailure, NamespaceContentRemaining, NamespaceFinalizersRemaining.
 * While Pods are still terminating the namespace is requeued after an estimate of the
 * remaining grace period (a known deadline).
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformerFactory, SharedInformer } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import { users, type Client } from '../client/clientset';
import { deepCopy } from '../api/types';
import type { APIObject, Namespace } from '../api/objects';
import { StatusError } from '../api/errors';
import type { ResourceClient } from '../client/clientset';

const PARTICIPANT = 'namespace-controller';

export class NamespaceController {
  readonly name = PARTICIPANT;
  private readonly client: Client;
  private readonly queue: RateLimitingQueue;
  private readonly namespaces: SharedInformer<Namespace>;

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client(users.controller(PARTICIPANT));
    this.queue = new RateLimitingQueue('namespace', ctx.clock, ctx.relay, (key) => this.syncNamespaceFromKey(key));
    this.namespaces = informers.informerFor<Namespace>('', 'namespaces');
    this.namespaces.addEventHandler({
      participant: PARTICIPANT,
      filter: (ns) => !!ns.metadata.deletionTimestamp,
      onAdd: (ns) => this.queue.add(ns.metadata.name),
      onUpdate: (_o, ns) => this.queue.add(ns.metadata.name),
    });
  }

  /** Nothing periodic: the work queue drains on the simulated clock. */
  run(): void {}

  pause(): void {
    this.queue.paused = true;
  }

  resume(): void {
    this.queue.resume();
  }

  /** syncNamespaceFromKey: deletes the namespace's content, then finalizes it. */
  syncNamespaceFromKey(name: string): void {
    const ns = this.namespaces.get(name);
    if (!ns || !ns.metadata.deletionTimestamp) return;
    const { remaining, estimateSeconds } = this.deleteAllContent(ns);
    this.updateConditions(ns, remaining);
    if (remaining > 0) {
      const wait = Math.max(estimateSeconds, 1) * 1000;
      this.queue.addAfter(name, wait, { label: `namespace ${name}: content remaining, recheck`, object: `Namespace/${name}` });
      return;
    }
    this.finalize(ns);
  }

  private deleteAllContent(ns: Namespace): { remaining: number; estimateSeconds: number } {
    const name = ns.metadata.name;
    let remaining = 0;
    let estimate = 0;
    for (const info of this.client.restMapper.all()) {
      if (!info.namespaced || !info.verbs.includes('delete') || info.kind === 'Binding') continue;
      // every namespaced resource the registry serves: the kind is only known here, at run time
      const rc = this.client.resource<APIObject>(info.group, info.resource);
      const items = rc.list(name, { quiet: true }).items;
      for (const o of items) {
        remaining++;
        if (o.metadata.deletionTimestamp) {
          if (info.kind === 'Pod') estimate = Math.max(estimate, o.metadata.deletionGracePeriodSeconds ?? 0);
          continue;
        }
        try {
          const left = rc.delete(name, o.metadata.name, {
            summary: `delete ${info.kind} ${name}/${o.metadata.name} (namespace ${name} terminating)`,
          });
          if (!left.metadata.deletionTimestamp || this.gone(rc, name, o.metadata.name)) remaining--;
          else if (info.kind === 'Pod') estimate = Math.max(estimate, left.metadata.deletionGracePeriodSeconds ?? 0);
        } catch (e) {
          if (e instanceof StatusError && e.code === 404) remaining--;
          else throw e;
        }
      }
    }
    return { remaining, estimateSeconds: estimate };
  }

  private updateConditions(ns: Namespace, remaining: number): void {
    const now = this.ctx.clock.nowRFC3339();
    const cond = (type: string, status: string, reason: string, message: string) => ({
      type,
      status,
      lastTransitionTime: now,
      reason,
      message,
    });
    const next = deepCopy(ns);
    next.status = {
      phase: 'Terminating',
      conditions: [
        cond('NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'),
        cond('NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'),
        cond(
          'NamespaceDeletionContentFailure',
          'False',
          'ContentDeleted',
          'All content successfully deleted, may be waiting on finalization',
        ),
        remaining > 0
          ? cond('NamespaceContentRemaining', 'True', 'SomeResourcesRemain', `Some resources are remaining: ${remaining} objects`)
          : cond('NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'),
        cond('NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'),
      ],
    };
    // keep transition times of conditions whose status did not change (conditions: set above)
    for (const c of next.status.conditions!) {
      const prev = (ns.status?.conditions ?? []).find((p) => p.type === c.type);
      if (prev && prev.status === c.status) c.lastTransitionTime = prev.lastTransitionTime;
    }
    try {
      this.client
        .resource<Namespace>('', 'namespaces')
        .updateStatus(next, { summary: `namespace ${ns.metadata.name} terminating: ${remaining} objects remain` });
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }

  /** Whether a deleted object is gone already (a quiet get answers 404), as the deleter's re-list would find. */
  private gone(rc: Pick<ResourceClient<APIObject>, 'get'>, namespace: string, name: string): boolean {
    try {
      rc.get(namespace, name, { quiet: true });
      return false;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return true;
      throw e;
    }
  }

  private finalize(ns: Namespace): void {
    const cur = this.client.resource<Namespace>('', 'namespaces').get('', ns.metadata.name, { quiet: true });
    const next = deepCopy(cur);
    next.spec = { ...next.spec, finalizers: (next.spec?.finalizers ?? []).filter((f) => f !== 'kubernetes') };
    this.ctx.relay.record({
      from: PARTICIPANT,
      to: PARTICIPANT,
      kind: 'decision',
      summary: `namespace ${ns.metadata.name} is empty → remove finalizer "kubernetes"`,
    });
    this.client.resource<Namespace>('', 'namespaces').update(next as Namespace, {
      subresource: 'finalize',
      summary: `finalize namespace ${ns.metadata.name}`,
    });
  }
}
