/**
 * DeploymentController: drives each Deployment's ReplicaSets toward its spec, in the shape of
 * kubernetes/kubernetes pkg/controller/deployment (deployment_controller.go and sync.go here;
 * rolling.go, recreate.go and progress.go in deployment-rollout.ts; util/deployment_util.go
 * in deployment-utils.ts).
 *
 * Handlers enqueue Deployment keys only (add/update/deleteDeployment; add/update/
 * deleteReplicaSet resolve the RS's controllerRef or find Deployments selecting an orphan;
 * deletePod wakes a Recreate Deployment whose last Pod went). `syncDeployment(key)` claims
 * ReplicaSets, then: deleting → status only; paused → sync (scale + cleanup); a scaling event
 * → sync; otherwise a rollout (RollingUpdate or Recreate).
 *
 * The new ReplicaSet is `<deployment>-<pod-template-hash>` (see computeHash for how the hash
 * differs from Go's), with the hash label in its labels, selector and template, and the
 * annotations deployment.kubernetes.io/revision, desired-replicas and max-replicas.
 *
 * Events (source.component `deployment-controller`): ScalingReplicaSet
 * "Scaled up replica set <rs> from 0 to 3" / "Scaled down replica set <rs> from 3 to 2"
 * (v1.33 wording, kubernetes PR #125118), ReplicaSetCreateError, SelectingAll.
 * Relay: each action is preceded by a `decision` hop from and to `deployment-controller`.
 */
import { hasStatusCause, NamespaceTerminatingCause } from '../api/errors';
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { RateLimitingQueue } from '../client/workqueue';
import type { TimerHandle } from '../sim/clock';
import { fromLabelSelector, matches } from '../api/labels';
import { deepCopy, deepEqual, getControllerOf, metaNamespaceKey, newControllerRef, type OwnerReference } from '../api/types';
import type { Deployment, Pod, ReplicaSet } from '../api/objects';
import {
  filterActiveReplicaSets,
  isAlreadyExists,
  isNotFound,
  errorMessage,
  recordDecision,
  specReplicas,
  bySizeNewer,
  bySizeOlder,
} from './controller-utils';
import { claimObjects, recheckDeletionTimestamp } from './controller-ref-manager';
import * as util from './deployment-utils';
import { rolloutRecreate, rolloutRolling, type RolloutController } from './deployment-rollout';
import { ensurePodControllerUIDIndex, filterPodsByOwner } from './replicaset';

/** Relay participant and event source of this controller. */
export const DeploymentControllerName = 'deployment-controller';

export class DeploymentController implements RolloutController {
  readonly name = DeploymentControllerName;
  readonly queue: RateLimitingQueue;
  /** Test seam (deployment_controller.go's syncHandler field). */
  syncHandler: (key: string) => void;
  readonly dInformer: SharedInformer<Deployment>;
  readonly rsInformer: SharedInformer<ReplicaSet>;
  readonly podInformer: SharedInformer<Pod>;
  readonly dClient: ResourceClient<Deployment>;
  readonly rsClient: ResourceClient<ReplicaSet>;
  readonly recorder: EventRecorder;
  /** Progress-deadline checks scheduled per Deployment key (known deadlines). */
  private progressTimers = new Map<string, TimerHandle>();
  /** Reconciliation id of the sync in progress (groups its decision hops). */
  private reconcileId = 0;

  /** Wires informer handlers (Deployments, ReplicaSets, Pods) on the shared factory. */
  constructor(
    readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    const client = ctx.client(users.controller(DeploymentControllerName));
    this.dClient = client.resource<Deployment>('apps', 'deployments');
    this.rsClient = client.resource<ReplicaSet>('apps', 'replicasets');
    this.recorder = ctx.recorder(client, DeploymentControllerName);
    this.dInformer = informers.informerFor<Deployment>('apps', 'deployments');
    this.rsInformer = informers.informerFor<ReplicaSet>('apps', 'replicasets');
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    ensurePodControllerUIDIndex(this.podInformer);
    this.syncHandler = (key) => this.syncDeployment(key);
    // workqueue.DefaultTypedControllerRateLimiter: per-item 5 ms · 2^n, overall 10 qps with a burst of 100
    this.queue = new RateLimitingQueue('deployment', ctx.clock, ctx.relay, (key) => this.syncHandler(key), {
      bucket: { qps: 10, burst: 100 },
    });
    const participant = DeploymentControllerName;
    this.dInformer.addEventHandler({
      participant,
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_o, d) => this.enqueue(d),
      onDelete: (d) => this.enqueue(d),
    });
    this.rsInformer.addEventHandler({
      participant,
      onAdd: (rs) => this.addReplicaSet(rs),
      onUpdate: (o, n) => this.updateReplicaSet(o, n),
      onDelete: (rs) => this.deleteReplicaSet(rs),
    });
    this.podInformer.addEventHandler({ participant, filter: (p) => !!getControllerOf(p), onDelete: (p) => this.deletePod(p) });
  }

  /** Holds the work queue (kube-controller-manager paused); keys still collect. */
  pause(): void {
    this.queue.paused = true;
  }

  /** Releases the work queue; held keys are processed. */
  resume(): void {
    this.queue.resume();
  }

  /** Enqueues every cached Deployment (a resync). */
  resync(): void {
    for (const d of this.dInformer.list()) this.enqueue(d);
  }

  // ---- handlers: keys only -----------------------------------------------------------------

  private enqueue(d: Deployment): void {
    this.queue.add(metaNamespaceKey(d));
  }

  /** resolveControllerRef: the Deployment named by a controllerRef when Kind and UID match. */
  private resolveControllerRef(namespace: string, ref: OwnerReference): Deployment | undefined {
    if (ref.kind !== 'Deployment') return undefined;
    const d = this.dInformer.get(`${namespace}/${ref.name}`);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  /** getDeploymentsForReplicaSet: Deployments whose (non-empty) selector matches an RS's labels. */
  private getDeploymentsForReplicaSet(rs: ReplicaSet): Deployment[] {
    const labels = rs.metadata.labels;
    if (!labels || Object.keys(labels).length === 0) return [];
    return this.dInformer.list(rs.metadata.namespace ?? '').filter((d) => {
      try {
        const sel = fromLabelSelector(d.spec?.selector);
        return sel.requirements.length > 0 && matches(sel, labels);
      } catch {
        return false;
      }
    });
  }

  private addReplicaSet(rs: ReplicaSet): void {
    if (rs.metadata.deletionTimestamp) {
      this.deleteReplicaSet(rs);
      return;
    }
    const ref = getControllerOf(rs);
    if (ref) {
      const d = this.resolveControllerRef(rs.metadata.namespace ?? '', ref);
      if (d) this.enqueue(d);
      return;
    }
    for (const d of this.getDeploymentsForReplicaSet(rs)) this.enqueue(d);
  }

  private updateReplicaSet(oldRS: ReplicaSet, curRS: ReplicaSet): void {
    if (curRS.metadata.resourceVersion === oldRS.metadata.resourceVersion) return;
    const curRef = getControllerOf(curRS);
    const oldRef = getControllerOf(oldRS);
    const refChanged = (curRef?.uid ?? '') !== (oldRef?.uid ?? '');
    if (refChanged && oldRef) {
      const d = this.resolveControllerRef(oldRS.metadata.namespace ?? '', oldRef);
      if (d) this.enqueue(d);
    }
    if (curRef) {
      const d = this.resolveControllerRef(curRS.metadata.namespace ?? '', curRef);
      if (d) this.enqueue(d);
      return;
    }
    const labelChanged = !deepEqual(curRS.metadata.labels ?? {}, oldRS.metadata.labels ?? {});
    if (labelChanged || refChanged) for (const d of this.getDeploymentsForReplicaSet(curRS)) this.enqueue(d);
  }

  private deleteReplicaSet(rs: ReplicaSet): void {
    const ref = getControllerOf(rs);
    if (!ref) return;
    const d = this.resolveControllerRef(rs.metadata.namespace ?? '', ref);
    if (d) this.enqueue(d);
  }

  /** deletePod: a Recreate Deployment is synced when its last old Pod is gone. */
  private deletePod(pod: Pod): void {
    const rsRef = getControllerOf(pod);
    if (!rsRef || rsRef.kind !== 'ReplicaSet') return;
    const rs = this.rsInformer.get(`${pod.metadata.namespace}/${rsRef.name}`);
    const dRef = rs && getControllerOf(rs);
    if (!rs || !dRef) return;
    const d = this.resolveControllerRef(pod.metadata.namespace ?? '', dRef);
    if (!d || d.spec?.strategy?.type !== 'Recreate') return;
    const rsList = this.rsInformer.list(d.metadata.namespace ?? '').filter((r) => getControllerOf(r)?.uid === d.metadata.uid);
    const podMap = this.getPodMapForDeployment(d, rsList);
    let n = 0;
    for (const pods of podMap.values()) n += pods.length;
    if (n === 0) this.enqueue(d);
  }

  // ---- sync --------------------------------------------------------------------------------

  /**
   * syncDeployment: reconciles one Deployment. Reads from listers; idempotent.
   * @throws StatusError/Error on failed writes (the queue retries with back-off).
   */
  syncDeployment(key: string): void {
    this.reconcileId = this.ctx.relay.newReconcile();
    const cached = this.dInformer.get(key);
    if (!cached) {
      this.ctx.clock.cancel(this.progressTimers.get(key));
      this.progressTimers.delete(key);
      return;
    }
    const d = deepCopy(cached);
    const sel = d.spec?.selector;
    if (sel && !sel.matchLabels && !sel.matchExpressions) {
      this.recorder.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        d.status = { ...d.status, observedGeneration: d.metadata.generation };
        this.dClient.updateStatus(d);
      }
      return;
    }
    const rsList = this.getReplicaSetsForDeployment(d);
    // (upstream builds the pod map here; only Recreate reads it, and building it is a pure
    // O(pods) read, so it is built there)
    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(d, rsList);
    this.checkPausedConditions(d);
    if (d.spec?.paused) return this.sync(d, rsList);
    if (d.metadata.annotations?.[util.DeprecatedRollbackTo]) {
      // extensions/v1beta1 rollbackTo is not served by apps/v1; drop the request as a no-op
      return this.sync(d, rsList);
    }
    if (this.isScalingEvent(d, rsList)) return this.sync(d, rsList);
    const type = d.spec?.strategy?.type ?? 'RollingUpdate';
    if (type === 'Recreate') return rolloutRecreate(this, d, rsList, this.getPodMapForDeployment(d, rsList));
    if (type === 'RollingUpdate') return rolloutRolling(this, d, rsList);
    throw new Error(`unexpected deployment strategy type: ${type}`);
  }

  /** getReplicaSetsForDeployment: RSes in the namespace claimed through adoption/orphaning. */
  getReplicaSetsForDeployment(d: Deployment): ReplicaSet[] {
    let selector;
    try {
      selector = fromLabelSelector(d.spec?.selector);
    } catch (err) {
      throw new Error(`deployment ${d.metadata.namespace}/${d.metadata.name} has invalid label selector: ${errorMessage(err)}`);
    }
    return claimObjects(
      { controller: d, selector, client: this.rsClient, canAdopt: recheckDeletionTimestamp(this.dClient, d) },
      this.rsInformer.list(d.metadata.namespace ?? ''),
    );
  }

  /** getPodMapForDeployment: the Deployment's Pods grouped by owning RS uid. */
  getPodMapForDeployment(d: Deployment, rsList: ReplicaSet[]): Map<string, Pod[]> {
    const map = new Map<string, Pod[]>();
    for (const rs of rsList) map.set(rs.metadata.uid ?? '', []);
    let sel;
    try {
      sel = fromLabelSelector(d.spec?.selector);
    } catch {
      return map;
    }
    // pods by owning RS via the controller-UID index (upstream lists by selector and groups)
    for (const rs of rsList) {
      const pods = map.get(rs.metadata.uid ?? '')!;
      for (const p of filterPodsByOwner(this.podInformer, rs, false)) if (matches(sel, p.metadata.labels)) pods.push(p);
    }
    return map;
  }

  /**
   * Records a decision hop for the current sync (with `note` as the reconciliation's headline,
   * default `summary`) and runs `fn` with it as the cause.
   */
  decide<T>(d: Deployment, summary: string, fn: () => T, note?: string): T {
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'deployments', namespace: d.metadata.namespace, name: d.metadata.name },
      summary,
      this.reconcileId,
      note,
    );
    return this.ctx.relay.withCause(seq, fn);
  }

  /** syncStatusOnly: status of a deleting Deployment, no other action. */
  private syncStatusOnly(d: Deployment, rsList: ReplicaSet[]): void {
    const [newRS, oldRSs] = this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    this.syncDeploymentStatus([...oldRSs, newRS], newRS, d);
  }

  /** sync: scaling events and paused Deployments (scale, cleanup when paused, status). */
  private sync(d: Deployment, rsList: ReplicaSet[]): void {
    const [newRS, oldRSs] = this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    this.scale(d, newRS, oldRSs);
    if (d.spec?.paused && !d.metadata.annotations?.[util.DeprecatedRollbackTo]) this.cleanupDeployment(oldRSs, d);
    this.syncDeploymentStatus([...oldRSs, newRS], newRS, d);
  }

  /** checkPausedConditions: Progressing Unknown DeploymentPaused / DeploymentResumed. */
  private checkPausedConditions(d: Deployment): void {
    if (!util.hasProgressDeadline(d)) return;
    const status = util.normalizeDeploymentStatus(d.status);
    const cond = util.getDeploymentCondition(status, 'Progressing');
    if (cond?.reason === util.TimedOutReason) return;
    const pausedCondExists = cond?.reason === util.PausedDeployReason;
    const now = this.ctx.clock.nowRFC3339();
    if (d.spec?.paused && !pausedCondExists) {
      util.setDeploymentCondition(
        status,
        util.newDeploymentCondition('Progressing', 'Unknown', util.PausedDeployReason, 'Deployment is paused', now),
      );
    } else if (!d.spec?.paused && pausedCondExists) {
      util.setDeploymentCondition(
        status,
        util.newDeploymentCondition('Progressing', 'Unknown', util.ResumedDeployReason, 'Deployment is resumed', now),
      );
    } else return;
    d.status = status;
    // as upstream, the result is dropped: a later status write of this sync may conflict
    this.dClient.updateStatus(d);
  }

  /** getAllReplicaSetsAndSyncRevision: [newRS or undefined, all old RSes]. */
  getAllReplicaSetsAndSyncRevision(
    d: Deployment,
    rsList: ReplicaSet[],
    createIfNotExisted: boolean,
  ): [ReplicaSet | undefined, ReplicaSet[]] {
    const [, allOld] = util.findOldReplicaSets(d, rsList);
    const newRS = this.getNewReplicaSet(d, rsList, allOld, createIfNotExisted);
    return [newRS, allOld];
  }

  /**
   * getNewReplicaSet: syncs the existing new RS's annotations and the Deployment's revision,
   * or creates `<deployment>-<hash>`. A name taken by a different template is a hash
   * collision: status.collisionCount is bumped and the error returned (requeue).
   */
  private getNewReplicaSet(d: Deployment, rsList: ReplicaSet[], oldRSs: ReplicaSet[], createIfNotExisted: boolean): ReplicaSet | undefined {
    const existing = util.findNewReplicaSet(d, rsList);
    const newRevision = String(util.maxRevision(oldRSs) + 1);
    const now = this.ctx.clock.nowRFC3339();
    if (existing) {
      const rsCopy = deepCopy(existing);
      const annotationsUpdated = util.setNewReplicaSetAnnotations(d, rsCopy, newRevision, true);
      const minReadyNeedsUpdate = (rsCopy.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
      if (annotationsUpdated || minReadyNeedsUpdate) {
        rsCopy.spec.minReadySeconds = d.spec?.minReadySeconds ?? 0;
        if (!rsCopy.spec.minReadySeconds) delete rsCopy.spec.minReadySeconds;
        return this.rsClient.update(rsCopy, {
          summary: `update ReplicaSet ${metaNamespaceKey(rsCopy)} annotations (revision ${rsCopy.metadata.annotations?.[util.RevisionAnnotation]})`,
        });
      }
      let needsUpdate = util.setDeploymentRevision(d, rsCopy.metadata.annotations?.[util.RevisionAnnotation] ?? '');
      const status = util.normalizeDeploymentStatus(d.status);
      if (util.hasProgressDeadline(d) && !util.getDeploymentCondition(status, 'Progressing')) {
        util.setDeploymentCondition(
          status,
          util.newDeploymentCondition('Progressing', 'True', util.FoundNewRSReason, `Found new replica set "${rsCopy.metadata.name}"`, now),
        );
        d.status = status;
        needsUpdate = true;
      }
      if (needsUpdate) this.dClient.updateStatus(d);
      return rsCopy;
    }
    if (!createIfNotExisted) return undefined;

    const template = deepCopy(d.spec.template);
    const hash = util.computeHash(template, d.status?.collisionCount);
    template.metadata = template.metadata ?? {};
    template.metadata.labels = { ...d.spec.template.metadata?.labels, [util.DefaultDeploymentUniqueLabelKey]: hash };
    const selector = deepCopy(d.spec.selector);
    selector.matchLabels = { ...selector.matchLabels, [util.DefaultDeploymentUniqueLabelKey]: hash };
    const newRS: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: { ...template.metadata.labels },
        ownerReferences: [newControllerRef(d)],
      },
      spec: { replicas: 0, ...(d.spec.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}), selector, template },
    };
    const newReplicasCount = util.newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    newRS.spec.replicas = newReplicasCount;
    util.setNewReplicaSetAnnotations(d, newRS, newRevision, false);
    let created: ReplicaSet;
    let alreadyExists = false;
    try {
      created = this.decide(
        d,
        `no ReplicaSet matches the pod template → create ReplicaSet ${newRS.metadata.name} (pod-template-hash ${hash}, revision ${newRevision}) with ${newReplicasCount} replicas`,
        () => this.rsClient.create(d.metadata.namespace ?? '', newRS),
        `new ReplicaSet ${newRS.metadata.name} (revision ${newRevision}) → ${newReplicasCount} of ${specReplicas(d)} replicas (maxSurge ${util.maxSurge(d)}, maxUnavailable ${util.maxUnavailable(d)})`,
      );
    } catch (err) {
      if (isAlreadyExists(err)) {
        alreadyExists = true;
        const rs = this.rsInformer.get(`${newRS.metadata.namespace}/${newRS.metadata.name}`);
        if (!rs) throw err;
        const ref = getControllerOf(rs);
        if (ref && ref.uid === d.metadata.uid && util.equalIgnoreHash(d.spec.template, rs.spec?.template)) {
          created = rs;
        } else {
          // a hash collision: bump collisionCount and retry on the next sync
          d.status = { ...util.normalizeDeploymentStatus(d.status), collisionCount: (d.status?.collisionCount ?? 0) + 1 };
          try {
            this.dClient.updateStatus(d);
          } catch {
            // the original error is returned either way
          }
          throw err;
        }
      } else if (hasStatusCause(err, NamespaceTerminatingCause)) {
        throw err;
      } else {
        const msg = `Failed to create new replica set "${newRS.metadata.name}": ${errorMessage(err)}`;
        if (util.hasProgressDeadline(d)) {
          const status = util.normalizeDeploymentStatus(d.status);
          util.setDeploymentCondition(status, util.newDeploymentCondition('Progressing', 'False', util.FailedRSCreateReason, msg, now));
          d.status = status;
          try {
            this.dClient.updateStatus(d);
          } catch {
            // a bigger issue is being reported
          }
        }
        this.recorder.event(d, 'Warning', util.FailedRSCreateReason, msg);
        throw err;
      }
    }
    if (!alreadyExists && newReplicasCount > 0) {
      this.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} from 0 to ${newReplicasCount}`);
    }
    let needsUpdate = util.setDeploymentRevision(d, newRevision);
    if (!alreadyExists && util.hasProgressDeadline(d)) {
      const status = util.normalizeDeploymentStatus(d.status);
      util.setDeploymentCondition(
        status,
        util.newDeploymentCondition(
          'Progressing',
          'True',
          util.NewReplicaSetReason,
          `Created new replica set "${created.metadata.name}"`,
          now,
        ),
      );
      d.status = status;
      needsUpdate = true;
    }
    // upstream keeps using `d` (with its old resourceVersion) afterwards, so the status write
    // at the end of this sync usually conflicts and the Deployment is requeued — as on a real cluster
    if (needsUpdate) this.dClient.updateStatus(d);
    return created;
  }

  /**
   * scale: proportional scaling on a scaling event (or while paused): the only active RS gets
   * spec.replicas; a saturated new RS scales old ones to 0; otherwise the change is shared
   * among active RSes by size (RollingUpdate only).
   */
  scale(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): void {
    const replicas = specReplicas(d);
    const activeOrLatest = util.findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if (specReplicas(activeOrLatest) === replicas) return;
      this.scaleReplicaSetAndRecordEvent(activeOrLatest, replicas, d, `the only active ReplicaSet takes spec.replicas ${replicas}`);
      return;
    }
    if (util.isSaturated(d, newRS)) {
      for (const old of filterActiveReplicaSets(oldRSs))
        this.scaleReplicaSetAndRecordEvent(old, 0, d, `new ReplicaSet ${newRS!.metadata.name} is saturated`);
      return;
    }
    if (!util.isRollingUpdate(d)) return;
    const allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
    const allRSsReplicas = util.getReplicaCount(allRSs);
    const allowedSize = replicas > 0 ? replicas + util.maxSurge(d) : 0;
    const toAdd = allowedSize - allRSsReplicas;
    let op = '';
    if (toAdd > 0) {
      allRSs.sort(bySizeNewer);
      op = 'up';
    } else if (toAdd < 0) {
      allRSs.sort(bySizeOlder);
      op = 'down';
    }
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of allRSs) {
      if (toAdd !== 0) {
        const p = util.getProportion(rs, d, toAdd, added);
        sizes.set(rs.metadata.name, specReplicas(rs) + p);
        added += p;
      } else sizes.set(rs.metadata.name, specReplicas(rs));
    }
    allRSs.forEach((rs, i) => {
      if (i === 0 && toAdd !== 0) sizes.set(rs.metadata.name, Math.max(0, sizes.get(rs.metadata.name)! + toAdd - added));
      this.scaleReplicaSet(
        rs,
        sizes.get(rs.metadata.name)!,
        d,
        op,
        `proportional scaling: ${allRSsReplicas} → ${allowedSize} replicas across ReplicaSets`,
      );
    });
  }

  /** scaleReplicaSetAndRecordEvent: no-op when already at `newScale`. Returns [scaled, rs]. */
  scaleReplicaSetAndRecordEvent(rs: ReplicaSet, newScale: number, d: Deployment, why: string): [boolean, ReplicaSet] {
    if (specReplicas(rs) === newScale) return [false, rs];
    return this.scaleReplicaSet(rs, newScale, d, specReplicas(rs) < newScale ? 'up' : 'down', why);
  }

  /**
   * scaleReplicaSet: sets spec.replicas and the replicas annotations; on a size change records
   * ScalingReplicaSet "Scaled <up|down> replica set <rs> from <old> to <new>".
   * @throws StatusError from the update (e.g. 409 on a stale cache).
   */
  scaleReplicaSet(rs: ReplicaSet, newScale: number, d: Deployment, op: string, why: string): [boolean, ReplicaSet] {
    const sizeNeedsUpdate = specReplicas(rs) !== newScale;
    const dReplicas = specReplicas(d);
    const maxReplicas = dReplicas + util.maxSurge(d);
    if (!sizeNeedsUpdate && !util.replicasAnnotationsNeedUpdate(rs, dReplicas, maxReplicas)) return [false, rs];
    const oldScale = specReplicas(rs);
    const rsCopy = deepCopy(rs);
    rsCopy.spec.replicas = newScale;
    util.setReplicasAnnotations(rsCopy, dReplicas, maxReplicas);
    const write = () =>
      this.rsClient.update(rsCopy, { summary: `update ReplicaSet ${metaNamespaceKey(rs)} spec.replicas ${oldScale} → ${newScale}` });
    const note = `scale ${op} ReplicaSet ${rs.metadata.name} ${oldScale} → ${newScale} (maxSurge ${util.maxSurge(d)}, maxUnavailable ${util.maxUnavailable(d)})`;
    const updated = sizeNeedsUpdate
      ? this.decide(d, `scale ${op} ReplicaSet ${rs.metadata.name} from ${oldScale} to ${newScale} (${why})`, write, note)
      : write();
    if (sizeNeedsUpdate)
      this.recorder.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${op} replica set ${updated.metadata.name} from ${oldScale} to ${newScale}`,
      );
    return [sizeNeedsUpdate, updated];
  }

  /** cleanupDeployment: deletes the oldest fully scaled-down RSes beyond revisionHistoryLimit. */
  cleanupDeployment(oldRSs: ReplicaSet[], d: Deployment): void {
    if (!util.hasRevisionHistoryLimit(d)) return;
    const cleanable = oldRSs.filter((rs) => rs && !rs.metadata.deletionTimestamp);
    const limit = d.spec.revisionHistoryLimit!; // hasRevisionHistoryLimit checked it
    const diff = cleanable.length - limit;
    if (diff <= 0) return;
    cleanable.sort(util.byRevision);
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i];
      if (
        (rs.status?.replicas ?? 0) !== 0 ||
        specReplicas(rs) !== 0 ||
        (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0) ||
        rs.metadata.deletionTimestamp
      )
        continue;
      try {
        this.decide(d, `revisionHistoryLimit ${limit}: ${cleanable.length} old ReplicaSets → delete ReplicaSet ${rs.metadata.name}`, () =>
          this.rsClient.delete(rs.metadata.namespace ?? '', rs.metadata.name),
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /** syncDeploymentStatus: writes calculateStatus when it differs. */
  syncDeploymentStatus(allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment): void {
    const newStatus = util.calculateDeploymentStatus(allRSs, newRS, d, this.ctx.clock.nowRFC3339());
    if (deepEqual(util.normalizeDeploymentStatus(d.status), newStatus)) return;
    d.status = newStatus;
    this.dClient.updateStatus(d);
  }

  /** isScalingEvent: an active RS's desired-replicas annotation differs from spec.replicas. */
  private isScalingEvent(d: Deployment, rsList: ReplicaSet[]): boolean {
    const [newRS, oldRSs] = this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    for (const rs of filterActiveReplicaSets([...oldRSs, newRS])) {
      const desired = util.getDesiredReplicasAnnotation(rs);
      if (desired === undefined) continue;
      if (desired !== specReplicas(d)) return true;
    }
    return false;
  }

  /**
   * Schedules (or cancels) the progress check of requeueStuckDeployment as a known deadline on
   * the simulated clock: lastUpdateTime + progressDeadlineSeconds + 1 s.
   */
  scheduleProgressCheck(key: string, afterMs: number | null): void {
    this.ctx.clock.cancel(this.progressTimers.get(key));
    this.progressTimers.delete(key);
    if (afterMs === null) return;
    const h = this.ctx.clock.setTimer(
      afterMs,
      () => {
        this.progressTimers.delete(key);
        this.queue.add(key);
      },
      { deadline: true, label: `${key}: progressDeadlineSeconds check`, object: `Deployment/${key}` },
    );
    this.progressTimers.set(key, h);
  }
}
