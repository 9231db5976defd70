/**
 * DisruptionController: keeps each PodDisruptionBudget's status, after kubernetes/kubernetes
 * pkg/controller/disruption/disruption.go of v1.33.
 *
 * - sync → trySync: the Pods the budget selects (nil selector: none, empty: all);
 *   getExpectedPodCount: maxUnavailable (int or %) and a percentage minAvailable take the
 *   expected count from the scale of the Pods' controllers (getExpectedScale: Deployment via its
 *   ReplicaSet, ReplicaSet, StatefulSet, ReplicationController, else any kind with a scale
 *   subresource — "jobs.batch does not implement the scale subresource" otherwise); an integer
 *   minAvailable takes the number of selected Pods. countHealthyPods: Ready Pods that are not
 *   terminating nor listed in status.disruptedPods (for DeletionTimeout, 2 min).
 * - updatePdbStatus: disruptionsAllowed = currentHealthy − desiredHealthy (0 when negative or
 *   when no Pod is expected), observedGeneration = generation, the condition DisruptionAllowed
 *   True/SufficientPods or False/InsufficientPods; written only when something changed.
 * - failSafe on any other error: disruptionsAllowed 0 and DisruptionAllowed False/SyncFailed
 *   with the error as message.
 * - Events from `controllermanager` (the component name upstream): NoPods "No matching pods
 *   found", UnmanagedPods, CalculateExpectedPodCountFailed; MultiplePodDisruptionBudgets on a
 *   Pod matched by several budgets.
 * - disruptedPods entries (written by the eviction subresource) are dropped once the Pod is
 *   gone or terminating, or after DeletionTimeout (NotDeleted warning on the Pod); the budget
 *   is rechecked when the earliest entry expires (a deadline).
 * - syncStalePodDisruption: a non-terminating Pod whose DisruptionTarget=True condition is
 *   older than 2 min (and not set by the kubelet) gets it reset to False.
 *
 * Relay participant `disruption-controller` (its service account).
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { users, type Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { RateLimitingQueue } from '../client/workqueue';
import { deepCopy, deepEqual, getControllerOf, metaNamespaceKey, splitKey, type OwnerReference } from '../api/types';
import type { APIObject, Deployment, Pod, PodDisruptionBudget, ReplicaSet, ReplicationController, StatefulSet } from '../api/objects';
import type { PodCondition } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import { fromLabelSelector, matches } from '../api/labels';
import { groupResource } from '../api/resources';
import {
  conditionsAreUpToDate,
  DisruptionAllowedCondition,
  setStatusCondition,
  SyncFailedReason,
  updateDisruptionAllowedCondition,
} from '../api/poddisruptionbudget';
import { errorMessage, isConflict, isNotFound, isPodReady, recordDecision, type ReplicasOwner } from './controller-utils';

/** Relay participant (and service account) of this controller. */
export const DisruptionControllerName = 'disruption-controller';
/** Event source component of the controller's events (v1.EventSource{Component: "controllermanager"}). */
export const DisruptionEventSource = 'controllermanager';
/** DeletionTimeout: how long an evicted Pod stays out of currentHealthy before it is expected gone, simulated ms. */
export const DeletionTimeoutMs = 2 * 60 * 1000;
/** stalePodDisruptionTimeout: age after which a DisruptionTarget condition of a live Pod is reset, simulated ms. */
export const StalePodDisruptionTimeoutMs = 2 * 60 * 1000;

/** intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true). */
export function scaledValue(v: number | string, total: number): number {
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(v);
  if (!m) throw new Error(`invalid value for IntOrString: invalid value "${v}": strconv.Atoi: parsing "${v}": invalid syntax`);
  return Math.ceil((Number(m[1]) * total) / 100);
}

/** The numbers trySync computes for a budget. */
export interface BudgetCounts {
  expectedCount: number;
  desiredHealthy: number;
  currentHealthy: number;
  disruptionsAllowed: number;
}

export class DisruptionController {
  readonly name = DisruptionControllerName;
  /** PodDisruptionBudget keys ("disruption"; the recheck queue's delays are addAfter on it). */
  readonly queue: RateLimitingQueue;
  /** Pod keys whose DisruptionTarget condition may be stale ("stale_pod_disruption"). */
  readonly staleQueue: RateLimitingQueue;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pdbs: SharedInformer<PodDisruptionBudget>;
  private readonly pods: SharedInformer<Pod>;
  private readonly rcs: SharedInformer<ReplicationController>;
  private readonly rss: SharedInformer<ReplicaSet>;
  private readonly deployments: SharedInformer<Deployment>;
  private readonly statefulSets: SharedInformer<StatefulSet>;

  /** Wires the Pod and PodDisruptionBudget handlers; listers for the four workload kinds. */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client(users.controller(DisruptionControllerName));
    this.recorder = ctx.recorder(this.client, DisruptionEventSource);
    this.pdbs = informers.informerFor<PodDisruptionBudget>('policy', 'poddisruptionbudgets');
    this.pods = informers.informerFor<Pod>('', 'pods');
    this.rcs = informers.informerFor<ReplicationController>('', 'replicationcontrollers');
    this.rss = informers.informerFor<ReplicaSet>('apps', 'replicasets');
    this.deployments = informers.informerFor<Deployment>('apps', 'deployments');
    this.statefulSets = informers.informerFor<StatefulSet>('apps', 'statefulsets');
    this.queue = new RateLimitingQueue('disruption', ctx.clock, ctx.relay, (key) => this.sync(key));
    this.staleQueue = new RateLimitingQueue('stale_pod_disruption', ctx.clock, ctx.relay, (key) => this.syncStalePodDisruption(key));
    const enqueue = (pdb: PodDisruptionBudget) => this.queue.add(metaNamespaceKey(pdb));
    this.pdbs.addEventHandler({
      participant: DisruptionControllerName,
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: enqueue,
    });
    const onPod = (pod: Pod, stale: boolean) => {
      const pdb = this.getPdbForPod(pod);
      if (pdb) enqueue(pdb);
      if (!stale) return;
      const wait = this.staleWait(pod);
      if (wait !== undefined)
        this.staleQueue.addAfter(metaNamespaceKey(pod), wait, {
          label: `Pod ${metaNamespaceKey(pod)}: stale DisruptionTarget condition`,
          object: `Pod/${metaNamespaceKey(pod)}`,
        });
    };
    this.pods.addEventHandler({
      participant: DisruptionControllerName,
      onAdd: (p) => onPod(p, true),
      onUpdate: (_o, p) => onPod(p, true),
      onDelete: (p) => onPod(p, false),
    });
  }

  pause(): void {
    this.queue.paused = true;
    this.staleQueue.paused = true;
  }

  resume(): void {
    this.queue.resume();
    this.staleQueue.resume();
  }

  resync(): void {
    for (const pdb of this.pdbs.list()) this.queue.add(metaNamespaceKey(pdb));
  }

  /** getPdbForPod: the first budget selecting the Pod (a warning event when several do). */
  private getPdbForPod(pod: Pod): PodDisruptionBudget | undefined {
    const pdbs = this.pdbs.list(pod.metadata.namespace).filter((b) => selects(b, pod));
    if (pdbs.length > 1) {
      this.recorder.event(
        pod,
        'Warning',
        'MultiplePodDisruptionBudgets',
        `Pod "${pod.metadata.namespace}"/"${pod.metadata.name}" matches multiple PodDisruptionBudgets.  Chose "${pdbs[0].metadata.name}" arbitrarily.`,
      );
    }
    return pdbs[0];
  }

  /** sync: trySync, conflicts retried as they are, any other error → failSafe. */
  sync(key: string): void {
    const pdb = this.pdbs.get(key);
    if (!pdb) return;
    try {
      this.trySync(pdb);
    } catch (err) {
      if (isConflict(err)) throw err;
      this.failSafe(pdb, err);
    }
  }

  private trySync(pdb: PodDisruptionBudget): void {
    const pods = this.pods.list(pdb.metadata.namespace).filter((p) => selects(pdb, p));
    if (pods.length === 0) this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let expected: { expectedCount: number; desiredHealthy: number; unmanaged: string[] };
    try {
      expected = this.getExpectedPodCount(pdb, pods);
    } catch (err) {
      this.recorder.event(
        pdb,
        'Warning',
        'CalculateExpectedPodCountFailed',
        `Failed to calculate the number of expected pods: ${errorMessage(err)}`,
      );
      throw err;
    }
    if (expected.unmanaged.length > 0) {
      this.recorder.event(
        pdb,
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${goSelector(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = this.ctx.clock.now();
    const { disruptedPods, recheckAt } = this.buildDisruptedPodMap(pods, pdb, now);
    const currentHealthy = countHealthyPods(pods, disruptedPods, now);
    this.updatePdbStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, disruptedPods);
    if (recheckAt !== undefined) {
      const key = metaNamespaceKey(pdb);
      this.queue.addAfter(key, recheckAt - now, { label: `PDB ${key}: disruptedPods entry expires`, object: `PodDisruptionBudget/${key}` });
    }
  }

  /** getExpectedPodCount: expectedCount and desiredHealthy from the spec (see the file comment). */
  getExpectedPodCount(pdb: PodDisruptionBudget, pods: Pod[]): { expectedCount: number; desiredHealthy: number; unmanaged: string[] } {
    const sp = pdb.spec ?? {};
    if (sp.maxUnavailable !== undefined && sp.maxUnavailable !== null) {
      const { expectedCount, unmanaged } = this.getExpectedScale(pods);
      const desiredHealthy = Math.max(0, expectedCount - scaledValue(sp.maxUnavailable, expectedCount));
      return { expectedCount, desiredHealthy, unmanaged };
    }
    if (sp.minAvailable !== undefined && sp.minAvailable !== null) {
      if (typeof sp.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: sp.minAvailable, unmanaged: [] };
      const { expectedCount, unmanaged } = this.getExpectedScale(pods);
      return { expectedCount, desiredHealthy: scaledValue(sp.minAvailable, expectedCount), unmanaged };
    }
    return { expectedCount: 0, desiredHealthy: 0, unmanaged: [] };
  }

  /** getExpectedScale: the sum of the scales of the Pods' controllers (each counted once). */
  private getExpectedScale(pods: Pod[]): { expectedCount: number; unmanaged: string[] } {
    const scales = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      if (!ref) {
        unmanaged.push(pod.metadata.name);
        continue;
      }
      if (scales.has(ref.uid)) continue;
      const found = this.findController(ref, pod.metadata.namespace ?? '');
      if (!found) throw new Error(`found no controllers for pod "${pod.metadata.name}"`);
      scales.set(found.uid, found.scale);
    }
    let expectedCount = 0;
    for (const n of scales.values()) expectedCount += n;
    return { expectedCount, unmanaged };
  }

  /** finders(): ReplicationController, Deployment (through its ReplicaSet), ReplicaSet, StatefulSet, scale subresource. */
  private findController(ref: OwnerReference, ns: string): { uid: string; scale: number } | undefined {
    const group = apiGroup(ref.apiVersion);
    const lookup = <T extends APIObject>(inf: SharedInformer<T>, name: string, uid: string) => {
      const o = inf.get(`${ns}/${name}`);
      return o && o.metadata.uid === uid ? o : undefined;
    };
    if (ref.kind === 'ReplicationController' && group === '') {
      const rc = lookup(this.rcs, ref.name, ref.uid);
      return rc && { uid: rc.metadata.uid!, scale: rc.spec?.replicas ?? 1 };
    }
    if (ref.kind === 'ReplicaSet' && (group === 'apps' || group === 'extensions')) {
      const rs = lookup(this.rss, ref.name, ref.uid);
      if (!rs) return undefined;
      const owner = getControllerOf(rs);
      if (owner?.kind === 'Deployment') {
        if (apiGroup(owner.apiVersion) !== 'apps' && apiGroup(owner.apiVersion) !== 'extensions') return undefined;
        const d = lookup(this.deployments, owner.name, owner.uid);
        return d && { uid: d.metadata.uid!, scale: d.spec?.replicas ?? 1 };
      }
      return { uid: rs.metadata.uid!, scale: rs.spec?.replicas ?? 1 };
    }
    if (ref.kind === 'StatefulSet' && group === 'apps') {
      const ss = lookup(this.statefulSets, ref.name, ref.uid);
      return ss && { uid: ss.metadata.uid!, scale: ss.spec?.replicas ?? 1 };
    }
    // getScaleController: RESTMapping, then the scale subresource
    const info = this.client.restMapper.forKind(ref.apiVersion, ref.kind);
    if (!info) throw new Error(`no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`);
    if (!info.subresources.includes('scale')) throw new Error(`${groupResource(info)} does not implement the scale subresource`);
    let obj: ReplicasOwner;
    try {
      obj = this.client.resource<ReplicasOwner>(info.group, info.resource).get(ns, ref.name, { quiet: true });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    return obj.metadata.uid === ref.uid ? { uid: obj.metadata.uid, scale: obj.spec?.replicas ?? 0 } : undefined;
  }

  /** buildDisruptedPodMap: the still-pending entries of status.disruptedPods, and when the first expires. */
  private buildDisruptedPodMap(
    pods: Pod[],
    pdb: PodDisruptionBudget,
    now: number,
  ): { disruptedPods: Record<string, string>; recheckAt?: number } {
    const prev: Record<string, string> | undefined = pdb.status?.disruptedPods;
    const disruptedPods: Record<string, string> = {};
    let recheckAt: number | undefined;
    if (!prev) return { disruptedPods };
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const t = prev[pod.metadata.name];
      if (t === undefined) continue;
      const expectedDeletion = Date.parse(t) + DeletionTimeoutMs;
      if (expectedDeletion < now) {
        // upstream formats the message with the namespace twice
        this.recorder.event(
          pod,
          'Warning',
          'NotDeleted',
          `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.namespace} to be deleted but it wasn't`,
        );
      } else {
        if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
        disruptedPods[pod.metadata.name] = t;
      }
    }
    return { disruptedPods, recheckAt };
  }

  /** updatePdbStatus: writes the status when any number, disruptedPods, observedGeneration or the condition changed. */
  private updatePdbStatus(
    pdb: PodDisruptionBudget,
    currentHealthy: number,
    desiredHealthy: number,
    expectedCount: number,
    disruptedPods: Record<string, string>,
  ): void {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const st: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
    const generation = pdb.metadata.generation ?? 0;
    if (
      (st.currentHealthy ?? 0) === currentHealthy &&
      (st.desiredHealthy ?? 0) === desiredHealthy &&
      (st.expectedPods ?? 0) === expectedCount &&
      (st.disruptionsAllowed ?? 0) === disruptionsAllowed &&
      deepEqual(st.disruptedPods ?? {}, disruptedPods) &&
      (st.observedGeneration ?? 0) === generation &&
      conditionsAreUpToDate(pdb)
    ) {
      return;
    }
    const next = deepCopy(pdb);
    next.status = { observedGeneration: generation } as PodDisruptionBudgetStatus;
    if (Object.keys(disruptedPods).length) next.status.disruptedPods = disruptedPods;
    Object.assign(next.status, {
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods: expectedCount,
      conditions: st.conditions ?? [],
    });
    updateDisruptionAllowedCondition(next, this.ctx.clock.nowRFC3339());
    const key = metaNamespaceKey(pdb);
    const summary = `PDB ${key}: ${currentHealthy} healthy of ${expectedCount} expected, desired ${desiredHealthy} → ${disruptionsAllowed} disruption${disruptionsAllowed === 1 ? '' : 's'} allowed`;
    this.write(next, summary, `${disruptionsAllowed} disruption${disruptionsAllowed === 1 ? '' : 's'} allowed`);
  }

  /** failSafe: disruptionsAllowed 0 and DisruptionAllowed False/SyncFailed with the error. */
  private failSafe(pdb: PodDisruptionBudget, err: unknown): void {
    const next = deepCopy(pdb);
    const st = (next.status ??= {} as PodDisruptionBudgetStatus);
    st.disruptionsAllowed = 0;
    st.conditions = setStatusCondition(
      st.conditions ?? [],
      {
        type: DisruptionAllowedCondition,
        status: 'False',
        reason: SyncFailedReason,
        message: errorMessage(err),
        observedGeneration: st.observedGeneration,
      },
      this.ctx.clock.nowRFC3339(),
    );
    this.write(next, `PDB ${metaNamespaceKey(pdb)}: sync failed (${errorMessage(err)}) → 0 disruptions allowed`, 'sync failed');
  }

  private write(next: PodDisruptionBudget, summary: string, note: string): void {
    if (deepEqual(next.status, this.pdbs.get(metaNamespaceKey(next))?.status)) return;
    const [namespace, name] = splitKey(metaNamespaceKey(next));
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'poddisruptionbudgets', namespace, name },
      summary,
      this.ctx.relay.newReconcile(),
      note,
    );
    this.ctx.relay.withCause(seq, () => {
      this.client
        .resource<PodDisruptionBudget>('policy', 'poddisruptionbudgets')
        .updateStatus(next, { summary: `update PodDisruptionBudget ${namespace}/${name} status` });
    });
  }

  /** nonTerminatingPodHasStaleDisruptionCondition: ms until the condition is stale, or undefined. */
  private staleWait(pod: Pod): number | undefined {
    if (pod.metadata.deletionTimestamp) return undefined;
    const cond = (pod.status?.conditions ?? []).find((c: { type: string }) => c.type === 'DisruptionTarget');
    const phase = pod.status?.phase;
    if (!cond || cond.status !== 'True' || cond.reason === 'TerminationByKubelet' || phase === 'Succeeded' || phase === 'Failed')
      return undefined;
    const since = cond.lastTransitionTime ? Date.parse(cond.lastTransitionTime) : this.ctx.clock.now();
    return Math.max(0, StalePodDisruptionTimeoutMs - (this.ctx.clock.now() - since));
  }

  /** syncStalePodDisruption: resets a stale DisruptionTarget condition to False. */
  syncStalePodDisruption(key: string): void {
    const pod = this.pods.get(key);
    if (!pod) return;
    const wait = this.staleWait(pod);
    if (wait === undefined) return;
    if (wait > 0) {
      this.staleQueue.addAfter(key, wait, { label: `Pod ${key}: stale DisruptionTarget condition`, object: `Pod/${key}` });
      return;
    }
    const next = deepCopy(pod);
    const now = this.ctx.clock.nowRFC3339();
    // staleWait found the condition, so status.conditions is there; Go's zero lastProbeTime marshals as null
    next.status!.conditions = next.status!.conditions!.map((c) =>
      c.type === 'DisruptionTarget'
        ? ({ type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: now } as unknown as PodCondition)
        : c,
    );
    const [namespace, name] = splitKey(key);
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'pods', namespace, name },
      `Pod ${key}: DisruptionTarget condition stale for 2m0s and the Pod is not terminating → reset it to False`,
      this.ctx.relay.newReconcile(),
    );
    this.ctx.relay.withCause(seq, () => {
      this.client.resource<Pod>('', 'pods').updateStatus(next, { summary: `Pod ${key}: DisruptionTarget False (stale)` });
    });
  }
}

/** countHealthyPods: Ready, not terminating, not recently disrupted. */
export function countHealthyPods(pods: Pod[], disruptedPods: Record<string, string>, now: number): number {
  let n = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const t = disruptedPods[pod.metadata.name];
    if (t !== undefined && Date.parse(t) + DeletionTimeoutMs > now) continue;
    if (isPodReady(pod)) n++;
  }
  return n;
}

function selects(pdb: PodDisruptionBudget, pod: Pod): boolean {
  try {
    return matches(fromLabelSelector(pdb.spec?.selector), pod.metadata.labels);
  } catch {
    return false;
  }
}

function apiGroup(apiVersion: string | undefined): string {
  const v = apiVersion ?? '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
}

/** The %v of a *metav1.LabelSelector in the UnmanagedPods event (its generated String()). */
function goSelector(
  sel:
    { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | null | undefined,
): string {
  if (!sel) return 'nil';
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('');
  const exprs = (sel.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
