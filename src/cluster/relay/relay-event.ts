/**
 * The relay: every hop a change takes through the control plane, as the seed's sequence
 * diagram draws it (kubectl → kube-apiserver → etcd → controllers → kube-scheduler → kubelet).
 *
 * Participant names (docs/architecture.md#relay-participants): `kubectl` (or another client), `kube-apiserver`,
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
  /**
   * Reconciliation id grouping a controller's decision and the writes it caused: set on the
   * decision hop that opens a reconciliation, and inherited by every non-watch hop recorded
   * with a cause in that reconciliation (its requests, etcd writes and responses); a watch
   * delivery starts the next component's story, so it does not inherit.
   */
  reconcile?: number;
  /**
   * The reconciliation's headline, on the decision hop that opens it: what the control loop
   * observed and what it does, e.g. `desired 3 ≠ current 2 → create 1 Pod` (ReplicaSet),
   * `current 250% / target 50% → desired 5` (HPA), `filtered 3/4 nodes → node-2 (score 187)`
   * (kube-scheduler), `node-2: no Lease renewal observed for 55 s (> node-monitor-grace-period 50 s)
   * → NotReady` (node lifecycle).
   */
  note?: string;
}

/** One reconciliation as the sequence diagram groups it (see {@link RelayHop.reconcile}). */
export interface ReconcileRecord {
  id: number;
  /** The acting participant, e.g. "replicaset-controller". */
  controller: string;
  /** The object reconciled, e.g. "replicasets default/peekcart-7d4b9c". */
  object: string;
  note: string;
}

/** The {@link ReconcileRecord} a decision hop opens, or null for any other hop. */
export function reconcileRecordOf(h: RelayHop): ReconcileRecord | null {
  if (h.reconcile === undefined || h.note === undefined || (h.kind !== 'decision' && h.kind !== 'note')) return null;
  const object = `${h.resource ?? ''} ${h.namespace ? `${h.namespace}/` : ''}${h.name ?? ''}`.trim();
  return { id: h.reconcile, controller: h.from, object, note: h.note };
}

/** Input to {@link RelayRecorder.record}: a hop without seq/time/cause (filled in). */
export type HopInput = Omit<RelayHop, 'seq' | 'time' | 'cause'> & {
  cause?: number | null;
  /**
   * Placeholders the recorder overwrites, last in the literal (where the recorder would add
   * them): a hop literal that has them keeps every field in the object, where seq and time
   * added later go to a separate property array (the watch hops, a few per Pod write).
   */
  seq?: number;
  time?: number;
};

/**
 * A user action as the relay's story starts it: hops `seq`…`endSeq` were recorded while the
 * action ran (its own requests: kubectl → kube-apiserver → etcd…); every later hop caused by
 * one of them, transitively, belongs to its story. `subjects` are objects whose later
 * reconciliations belong to the story although no hop of the action caused them (a killed
 * node's: node-lifecycle-controller notices the silence on its own timer).
 */
export interface ActionStory {
  seq: number;
  endSeq: number;
  /** What the user did: "apply", "kill", "kubectl", "deletePod", a scenario step's kind… */
  label: string;
  subjects: { resource: string; namespace: string; name: string }[];
}
