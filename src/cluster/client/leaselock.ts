/**
 * The Lease resource lock of client-go's leader election
 * (staging/src/k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go and
 * interface.go): a coordination.k8s.io/v1 Lease holds the LeaderElectionRecord
 * (holderIdentity, leaseDurationSeconds, acquireTime, renewTime, leaseTransitions; the times
 * are MicroTime), and RecordEvent writes `Normal LeaderElection <identity> <what>` about the
 * Lease.
 */
import { StatusError } from '../api/errors';
import type { KObject } from '../api/types';
import type { ResourceClient } from './clientset';
import type { EventRecorder } from './record';

/** interface.go LeaderElectionRecord; times are MicroTime strings (RFC 3339 with µs). */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
}

/** LeaseSpecToLeaderElectionRecord. */
export function leaseSpecToRecord(spec: Record<string, unknown> | undefined): LeaderElectionRecord {
  const s = spec ?? {};
  return {
    holderIdentity: typeof s.holderIdentity === 'string' ? s.holderIdentity : '',
    leaseDurationSeconds: typeof s.leaseDurationSeconds === 'number' ? s.leaseDurationSeconds : 0,
    acquireTime: typeof s.acquireTime === 'string' ? s.acquireTime : '',
    renewTime: typeof s.renewTime === 'string' ? s.renewTime : '',
    leaderTransitions: typeof s.leaseTransitions === 'number' ? s.leaseTransitions : 0,
  };
}

/** LeaderElectionRecordToLeaseSpec (empty times are left out, as nil MicroTimes are). */
export function recordToLeaseSpec(r: LeaderElectionRecord): Record<string, unknown> {
  const spec: Record<string, unknown> = { holderIdentity: r.holderIdentity, leaseDurationSeconds: r.leaseDurationSeconds };
  if (r.acquireTime) spec.acquireTime = r.acquireTime;
  if (r.renewTime) spec.renewTime = r.renewTime;
  spec.leaseTransitions = r.leaderTransitions;
  return spec;
}

/** Relay options of the lock's writes: `heartbeat` (renewals every 2 s are background, as node Leases). */
const CATEGORY = 'heartbeat' as const;

/**
 * LeaseLock: Get/Create/Update of the Lease `namespace/name` through `leases` (the
 * component's client), RecordEvent through `recorder`. `Identity()` is `identity`.
 */
export class LeaseLock {
  /** The Lease last read or written (ll.lease), whose resourceVersion an Update sends. */
  private lease: KObject | null = null;

  constructor(
    readonly namespace: string,
    readonly name: string,
    readonly identity: string,
    private readonly leases: ResourceClient,
    private readonly recorder: EventRecorder | null,
    /** Runs the writes that draw uids (the Create, the Events) on a stream of their own (APIServer.withRng). */
    private readonly isolate: <T>(fn: () => T) => T = (fn) => fn(),
  ) {}

  /** Describe(): `namespace/name`. */
  describe(): string {
    return `${this.namespace}/${this.name}`;
  }

  /**
   * Get: the record and its raw form (the JSON of the spec, compared byte-wise by the elector).
   * Reads are quiet (no relay hop): a standby's poll shows as the elector's note instead.
   * @throws StatusError (404 when the Lease does not exist).
   */
  get(): { record: LeaderElectionRecord; raw: string } {
    this.lease = this.leases.get(this.namespace, this.name, { quiet: true });
    const record = leaseSpecToRecord(this.lease.spec);
    return { record, raw: JSON.stringify(recordToLeaseSpec(record)) };
  }

  /** Create: a new Lease with the record as its spec. @throws StatusError (409 when it exists). */
  create(r: LeaderElectionRecord, summary: string): void {
    this.lease = this.isolate(() =>
      this.leases.create(
        this.namespace,
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.name, namespace: this.namespace },
          spec: recordToLeaseSpec(r),
        },
        { category: CATEGORY, summary },
      ),
    );
  }

  /**
   * Update: the cached Lease with the record as its spec (optimistic concurrency on its
   * resourceVersion). @throws Error "lease not initialized, call get or create first";
   * StatusError 409 when someone else wrote it meanwhile.
   */
  update(r: LeaderElectionRecord, summary: string): void {
    if (!this.lease) throw new Error('lease not initialized, call get or create first');
    try {
      this.lease = this.leases.update(
        { ...this.lease, spec: { ...this.lease.spec, ...recordToLeaseSpec(r) } },
        { category: CATEGORY, summary },
      );
    } catch (err) {
      if (err instanceof StatusError) this.lease = null;
      throw err;
    }
  }

  /** RecordEvent: `Normal LeaderElection "<identity> <s>"` about the Lease. */
  recordEvent(s: string): void {
    if (!this.recorder || !this.lease) return;
    const m = this.lease.metadata;
    const recorder = this.recorder;
    this.isolate(() =>
      recorder.event(
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          namespace: m.namespace,
          name: m.name,
          uid: m.uid,
          resourceVersion: m.resourceVersion,
        },
        'Normal',
        'LeaderElection',
        `${this.identity} ${s}`,
      ),
    );
  }
}
