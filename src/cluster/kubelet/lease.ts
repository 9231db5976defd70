/**
 * The node Lease heartbeat, as pkg/kubelet/nodelease (k8s.io/component-helpers/apimachinery/
 * lease/controller.go): `kube-node-lease/<node>` with holderIdentity = node name,
 * leaseDurationSeconds = 40, owned by the Node, renewed every 25 % of the duration (10 s).
 * renewTime is a MicroTime of simulated time. Writes carry relay category 'heartbeat'.
 */
import { StatusError } from '../api/errors';
import type { Lease, Node } from '../api/objects';
import type { ResourceClient } from '../client/clientset';
import type { ComponentContext } from '../component-context';
import { microTimeOf } from '../sim/clock';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export class NodeLease {
  private latest: Lease | null = null;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly nodeName: string,
    private readonly leases: ResourceClient<Lease>,
    private readonly nodes: ResourceClient<Node>,
  ) {}

  /** Renew interval: 25 % of the lease duration (simulated ms). */
  get renewIntervalMs(): number {
    return this.ctx.timings.nodeLeaseDurationMs / 4;
  }

  /** Forget the cached Lease (kubelet restart). */
  reset(): void {
    this.latest = null;
  }

  /**
   * One sync of the lease controller: create or renew. Never throws StatusError. `atMs` (simulated
   * ms, not after now) writes a renewal made earlier: the lazy path's materialization
   * (sim/heartbeats.ts), which re-reads the Lease once when the cached one is stale; `folded`
   * is how many renewals that one write stands for (metadata.generation advances by it).
   */
  renew(atMs?: number, folded = 1): void {
    if (atMs !== undefined) {
      this.renewAt(atMs, folded);
      if (!this.latest) this.renewAt(atMs, folded);
      return;
    }
    this.renewAt(undefined, 1);
  }

  private renewAt(atMs: number | undefined, folded: number): void {
    const renewTime = atMs === undefined ? this.ctx.clock.nowMicro() : microTimeOf(atMs);
    const durationS = Math.round(this.ctx.timings.nodeLeaseDurationMs / 1000);
    try {
      if (!this.latest) {
        try {
          this.latest = this.leases.get(NODE_LEASE_NAMESPACE, this.nodeName, { quiet: true });
        } catch (err) {
          if (!(err instanceof StatusError) || err.code !== 404) throw err;
          const node = this.nodes.get('', this.nodeName, { quiet: true });
          this.latest = this.leases.create(
            NODE_LEASE_NAMESPACE,
            {
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: {
                name: this.nodeName,
                namespace: NODE_LEASE_NAMESPACE,
                ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: node.metadata.uid ?? '' }],
              },
              spec: { holderIdentity: this.nodeName, leaseDurationSeconds: durationS, renewTime },
            },
            { category: 'heartbeat', summary: `create Lease ${NODE_LEASE_NAMESPACE}/${this.nodeName}` },
          );
          return;
        }
      }
      const next: Lease = {
        ...this.latest,
        spec: { ...this.latest.spec, holderIdentity: this.nodeName, leaseDurationSeconds: durationS, renewTime },
      };
      this.latest = this.leases.update(next, {
        category: 'heartbeat',
        summary: `renew Lease ${NODE_LEASE_NAMESPACE}/${this.nodeName}`,
        ...(folded !== 1 ? { foldedUpdates: folded } : {}),
      });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      this.latest = null; // conflict or gone: re-read on the next tick
    }
  }
}
