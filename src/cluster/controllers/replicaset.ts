/**
 * ReplicaSetController: keeps `spec.replicas` Pods alive for every ReplicaSet, in the shape of
 * kubernetes/kubernetes pkg/controller/replicaset/replica_set.go.
 *
 * Informer handlers only turn objects into ReplicaSet keys and enqueue them (addRS, updateRS,
 * deleteRS; addPod, updatePod, deletePod resolve the Pod's controllerRef, or for orphans find
 * the ReplicaSets whose selector matches). `syncReplicaSet(key)` reads from listers, claims
 * Pods (adoption/orphaning by selector), runs `manageReplicas` when the expectations are
 * satisfied, and writes status last. Expectations (`ExpectCreations` before creating,
 * `CreationObserved` in addPod, `DeletionObserved` in deletePod/updatePod) keep a sync from
 * acting twice on its own in-flight writes; `burstReplicas` caps the work per sync and
 * creations go in slow-start batches (1, 2, 4, …).
 *
 * Relay: each sync that acts records a `decision` hop ("desired 3 ≠ current 0 → create
 * 3 Pods") from and to `replicaset-controller`; its requests hang off that hop.
 * Events (source.component `replicaset-controller`): SuccessfulCreate "Created pod: <name>",
 * SuccessfulDelete "Deleted pod: <name>", FailedCreate "Error creating: <error>".
 */
import { hasStatusCause, NamespaceTerminatingCause } from '../api/errors';
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import { RateLimitingQueue } from '../client/workqueue';
import { fromLabelSelector, matches, type Selector } from '../api/labels';
import { deepEqual, getControllerOf, metaNamespaceKey, newControllerRef, splitKey, type OwnerReference } from '../api/types';
import type { Pod, ReplicaSet } from '../api/objects';
import {
  BurstReplicas,
  RealPodControl,
  SlowStartInitialBatchSize,
  UIDTrackingControllerExpectations,
  filterActivePods,
  isNotFound,
  isPodActive,
  isPodReady,
  plural,
  podKey,
  recordDecision,
  slowStartBatch,
  type PodControl,
} from './controller-utils';
import { claimObjects, recheckDeletionTimestamp } from './controller-ref-manager';
import { getPodsToDelete } from './pod-ranks';
import { calculateStatus, calculateStatusFromCounts, updateReplicaSetStatus } from './replicaset-utils';
import { ReplicaSetPodCounter } from './replicaset-pods';
import { PodControllerUIDIndex, ensurePodControllerUIDIndex, filterPodsByOwner, orphanPodIndexKey } from './pod-controller-index';

/** Relay participant and event source of this controller. */
export const ReplicaSetControllerName = 'replicaset-controller';

/** The pod index by controller UID, re-exported from pod-controller-index.ts (controller_utils.go). */
export { PodControllerUIDIndex, orphanPodIndexKey, ensurePodControllerUIDIndex, filterPodsByOwner } from './pod-controller-index';

/**
 * What the controller reads ReplicaSets from: the ReplicaSet informer, or replication.ts's
 * informerAdapter, which presents ReplicationControllers converted to ReplicaSets (conversion.go).
 */
export type ReplicaSetInformer = Pick<SharedInformer<ReplicaSet>, 'get' | 'list' | 'addEventHandler'>;

/** What the controller writes ReplicaSets through: a ReplicaSet client, or replication.ts's conversionClient. */
export type ReplicaSetClient = Pick<ResourceClient<ReplicaSet>, 'get' | 'updateStatus'>;

/**
 * NewBaseController's parameters (replica_set.go): what differs between the ReplicaSet
 * controller and the ReplicationController manager that runs it through conversion adapters.
 */
export interface BaseControllerConfig {
  /** Relay participant, event source and identity (`replication-controller`). */
  name: string;
  /** Work queue name (`replicationmanager`). */
  queueName: string;
  /** The controlled kind (controllerKind): owner references and resolveControllerRef use it. */
  gvk: { apiVersion: string; kind: string };
  /** The REST resource of the controlled kind (relay targets). */
  resource: string;
  rsInformer: ReplicaSetInformer;
  rsClient: ReplicaSetClient;
  /** The Pod client of the controller's identity (adoption and release patches). */
  podClient: ResourceClient<Pod>;
  podControl: PodControl;
  /**
   * Deliver only the Pod events the handlers act on: Pods this kind controls, and orphans one of
   * its objects selects (the others return at once, upstream too). The relay then has no watch hop
   * to this controller for every other Pod — the ReplicationController manager sets it, as most
   * clusters have no ReplicationController; the ReplicaSet controller sees every Pod.
   */
  filterPods?: boolean;
}

/** NewReplicaSetController's arguments to NewBaseController: the ReplicaSet informer and client, apps/v1 ReplicaSet. */
function newReplicaSetControllerConfig(ctx: ComponentContext, informers: SharedInformerFactory): BaseControllerConfig {
  const client = ctx.client(users.controller(ReplicaSetControllerName));
  const podClient = client.resource<Pod>('', 'pods');
  return {
    name: ReplicaSetControllerName,
    queueName: 'replicaset',
    gvk: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
    resource: 'replicasets',
    rsInformer: informers.informerFor<ReplicaSet>('apps', 'replicasets'),
    rsClient: client.resource<ReplicaSet>('apps', 'replicasets'),
    podClient,
    podControl: new RealPodControl(podClient, ctx.recorder(client, ReplicaSetControllerName)),
  };
}

export class ReplicaSetController {
  /** Relay participant and event source (`replicaset-controller`, or `replication-controller` for the RC manager). */
  readonly name: string;
  /** The controlled kind (rsc.GroupVersionKind). */
  readonly gvk: { apiVersion: string; kind: string };
  private readonly resource: string;
  readonly queue: RateLimitingQueue;
  readonly expectations: UIDTrackingControllerExpectations;
  /** Creates/deletes pods; replace in tests (FakePodControl). */
  podControl: PodControl;
  /** Test seam (replica_set.go's syncHandler field): what the queue calls per key. */
  syncHandler: (key: string) => void;
  /** Most pods created or deleted in one sync. */
  burstReplicas = BurstReplicas;
  private readonly rsInformer: ReplicaSetInformer;
  private readonly podInformer: SharedInformer<Pod>;
  /** Per-RS pod counts kept incrementally from the pod cache (syncReplicaSet's fast path). */
  private readonly podCounts: ReplicaSetPodCounter;
  private readonly rsClient: ReplicaSetClient;
  private readonly podClient: ResourceClient<Pod>;

  /**
   * Wires informer handlers (ReplicaSets, Pods) on the shared factory; nothing runs until the
   * factory starts and the queue drains on the simulated clock.
   * @param config NewBaseController's parameters: given by replication.ts (the ReplicationController
   *   manager, through its conversion adapters); without it, the ReplicaSet controller (NewReplicaSetController).
   */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
    config?: BaseControllerConfig,
  ) {
    const cfg = config ?? newReplicaSetControllerConfig(ctx, informers);
    this.name = cfg.name;
    this.gvk = cfg.gvk;
    this.resource = cfg.resource;
    this.rsClient = cfg.rsClient;
    this.podClient = cfg.podClient;
    this.podControl = cfg.podControl;
    this.expectations = new UIDTrackingControllerExpectations(ctx.clock);
    this.rsInformer = cfg.rsInformer;
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    ensurePodControllerUIDIndex(this.podInformer);
    this.podCounts = new ReplicaSetPodCounter(this.podInformer);
    this.syncHandler = (key) => this.syncReplicaSet(key);
    this.queue = new RateLimitingQueue(cfg.queueName, ctx.clock, ctx.relay, (key) => this.syncHandler(key));
    this.rsInformer.addEventHandler({
      participant: this.name,
      onAdd: (rs) => this.addRS(rs),
      onUpdate: (o, n) => this.updateRS(o, n),
      onDelete: (rs) => this.deleteRS(rs),
    });
    this.podInformer.addEventHandler({
      participant: this.name,
      ...(cfg.filterPods ? { filter: (p: Pod) => this.handlesPod(p) } : {}),
      onAdd: (p) => this.addPod(p),
      onUpdate: (o, n) => this.updatePod(o, n),
      onDelete: (p) => this.deletePod(p),
    });
  }

  /** Holds the work queue (kube-controller-manager paused); keys still collect. */
  pause(): void {
    this.queue.paused = true;
  }

  /** Releases the work queue; held keys are processed. */
  resume(): void {
    this.queue.resume();
  }

  /** Enqueues every cached ReplicaSet (a resync, e.g. after the controller-manager resumes). */
  resync(): void {
    for (const rs of this.rsInformer.list()) this.enqueueRS(rs);
  }

  // ---- handlers: keys only ---------------------------------------------------------------

  private enqueueRS(rs: ReplicaSet): void {
    this.queue.add(metaNamespaceKey(rs));
  }

  private addRS(rs: ReplicaSet): void {
    this.enqueueRS(rs);
  }

  private updateRS(oldRS: ReplicaSet, curRS: ReplicaSet): void {
    if (oldRS.metadata.uid !== curRS.metadata.uid) this.deleteRS(oldRS);
    this.enqueueRS(curRS);
  }

  private deleteRS(rs: ReplicaSet): void {
    const key = metaNamespaceKey(rs);
    this.podCounts.forget(rs.metadata.uid);
    this.expectations.deleteExpectations(key);
    this.queue.add(key);
  }

  /** resolveControllerRef: the RS named by a controllerRef, if Kind and UID match. */
  private resolveControllerRef(namespace: string, ref: OwnerReference): ReplicaSet | undefined {
    if (ref.kind !== this.gvk.kind) return undefined;
    const rs = this.rsInformer.get(`${namespace}/${ref.name}`);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    return rs;
  }

  /** Whether the Pod handlers act on `pod` (BaseControllerConfig.filterPods): controlled by this kind, or an orphan one of its objects selects. */
  private handlesPod(pod: Pod): boolean {
    const ref = getControllerOf(pod);
    if (ref) return ref.kind === this.gvk.kind;
    return this.getPodReplicaSets(pod).length > 0;
  }

  /** GetPodReplicaSets: ReplicaSets in the pod's namespace whose (non-empty) selector matches it. */
  getPodReplicaSets(pod: Pod): ReplicaSet[] {
    const labels = pod.metadata.labels;
    if (!labels || Object.keys(labels).length === 0) return [];
    const out: ReplicaSet[] = [];
    for (const rs of this.rsInformer.list(pod.metadata.namespace ?? '')) {
      let sel: Selector;
      try {
        sel = fromLabelSelector(rs.spec?.selector);
      } catch {
        continue;
      }
      if (sel.requirements.length === 0) continue; // an empty selector matches nothing here
      if (matches(sel, labels)) out.push(rs);
    }
    return out;
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) {
      // on a restart of the controller manager, a new pod may already be terminating
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (!rs) return;
      const key = metaNamespaceKey(rs);
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    // an orphan: wake every matching ReplicaSet so one can adopt it
    for (const rs of this.getPodReplicaSets(pod)) this.enqueueRS(rs);
  }

  private updatePod(oldPod: Pod, curPod: Pod): void {
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return; // periodic resync
    const labelChanged = !deepEqual(curPod.metadata.labels ?? {}, oldPod.metadata.labels ?? {});
    if (curPod.metadata.deletionTimestamp) {
      // graceful deletion: the pod is as good as gone for expectations
      this.deletePod(curPod);
      if (labelChanged) this.deletePod(oldPod);
      return;
    }
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = (curRef?.uid ?? '') !== (oldRef?.uid ?? '');
    if (refChanged && oldRef) {
      const rs = this.resolveControllerRef(oldPod.metadata.namespace ?? '', oldRef);
      if (rs) this.enqueueRS(rs);
    }
    if (curRef) {
      const rs = this.resolveControllerRef(curPod.metadata.namespace ?? '', curRef);
      if (!rs) return;
      this.enqueueRS(rs);
      // a pod that just became ready becomes available after minReadySeconds
      const mrs: number = rs.spec?.minReadySeconds ?? 0;
      if (!isPodReady(oldPod) && isPodReady(curPod) && mrs > 0) {
        const key = metaNamespaceKey(rs);
        this.queue.addAfter(key, mrs * 1000, {
          label: `${key}: pod ${curPod.metadata.name} available after minReadySeconds`,
          object: `${this.gvk.kind}/${key}`,
        });
      }
      return;
    }
    if (labelChanged || refChanged) for (const rs of this.getPodReplicaSets(curPod)) this.enqueueRS(rs);
  }

  private deletePod(pod: Pod): void {
    const ref = getControllerOf(pod);
    if (!ref) return;
    const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
    if (!rs) return;
    const key = metaNamespaceKey(rs);
    this.expectations.deletionObservedOf(key, podKey(pod));
    this.queue.add(key);
  }

  // ---- sync --------------------------------------------------------------------------------

  /**
   * syncReplicaSet: reconciles one ReplicaSet. Idempotent; reads only from listers. When
   * there is nothing to adopt, release, create or delete, the status comes from the pod counts
   * kept incrementally (replicaset-pods.ts) instead of a walk over every Pod — the same result
   * in O(changed Pods) rather than O(Pods) per sync.
   * @throws on a failed create/delete/status write (the queue retries with back-off).
   */
  syncReplicaSet(key: string): void {
    const [namespace, name] = splitKey(key);
    const rs = this.rsInformer.get(key);
    if (!rs) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const rsNeedsSync = this.expectations.satisfiedExpectations(key);
    let selector: Selector;
    try {
      selector = fromLabelSelector(rs.spec?.selector);
    } catch {
      return; // utilruntime.HandleError: an invalid selector is never retried
    }
    // Fast path (same outcome, see replicaset-pods.ts): nothing to adopt, release, create or
    // delete — only the status — so the counts kept incrementally replace the walk over Pods.
    const counts = this.podCounts.counts(rs, selector);
    const notDeleting = rs.metadata.deletionTimestamp === undefined || rs.metadata.deletionTimestamp === null;
    const fast =
      notDeleting &&
      counts.unmatched === 0 &&
      !(rs.spec?.minReadySeconds ?? 0) &&
      (!rsNeedsSync || counts.claimed === (rs.spec?.replicas ?? 1)) &&
      !this.hasAdoptableOrphans(rs, selector);
    // pods indexed to this RS plus orphans (FilterPodsByOwner), then ignore inactive ones
    const filteredPods = fast ? [] : this.claimPods(rs, selector, filterActivePods(filterPodsByOwner(this.podInformer, rs, true)));
    const current = fast ? counts.claimed : filteredPods.length;

    let manageReplicasErr: unknown = undefined;
    if (notDeleting) {
      if (rsNeedsSync) {
        // (on the fast path current = desired: manageReplicas would do nothing)
        if (!fast) {
          try {
            this.manageReplicas(filteredPods, rs);
          } catch (err) {
            manageReplicasErr = err;
          }
        }
      } else {
        const desired = rs.spec?.replicas ?? 1;
        if (desired !== current) {
          const e = this.expectations.getExpectations(key);
          recordDecision(
            this.ctx.relay,
            this.name,
            { resource: this.resource, namespace, name },
            `desired ${desired} ≠ current ${current}, but still expecting ${e?.add ?? 0} create(s) and ${e?.del ?? 0} delete(s) to be observed → wait`,
            this.ctx.relay.newReconcile(),
          );
        }
      }
    }
    const newStatus = fast
      ? calculateStatusFromCounts(
          rs,
          { replicas: counts.claimed, fullyLabeled: counts.fullyLabeled, ready: counts.ready, available: counts.ready },
          undefined,
          this.ctx.clock.nowRFC3339(),
        )
      : calculateStatus(rs, filteredPods, manageReplicasErr, this.ctx.clock.now(), this.ctx.clock.nowRFC3339());
    const updated = updateReplicaSetStatus(this.rsClient, rs, newStatus, this.gvk.kind);
    const mrs: number = updated.spec?.minReadySeconds ?? 0;
    const desired = updated.spec?.replicas ?? 1;
    if (
      !manageReplicasErr &&
      mrs > 0 &&
      (updated.status?.readyReplicas ?? 0) === desired &&
      (updated.status?.availableReplicas ?? 0) !== desired
    ) {
      this.queue.addAfter(key, mrs * 1000, {
        label: `${key}: replicas available after minReadySeconds`,
        object: `${this.gvk.kind}/${key}`,
      });
    }
    if (manageReplicasErr) throw manageReplicasErr;
  }

  /** The RS under the controlled kind's apiVersion and kind (newControllerRef(rs, rsc.GroupVersionKind)). */
  private asControllerKind(rs: ReplicaSet): ReplicaSet {
    return rs.kind === this.gvk.kind ? rs : { ...rs, apiVersion: this.gvk.apiVersion, kind: this.gvk.kind };
  }

  /** True when an active orphan in the RS's namespace matches its selector (claimPods would adopt it). */
  private hasAdoptableOrphans(rs: ReplicaSet, selector: Selector): boolean {
    for (const p of this.podInformer.byIndex(PodControllerUIDIndex, orphanPodIndexKey(rs.metadata.namespace ?? ''))) {
      if (isPodActive(p) && matches(selector, p.metadata.labels)) return true;
    }
    return false;
  }

  /** claimPods: adopt matching orphans, release owned pods that stopped matching. */
  private claimPods(rs: ReplicaSet, selector: Selector, pods: Pod[]): Pod[] {
    return claimObjects(
      {
        controller: this.asControllerKind(rs),
        selector,
        client: this.podClient,
        canAdopt: recheckDeletionTimestamp(this.rsClient, this.asControllerKind(rs)),
      },
      pods,
    );
  }

  /** getIndirectlyRelatedPods: pods of every ReplicaSet that shares this one's controller. */
  private getIndirectlyRelatedPods(rs: ReplicaSet): Pod[] {
    const ref = getControllerOf(rs);
    const related = ref ? this.rsInformer.list(rs.metadata.namespace ?? '').filter((r) => getControllerOf(r)?.uid === ref.uid) : [rs];
    const seen = new Set<string>();
    const out: Pod[] = [];
    for (const r of related) {
      for (const p of filterPodsByOwner(this.podInformer, r, false)) {
        if (seen.has(p.metadata.uid ?? '')) continue;
        seen.add(p.metadata.uid ?? '');
        out.push(p);
      }
    }
    return out;
  }

  /**
   * manageReplicas: creates or deletes pods so that `activePods` matches spec.replicas, at
   * most `burstReplicas` per sync, raising expectations first.
   * @throws the first create/delete error.
   */
  manageReplicas(activePods: Pod[], rs: ReplicaSet): void {
    const key = metaNamespaceKey(rs);
    const desired: number = rs.spec?.replicas ?? 1;
    let diff = activePods.length - desired;
    const target = { resource: this.resource, namespace: rs.metadata.namespace, name: rs.metadata.name };
    if (diff < 0) {
      diff = Math.min(-diff, this.burstReplicas);
      const seq = recordDecision(
        this.ctx.relay,
        this.name,
        target,
        `desired ${desired} ≠ current ${activePods.length} → create ${plural(diff, 'Pod')}${diff === this.burstReplicas ? ` (burst limit ${this.burstReplicas})` : ''}`,
        this.ctx.relay.newReconcile(),
      );
      this.expectations.expectCreations(key, diff);
      const ref = newControllerRef(this.asControllerKind(rs));
      const [successes, err] = this.ctx.relay.withCause(seq, () =>
        slowStartBatch(diff, SlowStartInitialBatchSize, () => {
          try {
            this.podControl.createPods(rs.metadata.namespace ?? '', rs.spec?.template, rs, ref);
          } catch (e) {
            // a terminating namespace makes every create fail; nothing to retry
            if (hasStatusCause(e, NamespaceTerminatingCause)) return;
            throw e;
          }
        }),
      );
      // pods that were never sent will never be observed
      for (let i = successes; i < diff; i++) this.expectations.creationObserved(key);
      if (err !== undefined) throw err;
      return;
    }
    if (diff > 0) {
      diff = Math.min(diff, this.burstReplicas);
      const related = this.getIndirectlyRelatedPods(rs);
      const podsToDelete = getPodsToDelete(activePods, related, diff, this.ctx.clock.now());
      const seq = recordDecision(
        this.ctx.relay,
        this.name,
        target,
        `desired ${desired} ≠ current ${activePods.length} → delete ${plural(diff, 'Pod')}: ${podsToDelete.map((p) => p.metadata.name).join(', ')}`,
        this.ctx.relay.newReconcile(),
      );
      this.expectations.expectDeletionsOf(key, podsToDelete.map(podKey));
      let firstErr: unknown = undefined;
      this.ctx.relay.withCause(seq, () => {
        for (const pod of podsToDelete) {
          try {
            this.podControl.deletePod(rs.metadata.namespace ?? '', pod.metadata.name, rs);
          } catch (err) {
            // the delete never happened (or the pod is already gone): lower the expectation
            this.expectations.deletionObservedOf(key, podKey(pod));
            if (!isNotFound(err) && firstErr === undefined) firstErr = err;
          }
        }
      });
      if (firstErr !== undefined) throw firstErr;
    }
  }
}
