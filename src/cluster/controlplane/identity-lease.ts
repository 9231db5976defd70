/**
 * kube-apiserver's identity Lease (the APIServerIdentity feature, on by default): each
 * instance keeps a Lease `kube-system/apiserver-<hash>` whose name is
 * `"apiserver-" + lower(base32(sha256(hostname)[:16]))` without padding
 * (staging/src/k8s.io/apiserver/pkg/server/config.go), holderIdentity `<id>_<uuid>`, labels
 * `apiserver.kubernetes.io/identity: kube-apiserver` and `kubernetes.io/hostname`,
 * leaseDurationSeconds 3600, renewed every 10 s by the lease controller
 * (k8s.io/component-helpers/apimachinery/lease/controller.go, started from
 * pkg/controlplane/apiserver/server.go). Writes are relay category `heartbeat`.
 */
import { StatusError } from '../api/errors';
import type { KObject } from '../api/types';
import type { ResourceClient } from '../client/clientset';
import type { SimClock, TimerHandle } from '../sim/clock';
import { base32, sha256 } from '../util/hash';

/** IdentityLeaseDurationSeconds. */
export const IDENTITY_LEASE_DURATION_S = 3600;
/** IdentityLeaseRenewIntervalPeriod (simulated ms). */
export const IDENTITY_LEASE_RENEW_MS = 10_000;
/** The label every identity Lease carries (IdentityLeaseComponentLabelKey). */
export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';

/** The identity Lease's name for a host: `apiserver-` + 26 lowercase base32 characters. */
export function apiserverID(hostname: string): string {
  return 'apiserver-' + base32(sha256(hostname).slice(0, 16)).replace(/=+$/, '').toLowerCase();
}

/** One kube-apiserver instance's identity Lease controller. */
export class APIServerIdentityLease {
  readonly id: string;
  private latest: KObject | null = null;
  private timer: TimerHandle | null = null;

  /**
   * @param holderIdentity `<id>_<uuid>`, a new uuid each time the instance starts
   * @param isolate runs the Create on a uid stream of its own (APIServer.withRng)
   */
  constructor(
    readonly hostname: string,
    readonly holderIdentity: string,
    private readonly clock: SimClock,
    private readonly leases: ResourceClient,
    private readonly isolate: <T>(fn: () => T) => T = (fn) => fn(),
  ) {
    this.id = apiserverID(hostname);
  }

  /** Creates or renews now, then every 10 s until {@link stop}. */
  start(): void {
    this.stop();
    this.sync();
  }

  /** The instance is gone: no more renewals (the Lease stays until it is garbage-collected). */
  stop(): void {
    this.clock.cancel(this.timer);
    this.timer = null;
    this.latest = null;
  }

  private sync(): void {
    this.timer = this.clock.setTimer(IDENTITY_LEASE_RENEW_MS, () => this.sync());
    const spec = { holderIdentity: this.holderIdentity, leaseDurationSeconds: IDENTITY_LEASE_DURATION_S, renewTime: this.clock.nowMicro() };
    try {
      if (!this.latest) {
        try {
          this.latest = this.leases.get('kube-system', this.id, { quiet: true });
        } catch (err) {
          if (!(err instanceof StatusError) || err.code !== 404) throw err;
          const lease: KObject = {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: {
              name: this.id,
              namespace: 'kube-system',
              labels: { [IDENTITY_LABEL]: 'kube-apiserver', 'kubernetes.io/hostname': this.hostname },
            },
            spec,
          };
          this.latest = this.isolate(() =>
            this.leases.create('kube-system', lease, {
              category: 'heartbeat',
              summary: `create Lease kube-system/${this.id} (kube-apiserver identity)`,
            }),
          );
          return;
        }
      }
      this.latest = this.leases.update(
        { ...this.latest, spec: { ...this.latest.spec, ...spec } },
        { category: 'heartbeat', summary: `renew Lease kube-system/${this.id}` },
      );
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      this.latest = null;
    }
  }
}
