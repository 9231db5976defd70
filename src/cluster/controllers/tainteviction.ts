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
 * Relay participant: CONTRACTS.md lists `node-lifecycle-controller` (where the taint manager
 * lived before v1.29); this controller's hops are recorded as `taint-eviction-controller`, its
 * v1.33 name. Times: simulated ms; tolerations in seconds.
 */
import { StatusError } from '../api/errors';
import { deepCopy, type KObject } from '../api/types';
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
}

function noExecuteTaints(node: KObject | undefined): Taint[] {
  return ((node?.spec?.taints ?? []) as Taint[]).filter((t) => t.effect === 'NoExecute');
}

function sameTaints(a: Taint[], b: Taint[]): boolean {
  return a.length === b.length && a.every((t, i) => t.key === b[i].key && t.value === b[i].value && t.effect === b[i].effect && t.timeAdded === b[i].timeAdded);
}

export class TaintEvictionController {
  readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly pods: ResourceClient;
  private readonly podInformer: SharedInformer;
  private readonly nodeInformer: SharedInformer;
  private readonly queue: RateLimitingQueue;
  private readonly taintedNodes = new Map<string, Taint[]>();
  private readonly work = new Map<string, Work>();

  constructor(private readonly ctx: ComponentContext, informers: SharedInformerFactory) {
    this.client = ctx.client(users.controller(PARTICIPANT));
    this.recorder = ctx.recorder(this.client, PARTICIPANT);
    this.pods = this.client.resource('', 'pods');
    this.podInformer = informers.informerFor('', 'pods');
    this.nodeInformer = informers.informerFor('', 'nodes');
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
  podUpdated(old: KObject | undefined, pod: KObject | undefined): void {
    const o = pod ?? old;
    if (!o) return;
    if (old && pod && JSON.stringify(old.spec?.tolerations ?? []) === JSON.stringify(pod.spec?.tolerations ?? []) && old.spec?.nodeName === pod.spec?.nodeName) return;
    this.queue.add(`pod/${o.metadata.namespace}/${o.metadata.name}`);
  }

  /** NodeUpdated: only NoExecute taint changes matter. */
  nodeUpdated(old: KObject | undefined, node: KObject | undefined): void {
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
      this.addWork(key, now, now, 0);
      return;
    }
    const minS = getMinTolerationSeconds(used);
    if (minS < 0) return this.cancelWorkWithEvent(key);
    let start = now;
    const trigger = now + minS * 1000;
    const existing = this.work.get(key);
    if (existing) {
      start = existing.createdAt;
      if (start + minS * 1000 < trigger) return;
      this.cancelWorkWithEvent(key);
    }
    this.addWork(key, start, trigger, minS);
  }

  private addWork(key: string, createdAt: number, fireAt: number, seconds: number): void {
    if (this.work.has(key)) return;
    const handle = this.ctx.clock.setTimer(Math.max(0, fireAt - this.ctx.clock.now()), () => {
      this.work.delete(key);
      this.ctx.relay.withCause(null, () => this.deletePod(key));
    }, { deadline: true, label: `taint eviction of ${key} at ${seconds}s`, object: `Pod/${key}` });
    this.work.set(key, { createdAt, fireAt, handle });
  }

  private cancelWorkWithEvent(key: string): void {
    const w = this.work.get(key);
    if (!w) return;
    this.ctx.clock.cancel(w.handle);
    this.work.delete(key);
    const [ns, name] = key.split('/');
    this.recorder.event({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name }, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  /** deletePodHandler: event, DisruptionTarget condition, then delete (default grace). */
  private deletePod(key: string): void {
    const [ns, name] = key.split('/');
    this.recorder.event({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
    try {
      const pod = this.pods.get(ns, name, { quiet: true });
      const conds: Record<string, unknown>[] = pod.status?.conditions ?? [];
      if (!conds.some((c) => c.type === 'DisruptionTarget' && c.status === 'True')) {
        const next = deepCopy(pod);
        next.status = { ...next.status, conditions: [...conds.filter((c) => c.type !== 'DisruptionTarget'), {
          type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: this.ctx.clock.nowRFC3339(),
          reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint',
        }] };
        this.pods.updateStatus(next, { summary: `Pod ${key}: DisruptionTarget (NoExecute taint)` });
      }
      this.pods.delete(ns, name, { summary: `delete Pod ${key} (NoExecute taint eviction)` });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
    }
  }
}
