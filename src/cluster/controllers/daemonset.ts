/**
 * DaemonSetsController: one Pod per eligible node, in the shape of kubernetes/kubernetes
 * pkg/controller/daemon (daemon_controller.go: syncDaemonSet, manage, podsShouldBeOnNode,
 * syncNodes, updateDaemonSetStatus; update.go: rollingUpdate, constructHistory;
 * util/daemonset_util.go: CreatePodTemplate, AddOrUpdateDaemonPodTolerations,
 * ReplaceDaemonSetPodNodeNameNodeAffinity).
 *
 * Eligibility (NodeShouldRunDaemonPod): the node name, the template's nodeSelector and required
 * node affinity, and the node's NoSchedule/NoExecute taints against the template's tolerations
 * plus the default ones the controller adds (not-ready and unreachable NoExecute without
 * seconds; disk-, memory-, pid-pressure and unschedulable NoSchedule; network-unavailable for
 * hostNetwork). Pods are created with generateName `<ds>-`, the labels
 * `controller-revision-hash` and `pod-template-generation`, and a required node affinity
 * `matchFields metadata.name In [node]`; the default scheduler binds them (as since v1.12).
 * A Pod on a node with an untolerated NoExecute taint, or on a node that stopped matching, is
 * deleted; a Failed daemon Pod is deleted and recreated. RollingUpdate deletes old-revision
 * Pods up to maxUnavailable; OnDelete waits. Each template is a ControllerRevision
 * `<ds>-<hash>`. Events (`daemonset-controller`): SuccessfulCreate "Created pod: x",
 * SuccessfulDelete "Deleted pod: x", FailedDaemonPod "Found failed daemon pod ns/x on node n,
 * will try to kill it". Not modelled: maxSurge > 0, slow-start back-off of failed pods.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import type { ResourceClient } from '../client/clientset';
import { users } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { RateLimitingQueue } from '../client/workqueue';
import { fromLabelSelector, matches } from '../api/labels';
import { deepCopy, deepEqual, getControllerOf, metaNamespaceKey, newControllerRef } from '../api/types';
import type { ControllerRevision, DaemonSet, Node, Pod } from '../api/objects';
import type { PodSpec } from 'kubernetes-types/core/v1';
import type { DaemonSetStatus } from 'kubernetes-types/apps/v1';
import {
  BurstReplicas,
  RealPodControl,
  UIDTrackingControllerExpectations,
  isNotFound,
  isPodAvailable,
  isPodReady,
  plural,
  podKey,
  recordDecision,
  type PodControl,
} from './controller-utils';
import { claimObjects, recheckDeletionTimestamp } from './controller-ref-manager';
import { ensurePodControllerUIDIndex, filterPodsByOwner } from './replicaset';
import { findUntoleratedTaint, podMatchesNodeSelectorAndAffinity, type Toleration } from '../component-helpers/scheduling/corev1';
import { computeHash, getScaledValueFromIntOrPercent } from './deployment-utils';

/** Relay participant and event source of this controller. */
export const DaemonSetControllerName = 'daemonset-controller';
/** apps.DefaultDaemonSetUniqueLabelKey and extensions.DaemonSetTemplateGenerationKey. */
export const ControllerRevisionHashLabel = 'controller-revision-hash';
export const DaemonSetTemplateGenerationKey = 'pod-template-generation';
const TemplateGenerationAnnotation = 'deprecated.daemonset.template.generation';

/** AddOrUpdateDaemonPodTolerations (util/daemonset_util.go). */
export function addDaemonPodTolerations(spec: PodSpec): void {
  const tols: Toleration[] = spec.tolerations ?? [];
  const add = (key: string, effect: string) => {
    if (!tols.some((t) => t.key === key && t.operator === 'Exists' && t.effect === effect)) tols.push({ key, operator: 'Exists', effect });
  };
  add('node.kubernetes.io/not-ready', 'NoExecute');
  add('node.kubernetes.io/unreachable', 'NoExecute');
  add('node.kubernetes.io/disk-pressure', 'NoSchedule');
  add('node.kubernetes.io/memory-pressure', 'NoSchedule');
  add('node.kubernetes.io/pid-pressure', 'NoSchedule');
  add('node.kubernetes.io/unschedulable', 'NoSchedule');
  if (spec.hostNetwork) add('node.kubernetes.io/network-unavailable', 'NoSchedule');
  spec.tolerations = tols;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity. */
export function replaceNodeNameAffinity(spec: PodSpec, node: string): void {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] };
  spec.affinity = spec.affinity ?? {};
  spec.affinity.nodeAffinity = spec.affinity.nodeAffinity ?? {};
  spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [term] };
}

/** NodeShouldRunDaemonPod: [shouldRun, shouldContinueRunning]. */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): [boolean, boolean] {
  const spec = deepCopy(ds.spec?.template?.spec ?? ({} as PodSpec)); // a stored template has a spec (validation)
  addDaemonPodTolerations(spec);
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: '' }, spec };
  if (spec.nodeName && spec.nodeName !== node.metadata.name) return [false, false];
  if (!podMatchesNodeSelectorAndAffinity(pod, node)) return [false, false];
  const taints = node.spec?.taints ?? [];
  const noExec = findUntoleratedTaint(taints, spec.tolerations, (t) => t.effect === 'NoExecute');
  if (noExec) return [false, false];
  const noSched = findUntoleratedTaint(taints, spec.tolerations, (t) => t.effect === 'NoSchedule');
  return noSched ? [false, true] : [true, true];
}

export class DaemonSetsController {
  readonly name = DaemonSetControllerName;
  readonly queue: RateLimitingQueue;
  readonly expectations: UIDTrackingControllerExpectations;
  podControl: PodControl;
  syncHandler: (key: string) => void;
  burstReplicas = BurstReplicas;
  readonly dsInformer: SharedInformer<DaemonSet>;
  readonly podInformer: SharedInformer<Pod>;
  readonly nodeInformer: SharedInformer<Node>;
  readonly historyInformer: SharedInformer<ControllerRevision>;
  private readonly dsClient: ResourceClient<DaemonSet>;
  private readonly podClient: ResourceClient<Pod>;
  private readonly historyClient: ResourceClient<ControllerRevision>;
  private readonly recorder: EventRecorder;

  /** Wires informer handlers (DaemonSets, Pods, Nodes, ControllerRevisions). */
  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    const client = ctx.client(users.controller(DaemonSetControllerName));
    this.dsClient = client.resource<DaemonSet>('apps', 'daemonsets');
    this.podClient = client.resource<Pod>('', 'pods');
    this.historyClient = client.resource<ControllerRevision>('apps', 'controllerrevisions');
    this.recorder = ctx.recorder(client, DaemonSetControllerName);
    this.podControl = new RealPodControl(this.podClient, this.recorder);
    this.expectations = new UIDTrackingControllerExpectations(ctx.clock);
    this.dsInformer = informers.informerFor<DaemonSet>('apps', 'daemonsets');
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    this.nodeInformer = informers.informerFor<Node>('', 'nodes');
    this.historyInformer = informers.informerFor<ControllerRevision>('apps', 'controllerrevisions');
    ensurePodControllerUIDIndex(this.podInformer);
    this.syncHandler = (key) => this.syncDaemonSet(key);
    this.queue = new RateLimitingQueue('daemonset', ctx.clock, ctx.relay, (key) => this.syncHandler(key));
    const enqueue = (ds: DaemonSet) => this.queue.add(metaNamespaceKey(ds));
    this.dsInformer.addEventHandler({
      participant: DaemonSetControllerName,
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: (ds) => {
        this.expectations.deleteExpectations(metaNamespaceKey(ds));
        enqueue(ds);
      },
    });
    const ownerOf = (p: Pod) => {
      const ref = getControllerOf(p);
      if (!ref || ref.kind !== 'DaemonSet') return undefined;
      const ds = this.dsInformer.get(`${p.metadata.namespace}/${ref.name}`);
      return ds && ds.metadata.uid === ref.uid ? ds : undefined;
    };
    this.podInformer.addEventHandler({
      participant: DaemonSetControllerName,
      filter: (p) => getControllerOf(p)?.kind === 'DaemonSet',
      onAdd: (p) => {
        const ds = ownerOf(p);
        if (!ds) return;
        this.expectations.creationObserved(metaNamespaceKey(ds));
        enqueue(ds);
      },
      onUpdate: (o, p) => {
        if (o.metadata.resourceVersion === p.metadata.resourceVersion) return;
        const ds = ownerOf(p);
        if (!ds) return;
        if (p.metadata.deletionTimestamp) this.expectations.deletionObservedOf(metaNamespaceKey(ds), podKey(p));
        enqueue(ds);
        const mrs: number = ds.spec?.minReadySeconds ?? 0;
        if (mrs > 0 && !isPodReady(o) && isPodReady(p))
          this.queue.addAfter(metaNamespaceKey(ds), mrs * 1000, {
            label: `daemonset ${metaNamespaceKey(ds)}: pod available after minReadySeconds`,
          });
      },
      onDelete: (p) => {
        const ds = ownerOf(p);
        if (!ds) return;
        this.expectations.deletionObservedOf(metaNamespaceKey(ds), podKey(p));
        enqueue(ds);
      },
    });
    // node events: every DaemonSet is re-evaluated (upstream filters by shouldRun changes)
    const all = () => {
      for (const ds of this.dsInformer.list()) enqueue(ds);
    };
    this.nodeInformer.addEventHandler({
      participant: DaemonSetControllerName,
      onAdd: all,
      onUpdate: (o, n) => {
        if (
          !deepEqual(o.metadata.labels, n.metadata.labels) ||
          !deepEqual(o.spec?.taints, n.spec?.taints) ||
          !deepEqual(o.spec?.unschedulable, n.spec?.unschedulable)
        )
          all();
      },
      onDelete: all,
    });
  }

  pause(): void {
    this.queue.paused = true;
  }

  resume(): void {
    this.queue.resume();
  }

  resync(): void {
    for (const ds of this.dsInformer.list()) this.queue.add(metaNamespaceKey(ds));
  }

  /**
   * syncDaemonSet: constructHistory, then (expectations satisfied) manage + rollingUpdate,
   * then status. @throws on a failed write (retried with back-off).
   */
  syncDaemonSet(key: string): void {
    const ds = this.dsInformer.get(key);
    if (!ds) {
      this.expectations.deleteExpectations(key);
      return;
    }
    let selector;
    try {
      selector = fromLabelSelector(ds.spec?.selector);
    } catch {
      return;
    }
    if (selector.requirements.length === 0) return; // an empty selector selects nothing here
    const nodes = this.nodeInformer.list();
    const pods = claimObjects(
      { controller: ds, selector, client: this.podClient, canAdopt: recheckDeletionTimestamp(this.dsClient, ds) },
      filterPodsByOwner(this.podInformer, ds, true),
    );
    const byNode = new Map<string, Pod[]>();
    for (const p of pods) {
      if (p.metadata.deletionTimestamp) continue;
      const n =
        p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]
          ?.values?.[0] ??
        p.spec?.nodeName ??
        '';
      byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    if (ds.metadata.deletionTimestamp) return this.updateStatus(ds, nodes, byNode, '');
    const hash = this.constructHistory(ds);
    if (!this.expectations.satisfiedExpectations(key)) return this.updateStatus(ds, nodes, byNode, hash);
    this.manage(ds, nodes, byNode, hash);
    if (ds.spec?.updateStrategy?.type !== 'OnDelete') this.rollingUpdate(ds, nodes, byNode, hash);
    this.updateStatus(ds, nodes, byNode, hash);
  }

  /** constructHistory: the current revision `<ds>-<hash>` exists (created if missing); old ones beyond revisionHistoryLimit are deleted. */
  private constructHistory(ds: DaemonSet): string {
    const hash = computeHash(ds.spec?.template, ds.status?.collisionCount);
    const name = `${ds.metadata.name}-${hash}`;
    const ns = ds.metadata.namespace ?? '';
    const mine = this.historyInformer.list(ns).filter((h) => getControllerOf(h)?.uid === ds.metadata.uid);
    const maxRev = Math.max(0, ...mine.map((h) => h.revision ?? 0));
    const cur = mine.find((h) => h.metadata.name === name);
    if (!cur) {
      const rev: ControllerRevision = {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {
          name,
          namespace: ns,
          labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [ControllerRevisionHashLabel]: hash },
          ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
          ownerReferences: [newControllerRef(ds)],
        },
        data: { spec: { template: { ...deepCopy(ds.spec?.template), $patch: 'replace' } } },
        revision: maxRev + 1,
      };
      try {
        this.historyClient.create(ns, rev, { summary: `create ControllerRevision ${ns}/${name} (revision ${maxRev + 1})` });
      } catch (err) {
        if (!(err instanceof Error && /already exists/.test(err.message))) throw err;
      }
    } else if ((cur.revision ?? 0) < maxRev) {
      this.historyClient.update(
        { ...cur, revision: maxRev + 1 },
        { summary: `update ControllerRevision ${ns}/${name}: revision ${maxRev + 1}` },
      );
    }
    const limit: number = ds.spec?.revisionHistoryLimit ?? 10;
    const old = mine.filter((h) => h.metadata.name !== name).sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    const live = new Set(filterPodsByOwner(this.podInformer, ds, false).map((p) => p.metadata.labels?.[ControllerRevisionHashLabel]));
    const deletable = old.filter((h) => !live.has(h.metadata.labels?.[ControllerRevisionHashLabel]));
    for (const h of deletable.slice(0, Math.max(0, old.length - limit))) {
      try {
        this.historyClient.delete(ns, h.metadata.name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return hash;
  }

  /** manage / podsShouldBeOnNode / syncNodes: creates the missing daemon pods, deletes the extra and failed ones. */
  private manage(ds: DaemonSet, nodes: Node[], byNode: Map<string, Pod[]>, hash: string): void {
    const key = metaNamespaceKey(ds);
    const createOn: string[] = [];
    const toDelete: Pod[] = [];
    const known = new Set(nodes.map((n) => n.metadata.name));
    for (const node of nodes) {
      const [shouldRun, shouldContinue] = nodeShouldRunDaemonPod(node, ds);
      const here = byNode.get(node.metadata.name) ?? [];
      if (shouldRun && here.length === 0) createOn.push(node.metadata.name);
      else if (shouldContinue) {
        const alive: Pod[] = [];
        for (const p of here) {
          if (p.status?.phase === 'Failed') {
            this.recorder.event(
              ds,
              'Warning',
              'FailedDaemonPod',
              `Found failed daemon pod ${p.metadata.namespace}/${p.metadata.name} on node ${node.metadata.name}, will try to kill it`,
            );
            toDelete.push(p);
          } else alive.push(p);
        }
        if (alive.length > 1) {
          // keep the oldest, delete the rest
          alive.sort((a, b) => Date.parse(a.metadata.creationTimestamp ?? '') - Date.parse(b.metadata.creationTimestamp ?? ''));
          toDelete.push(...alive.slice(1));
        }
      } else toDelete.push(...here);
    }
    for (const [n, here] of byNode) if (n && !known.has(n)) toDelete.push(...here); // pods for nodes that are gone
    const creates = createOn.slice(0, this.burstReplicas);
    const deletes = toDelete.slice(0, this.burstReplicas);
    if (!creates.length && !deletes.length) return;
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'daemonsets', namespace: ds.metadata.namespace, name: ds.metadata.name },
      `${creates.length ? `no daemon Pod on ${creates.join(', ')} → create ${plural(creates.length, 'Pod')}` : ''}${creates.length && deletes.length ? '; ' : ''}${deletes.length ? `delete ${plural(deletes.length, 'Pod')}: ${deletes.map((p) => p.metadata.name).join(', ')}` : ''}`,
      this.ctx.relay.newReconcile(),
    );
    this.expectations.setExpectations(key, creates.length, 0);
    this.expectations.expectDeletionsOf(key, deletes.map(podKey));
    this.expectations.raiseExpectations(key, creates.length, 0);
    this.ctx.relay.withCause(seq, () => this.syncNodes(ds, deletes, creates, hash));
  }

  /** syncNodes: deletes, then creates (one pod per node, with the node-name affinity). */
  private syncNodes(ds: DaemonSet, deletes: Pod[], creates: string[], hash: string): void {
    const key = metaNamespaceKey(ds);
    const ns = ds.metadata.namespace ?? '';
    let firstErr: unknown = undefined;
    for (const p of deletes) {
      try {
        this.podControl.deletePod(ns, p.metadata.name, ds);
      } catch (err) {
        this.expectations.deletionObservedOf(key, podKey(p));
        if (!isNotFound(err) && firstErr === undefined) firstErr = err;
      }
    }
    const generation = ds.metadata.annotations?.[TemplateGenerationAnnotation] ?? String(ds.metadata.generation ?? 1);
    const base = deepCopy(ds.spec?.template ?? {});
    base.metadata = base.metadata ?? {};
    base.metadata.labels = {
      ...(base.metadata.labels ?? {}),
      [ControllerRevisionHashLabel]: hash,
      [DaemonSetTemplateGenerationKey]: generation,
    };
    base.spec = base.spec ?? ({} as PodSpec);
    addDaemonPodTolerations(base.spec);
    const ref = newControllerRef(ds);
    for (const node of creates) {
      const t = deepCopy(base);
      replaceNodeNameAffinity(t.spec!, node); // set above
      try {
        this.podControl.createPods(ns, t, ds, ref);
      } catch (err) {
        this.expectations.creationObserved(key);
        if (firstErr === undefined) firstErr = err;
      }
    }
    if (firstErr !== undefined) throw firstErr;
  }

  /** rollingUpdate (maxSurge 0): deletes old-revision pods, unavailable ones first, within maxUnavailable. */
  private rollingUpdate(ds: DaemonSet, nodes: Node[], byNode: Map<string, Pod[]>, hash: string): void {
    const now = this.ctx.clock.now();
    const mrs: number = ds.spec?.minReadySeconds ?? 0;
    const desired = nodes.filter((n) => nodeShouldRunDaemonPod(n, ds)[0]).length;
    const maxUnavailable = Math.max(
      1,
      getScaledValueFromIntOrPercent(ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1, desired, true),
    );
    let unavailable = 0;
    const oldAvailable: Pod[] = [];
    const oldUnavailable: Pod[] = [];
    for (const n of nodes) {
      if (!nodeShouldRunDaemonPod(n, ds)[0]) continue;
      const p = (byNode.get(n.metadata.name) ?? [])[0];
      if (!p) {
        unavailable++;
        continue;
      }
      const avail = isPodAvailable(p, mrs, now);
      if (!avail) unavailable++;
      if (p.metadata.labels?.[ControllerRevisionHashLabel] === hash) continue;
      (avail ? oldAvailable : oldUnavailable).push(p);
    }
    const toDelete = [...oldUnavailable];
    for (const p of oldAvailable) {
      if (unavailable >= maxUnavailable) break;
      toDelete.push(p);
      unavailable++;
    }
    if (!toDelete.length) return;
    const key = metaNamespaceKey(ds);
    const seq = recordDecision(
      this.ctx.relay,
      this.name,
      { resource: 'daemonsets', namespace: ds.metadata.namespace, name: ds.metadata.name },
      `rolling update to ${hash}: maxUnavailable ${maxUnavailable} → delete ${plural(toDelete.length, 'old Pod')}: ${toDelete.map((p) => p.metadata.name).join(', ')}`,
      this.ctx.relay.newReconcile(),
    );
    this.expectations.expectDeletionsOf(key, toDelete.map(podKey));
    this.ctx.relay.withCause(seq, () => this.syncNodes(ds, toDelete, [], hash));
  }

  /** updateDaemonSetStatus: the counters over eligible nodes; written only when changed. */
  private updateStatus(ds: DaemonSet, nodes: Node[], byNode: Map<string, Pod[]>, hash: string): void {
    const now = this.ctx.clock.now();
    const mrs: number = ds.spec?.minReadySeconds ?? 0;
    const sel = fromLabelSelector(ds.spec?.selector);
    let desired = 0,
      current = 0,
      mis = 0,
      ready = 0,
      updated = 0,
      available = 0;
    for (const n of nodes) {
      const [shouldRun] = nodeShouldRunDaemonPod(n, ds);
      const here = (byNode.get(n.metadata.name) ?? []).filter((p) => p.spec?.nodeName === n.metadata.name);
      if (shouldRun) {
        desired++;
        if (!here.length) continue;
        current++;
        const p = here.sort((a, b) => Date.parse(a.metadata.creationTimestamp ?? '') - Date.parse(b.metadata.creationTimestamp ?? ''))[0];
        if (isPodReady(p)) {
          ready++;
          if (isPodAvailable(p, mrs, now)) available++;
        }
        if (hash && p.metadata.labels?.[ControllerRevisionHashLabel] === hash && matches(sel, p.metadata.labels)) updated++;
      } else if (here.length) mis++;
    }
    const status: DaemonSetStatus = {
      currentNumberScheduled: current,
      numberMisscheduled: mis,
      desiredNumberScheduled: desired,
      numberReady: ready,
    };
    status.observedGeneration = ds.metadata.generation;
    if (updated) status.updatedNumberScheduled = updated;
    if (available) status.numberAvailable = available;
    if (desired - available > 0) status.numberUnavailable = desired - available;
    if (ds.status?.collisionCount !== undefined) status.collisionCount = ds.status.collisionCount;
    if (deepEqual(status, ds.status ?? {})) return;
    this.dsClient.updateStatus(
      { ...ds, status },
      {
        summary: `update status DaemonSet ${metaNamespaceKey(ds)}: desired ${desired}, current ${current}, ready ${ready}, available ${available}`,
      },
    );
  }
}
