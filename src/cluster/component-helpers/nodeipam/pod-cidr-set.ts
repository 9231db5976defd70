/**
 * Which /24s of the cluster CIDR 10.244.0.0/16 the Nodes hold (spec.podCIDR 10.244.N.0/24),
 * kept from the store's Node events, so a registering kubelet finds the lowest free N in
 * O(1) amortized instead of listing every Node (which made booting N nodes O(N²)).
 *
 * Mirrors the bitmap of pkg/controller/nodeipam/ipam/cidrset/cidr_set.go (Occupy / Release /
 * AllocateNext) as the range allocator (ipam/range_allocator.go) keeps it from its Node
 * informer. One difference, kept from this engine's registration (kubelet/node-status.ts): the
 * next CIDR is always the lowest free one, not the one after the last handed out
 * (cidr_set.go's nextCandidate), so the numbering of every recorded scenario stays the same.
 * Several Nodes may claim one index (a Node created by hand): the index is free again only when
 * the last of them lets go.
 */
import type { KObject } from '../../api/types';
import type { MVCCStore, StoreEvent } from '../../storage/mvcc';

const POD_CIDR = /^10\.244\.(\d+)\.0\/24$/;

/** N of a Node's spec.podCIDR "10.244.N.0/24", or undefined for any other value or none. */
export function podCIDRIndex(node: KObject | undefined): number | undefined {
  const m = node?.spec?.podCIDR?.match(POD_CIDR);
  return m ? Number(m[1]) : undefined;
}

export class PodCIDRSet {
  /** index → how many stored Nodes hold it. */
  private holders = new Map<number, number>();
  /** Every index below this one is held. */
  private lowFree = 0;

  /** Occupies the CIDR of every Node already stored, then follows the store's Node events. */
  constructor(store: MVCCStore) {
    for (const e of store.list('nodes')) this.occupy(podCIDRIndex(e.obj));
    store.listen((ev) => this.observe(ev));
  }

  /** The lowest index no stored Node holds (what a registering kubelet takes). */
  lowestFree(): number {
    while (this.holders.has(this.lowFree)) this.lowFree++;
    return this.lowFree;
  }

  private observe(ev: StoreEvent): void {
    if (ev.resource !== 'nodes') return;
    const before = podCIDRIndex(ev.prev);
    const after = ev.type === 'DELETED' ? undefined : podCIDRIndex(ev.obj);
    if (before === after) return;
    this.release(before);
    this.occupy(after);
  }

  private occupy(i: number | undefined): void {
    if (i === undefined) return;
    this.holders.set(i, (this.holders.get(i) ?? 0) + 1);
  }

  private release(i: number | undefined): void {
    if (i === undefined) return;
    const n = (this.holders.get(i) ?? 0) - 1;
    if (n > 0) {
      this.holders.set(i, n);
      return;
    }
    this.holders.delete(i);
    if (i < this.lowFree) this.lowFree = i;
  }
}
