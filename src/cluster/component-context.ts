/**
 * What every simulated component (controllers, scheduler, kubelets) receives: the shared
 * clock, the seeded RNG, the relay recorder, a way to get an authenticated client, and an
 * event recorder. Components never touch the store directly; they only talk to the
 * apiserver, as in a real cluster.
 */
import type { APIServer, RequestUser } from './apiserver/apiserver';
import { Client } from './client/clientset';
import { EventCache, EventRecorder } from './client/record';
import type { RelayRecorder } from './relay/recorder';
import type { Rng } from './sim/rng';
import type { SimClock } from './sim/clock';
import type { Timings } from './timings';
import type { ImageRegistry } from './sim/image-registry';
import { PodCIDRSet } from './component-helpers/nodeipam/pod-cidr-set';

export class ComponentContext {
  readonly eventCache = new EventCache(() => this.clock.now());
  constructor(
    readonly api: APIServer,
    readonly clock: SimClock,
    readonly rng: Rng,
    readonly relay: RelayRecorder,
    readonly timings: Timings,
    readonly images: ImageRegistry,
  ) {}

  private cidrs: PodCIDRSet | undefined;

  /**
   * The Pod CIDRs the Nodes hold (component-helpers/nodeipam/pod-cidr-set.ts), made on first use and kept from the
   * store's Node events: the nodeipam allocator that kubelet registration folds in (upstream
   * it follows a Node informer of kube-controller-manager).
   */
  get podCIDRs(): PodCIDRSet {
    return (this.cidrs ??= new PodCIDRSet(this.api.store));
  }

  /** A client authenticated as `user`. */
  client(user: RequestUser): Client {
    return new Client(this.api, user);
  }

  /** An event recorder for a component (source.component), optionally on a host (kubelet). */
  recorder(client: Client, component: string, host?: string): EventRecorder {
    return new EventRecorder(client, this.clock, component, this.eventCache, host);
  }
}
