/**
 * The relay: every hop a change takes through the control plane, as the seed's sequence
 * diagram draws it (kubectl → kube-apiserver → etcd → controllers → kube-scheduler → kubelet).
 *
 * Participant names (CONTRACTS.md §1): `kubectl` (or another client), `kube-apiserver`,
 * `etcd`, `kube-scheduler`, `<name>-controller` for each kube-controller-manager controller,
 * and per node `kubelet/NODE`, `kube-proxy/NODE`, `containerd/NODE`; `coredns`.
 */

/** What kind of hop this is. */
export type HopKind = 'request' | 'response' | 'watch' | 'decision' | 'note';

/**
 * Hop categories let the UI hide periodic noise: `heartbeat` for Lease renewals and node
 * status updates, `admission` for the apiserver's own pipeline notes.
 */
export type HopCategory = 'heartbeat' | 'admission' | 'storage' | 'event' | undefined;

export interface RelayHop {
  /** 1-based sequence number, strictly increasing. */
  seq: number;
  /** Simulated time, ms since the Unix epoch. */
  time: number;
  from: string;
  to: string;
  kind: HopKind;
  /** API verb (create, update, patch, delete, get, list, watch, bind) or a watch event type (ADDED…). */
  verb?: string;
  /** Plural resource, e.g. "deployments", "pods", "pods/binding". */
  resource?: string;
  namespace?: string | null;
  name?: string;
  /** resourceVersion the hop produced or carried. */
  resourceVersion?: string;
  /** One line a person can read, e.g. "create Pod default/web-7d4b9c-x2x9z". */
  summary: string;
  /** seq of the hop that caused this one, or null. */
  cause: number | null;
  category?: HopCategory;
  /** Reconciliation id grouping a controller's trigger, observation and actions. */
  reconcile?: number;
}

/** Input to {@link RelayRecorder.record}: a hop without seq/time/cause (filled in). */
export type HopInput = Omit<RelayHop, 'seq' | 'time' | 'cause'> & { cause?: number | null };
