/**
 * etcd leases as kube-apiserver uses them for Events (`--event-ttl`, 1 h by default).
 *
 * kube-apiserver writes every Event with an etcd lease of the TTL; etcd deletes the key when the
 * lease runs out, and watchers see DELETED. Granting a lease per write is expensive, so the
 * apiserver's leaseManager reuses the previous lease while its expiry is close enough to what a
 * new lease would get: it grants `ttl + reuse` seconds (reuse = min(5 % of the TTL, 60 s), the
 * defaults of `--lease-reuse-duration-seconds`) and hands the same lease to every write of the
 * next `reuse` seconds. So an Event disappears between 1 h and 1 h 1 min after its last write,
 * together with the others written in the same minute.
 *
 * Mirrors k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go (GetLease,
 * getReuseDurationSecondsLocked) and etcd's lessor (keys attached to a lease, a re-put moving a
 * key to its new lease, revocation deleting the attached keys). One simulated timer per lease,
 * not per Event.
 */
import type { SimClock, TimerHandle } from '../sim/clock';

/** One granted lease: its expiry and the keys attached to it, per resource, in attach order. */
interface Lease {
  readonly id: number;
  /** Simulated ms at which etcd revokes it. */
  readonly expiresAt: number;
  readonly keys: Map<string, string>;
  timer: TimerHandle | null;
}

export class LeaseManager {
  private prev: Lease | null = null;
  private nextID = 1;
  /** resource → key → the lease the key is attached to. */
  private attached = new Map<string, Map<string, Lease>>();

  /**
   * @param clock the simulated clock (leases run out on it)
   * @param revoke deletes one key whose lease ran out (the store's delete)
   * @param reuseDurationSeconds `--lease-reuse-duration-seconds` (60)
   * @param reuseDurationPercent the share of the TTL a lease may be reused for (0.05)
   */
  constructor(
    private readonly clock: SimClock,
    private readonly revoke: (resource: string, key: string) => void,
    private readonly reuseDurationSeconds = 60,
    private readonly reuseDurationPercent = 0.05,
  ) {}

  /**
   * lease_manager.go GetLease: the previous lease when it expires after `now + ttl` and before
   * `now + ttl + reuse`, else a new one of `ttl + reuse` seconds.
   * @param ttlSeconds the TTL the write asks for, in simulated seconds
   */
  private getLease(ttlSeconds: number): Lease {
    const now = this.clock.now();
    const reuse = Math.min(Math.trunc(this.reuseDurationPercent * ttlSeconds), this.reuseDurationSeconds);
    const prev = this.prev;
    if (prev && now + ttlSeconds * 1000 < prev.expiresAt && now + (ttlSeconds + reuse) * 1000 > prev.expiresAt) return prev;
    const lease: Lease = { id: this.nextID++, expiresAt: now + (ttlSeconds + reuse) * 1000, keys: new Map(), timer: null };
    lease.timer = this.clock.setTimer((ttlSeconds + reuse) * 1000, () => this.expire(lease), {
      label: `etcd lease ${lease.id} (event TTL)`,
    });
    this.prev = lease;
    return lease;
  }

  /** A put of `key` with a lease of `ttlSeconds`: the key moves to that lease (etcd's lessor Attach). */
  put(resource: string, key: string, ttlSeconds: number): void {
    const lease = this.getLease(ttlSeconds);
    let byKey = this.attached.get(resource);
    if (!byKey) this.attached.set(resource, (byKey = new Map()));
    const old = byKey.get(key);
    if (old === lease) return;
    if (old) this.detachFrom(old, key);
    byKey.set(key, lease);
    lease.keys.set(key, resource);
  }

  /** The key was deleted: it leaves its lease (etcd's lessor Detach). */
  delete(resource: string, key: string): void {
    const byKey = this.attached.get(resource);
    const old = byKey?.get(key);
    if (!old) return;
    byKey!.delete(key);
    this.detachFrom(old, key);
  }

  /** Keys attached to a lease now (for tests and the soak's bounds). */
  get size(): number {
    let n = 0;
    for (const m of this.attached.values()) n += m.size;
    return n;
  }

  private detachFrom(lease: Lease, key: string): void {
    lease.keys.delete(key);
    // a lease no key holds any more is revoked early (nothing to delete when it runs out)
    if (lease.keys.size === 0 && lease !== this.prev) {
      this.clock.cancel(lease.timer);
      lease.timer = null;
    }
  }

  /** The lease ran out: etcd deletes every key still attached, in the order they were attached. */
  private expire(lease: Lease): void {
    lease.timer = null;
    if (this.prev === lease) this.prev = null;
    const keys = [...lease.keys];
    lease.keys.clear();
    for (const [key, resource] of keys) {
      this.attached.get(resource)?.delete(key);
      this.revoke(resource, key);
    }
  }
}
