/**
 * Helpers shared by the kube-controller-manager controllers, after
 * kubernetes/kubernetes pkg/controller/controller_utils.go: expectations
 * (ControllerExpectations, UIDTrackingControllerExpectations), pod control
 * (RealPodControl.CreatePods / DeletePod with their events), GetPodFromTemplate,
 * FilterActivePods, IsPodActive, slowStartBatch, ReplicaSet orderings, and the relay's
 * "decision" hop.
 *
 * Times are simulated milliseconds since the epoch unless a name says seconds.
 */
import type { SimClock } from '../sim/clock';
import type { RelayRecorder } from '../relay/recorder';
import type { ResourceClient } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { hasStatusCause, NamespaceTerminatingCause, StatusError } from '../api/errors';
import { deepCopy, type OwnerReference } from '../api/types';
import type { APIObject, Pod } from '../api/objects';
import type { PodCondition, PodSpec, PodTemplateSpec } from 'kubernetes-types/core/v1';

// ---- constants (controller_utils.go) -----------------------------------------------------

/** Reasons of the pod-control events (controller_utils.go). */
export const FailedCreatePodReason = 'FailedCreate';
export const SuccessfulCreatePodReason = 'SuccessfulCreate';
export const FailedDeletePodReason = 'FailedDelete';
export const SuccessfulDeletePodReason = 'SuccessfulDelete';

/** controller.ExpectationsTimeout: expectations older than this are treated as satisfied (5 min). */
export const ExpectationsTimeoutMs = 5 * 60_000;

/** controller.SlowStartInitialBatchSize. */
export const SlowStartInitialBatchSize = 1;

/** replicaset.BurstReplicas: the most pods one sync creates or deletes. */
export const BurstReplicas = 500;

// ---- expectations ------------------------------------------------------------------------

interface ControlleeExpectations {
  add: number;
  del: number;
  /** when the expectations were set, simulated ms */
  timestamp: number;
}

/**
 * ControllerExpectations (controller_utils.go): a TTL cache of how many creates/deletes a
 * controller still expects to observe for one of its objects, so a sync does not act twice
 * on its own in-flight writes. Keys are "namespace/name" of the controller object.
 */
export class ControllerExpectations {
  protected store = new Map<string, ControlleeExpectations>();

  /** @param clock simulated clock (expiry uses it) @param ttlMs expiry, default 5 min */
  constructor(
    protected readonly clock: SimClock,
    readonly ttlMs = ExpectationsTimeoutMs,
  ) {}

  /** The raw record, or undefined (GetExpectations). */
  getExpectations(key: string): Readonly<ControlleeExpectations> | undefined {
    return this.store.get(key);
  }

  /** Forgets the record (DeleteExpectations). */
  deleteExpectations(key: string): void {
    this.store.delete(key);
  }

  /**
   * SatisfiedExpectations: true when nothing is pending, the record expired, or there is no
   * record (a new controller object).
   */
  satisfiedExpectations(key: string): boolean {
    const e = this.store.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.clock.now() - e.timestamp > this.ttlMs;
  }

  /** SetExpectations: replaces the record with (add, del), timestamped now. */
  setExpectations(key: string, add: number, del: number): void {
    this.store.set(key, { add, del, timestamp: this.clock.now() });
  }

  /** ExpectCreations. */
  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0);
  }

  /** ExpectDeletions (count form). */
  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels);
  }

  /** LowerExpectations. */
  lowerExpectations(key: string, add: number, del: number): void {
    const e = this.store.get(key);
    if (!e) return;
    e.add -= add;
    e.del -= del;
  }

  /** RaiseExpectations. */
  raiseExpectations(key: string, add: number, del: number): void {
    const e = this.store.get(key);
    if (!e) return;
    e.add += add;
    e.del += del;
  }

  /** CreationObserved: one expected create was seen by the informer. */
  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  /** DeletionObserved (count form). */
  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1);
  }
}

/**
 * UIDTrackingControllerExpectations (controller_utils.go): deletions are tracked by pod key,
 * so a pod observed deleted twice (terminating, then gone) lowers the count once.
 */
export class UIDTrackingControllerExpectations extends ControllerExpectations {
  private uids = new Map<string, Set<string>>();

  /** The pod keys still expected to be deleted for a controller object. */
  getUIDs(key: string): ReadonlySet<string> | undefined {
    return this.uids.get(key);
  }

  /** ExpectDeletions with the keys ("namespace/name") of the pods about to be deleted. */
  expectDeletionsOf(key: string, deletedKeys: string[]): void {
    this.uids.set(key, new Set(deletedKeys));
    super.expectDeletions(key, deletedKeys.length);
  }

  /** DeletionObserved(rcKey, podKey): lowers only for a tracked key. */
  deletionObservedOf(key: string, podKey: string): void {
    const s = this.uids.get(key);
    if (s && s.has(podKey)) {
      super.deletionObserved(key);
      s.delete(podKey);
    }
  }

  override deleteExpectations(key: string): void {
    super.deleteExpectations(key);
    this.uids.delete(key);
  }
}

// ---- pods --------------------------------------------------------------------------------

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** The pod's Ready condition, if any (podutil.GetPodReadyCondition). */
export function readyCondition(pod: Pod): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

/**
 * podutil.IsPodAvailable: ready, and ready for at least `minReadySeconds` (strictly before
 * `nowMs`).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const ltt = readyCondition(pod)?.lastTransitionTime;
  if (!ltt) return false;
  return Date.parse(ltt) + minReadySeconds * 1000 < nowMs;
}

/** controller.IsPodActive: not Succeeded, not Failed, not terminating. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** controller.FilterActivePods. */
export function filterActivePods(pods: Pod[]): Pod[] {
  return pods.filter(isPodActive);
}

/** controller.PodKey: "namespace/name". */
export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace}/${pod.metadata.name}`;
}

/**
 * controller.GetPodFromTemplate: labels, annotations and finalizers copied from the template,
 * generateName "<parent>-", the controller ownerReference, and a copy of the template's spec.
 */
export function getPodFromTemplate(template: PodTemplateSpec | undefined, parent: APIObject, controllerRef?: OwnerReference): Pod {
  const meta = template?.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: '',
      generateName: getPodsPrefix(parent.metadata.name),
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
    },
    // a template without spec fails validation at create, as upstream's empty PodSpec does
    spec: deepCopy(template?.spec ?? ({} as PodSpec)),
  };
  if (controllerRef) pod.metadata.ownerReferences = [{ ...controllerRef }];
  return pod;
}

/**
 * getPodsPrefix: "<controllerName>-", or the bare name when the dashed prefix is not a valid
 * DNS-1123 subdomain prefix (the apiserver's name generator trims long prefixes).
 */
export function getPodsPrefix(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return /^[a-z0-9]([-a-z0-9.]*)?$/.test(prefix) && prefix.length <= 253 ? prefix : controllerName;
}

/** Message of an error as Go's %v prints it (a StatusError prints its message). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** True for a 404 StatusError (apierrors.IsNotFound). */
export function isNotFound(err: unknown): boolean {
  return err instanceof StatusError && err.code === 404;
}

/** True for a 409 AlreadyExists StatusError (apierrors.IsAlreadyExists). */
export function isAlreadyExists(err: unknown): boolean {
  return err instanceof StatusError && err.reason === 'AlreadyExists';
}

/** True for a 409 Conflict StatusError (apierrors.IsConflict). */
export function isConflict(err: unknown): boolean {
  return err instanceof StatusError && err.reason === 'Conflict';
}

/** What a controller needs to create and delete pods (controller.PodControlInterface). */
export interface PodControl {
  /** Creates one pod from `template` owned by `object`. @throws StatusError or Error. */
  createPods(namespace: string, template: PodTemplateSpec | undefined, object: APIObject, controllerRef: OwnerReference): Pod;
  /** Deletes a pod. @throws StatusError (404 included, which callers ignore) or Error. */
  deletePod(namespace: string, podName: string, object: APIObject): void;
}

/**
 * controller.RealPodControl: creates/deletes pods through the apiserver and records the
 * upstream events on the owner: `SuccessfulCreate` "Created pod: <name>", `FailedCreate`
 * "Error creating: <err>", `SuccessfulDelete` "Deleted pod: <name>", `FailedDelete`
 * "Error deleting: <err>".
 */
export class RealPodControl implements PodControl {
  constructor(
    private readonly pods: ResourceClient<Pod>,
    private readonly recorder: EventRecorder,
  ) {}

  createPods(namespace: string, template: PodTemplateSpec | undefined, object: APIObject, controllerRef: OwnerReference): Pod {
    const pod = getPodFromTemplate(template, object, controllerRef);
    if (!pod.metadata.labels || Object.keys(pod.metadata.labels).length === 0) {
      throw new Error('unable to create pods, no labels');
    }
    let created: Pod;
    try {
      created = this.pods.create(namespace, pod, {
        summary: `create Pod ${namespace}/${pod.metadata.generateName}<generated> for ${object.kind} ${object.metadata.name}`,
      });
    } catch (err) {
      const terminating = hasStatusCause(err, NamespaceTerminatingCause);
      if (!terminating) this.recorder.event(object, 'Warning', FailedCreatePodReason, `Error creating: ${errorMessage(err)}`);
      throw err;
    }
    this.recorder.event(object, 'Normal', SuccessfulCreatePodReason, `Created pod: ${created.metadata.name}`);
    return created;
  }

  deletePod(namespace: string, podName: string, object: APIObject): void {
    try {
      this.pods.delete(namespace, podName);
    } catch (err) {
      if (isNotFound(err)) throw err;
      this.recorder.event(object, 'Warning', FailedDeletePodReason, `Error deleting: ${errorMessage(err)}`);
      throw new Error(`unable to delete pods: ${errorMessage(err)}`);
    }
    this.recorder.event(object, 'Normal', SuccessfulDeletePodReason, `Deleted pod: ${podName}`);
  }
}

/**
 * slowStartBatch (replica_set.go): calls `fn` `count` times in batches of 1, 2, 4, …;
 * stops after the first batch with an error. Calls within a batch all run (upstream runs
 * them in parallel). Returns the number of successes and the first error.
 */
export function slowStartBatch(count: number, initialBatchSize: number, fn: () => void): [number, unknown] {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    let firstErr: unknown = undefined;
    let errs = 0;
    for (let i = 0; i < batch; i++) {
      try {
        fn();
      } catch (err) {
        if (errs++ === 0) firstErr = err;
      }
    }
    successes += batch - errs;
    if (errs > 0) return [successes, firstErr];
    remaining -= batch;
  }
  return [successes, undefined];
}

// ---- replica set orderings ----------------------------------------------------------------

function creationMs(o: APIObject): number {
  const t = o.metadata.creationTimestamp;
  return t ? Date.parse(t) : 0;
}

/** controller.ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreationTimestamp(a: APIObject, b: APIObject): number {
  const d = creationMs(a) - creationMs(b);
  if (d !== 0) return d;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/** controller.ReplicaSetsBySizeOlder: larger first; equal sizes oldest first. */
export function bySizeOlder(a: ReplicasOwner, b: ReplicasOwner): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(a, b);
}

/** controller.ReplicaSetsBySizeNewer: larger first; equal sizes newest first. */
export function bySizeNewer(a: ReplicasOwner, b: ReplicasOwner): number {
  const d = specReplicas(b) - specReplicas(a);
  return d !== 0 ? d : byCreationTimestamp(b, a);
}

/** An object with `spec.replicas` (ReplicaSet, Deployment, StatefulSet, ReplicationController). */
export type ReplicasOwner = APIObject & { spec?: { replicas?: number } };

/** `*(rs.Spec.Replicas)` with the API default of 1. */
export function specReplicas(o: ReplicasOwner | null | undefined): number {
  if (!o) return 0;
  const r = o.spec?.replicas;
  return typeof r === 'number' ? r : 1;
}

/** controller.FilterActiveReplicaSets: non-nil with spec.replicas > 0. */
export function filterActiveReplicaSets<T extends ReplicasOwner>(rss: (T | null | undefined)[]): T[] {
  return rss.filter((rs): rs is T => !!rs && specReplicas(rs) > 0);
}

// ---- relay ---------------------------------------------------------------------------------

/** The object a decision is about. */
export interface DecisionTarget {
  resource: string;
  namespace?: string | null;
  name: string;
}

/**
 * Records a `decision` hop (from = to = participant): what the control loop observed and
 * what it will do, e.g. "desired 3 ≠ current 0 → create 3 Pods". Returns its seq; run the
 * actions with it as the cause so the requests hang off the decision. `note` is the
 * reconciliation's short headline for the sequence diagram (RelayHop.note); it defaults to
 * `summary` when a reconcile id is given.
 */
export function recordDecision(
  relay: RelayRecorder,
  participant: string,
  target: DecisionTarget,
  summary: string,
  reconcile?: number,
  note?: string,
): number {
  return relay.record({
    from: participant,
    to: participant,
    kind: 'decision',
    resource: target.resource,
    namespace: target.namespace ?? null,
    name: target.name,
    summary,
    reconcile,
    ...(reconcile !== undefined ? { note: note ?? summary } : {}),
  });
}

/** Pluralizes a kind for decision summaries: 1 Pod, 3 Pods. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
