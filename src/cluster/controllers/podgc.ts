/**
 * PodGCController (pkg/controller/podgc/gc_controller.go): every 20 s (gcCheckPeriod) it
 * - gcOrphaned: force-deletes Pods bound to a Node that no longer exists, after a 40 s
 *   quarantine (the node is re-checked with a live GET, as upstream does), first marking
 *   non-terminal Pods Failed with the condition DisruptionTarget / DeletionByPodGC
 *   "PodGC: node no longer exists";
 * - gcUnscheduledTerminating: force-deletes terminating Pods that were never scheduled;
 * - gcTerminating: force-deletes terminating Pods on NotReady nodes that carry the
 *   `node.kubernetes.io/out-of-service` taint (non-graceful node shutdown);
 * - gcTerminated: deletes the oldest terminated Pods beyond --terminated-pod-gc-threshold
 *   (12,500).
 * Relay participant `pod-garbage-collector-controller`; it authenticates as the
 * `pod-garbage-collector` service account.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { users, type Client } from '../client/clientset';
import { deepCopy } from '../api/types';
import type { Node, Pod } from '../api/objects';
import type { PodCondition } from 'kubernetes-types/core/v1';
import { StatusError } from '../api/errors';

const PARTICIPANT = 'pod-garbage-collector-controller';
/** gcCheckPeriod, simulated ms. */
export const GC_CHECK_PERIOD_MS = 20_000;
/** quarantineTime before an orphaned node's Pods are deleted, simulated ms. */
export const QUARANTINE_MS = 40_000;
/** --terminated-pod-gc-threshold default. */
export const TERMINATED_POD_GC_THRESHOLD = 12_500;

function isTerminal(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

export class PodGCController {
  readonly name = PARTICIPANT;
  private readonly client: Client;
  private readonly pods: SharedInformer<Pod>;
  private readonly nodes: SharedInformer<Node>;
  /** node name → when it was first seen missing (simulated ms) */
  private missingSince = new Map<string, number>();
  private paused = false;

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client({ ...users.controller('pod-garbage-collector'), participant: PARTICIPANT });
    this.pods = informers.informerFor<Pod>('', 'pods');
    this.nodes = informers.informerFor<Node>('', 'nodes');
  }

  /** Starts the periodic pass (gcCheckPeriod). */
  run(): void {
    this.schedule();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  private schedule(): void {
    this.ctx.clock.setTimer(
      GC_CHECK_PERIOD_MS,
      () => {
        if (!this.paused) this.ctx.relay.withCause(null, () => this.gc());
        this.schedule();
      },
      this.pendingDeadline(),
    );
  }

  /** The next pass is a known deadline while an orphaned node is in quarantine. */
  private pendingDeadline(): { deadline: true; label: string } | undefined {
    if (!this.missingSince.size) return undefined;
    return { deadline: true, label: `${PARTICIPANT}: Pods of deleted node(s) ${[...this.missingSince.keys()].join(', ')}` };
  }

  /** One gc pass, as gc() in gc_controller.go. */
  gc(): void {
    const pods = this.pods.list();
    this.gcTerminated(pods);
    this.gcTerminating(pods);
    this.gcOrphaned(pods);
    this.gcUnscheduledTerminating(pods);
  }

  private gcTerminated(pods: Pod[]): void {
    const terminated = pods.filter(isTerminal);
    const excess = terminated.length - TERMINATED_POD_GC_THRESHOLD;
    if (excess <= 0) return;
    terminated.sort((a, b) => Date.parse(a.metadata.creationTimestamp ?? '') - Date.parse(b.metadata.creationTimestamp ?? ''));
    for (const p of terminated.slice(0, excess))
      this.forceDelete(p, null, `terminated Pods exceed --terminated-pod-gc-threshold=${TERMINATED_POD_GC_THRESHOLD}`);
  }

  private gcTerminating(pods: Pod[]): void {
    for (const p of pods) {
      if (!p.metadata.deletionTimestamp || !p.spec?.nodeName) continue;
      const node = this.nodes.get(p.spec.nodeName);
      if (!node) continue;
      const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
      const outOfService = (node.spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/out-of-service' && t.effect === 'NoExecute');
      if (ready?.status !== 'True' && outOfService) {
        this.forceDelete(
          p,
          { reason: 'DeletionByPodGC', message: 'PodGC: node is out of service' },
          `node ${p.spec.nodeName} is NotReady and out of service`,
        );
      }
    }
  }

  private gcOrphaned(pods: Pod[]): void {
    const now = this.ctx.clock.now();
    const onMissing = new Map<string, Pod[]>();
    for (const p of pods) {
      const n = p.spec?.nodeName;
      if (!n || this.nodes.get(n)) continue;
      let list = onMissing.get(n);
      if (!list) onMissing.set(n, (list = []));
      list.push(p);
    }
    for (const n of [...this.missingSince.keys()]) if (!onMissing.has(n)) this.missingSince.delete(n);
    for (const [node, list] of onMissing) {
      const since = this.missingSince.get(node);
      if (since === undefined) {
        this.missingSince.set(node, now);
        continue;
      }
      if (now - since < QUARANTINE_MS) continue;
      // re-check with a live GET (the informer may lag), as upstream's discoverDeletedNodes
      try {
        this.client.resource<Node>('', 'nodes').get('', node);
        this.missingSince.delete(node);
        continue;
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
      this.missingSince.delete(node);
      for (const p of list)
        this.forceDelete(p, { reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' }, `node ${node} no longer exists`);
    }
  }

  private gcUnscheduledTerminating(pods: Pod[]): void {
    for (const p of pods) {
      if (p.metadata.deletionTimestamp && !p.spec?.nodeName) this.forceDelete(p, null, 'terminating and never scheduled');
    }
  }

  /** markFailedAndDeletePodWithCondition: Failed + DisruptionTarget (when given), then delete with grace 0. */
  private forceDelete(pod: Pod, condition: { reason: string; message: string } | null, why: string): void {
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name;
    this.ctx.relay.record({
      from: PARTICIPANT,
      to: PARTICIPANT,
      kind: 'decision',
      namespace: ns,
      name,
      summary: `force delete Pod ${ns}/${name}: ${why}`,
    });
    const rc = this.client.resource<Pod>('', 'pods');
    try {
      if (condition && !isTerminal(pod)) {
        const next = deepCopy(pod);
        const conds = (next.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
        conds.push({
          type: 'DisruptionTarget',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: this.ctx.clock.nowRFC3339(),
          reason: condition.reason,
          message: condition.message,
        } as unknown as PodCondition); // lastProbeTime null: Go's zero metav1.Time (kubernetes-types: a string)
        next.status = { ...next.status, phase: 'Failed', conditions: conds };
        rc.updateStatus(next);
      }
      rc.delete(ns, name, { gracePeriodSeconds: 0 });
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }
}
