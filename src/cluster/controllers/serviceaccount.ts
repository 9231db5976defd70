/**
 * The ServiceAccount controller (kube-controller-manager's `serviceaccount-controller`), after
 * kubernetes/kubernetes pkg/controller/serviceaccount/serviceaccounts_controller.go: every
 * active Namespace gets the ServiceAccounts to ensure — DefaultServiceAccountsControllerOptions'
 * one, `default`. A Namespace added or updated, or a ServiceAccount deleted, enqueues its
 * namespace; syncNamespace creates each missing account (an AlreadyExists or a terminating
 * namespace is not an error; any other failure retries with the queue's back-off). A namespace
 * that is gone or not Active is skipped. No events.
 *
 * Its creates draw their uids from an RNG stream of their own (APIServer.withRng), so adding the
 * `default` ServiceAccounts does not shift the names and uids every later object draws.
 * Relay participant `serviceaccount-controller`; identity kube-system/service-account-controller.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import { RateLimitingQueue } from '../client/workqueue';
import type { Namespace, ServiceAccount } from '../api/objects';
import { hasStatusCause, NamespaceTerminatingCause } from '../api/errors';
import { isAlreadyExists } from './controller-utils';
import type { Rng } from '../sim/rng';

/** Relay participant of this controller (its kube-controller-manager name). */
export const ServiceAccountControllerName = 'serviceaccount-controller';
/** DefaultServiceAccountName (the ServiceAccount admission plugin's default). */
export const DefaultServiceAccountName = 'default';
/** DefaultServiceAccountsControllerOptions().ServiceAccounts: the accounts ensured in every namespace. */
export const ServiceAccountsToEnsure: readonly string[] = [DefaultServiceAccountName];

export class ServiceAccountsController {
  readonly name = ServiceAccountControllerName;
  readonly queue: RateLimitingQueue;
  private readonly nsInformer: SharedInformer<Namespace>;
  private readonly saInformer: SharedInformer<ServiceAccount>;
  private readonly saClient: ResourceClient<ServiceAccount>;
  /** The uid stream of this controller's creates. */
  private readonly ids: Rng;

  /** Wires the Namespace (add, update) and ServiceAccount (delete) handlers. */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.saClient = ctx.client(users.controller(ServiceAccountControllerName)).resource<ServiceAccount>('', 'serviceaccounts');
    this.ids = ctx.rng.derive('serviceaccount-controller');
    this.nsInformer = informers.informerFor<Namespace>('', 'namespaces');
    this.saInformer = informers.informerFor<ServiceAccount>('', 'serviceaccounts');
    this.queue = new RateLimitingQueue('serviceaccount', ctx.clock, ctx.relay, (ns) => this.syncNamespace(ns));
    this.saInformer.addEventHandler({
      participant: ServiceAccountControllerName,
      onDelete: (sa) => this.queue.add(sa.metadata.namespace ?? ''),
    });
    this.nsInformer.addEventHandler({
      participant: ServiceAccountControllerName,
      onAdd: (n) => this.queue.add(n.metadata.name),
      onUpdate: (_o, n) => this.queue.add(n.metadata.name),
    });
  }

  pause(): void {
    this.queue.paused = true;
  }

  resume(): void {
    this.queue.resume();
  }

  resync(): void {
    for (const n of this.nsInformer.list()) this.queue.add(n.metadata.name);
  }

  /**
   * syncNamespace: create every ServiceAccount to ensure that the lister does not hold.
   * @throws the first create failure other than AlreadyExists / NamespaceTerminating (the queue retries).
   */
  syncNamespace(key: string): void {
    const ns = this.nsInformer.get(key);
    if (!ns) return;
    // if the namespace is not active, we shouldn't try to create anything
    if ((ns.status?.phase ?? 'Active') !== 'Active') return;
    const failures: unknown[] = [];
    for (const name of ServiceAccountsToEnsure) {
      if (this.saInformer.get(`${key}/${name}`)) continue;
      try {
        this.ctx.withUIDStream(this.ids, () =>
          this.saClient.create(
            key,
            { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: key } },
            { summary: `create ServiceAccount ${key}/${name}` },
          ),
        );
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        // we can safely ignore terminating namespace errors
        if (hasStatusCause(err, NamespaceTerminatingCause)) continue;
        failures.push(err);
      }
    }
    if (failures.length) throw failures[0];
  }
}
