/**
 * The root-ca-cert-publisher controller, after kubernetes/kubernetes
 * pkg/controller/certificates/rootcacertpublisher/publisher.go: every namespace gets a
 * ConfigMap `kube-root-ca.crt` whose `ca.crt` is the cluster's root CA bundle (what the
 * projected `kube-api-access-*` volume mounts as
 * /var/run/secrets/kubernetes.io/serviceaccount/ca.crt), with the `kubernetes.io/description`
 * annotation. A namespace added or updated, or that ConfigMap changed or deleted, requeues its
 * namespace; syncNamespace creates it when missing and restores data and annotation when they
 * differ. A create into a namespace that is gone or terminating is not retried. No events.
 * The CA is simulated (a PEM block of the usual size, stable per seed): kube-relay does no crypto.
 * Relay participant `root-ca-cert-publisher`.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import { RateLimitingQueue } from '../client/workqueue';
import { deepCopy, deepEqual } from '../api/types';
import type { ConfigMap, Namespace } from '../api/objects';
import { hasStatusCause, NamespaceTerminatingCause, StatusError } from '../api/errors';
import { isNotFound } from './controller-utils';
import { generateCerts } from '../userland/images/certgen';

/** Relay participant and identity of this controller. */
export const RootCACertPublisherName = 'root-ca-cert-publisher';
/** RootCACertConfigMapName. */
export const RootCACertConfigMapName = 'kube-root-ca.crt';
export const DescriptionAnnotation = 'kubernetes.io/description';
export const Description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** The simulated cluster root CA (kubeadm's `ca.crt`): a PEM certificate block, stable per seed. */
export function clusterRootCA(seed: number): string {
  return generateCerts('kubernetes', seed ^ 0x6b756265).ca;
}

export class RootCACertPublisher {
  readonly name = RootCACertPublisherName;
  readonly queue: RateLimitingQueue;
  private readonly nsInformer: SharedInformer<Namespace>;
  private readonly cmInformer: SharedInformer<ConfigMap>;
  private readonly cmClient: ResourceClient<ConfigMap>;
  private readonly rootCA: string;

  /** Wires the Namespace and ConfigMap informer handlers. */
  constructor(ctx: ComponentContext, informers: SharedInformerFactory) {
    const client = ctx.client(users.controller(RootCACertPublisherName));
    this.cmClient = client.resource<ConfigMap>('', 'configmaps');
    this.rootCA = clusterRootCA(ctx.rng.seed);
    this.nsInformer = informers.informerFor<Namespace>('', 'namespaces');
    this.cmInformer = informers.informerFor<ConfigMap>('', 'configmaps');
    this.queue = new RateLimitingQueue('root_ca_cert_publisher', ctx.clock, ctx.relay, (ns) => this.syncNamespace(ns));
    this.nsInformer.addEventHandler({
      participant: RootCACertPublisherName,
      onAdd: (n) => this.queue.add(n.metadata.name),
      onUpdate: (_o, n) => this.queue.add(n.metadata.name),
    });
    this.cmInformer.addEventHandler({
      participant: RootCACertPublisherName,
      filter: (cm) => cm.metadata.name === RootCACertConfigMapName,
      onUpdate: (_o, cm) => this.queue.add(cm.metadata.namespace ?? ''),
      onDelete: (cm) => this.queue.add(cm.metadata.namespace ?? ''),
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

  /** syncNamespace: create the ConfigMap, or restore its data and description. */
  syncNamespace(ns: string): void {
    const nsObj = this.nsInformer.get(ns);
    if (!nsObj || nsObj.status?.phase === 'Terminating' || nsObj.metadata.deletionTimestamp) return;
    const cm = this.cmInformer.get(`${ns}/${RootCACertConfigMapName}`);
    const data = { 'ca.crt': this.rootCA };
    if (!cm) {
      try {
        this.cmClient.create(
          ns,
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: RootCACertConfigMapName, namespace: ns, annotations: { [DescriptionAnnotation]: Description } },
            data,
          },
          { summary: `create ConfigMap ${ns}/${RootCACertConfigMapName}` },
        );
      } catch (err) {
        // don't retry a create if the namespace doesn't exist or is terminating
        if (isNotFound(err) || hasStatusCause(err, NamespaceTerminatingCause)) return;
        if (err instanceof StatusError && err.code === 409) return;
        throw err;
      }
      return;
    }
    if (deepEqual(cm.data, data) && cm.metadata.annotations?.[DescriptionAnnotation]) return;
    const copy = deepCopy(cm);
    copy.data = data;
    copy.metadata.annotations = { ...copy.metadata.annotations, [DescriptionAnnotation]: Description };
    this.cmClient.update(copy, { summary: `update ConfigMap ${ns}/${RootCACertConfigMapName}: restore ca.crt` });
  }
}
