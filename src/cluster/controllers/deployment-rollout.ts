/**
 * The rollout strategies and progress tracking of the DeploymentController, after
 * kubernetes/kubernetes pkg/controller/deployment/rolling.go (rolloutRolling,
 * reconcileNewReplicaSet, reconcileOldReplicaSets, cleanupUnhealthyReplicas,
 * scaleDownOldReplicaSetsForRollingUpdate), recreate.go (rolloutRecreate, oldPodsRunning) and
 * progress.go (syncRolloutStatus, getReplicaFailures, requeueStuckDeployment).
 *
 * Progressing messages: "ReplicaSet \"x\" is progressing." (ReplicaSetUpdated),
 * "ReplicaSet \"x\" has successfully progressed." (NewReplicaSetAvailable),
 * "ReplicaSet \"x\" has timed out progressing." (ProgressDeadlineExceeded).
 * The progress check after progressDeadlineSeconds is a known deadline on the simulated clock.
 */
import { deepEqual, metaNamespaceKey } from '../api/types';
import type { Deployment, Pod, ReplicaSet } from '../api/objects';
import { byCreationTimestamp, filterActiveReplicaSets, specReplicas } from './controller-utils';
import type { ComponentContext } from '../component-context';
import type { ResourceClient } from '../client/clientset';
import type { RateLimitingQueue } from '../client/workqueue';
import * as util from './deployment-utils';
import type { ReplicaSetCondition } from './replicaset-utils';

/**
 * What the rollout functions use of the DeploymentController (deployment.ts, which implements
 * it): upstream's rolling.go, recreate.go and progress.go are methods on *DeploymentController;
 * declaring the members here keeps this file from importing deployment.ts back (no import loops,
 * src/architecture.test.ts).
 */
export interface RolloutController {
  readonly ctx: ComponentContext;
  readonly dClient: ResourceClient<Deployment>;
  readonly queue: RateLimitingQueue;
  getAllReplicaSetsAndSyncRevision(
    d: Deployment,
    rsList: ReplicaSet[],
    createIfNotExisted: boolean,
  ): [ReplicaSet | undefined, ReplicaSet[]];
  scaleReplicaSetAndRecordEvent(rs: ReplicaSet, newScale: number, d: Deployment, why: string): [boolean, ReplicaSet];
  cleanupDeployment(oldRSs: ReplicaSet[], d: Deployment): void;
  scheduleProgressCheck(key: string, afterMs: number | null): void;
}

function rollingWhy(d: Deployment, allRSs: (ReplicaSet | undefined)[]): string {
  return `rolling update: maxSurge ${util.maxSurge(d)}, maxUnavailable ${util.maxUnavailable(d)}; ${util.getReplicaCount(allRSs)} Pods wanted, ${util.getAvailableReplicaCount(allRSs)} available`;
}

/** rolloutRolling: scale the new RS up as far as maxSurge allows, then old ones down as far as maxUnavailable allows. */
export function rolloutRolling(dc: RolloutController, d: Deployment, rsList: ReplicaSet[]): void {
  const [newRS, oldRSs] = dc.getAllReplicaSetsAndSyncRevision(d, rsList, true);
  const allRSs = [...oldRSs, newRS];
  if (reconcileNewReplicaSet(dc, allRSs, newRS!, d)) return syncRolloutStatus(dc, allRSs, newRS, d);
  if (reconcileOldReplicaSets(dc, allRSs, filterActiveReplicaSets(oldRSs), newRS!, d)) return syncRolloutStatus(dc, allRSs, newRS, d);
  if (util.deploymentComplete(d, util.normalizeDeploymentStatus(d.status))) dc.cleanupDeployment(oldRSs, d);
  syncRolloutStatus(dc, allRSs, newRS, d);
}

/** reconcileNewReplicaSet: returns true when the new RS was scaled. */
export function reconcileNewReplicaSet(
  dc: RolloutController,
  allRSs: (ReplicaSet | undefined)[],
  newRS: ReplicaSet,
  d: Deployment,
): boolean {
  const replicas = specReplicas(d);
  if (specReplicas(newRS) === replicas) return false;
  if (specReplicas(newRS) > replicas) return dc.scaleReplicaSetAndRecordEvent(newRS, replicas, d, `more than spec.replicas ${replicas}`)[0];
  const count = util.newRSNewReplicas(d, allRSs, newRS);
  return dc.scaleReplicaSetAndRecordEvent(newRS, count, d, rollingWhy(d, allRSs))[0];
}

/** reconcileOldReplicaSets: scales old RSes down within maxUnavailable; true when any was scaled. */
export function reconcileOldReplicaSets(
  dc: RolloutController,
  allRSs: (ReplicaSet | undefined)[],
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): boolean {
  const oldPodsCount = util.getReplicaCount(oldRSs);
  if (oldPodsCount === 0) return false;
  const allPodsCount = util.getReplicaCount(allRSs);
  const minAvailable = specReplicas(d) - util.maxUnavailable(d);
  const newRSUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPodsCount - minAvailable - newRSUnavailable;
  if (maxScaledDown <= 0) return false;
  const [cleaned, cleanupCount] = cleanupUnhealthyReplicas(dc, oldRSs, d, maxScaledDown);
  const scaledDown = scaleDownOldReplicaSetsForRollingUpdate(dc, [...cleaned, newRS], cleaned, d);
  return cleanupCount + scaledDown > 0;
}

/** cleanupUnhealthyReplicas: first scale away old replicas that are not available. */
export function cleanupUnhealthyReplicas(
  dc: RolloutController,
  oldRSs: ReplicaSet[],
  d: Deployment,
  maxCleanupCount: number,
): [ReplicaSet[], number] {
  const sorted = [...oldRSs].sort(byCreationTimestamp);
  let total = 0;
  for (let i = 0; i < sorted.length; i++) {
    const rs = sorted[i];
    if (total >= maxCleanupCount) break;
    const r = specReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (r === 0 || r === available) continue;
    const count = Math.min(maxCleanupCount - total, r - available);
    const next = r - count;
    if (next > r)
      throw new Error(`when cleaning up unhealthy replicas, got invalid request to scale down ${metaNamespaceKey(rs)} ${r} -> ${next}`);
    const [, updated] = dc.scaleReplicaSetAndRecordEvent(rs, next, d, `cleaning up ${count} unavailable old replica(s)`);
    total += count;
    sorted[i] = updated;
  }
  return [sorted, total];
}

/** scaleDownOldReplicaSetsForRollingUpdate: scale old RSes down to keep minAvailable (oldest first). */
export function scaleDownOldReplicaSetsForRollingUpdate(
  dc: RolloutController,
  allRSs: (ReplicaSet | undefined)[],
  oldRSs: ReplicaSet[],
  d: Deployment,
): number {
  const minAvailable = specReplicas(d) - util.maxUnavailable(d);
  const available = util.getAvailableReplicaCount(allRSs);
  if (available <= minAvailable) return 0;
  const sorted = [...oldRSs].sort(byCreationTimestamp);
  const totalScaleDown = available - minAvailable;
  let total = 0;
  for (const rs of sorted) {
    if (total >= totalScaleDown) break;
    const r = specReplicas(rs);
    if (r === 0) continue;
    const count = Math.min(r, totalScaleDown - total);
    const next = r - count;
    if (next > r)
      throw new Error(`when scaling down old replica sets, got invalid request to scale down ${metaNamespaceKey(rs)} ${r} -> ${next}`);
    dc.scaleReplicaSetAndRecordEvent(
      rs,
      next,
      d,
      `${available} available > minAvailable ${minAvailable} (maxUnavailable ${util.maxUnavailable(d)})`,
    );
    total += count;
  }
  return total;
}

/** rolloutRecreate: all old Pods down and gone first, then the new RS up to spec.replicas. */
export function rolloutRecreate(dc: RolloutController, d: Deployment, rsList: ReplicaSet[], podMap: Map<string, Pod[]>): void {
  let [newRS, oldRSs] = dc.getAllReplicaSetsAndSyncRevision(d, rsList, false);
  let allRSs = [...oldRSs, newRS];
  let scaledDown = false;
  for (const rs of filterActiveReplicaSets(oldRSs)) {
    if (dc.scaleReplicaSetAndRecordEvent(rs, 0, d, 'Recreate: old ReplicaSets go to 0 first')[0]) scaledDown = true;
  }
  if (scaledDown) return syncRolloutStatus(dc, allRSs, newRS, d);
  if (oldPodsRunning(newRS, oldRSs, podMap)) return syncRolloutStatus(dc, allRSs, newRS, d);
  if (!newRS) {
    [newRS, oldRSs] = dc.getAllReplicaSetsAndSyncRevision(d, rsList, true);
    allRSs = [...oldRSs, newRS];
  }
  dc.scaleReplicaSetAndRecordEvent(newRS!, specReplicas(d), d, 'Recreate: no old Pods left');
  if (util.deploymentComplete(d, util.normalizeDeploymentStatus(d.status))) dc.cleanupDeployment(oldRSs, d);
  syncRolloutStatus(dc, allRSs, newRS, d);
}

/** oldPodsRunning: any old RS still reports replicas, or an old Pod is not terminal. */
export function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[], podMap: Map<string, Pod[]>): boolean {
  if (util.getActualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS && newRS.metadata.uid === uid) continue;
    for (const p of pods) {
      const phase = p.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}

/** getReplicaFailures: ReplicaFailure conditions of the new RS, else of any RS. */
function getReplicaFailures(allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): util.DeploymentCondition[] {
  const conv = (c: ReplicaSetCondition): util.DeploymentCondition => ({
    type: c.type,
    status: c.status,
    lastUpdateTime: c.lastTransitionTime,
    lastTransitionTime: c.lastTransitionTime,
    reason: c.reason,
    message: c.message,
  });
  const fromRS = (rs: ReplicaSet | undefined) => (rs?.status?.conditions ?? []).filter((c) => c.type === 'ReplicaFailure').map(conv);
  const mine = fromRS(newRS);
  if (mine.length) return mine;
  return allRSs.flatMap(fromRS);
}

/**
 * syncRolloutStatus: status plus the Progressing condition (NewReplicaSetAvailable,
 * ReplicaSetUpdated, ProgressDeadlineExceeded) and ReplicaFailure; writes only on change,
 * else schedules the next progress check.
 */
export function syncRolloutStatus(
  dc: RolloutController,
  allRSs: (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): void {
  const now = dc.ctx.clock.nowRFC3339();
  const newStatus = util.calculateDeploymentStatus(allRSs, newRS, d, now);
  if (!util.hasProgressDeadline(d)) util.removeDeploymentCondition(newStatus, 'Progressing');
  const currentCond = util.getDeploymentCondition(util.normalizeDeploymentStatus(d.status), 'Progressing');
  const isCompleteDeployment = newStatus.replicas === newStatus.updatedReplicas && currentCond?.reason === util.NewRSAvailableReason;
  if (util.hasProgressDeadline(d) && !isCompleteDeployment) {
    const rsName = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
    if (util.deploymentComplete(d, newStatus)) {
      util.setDeploymentCondition(
        newStatus,
        util.newDeploymentCondition('Progressing', 'True', util.NewRSAvailableReason, `${rsName} has successfully progressed.`, now),
      );
    } else if (util.deploymentProgressing(d, newStatus)) {
      const cond = util.newDeploymentCondition('Progressing', 'True', util.ReplicaSetUpdatedReason, `${rsName} is progressing.`, now);
      if (currentCond) {
        if (currentCond.status === 'True') cond.lastTransitionTime = currentCond.lastTransitionTime;
        util.removeDeploymentCondition(newStatus, 'Progressing');
      }
      util.setDeploymentCondition(newStatus, cond);
    } else if (util.deploymentTimedOut(d, newStatus, dc.ctx.clock.now())) {
      util.setDeploymentCondition(
        newStatus,
        util.newDeploymentCondition('Progressing', 'False', util.TimedOutReason, `${rsName} has timed out progressing.`, now),
      );
    }
  }
  const failures = getReplicaFailures(allRSs, newRS);
  if (failures.length) util.setDeploymentCondition(newStatus, failures[0]);
  else util.removeDeploymentCondition(newStatus, 'ReplicaFailure');
  const normalized = util.normalizeDeploymentStatus(newStatus);
  if (deepEqual(util.normalizeDeploymentStatus(d.status), normalized)) {
    requeueStuckDeployment(dc, d, normalized);
    return;
  }
  d.status = normalized;
  dc.dClient.updateStatus(d);
}

/**
 * requeueStuckDeployment: when a rollout shows no progress, check again when
 * lastUpdateTime + progressDeadlineSeconds passes (plus 1 s); cancels the check when the
 * rollout is complete or already timed out. Returns the delay in ms, or -1.
 *
 * With less than a second left (or none), upstream enqueues rate-limited, and does so again on
 * every sync until the Deployment is complete or TimedOut. A Deployment whose Progressing
 * condition is still NewReplicaSetAvailable (a finished rollout that has since lost available
 * Pods, e.g. on a dead node) never times out (util.DeploymentTimedOut, and syncRolloutStatus
 * skips the estimate), so these requeues go on — at the queue's 10 qps — until its Pods are
 * available again. Such a retry changes nothing by itself and is not a known deadline (so
 * `settle`, fast-forward and the countdowns look past it, to the eviction that will change
 * something); a retry that can still time the rollout out is one.
 */
export function requeueStuckDeployment(dc: RolloutController, d: Deployment, newStatus: util.DeploymentStatus): number {
  const key = metaNamespaceKey(d);
  const cur = util.getDeploymentCondition(util.normalizeDeploymentStatus(d.status), 'Progressing');
  if (!util.hasProgressDeadline(d) || !cur || util.deploymentComplete(d, newStatus) || cur.reason === util.TimedOutReason) {
    dc.scheduleProgressCheck(key, null);
    return -1;
  }
  // hasProgressDeadline checked both (*d.Spec.ProgressDeadlineSeconds)
  const after = Date.parse(cur.lastUpdateTime!) + d.spec.progressDeadlineSeconds! * 1000 - dc.ctx.clock.now();
  if (after < 1000) {
    dc.scheduleProgressCheck(key, null);
    dc.queue.addRateLimited(key, { deadline: cur.reason !== util.NewRSAvailableReason });
    return 0;
  }
  dc.scheduleProgressCheck(key, after + 1000);
  return after;
}
