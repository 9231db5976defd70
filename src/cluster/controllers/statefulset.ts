/**
 * StatefulSetController: stable, ordered Pods `<set>-<ordinal>`, in the shape of
 * kubernetes/kubernetes pkg/controller/statefulset (stateful_set.go: handlers and sync;
 * stateful_set_control.go: updateStatefulSet — revisions, OrderedReady vs Parallel, condemned
 * Pods from the highest ordinal, RollingUpdate in reverse ordinal order down to the partition,
 * OnDelete; stateful_pod_control.go: CreateStatefulPod with its claims, and the events;
 * stateful_set_utils.go: identity, labels, claim names, newVersionedStatefulSetPod).
 *
 * Pods get hostname = name, subdomain = serviceName, the labels
 * `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index` and
 * `controller-revision-hash: <set>-<hash>` (the ControllerRevision's name). Each
 * volumeClaimTemplate becomes a PVC `<template>-<set>-<ordinal>` created before the Pod (the
 * retention policy defaults to Retain, so PVCs are never owned or deleted here).
 * Events (`statefulset-controller`): SuccessfulCreate "create Pod web-0 in StatefulSet web
 * successful", "create Claim www-web-0 Pod web-0 in StatefulSet web success", SuccessfulDelete
 * "delete Pod web-2 in StatefulSet web successful", and the Failed… variants
 * "… failed error: <err>". Not modelled: maxUnavailable, ordinals.start, PVC retention Delete.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { RateLimitingQueue } from '../client/workqueue';
import { fromLabelSelector } from '../api/labels';
import { deepCopy, deepEqual, getControllerOf, metaNamespaceKey, newControllerRef } from '../api/types';
import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet } from '../api/objects';
import type { PodSpec, PodTemplateSpec, Volume } from 'kubernetes-types/core/v1';
import type { StatefulSetStatus } from 'kubernetes-types/apps/v1';
import { errorMessage, isAlreadyExists, isNotFound, isPodAvailable, isPodReady, recordDecision } from './controller-utils';
import { claimObjects, recheckDeletionTimestamp } from './controller-ref-manager';
import { ensurePodControllerUIDIndex, filterPodsByOwner } from './replicaset';
import { computeHash } from './deployment-utils';

/** Relay participant and event source of this controller. */
export const StatefulSetControllerName = 'statefulset-controller';
export const StatefulSetPodNameLabel = 'statefulset.kubernetes.io/pod-name';
export const PodIndexLabel = 'apps.kubernetes.io/pod-index';
export const StatefulSetRevisionLabel = 'controller-revision-hash';
/** history.ControllerRevisionHashLabel: the hash label pkg/controller/history puts on a StatefulSet's ControllerRevisions. */
export const ControllerRevisionHashLabel = 'controller.kubernetes.io/hash';

/** getOrdinal: the trailing ordinal of `<set>-<n>`, or -1. */
export function getOrdinal(set: StatefulSet, pod: Pod): number {
  const m = new RegExp(`^${set.metadata.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`).exec(pod.metadata.name);
  return m ? Number(m[1]) : -1;
}

/** getPersistentVolumeClaimName. */
export function claimName(set: StatefulSet, tmpl: string, ordinal: number): string {
  return `${tmpl}-${set.metadata.name}-${ordinal}`;
}

const isRunningAndReady = (p: Pod) => p.status?.phase === 'Running' && isPodReady(p);
const isTerminating = (p: Pod) => !!p.metadata.deletionTimestamp;
const isFailedOrSucceeded = (p: Pod) => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';

export class StatefulSetController {
  readonly name = StatefulSetControllerName;
  readonly queue: RateLimitingQueue;
  syncHandler: (key: string) => void;
  readonly setInformer: SharedInformer<StatefulSet>;
  readonly podInformer: SharedInformer<Pod>;
  readonly pvcInformer: SharedInformer<PersistentVolumeClaim>;
  readonly historyInformer: SharedInformer<ControllerRevision>;
  private readonly setClient: ResourceClient<StatefulSet>;
  private readonly podClient: ResourceClient<Pod>;
  private readonly pvcClient: ResourceClient<PersistentVolumeClaim>;
  private readonly historyClient: ResourceClient<ControllerRevision>;
  private readonly recorder: EventRecorder;

  /** Wires informer handlers (StatefulSets, Pods, ControllerRevisions). */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    const client = ctx.client(users.controller(StatefulSetControllerName));
    this.setClient = client.resource<StatefulSet>('apps', 'statefulsets');
    this.podClient = client.resource<Pod>('', 'pods');
    this.pvcClient = client.resource<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    this.historyClient = client.resource<ControllerRevision>('apps', 'controllerrevisions');
    this.recorder = ctx.recorder(client, StatefulSetControllerName);
    this.setInformer = informers.informerFor<StatefulSet>('apps', 'statefulsets');
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    this.pvcInformer = informers.informerFor<PersistentVolumeClaim>('', 'persistentvolumeclaims');
    this.historyInformer = informers.informerFor<ControllerRevision>('apps', 'controllerrevisions');
    ensurePodControllerUIDIndex(this.podInformer);
    this.syncHandler = (key) => this.sync(key);
    this.queue = new RateLimitingQueue('statefulset', ctx.clock, ctx.relay, (key) => this.syncHandler(key));
    const enqueue = (s: StatefulSet) => this.queue.add(metaNamespaceKey(s));
    this.setInformer.addEventHandler({
      participant: StatefulSetControllerName,
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: enqueue,
    });
    const owner = (p: Pod) => {
      const ref = getControllerOf(p);
      if (!ref || ref.kind !== 'StatefulSet') return;
      const s = this.setInformer.get(`${p.metadata.namespace}/${ref.name}`);
      if (s && s.metadata.uid === ref.uid) enqueue(s);
    };
    this.podInformer.addEventHandler({
      participant: StatefulSetControllerName,
      filter: (p) => getControllerOf(p)?.kind === 'StatefulSet',
      onAdd: owner,
      onUpdate: (o, n) => {
        if (o.metadata.resourceVersion !== n.metadata.resourceVersion) owner(n);
      },
      onDelete: owner,
    });
  }

  pause(): void {
    this.queue.paused = true;
  }

  resume(): void {
    this.queue.resume();
  }

  resync(): void {
    for (const s of this.setInformer.list()) this.queue.add(metaNamespaceKey(s));
  }

  /** sync: claims Pods, then updateStatefulSet. @throws on a failed write (retried with back-off). */
  sync(key: string): void {
    const set = this.setInformer.get(key);
    if (!set || set.metadata.deletionTimestamp) return;
    let selector;
    try {
      selector = fromLabelSelector(set.spec?.selector);
    } catch {
      return;
    }
    const pods = claimObjects(
      {
        controller: set,
        selector,
        client: this.podClient,
        canAdopt: recheckDeletionTimestamp(this.setClient, set),
        filters: [(p) => getOrdinal(set, p) >= 0],
      },
      filterPodsByOwner(this.podInformer, set, true),
    );
    this.updateStatefulSet(set, pods);
  }

  /**
   * getStatefulSetRevisions: the current and update ControllerRevisions. The update revision is
   * the one whose data equals the set's template: when it is the newest it is kept; when an older
   * one is equal (a `rollout undo`, or editing the template back) it is renumbered to max + 1
   * (history.UpdateControllerRevision), so `rollout history` lists it last and a later plain
   * `undo` goes back the other way; otherwise a new one is created (newRevision: the set's
   * template labels plus `controller.kubernetes.io/hash`, the set's annotations — so
   * `kubernetes.io/change-cause` becomes the history's CHANGE-CAUSE).
   */
  private revisions(set: StatefulSet): [string, string, number] {
    const ns = set.metadata.namespace ?? '';
    const mine = this.historyInformer.list(ns).filter((h) => getControllerOf(h)?.uid === set.metadata.uid);
    const hash = computeHash(set.spec?.template, set.status?.collisionCount ?? 0);
    const updateName = `${set.metadata.name}-${hash}`;
    const maxRev = Math.max(0, ...mine.map((h) => h.revision ?? 0));
    const equal = mine.find((h) => h.metadata.name === updateName);
    let updateRevNum = equal?.revision;
    if (equal && (equal.revision ?? 0) < maxRev) {
      updateRevNum = maxRev + 1;
      try {
        this.historyClient.update(
          { ...deepCopy(equal), revision: updateRevNum },
          { summary: `update ControllerRevision ${ns}/${updateName}: revision ${updateRevNum}` },
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    } else if (updateRevNum === undefined) {
      updateRevNum = maxRev + 1;
      try {
        this.historyClient.create(
          ns,
          {
            apiVersion: 'apps/v1',
            kind: 'ControllerRevision',
            metadata: {
              name: updateName,
              namespace: ns,
              labels: { ...(set.spec?.template?.metadata?.labels ?? {}), [ControllerRevisionHashLabel]: hash },
              ...(set.metadata.annotations ? { annotations: { ...set.metadata.annotations } } : {}),
              ownerReferences: [newControllerRef(set)],
            },
            data: { spec: { template: { ...deepCopy(set.spec?.template), $patch: 'replace' } } },
            revision: updateRevNum,
          },
          { summary: `create ControllerRevision ${ns}/${updateName} (revision ${updateRevNum})` },
        );
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    }
    const currentRevision = set.status?.currentRevision;
    const current =
      currentRevision && (mine.some((h) => h.metadata.name === currentRevision) || currentRevision === updateName)
        ? currentRevision
        : updateName;
    // truncateHistory: keep revisionHistoryLimit old revisions not in use
    const limit: number = set.spec?.revisionHistoryLimit ?? 10;
    const old = mine
      .filter((h) => h.metadata.name !== updateName && h.metadata.name !== current)
      .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    for (const h of old.slice(0, Math.max(0, old.length - limit))) {
      try {
        this.historyClient.delete(ns, h.metadata.name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return [current, updateName, updateRevNum];
  }

  /** newVersionedStatefulSetPod: identity, storage and revision label, from the chosen revision's template. */
  private newPod(set: StatefulSet, ordinal: number, revision: string): Pod {
    const tmpl =
      revision === `${set.metadata.name}-${computeHash(set.spec?.template, set.status?.collisionCount ?? 0)}`
        ? set.spec.template
        : this.templateOf(set, revision);
    const name = `${set.metadata.name}-${ordinal}`;
    const meta = tmpl?.metadata ?? {};
    const spec = deepCopy(tmpl?.spec ?? ({} as PodSpec)); // a stored template has a spec (validation)
    spec.hostname = name;
    if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
    const vols: Volume[] = (spec.volumes ?? []).filter(
      (v) => !(set.spec?.volumeClaimTemplates ?? []).some((t) => t.metadata?.name === v.name),
    );
    // validation requires every volumeClaimTemplate's metadata.name
    for (const t of set.spec?.volumeClaimTemplates ?? [])
      vols.push({ name: t.metadata!.name!, persistentVolumeClaim: { claimName: claimName(set, t.metadata!.name!, ordinal) } });
    if (vols.length) spec.volumes = vols;
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: {
          ...(meta.labels ?? {}),
          [StatefulSetPodNameLabel]: name,
          [PodIndexLabel]: String(ordinal),
          [StatefulSetRevisionLabel]: revision,
        },
        ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
        ownerReferences: [newControllerRef(set)],
      },
      spec,
    };
  }

  private templateOf(set: StatefulSet, revision: string): PodTemplateSpec & { $patch?: string } {
    const cr = this.historyInformer.get(`${set.metadata.namespace}/${revision}`);
    // a revision's data is the strategic-merge patch {spec: {template: {…, $patch: replace}}}
    const data = cr?.data as { spec?: { template?: PodTemplateSpec & { $patch?: string } } } | undefined;
    const t: PodTemplateSpec & { $patch?: string } = deepCopy(data?.spec?.template ?? set.spec.template);
    delete t.$patch;
    return t;
  }

  private event(set: StatefulSet, verb: 'Create' | 'Delete', what: string, err?: unknown): void {
    if (err === undefined)
      this.recorder.event(
        set,
        'Normal',
        `Successful${verb}`,
        `${verb.toLowerCase()} ${what} in StatefulSet ${set.metadata.name} ${what.startsWith('Claim') ? 'success' : 'successful'}`,
      );
    else
      this.recorder.event(
        set,
        'Warning',
        `Failed${verb}`,
        `${verb.toLowerCase()} ${what} in StatefulSet ${set.metadata.name} failed error: ${errorMessage(err)}`,
      );
  }

  /** CreateStatefulPod: missing claims first (createPersistentVolumeClaims), then the Pod. */
  private createPod(set: StatefulSet, pod: Pod, ordinal: number): void {
    const ns = set.metadata.namespace ?? '';
    for (const t of set.spec?.volumeClaimTemplates ?? []) {
      const name = claimName(set, t.metadata!.name!, ordinal);
      if (this.pvcInformer.get(`${ns}/${name}`)) continue;
      const labels = { ...(t.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
      const claim: PersistentVolumeClaim = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name, namespace: ns, labels, ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}) },
        spec: deepCopy(t.spec ?? {}),
      };
      try {
        this.pvcClient.create(ns, claim, { summary: `create PersistentVolumeClaim ${ns}/${name} for Pod ${pod.metadata.name}` });
        this.event(set, 'Create', `Claim ${name} Pod ${pod.metadata.name}`);
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        this.event(set, 'Create', `Claim ${name} for Pod ${pod.metadata.name}`, err);
        throw err;
      }
    }
    try {
      this.podClient.create(ns, pod, { summary: `create Pod ${ns}/${pod.metadata.name} for StatefulSet ${set.metadata.name}` });
    } catch (err) {
      if (isAlreadyExists(err)) return;
      this.event(set, 'Create', `Pod ${pod.metadata.name}`, err);
      throw err;
    }
    this.event(set, 'Create', `Pod ${pod.metadata.name}`);
  }

  private deletePod(set: StatefulSet, pod: Pod): void {
    try {
      this.podClient.delete(set.metadata.namespace ?? '', pod.metadata.name);
    } catch (err) {
      if (isNotFound(err)) return;
      this.event(set, 'Delete', `Pod ${pod.metadata.name}`, err);
      throw err;
    }
    this.event(set, 'Delete', `Pod ${pod.metadata.name}`);
  }

  /** updateStatefulSet (stateful_set_control.go), then the status. */
  private updateStatefulSet(set: StatefulSet, pods: Pod[]): void {
    const [currentRev, updateRev] = this.revisions(set);
    const n: number = set.spec?.replicas ?? 1;
    const monotonic = set.spec?.podManagementPolicy !== 'Parallel';
    const rolling = set.spec?.updateStrategy?.type !== 'OnDelete';
    const partition: number = rolling ? (set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0) : 0;
    const replicas: (Pod | undefined)[] = Array.from({ length: n }, () => undefined);
    const condemned: Pod[] = [];
    for (const p of pods) {
      const o = getOrdinal(set, p);
      if (o >= 0 && o < n) replicas[o] = p;
      else if (o >= n) condemned.push(p);
    }
    condemned.sort((a, b) => getOrdinal(set, b) - getOrdinal(set, a));
    const target = { resource: 'statefulsets', namespace: set.metadata.namespace, name: set.metadata.name };
    const decide = (s: string) => recordDecision(this.ctx.relay, this.name, target, s, this.ctx.relay.newReconcile());
    const revisionFor = (o: number) => (rolling && o < partition ? currentRev : updateRev);
    const act = (): void => {
      // replace failed or finished pods; create the missing ones
      for (let o = 0; o < n; o++) {
        const p = replicas[o];
        if (p && isFailedOrSucceeded(p) && !isTerminating(p)) {
          this.ctx.relay.withCause(decide(`${p.metadata.name} is ${p.status?.phase} → delete it to recreate`), () =>
            this.deletePod(set, p),
          );
          if (monotonic) return;
          continue;
        }
        if (!p) {
          const pod = this.newPod(set, o, revisionFor(o));
          this.ctx.relay.withCause(decide(`ordinal ${o} missing (replicas ${n}) → create ${pod.metadata.name}`), () =>
            this.createPod(set, pod, o),
          );
          if (monotonic) return;
          continue;
        }
        if (monotonic && (isTerminating(p) || !isRunningAndReady(p))) {
          decide(`OrderedReady: waiting for ${p.metadata.name} to be Running and Ready`);
          return;
        }
      }
      // scale down from the highest ordinal
      for (const p of condemned) {
        if (isTerminating(p)) {
          if (monotonic) return;
          continue;
        }
        if (monotonic && replicas.some((r) => !r || !isRunningAndReady(r) || isTerminating(r))) return;
        this.ctx.relay.withCause(decide(`ordinal ${getOrdinal(set, p)} ≥ replicas ${n} → delete ${p.metadata.name}`), () =>
          this.deletePod(set, p),
        );
        if (monotonic) return;
      }
      if (!rolling) return;
      // RollingUpdate: reverse ordinal order, one at a time, down to the partition
      for (let o = n - 1; o >= partition; o--) {
        const p = replicas[o];
        if (!p) return;
        if (p.metadata.labels?.[StatefulSetRevisionLabel] !== updateRev && !isTerminating(p)) {
          this.ctx.relay.withCause(
            decide(`rolling update to ${updateRev}: ${p.metadata.name} has ${p.metadata.labels?.[StatefulSetRevisionLabel]} → delete it`),
            () => this.deletePod(set, p),
          );
          return;
        }
        if (!isRunningAndReady(p) || isTerminating(p)) return;
      }
    };
    act();
    this.updateStatus(set, pods, currentRev, updateRev);
  }

  /** computeReplicaStatus + completeRollingUpdate + updateStatefulSetStatus (only when changed). */
  private updateStatus(set: StatefulSet, pods: Pod[], currentRev: string, updateRev: string): void {
    const now = this.ctx.clock.now();
    const mrs: number = set.spec?.minReadySeconds ?? 0;
    let replicas = 0,
      ready = 0,
      available = 0,
      current = 0,
      updated = 0;
    for (const p of pods) {
      if (isTerminating(p) || isFailedOrSucceeded(p)) continue;
      replicas++;
      if (isRunningAndReady(p)) {
        ready++;
        if (isPodAvailable(p, mrs, now)) available++;
      }
      const rev = p.metadata.labels?.[StatefulSetRevisionLabel];
      if (rev === currentRev) current++;
      if (rev === updateRev) updated++;
    }
    let cur = currentRev;
    const n: number = set.spec?.replicas ?? 1;
    if (set.spec?.updateStrategy?.type !== 'OnDelete' && updated === n && ready === n && replicas === n) {
      cur = updateRev;
      current = updated;
    }
    const status: StatefulSetStatus = { observedGeneration: set.metadata.generation, replicas };
    if (ready) status.readyReplicas = ready;
    if (current) status.currentReplicas = current;
    if (updated) status.updatedReplicas = updated;
    status.currentRevision = cur;
    status.updateRevision = updateRev;
    status.collisionCount = set.status?.collisionCount ?? 0;
    status.availableReplicas = available;
    if (set.status?.conditions) status.conditions = set.status.conditions;
    if (deepEqual(status, set.status ?? {})) return;
    this.setClient.updateStatus(
      { ...set, status },
      {
        summary: `update status StatefulSet ${metaNamespaceKey(set)}: replicas ${replicas}, ready ${ready}, current ${current}, updated ${updated}`,
      },
    );
  }
}
