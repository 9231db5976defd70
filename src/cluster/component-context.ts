/**
 * What every simulated component (controllers, scheduler, kubelets) receives: the shared
 * clock, the seeded RNG, the relay recorder, a way to get an authenticated client (with the
 * component's identity; informers are built from it, client/listwatch.ts), and an event
 * recorder. Not the APIServer: components never touch the store, they only talk to the
 * apiserver through a client, as in a real cluster (guarded by src/cluster/component-api.test.ts).
 */
import type { APIServer, RequestUser } from './apiserver/apiserver';
import { Client } from './client/clientset';
import { EventCache, EventRecorder } from './client/record';
import type { RelayRecorder } from './relay/recorder';
import type { Rng } from './sim/rng';
import type { SimClock } from './sim/clock';
import type { Timings } from './timings';
import type { ImageRegistry } from './sim/image-registry';
import { NodeHeartbeats } from './sim/heartbeats';
import { PodCIDRSet } from './component-helpers/nodeipam/pod-cidr-set';

export class ComponentContext {
  readonly eventCache = new EventCache(() => this.clock.now());
  /**
   * The lazy node Lease heartbeats (sim/heartbeats.ts) the kubelets and the node-lifecycle
   * controller share: disabled unless `Cluster` installs an enabled one before building them.
   */
  heartbeats = new NodeHeartbeats(false);
  constructor(
    private readonly api: APIServer,
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
   * it follows a Node informer of kube-controller-manager). Kept from the store, not an
   * informer, on purpose: registration takes the lowest free CIDR at once, and kubelets that
   * register within one watch latency of each other would otherwise pick the same one (every
   * recorded scenario's numbering depends on it). The only store read left in this context.
   */
  get podCIDRs(): PodCIDRSet {
    return (this.cidrs ??= new PodCIDRSet(this.api.store));
  }

  /** A client authenticated as `user`. */
  client(user: RequestUser): Client {
    return new Client(this.api, user);
  }

  /**
   * Runs `fn` with the apiserver drawing uids and generated names from `rng` (APIServer.withRng),
   * so the writes of a component added to the engine later do not shift every later uid in
   * recorded scenarios. Returns what `fn` returns.
   */
  withUIDStream<T>(rng: Rng, fn: () => T): T {
    return this.api.withRng(rng, fn);
  }

  /** An event recorder for a component (source.component), optionally on a host (kubelet). */
  recorder(client: Client, component: string, host?: string): EventRecorder {
    return new EventRecorder(client, this.clock, component, this.eventCache, host);
  }
}
