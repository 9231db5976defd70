/**
 * TaintEvictionController, as pkg/controller/tainteviction/taint_eviction.go (v1.33, where it
 * runs as its own controller, SeparateTaintEvictionController): for Pods on Nodes with
 * NoExecute taints, a Pod that does not tolerate every such taint is deleted at once; one that
 * tolerates them for tolerationSeconds is deleted after the smallest of those (300 s with the
 * DefaultTolerationSeconds tolerations); tolerating forever cancels. A scheduled deletion is a
 * known deadline on the simulated clock ("taint eviction of default/web-x at 300s") and is
 * cancelled when the taint goes away or the Pod leaves.
 *
 * Events from component `taint-eviction-controller` (v1.33's controller name):
 *   Normal TaintManagerEviction "Marking for deletion Pod default/web-x"
 *   Normal TaintManagerEviction "Cancelling deletion of Pod default/web-x"
 * Before deleting, the Pod gets the condition DisruptionTarget=True, reason
 * DeletionByTaintManager, message "Taint manager: deleting due to NoExecute taint".
 *
 * Reconcile notes (decision hops, RelayHop.note) say why a Pod goes, when the taint is seen
 * and when the eviction fires:
 *   `Pod default/web-x tolerates node.kubernetes.io/unreachable:NoExecute for 300 s → evict at 00:06:45`
 *   `Pod default/web-x tolerates node.kubernetes.io/unreachable:NoExecute for 300 s, elapsed → evict`
 *   `Pod default/web-x does not tolerate node.kubernetes.io/unreachable:NoExecute → evict now`
 *   `Pod default/web-x tolerates node.kubernetes.io/unreachable:NoExecute forever → cancel eviction`
 * (times of day are the simulated clock's, UTC).
 *
 * Relay participant: docs/architecture.md#relay-participants lists `node-lifecycle-controller` (where the taint manager
 * lived before v1.29); this controller's hops are recorded as `taint-eviction-controller`, its
 * v1.33 name. Times: simulated ms; tolerations in seconds.
 */
import { StatusError } from '../api/errors';
import { deepCopy } from '../api/types';
import type { Node, Pod } from '../api/objects';
import type { PodCondition } from 'kubernetes-types/core/v1';
import { users, type Client, type ResourceClient } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import type { ComponentContext } from '../component-context';
import type { TimerHandle } from '../sim/clock';
import { getMatchingTolerations, getMinTolerationSeconds, type Taint, type Toleration } from './nodelifecycle-utils';

const PARTICIPANT = 'taint-eviction-controller';

interface Work {
  createdAt: number;
  fireAt: number;
  handle: TimerHandle;
  /** the taints the Pod tolerates for `seconds` ("key:NoExecute", joined) */
  taints: string;
  seconds: number;
  /** the decision hop that scheduled it */
  cause: number | null;
}

/** "node.kubernetes.io/unreachable:NoExecute" (with "=value" when set), joined by ", ". */
function taintList(taints: Taint[]): string {
  return taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ');
}

/** "00:06:45": the time of day (UTC) of a simulated instant. */
function timeOfDay(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

function noExecuteTaints(node: Node | undefined): Taint[] {
  return (node?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
}

function sameTaints(a: Taint[], b: Taint[]): boolean {
  return (
    a.length === b.length &&
    a.every((t, i) => t.key === b[i].key && t.value === b[i].value && t.effect === b[i].effect && t.timeAdded === b[i].timeAdded)
  );
}

export class TaintEvictionController {
  readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pods: ResourceClient<Pod>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly nodeInformer: SharedInformer<Node>;
  private readonly queue: RateLimitingQueue;
  private readonly taintedNodes = new Map<string, Taint[]>();
  private readonly work = new Map<string, Work>();

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client(users.controller(PARTICIPANT));
    this.recorder = ctx.recorder(this.client, PARTICIPANT);
    this.pods = this.client.resource<Pod>('', 'pods');
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    this.nodeInformer = informers.informerFor<Node>('', 'nodes');
    this.podInformer.addIndexer('spec.nodeName', (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    this.queue = new RateLimitingQueue('noexec_taint', ctx.clock, ctx.relay, (k) =>
      k.startsWith('node/') ? this.handleNodeUpdate(k.slice(5)) : this.handlePodUpdate(k.slice(4)),
    );
    this.podInformer.addEventHandler({
      participant: PARTICIPANT,
      onAdd: (p) => this.podUpdated(undefined, p),
      onUpdate: (o, p) => this.podUpdated(o, p),
      onDelete: (p) => this.podUpdated(p, undefined),
    });
    this.nodeInformer.addEventHandler({
      participant: PARTICIPANT,
      onAdd: (n) => this.nodeUpdated(undefined, n),
      onUpdate: (o, n) => this.nodeUpdated(o, n),
      onDelete: (n) => this.nodeUpdated(n, undefined),
    });
  }

  /** Run: nothing periodic; work is driven by informer events and deadline timers. */
  run(): void {}

  /** Alias of {@link run}. */
  start(): void {}

  /** Stops: every scheduled eviction is dropped (without events). */
  stop(): void {
    for (const w of this.work.values()) this.ctx.clock.cancel(w.handle);
    this.work.clear();
    this.queue.shutdown();
  }

  /** Scheduled evictions: pod key → fire time (simulated ms). */
  scheduled(): Map<string, number> {
    return new Map([...this.work].map(([k, w]) => [k, w.fireAt]));
  }

  /** PodUpdated: only tolerations or node changes matter. */
  podUpdated(old: Pod | undefined, pod: Pod | undefined): void {
    const o = pod ?? old;
    if (!o) return;
    if (
      old &&
      pod &&
      old.spec?.nodeName === pod.spec?.nodeName &&
      // the same (shared, read-only) tolerations list needs no JSON: every status update keeps it
      (old.spec?.tolerations === pod.spec?.tolerations ||
        JSON.stringify(old.spec?.tolerations ?? []) === JSON.stringify(pod.spec?.tolerations ?? []))
    )
      return;
    this.queue.add(`pod/${o.metadata.namespace}/${o.metadata.name}`);
  }

  /** NodeUpdated: only NoExecute taint changes matter. */
  nodeUpdated(old: Node | undefined, node: Node | undefined): void {
    const o = node ?? old;
    if (!o) return;
    if (old && node && sameTaints(noExecuteTaints(old), noExecuteTaints(node))) return;
    this.queue.add(`node/${o.metadata.name}`);
  }

  private handlePodUpdate(key: string): void {
    const pod = this.podInformer.get(key);
    if (!pod) return this.cancelWorkWithEvent(key);
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) return;
    const taints = this.taintedNodes.get(nodeName);
    if (!taints) return;
    this.processPodOnNode(key, nodeName, pod.spec?.tolerations ?? [], taints, this.ctx.clock.now());
  }

  private handleNodeUpdate(name: string): void {
    const node = this.nodeInformer.get(name);
    if (!node) {
      this.taintedNodes.delete(name);
      return;
    }
    const taints = noExecuteTaints(node);
    if (taints.length) this.taintedNodes.set(name, taints);
    else this.taintedNodes.delete(name);
    const pods = this.podInformer.byIndex('spec.nodeName', name).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    if (!pods.length) return;
    if (!taints.length) {
      for (const p of pods) this.cancelWorkWithEvent(`${p.metadata.namespace}/${p.metadata.name}`);
      return;
    }
    const now = this.ctx.clock.now();
    for (const p of pods) this.processPodOnNode(`${p.metadata.namespace}/${p.metadata.name}`, name, p.spec?.tolerations ?? [], taints, now);
  }

  /** processPodOnNode. */
  private processPodOnNode(key: string, _node: string, tolerations: Toleration[], taints: Taint[], now: number): void {
    if (!taints.length) this.cancelWorkWithEvent(key);
    const [all, used] = getMatchingTolerations(taints, tolerations);
    if (!all) {
      this.cancelWorkWithEvent(key);
      const untolerated = taints.filter((t) => !getMatchingTolerations([t], tolerations)[0]);
      const seq = this.decide(key, `Pod ${key} does not tolerate ${taintList(untolerated)} → evict now`);
      this.ctx.relay.withCause(seq, () => this.addWork(key, now, now, 0, taintList(untolerated)));
      return;
    }
    const minS = getMinTolerationSeconds(used);
    if (minS < 0) {
      if (!this.work.has(key)) return;
      const seq = this.decide(key, `Pod ${key} tolerates ${taintList(taints)} forever → cancel eviction`);
      return this.ctx.relay.withCause(seq, () => this.cancelWorkWithEvent(key));
    }
    let start = now;
    const trigger = now + minS * 1000;
    const existing = this.work.get(key);
    if (existing) {
      start = existing.createdAt;
      if (start + minS * 1000 < trigger) return;
      this.cancelWorkWithEvent(key);
    }
    // the taint(s) whose toleration sets the time (used[i] tolerates taints[i])
    const which = taintList(taints.filter((_, i) => used[i].tolerationSeconds != null && Math.max(0, used[i].tolerationSeconds!) === minS));
    const seq = this.decide(
      key,
      `Pod ${key} tolerates ${which || taintList(taints)} for ${minS} s → evict at ${timeOfDay(start + minS * 1000)}`,
    );
    this.ctx.relay.withCause(seq, () => this.addWork(key, start, start + minS * 1000, minS, which || taintList(taints)));
  }

  /** Records the decision hop that opens a reconciliation of the Pod (its note), returning its seq. */
  private decide(key: string, note: string): number {
    const [namespace, name] = key.split('/');
    return this.ctx.relay.record({
      from: PARTICIPANT,
      to: PARTICIPANT,
      kind: 'decision',
      resource: 'pods',
      namespace,
      name,
      summary: note,
      reconcile: this.ctx.relay.newReconcile(),
      note,
    });
  }

  private addWork(key: string, createdAt: number, fireAt: number, seconds: number, taints: string): void {
    if (this.work.has(key)) return;
    const handle = this.ctx.clock.setTimer(
      Math.max(0, fireAt - this.ctx.clock.now()),
      () => {
        const w = this.work.get(key);
        this.work.delete(key);
        this.ctx.relay.withCause(null, () => {
          // an immediate eviction (not tolerated) was explained when it was scheduled
          const seq =
            w && w.seconds > 0
              ? this.decide(key, `Pod ${key} tolerates ${w.taints} for ${w.seconds} s, elapsed → evict`)
              : (w?.cause ?? null);
          this.ctx.relay.withCause(seq, () => this.deletePod(key));
        });
      },
      { deadline: true, label: `taint eviction of ${key} at ${seconds}s`, object: `Pod/${key}` },
    );
    this.work.set(key, { createdAt, fireAt, handle, taints, seconds, cause: this.ctx.relay.currentCause });
  }

  private cancelWorkWithEvent(key: string): void {
    const w = this.work.get(key);
    if (!w) return;
    this.ctx.clock.cancel(w.handle);
    this.work.delete(key);
    const [ns, name] = key.split('/');
    this.recorder.event(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name },
      'Normal',
      'TaintManagerEviction',
      `Cancelling deletion of Pod ${key}`,
    );
  }

  /** deletePodHandler: event, DisruptionTarget condition, then delete (default grace). */
  private deletePod(key: string): void {
    const [ns, name] = key.split('/');
    this.recorder.event(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name },
      'Normal',
      'TaintManagerEviction',
      `Marking for deletion Pod ${key}`,
    );
    try {
      const pod = this.pods.get(ns, name, { quiet: true });
      const conds = pod.status?.conditions ?? [];
      if (!conds.some((c) => c.type === 'DisruptionTarget' && c.status === 'True')) {
        const next = deepCopy(pod);
        next.status = {
          ...next.status,
          conditions: [
            ...conds.filter((c) => c.type !== 'DisruptionTarget'),
            {
              type: 'DisruptionTarget',
              status: 'True',
              lastProbeTime: null,
              lastTransitionTime: this.ctx.clock.nowRFC3339(),
              reason: 'DeletionByTaintManager',
              message: 'Taint manager: deleting due to NoExecute taint',
            } as unknown as PodCondition, // lastProbeTime null: Go's zero metav1.Time (kubernetes-types: a string)
          ],
        };
        this.pods.updateStatus(next, { summary: `Pod ${key}: DisruptionTarget (NoExecute taint)` });
      }
      this.pods.delete(ns, name, { summary: `delete Pod ${key} (NoExecute taint eviction)` });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
    }
  }
}
