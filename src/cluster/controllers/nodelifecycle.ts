/**
 * NodeLifecycleController, as pkg/controller/nodelifecycle/node_lifecycle_controller.go (v1.33):
 *
 * - monitorNodeHealth every nodeMonitorPeriod (5 s): a node whose Ready heartbeat and Lease
 *   (kube-node-lease/<node> renewTime) were last seen more than nodeMonitorGracePeriod (50 s)
 *   ago (nodeStartupGracePeriod, 60 s, before its first Ready) gets Ready, MemoryPressure,
 *   DiskPressure and PIDPressure set to Unknown, reason NodeStatusUnknown, message
 *   "Kubelet stopped posting node status."; on the Ready→not-Ready transition the controller
 *   records Normal NodeNotReady "Node node-2 status is now: NodeNotReady" on the Node and marks
 *   its Pods not ready (Ready=False, Warning NodeNotReady "Node is not ready" on each Pod).
 * - processTaintBaseEviction: from the *observed* Ready condition of the previous pass, a node is
 *   queued (per zone, rate limited 0.1 node/s, burst 1) for the NoExecute taint
 *   node.kubernetes.io/unreachable (Unknown) or node.kubernetes.io/not-ready (False); the taint
 *   is added by doNoExecuteTaintingPass (every 100 ms while work is queued). Ready again → both
 *   removed (markNodeAsReachable).
 * - doNoScheduleTaintingPass on every Node add/update: NoSchedule taints mirroring the
 *   conditions (not-ready, unreachable, memory-/disk-/pid-pressure, network-unavailable,
 *   unschedulable). Taints carry timeAdded.
 * - handleDisruption: per zone (topology.kubernetes.io/region + zone labels) Normal /
 *   PartialDisruption (> 2 not ready and ≥ --unhealthy-zone-threshold 0.55: evictions stop
 *   below --large-cluster-size-threshold 50 nodes, else 0.01/s) / FullDisruption; when every
 *   zone is fully disrupted, all NoExecute taints are removed and evictions stop ("master
 *   disruption mode").
 * - RegisteredNode "Node node-1 event: Registered Node node-1 in Controller" for new nodes.
 * Upstream records no NodeReady event from node-controller on recovery: the kubelet does
 * ("Node node-2 status is now: NodeReady"), and this controller removes the taints.
 *
 * Relay participant `node-lifecycle-controller`; events from component `node-controller`.
 * So that `settle` sees it coming, a node whose heartbeats stopped for 2 update periods gets a
 * deadline timer at the monitor pass when its grace period runs out. Times: simulated ms.
 */
import { TokenBucket } from '../client/flowcontrol';
import type { Lease, Node, Pod } from '../api/objects';
import { StatusError } from '../api/errors';
import { users, type Client, type ResourceClient } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import type { ComponentContext } from '../component-context';
import { microTimeOf, type TimerHandle } from '../sim/clock';
import {
  CONDITION_TAINTS,
  CONDITION_TAINT_KEYS,
  NODE_LIFECYCLE_DEFAULTS,
  NOT_READY_TAINT,
  TAINT_NODE_UNSCHEDULABLE,
  UNREACHABLE_TAINT,
  getZoneKey,
  markPodsNotReady,
  matchTaint,
  swapNodeControllerTaint,
  taintExists,
  type Taint,
} from './nodelifecycle-utils';

export { NODE_LIFECYCLE_DEFAULTS, getZoneKey };

export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  ready?: Condition;
  leaseRenewTime?: string;
}

interface ZoneTainter {
  queue: Map<string, string>; // node name → uid, FIFO
  limiter: TokenBucket;
}

const PARTICIPANT = 'node-lifecycle-controller';

/** How many nodes of a zone are Ready and how many not (the zone's conditions, counted). */
interface ZoneCount {
  ready: number;
  notReady: number;
}

function sizeOf(c: ZoneCount | undefined): number {
  return c ? c.ready + c.notReady : 0;
}

function readyOf(node: Node): Condition | undefined {
  return (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

export class NodeLifecycleController {
  readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly nodesClient: ResourceClient<Node>;
  private readonly podsClient: ResourceClient<Pod>;
  private readonly nodeInformer: SharedInformer<Node>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly leaseInformer: SharedInformer<Lease>;
  private readonly nodeUpdateQueue: RateLimitingQueue;
  private readonly podUpdateQueue: RateLimitingQueue;
  private readonly knownNodeSet = new Map<string, Node>();
  private readonly nodeHealth = new Map<string, NodeHealth>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly zoneTainter = new Map<string, ZoneTainter>();
  private readonly nodesToRetry = new Set<string>();
  private readonly graceDeadlines = new Map<string, { at: number; handle: TimerHandle }>();
  /**
   * Nodes whose monitor pass changes nothing while their kubelet renews lazily
   * (sim/heartbeats.ts): node name → the Node object of the pass that found it so and its
   * zone. Skipped
   * until the Node changes or the renewals end; {@link catchUpLease} then replays what the
   * skipped passes would have observed.
   */
  private readonly quietNodes = new Map<string, { node: Node; zone: string }>();
  /** The informer's Nodes that are not quiet (kept from the cache's changes). */
  private readonly activeNames = new Set<string>();
  /** Quiet nodes per zone (all Ready). */
  private readonly quietByZone = new Map<string, number>();
  private sortedNames: string[] | null = null;
  private monitorTimer: TimerHandle | null = null;
  private taintPassTimer: TimerHandle | null = null;
  private monitorStartedAt = 0;
  private running = false;
  readonly config = { ...NODE_LIFECYCLE_DEFAULTS };

  constructor(
    private readonly ctx: ComponentContext,
    informers: SharedInformerFactory,
  ) {
    this.client = ctx.client({ ...users.controller('node-controller'), participant: PARTICIPANT });
    this.recorder = ctx.recorder(this.client, 'node-controller');
    this.nodesClient = this.client.resource<Node>('', 'nodes');
    this.podsClient = this.client.resource<Pod>('', 'pods');
    this.nodeInformer = informers.informerFor<Node>('', 'nodes');
    this.podInformer = informers.informerFor<Pod>('', 'pods');
    this.leaseInformer = informers.informerFor<Lease>('coordination.k8s.io', 'leases');
    this.podInformer.addIndexer('spec.nodeName', (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    this.nodeUpdateQueue = new RateLimitingQueue('node_lifecycle_controller', ctx.clock, ctx.relay, (k) => this.doNodeProcessingPass(k));
    this.podUpdateQueue = new RateLimitingQueue('node_lifecycle_controller_pods', ctx.clock, ctx.relay, (k) => this.processPod(k));
    this.podInformer.addEventHandler({
      participant: PARTICIPANT,
      filter: (p) => !!p.spec?.nodeName,
      onAdd: (p) => this.podUpdated(undefined, p),
      onUpdate: (o, p) => this.podUpdated(o, p),
    });
    // the lazy heartbeats' quiet nodes: a change to the cached Node or the end of its kubelet's
    // lazy renewals makes every pass look at it again
    this.nodeInformer.addCacheListener((name, _old, n) => {
      this.unquiet(name);
      if (n) this.activeNames.add(name);
      else this.activeNames.delete(name);
    });
    ctx.heartbeats.onEnd((name) => this.unquiet(name));
    this.nodeInformer.addEventHandler({
      participant: PARTICIPANT,
      onAdd: (n) => this.nodeUpdateQueue.add(n.metadata.name),
      onUpdate: (_o, n) => this.nodeUpdateQueue.add(n.metadata.name),
      onDelete: (n) => this.nodesToRetry.delete(n.metadata.name),
    });
  }

  /** Run: starts the periodic monitorNodeHealth (the informers are started by their factory). */
  run(): void {
    if (this.running) return;
    this.running = true;
    this.monitorStartedAt = this.ctx.clock.now();
    const tick = () => {
      this.monitorTimer = this.ctx.clock.setTimer(
        this.ctx.timings.nodeMonitorPeriodMs,
        () => {
          this.ctx.relay.withCause(null, () => this.monitorNodeHealth());
          tick();
        },
        { label: `${PARTICIPANT}: monitorNodeHealth` },
      );
    };
    tick();
  }

  /** Alias of {@link run}. */
  start(): void {
    this.run();
  }

  /** Stops the periodic work (kube-controller-manager going down). */
  stop(): void {
    this.running = false;
    this.ctx.clock.cancel(this.monitorTimer);
    this.ctx.clock.cancel(this.taintPassTimer);
    this.taintPassTimer = null;
    for (const d of this.graceDeadlines.values()) this.ctx.clock.cancel(d.handle);
    this.graceDeadlines.clear();
  }

  /** The zone states after the last pass (UI, tests). */
  zones(): Map<string, ZoneState> {
    return new Map(this.zoneStates);
  }

  private now(): number {
    return this.ctx.clock.now();
  }

  // ---- NoSchedule taints & labels (node update queue) --------------------------------

  private doNodeProcessingPass(name: string): void {
    this.doNoScheduleTaintingPass(name);
    this.reconcileNodeLabels(name);
  }

  /** doNoScheduleTaintingPass: NoSchedule taints mirror the node's conditions. */
  doNoScheduleTaintingPass(name: string): void {
    const node = this.nodeInformer.get(name);
    if (!node) return;
    const want: Taint[] = [];
    for (const c of node.status?.conditions ?? []) {
      const key = CONDITION_TAINTS[c.type]?.[c.status];
      if (key) want.push({ key, effect: 'NoSchedule' });
    }
    if (node.spec?.unschedulable) want.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
    const have = (node.spec?.taints ?? []).filter(
      (t) => t.effect === 'NoSchedule' && (t.key === TAINT_NODE_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)),
    );
    const add = want.filter((w) => !have.some((h) => matchTaint(h, w)));
    const del = have.filter((h) => !want.some((w) => matchTaint(h, w)));
    if (!add.length && !del.length) return;
    const what = [...add.map((t) => `+${t.key}:${t.effect}`), ...del.map((t) => `-${t.key}:${t.effect}`)].join(' ');
    if (!swapNodeControllerTaint(this.nodesClient, name, add, del, this.ctx.clock.nowRFC3339(), `taint Node ${name} ${what}`)) {
      throw new Error(`failed to swap taints of node ${name}`);
    }
  }

  /** reconcileNodeLabels: beta os/arch labels follow the stable ones. */
  private reconcileNodeLabels(name: string): void {
    const node = this.nodeInformer.get(name);
    const labels = node?.metadata.labels;
    if (!node || !labels) return;
    const upd: Record<string, string> = {};
    for (const [p, s] of [
      ['kubernetes.io/os', 'beta.kubernetes.io/os'],
      ['kubernetes.io/arch', 'beta.kubernetes.io/arch'],
    ]) {
      if (labels[p] !== undefined && labels[s] !== labels[p]) upd[s] = labels[p];
    }
    if (!Object.keys(upd).length) return;
    try {
      const fresh = this.nodesClient.get('', name, { quiet: true });
      this.nodesClient.update({ ...fresh, metadata: { ...fresh.metadata, labels: { ...fresh.metadata.labels, ...upd } } });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
    }
  }

  // ---- pods ---------------------------------------------------------------------------

  private podUpdated(old: Pod | undefined, pod: Pod): void {
    if (pod.spec?.nodeName && (!old || old.spec?.nodeName !== pod.spec.nodeName)) {
      this.podUpdateQueue.add(`${pod.metadata.namespace}/${pod.metadata.name}`);
    }
  }

  /** processPod: a Pod newly on a not-Ready node is marked not ready. */
  private processPod(key: string): void {
    const pod = this.podInformer.get(key);
    if (!pod) return;
    const nodeName = pod.spec?.nodeName as string;
    const health = this.nodeHealth.get(nodeName);
    if (!health?.ready || !this.nodeInformer.get(nodeName)) return;
    if (health.ready.status !== 'True') markPodsNotReady(this.podsClient, this.recorder, [pod], nodeName, this.ctx.clock.nowRFC3339());
  }

  // ---- monitorNodeHealth --------------------------------------------------------------

  /** One pass of monitorNodeHealth (see the file comment). */
  monitorNodeHealth(): void {
    // the nodes not found quiet, in name order (quiet ones are known, their zones too)
    const nodes = this.activeNodes();
    for (const n of nodes) {
      if (!this.knownNodeSet.has(n.metadata.name)) {
        this.recordNodeEvent(n, 'RegisteredNode', `Registered Node ${n.metadata.name} in Controller`);
        this.knownNodeSet.set(n.metadata.name, n);
        this.addPodEvictorForNewZone(n);
        this.markNodeAsReachable(n);
      } else this.addPodEvictorForNewZone(n);
    }
    // every listed node is known now: more known ones means some were removed
    if (this.knownNodeSet.size > this.nodeInformer.size) {
      for (const [name, n] of this.knownNodeSet) {
        if (this.nodeInformer.get(name)) continue;
        this.recordNodeEvent(n, 'RemovingNode', `Removing Node ${name} from Controller`);
        this.knownNodeSet.delete(name);
        this.nodeHealth.delete(name);
      }
    }
    // per zone: how many nodes are Ready (quiet nodes are) and how many not
    const zoneConditions = new Map<string, ZoneCount>();
    for (const [z, ready] of this.quietByZone) zoneConditions.set(z, { ready, notReady: 0 });
    const hb = this.ctx.heartbeats;
    for (const n of nodes) {
      if (hb.enabled) this.catchUpLease(n.metadata.name);
      let res: { observed: Condition; current: Condition | undefined; node: Node } | null = null;
      for (let attempt = 0; attempt < 2 && !res; attempt++) {
        try {
          // upstream passes node.DeepCopy(): informer objects here are frozen and
          // tryUpdateNodeHealth builds a new object to write, so the cached one serves as is
          res = this.tryUpdateNodeHealth(attempt === 0 ? n : this.nodesClient.get('', n.metadata.name, { quiet: true }));
        } catch (err) {
          if (!(err instanceof StatusError)) throw err;
        }
      }
      if (!res) continue;
      const { observed, current, node } = res;
      if (node.metadata.labels?.['node.kubernetes.io/exclude-disruption'] === undefined) {
        const z = getZoneKey(node);
        const c = zoneConditions.get(z) ?? { ready: 0, notReady: 0 };
        if (current?.status === 'True') c.ready++;
        else c.notReady++;
        zoneConditions.set(z, c);
      }
      if (current) {
        const pods = this.podInformer.byIndex('spec.nodeName', node.metadata.name);
        this.processTaintBaseEviction(node, observed);
        const needsRetry = this.nodesToRetry.has(node.metadata.name);
        if (current.status !== 'True' && observed.status === 'True') {
          this.recordNodeStatusChange(node, 'NodeNotReady');
          markPodsNotReady(this.podsClient, this.recorder, pods, node.metadata.name, this.ctx.clock.nowRFC3339());
        } else if (needsRetry && observed.status !== 'True') {
          markPodsNotReady(this.podsClient, this.recorder, pods, node.metadata.name, this.ctx.clock.nowRFC3339());
        }
      }
      this.nodesToRetry.delete(node.metadata.name);
      this.trackGraceDeadline(node);
      if (
        hb.isRenewing(node.metadata.name) &&
        node === n &&
        this.nodeInformer.get(n.metadata.name) === n &&
        this.passIsQuiet(node, observed, current)
      )
        this.setQuiet(n);
    }
    this.handleDisruption(zoneConditions, () => this.sortedNodes());
  }

  /** The informer's Nodes that are not quiet, sorted by name. */
  private activeNodes(): Node[] {
    if (!this.quietNodes.size) return this.sortedNodes();
    const out: Node[] = [];
    for (const name of [...this.activeNames].sort()) {
      const n = this.nodeInformer.get(name);
      if (n) out.push(n);
    }
    return out;
  }

  /** The node's next passes are skipped until its Node changes or its lazy renewals end. */
  private setQuiet(node: Node): void {
    const name = node.metadata.name;
    const zone = getZoneKey(node);
    this.quietNodes.set(name, { node, zone });
    this.activeNames.delete(name);
    this.quietByZone.set(zone, (this.quietByZone.get(zone) ?? 0) + 1);
  }

  /** The node is looked at by every pass again. */
  private unquiet(name: string): void {
    const q = this.quietNodes.get(name);
    if (!q) return;
    this.quietNodes.delete(name);
    this.activeNames.add(name);
    const left = (this.quietByZone.get(q.zone) ?? 1) - 1;
    if (left > 0) this.quietByZone.set(q.zone, left);
    else this.quietByZone.delete(q.zone);
  }

  /**
   * Whether the next passes over this Node change nothing while its Lease keeps being renewed:
   * Ready True observed and current, no NoExecute taint to remove, nothing queued for tainting,
   * no grace deadline, the renewals observed recently (see the file comment).
   */
  private passIsQuiet(node: Node, observed: Condition, current: Condition | undefined): boolean {
    const name = node.metadata.name;
    const h = this.nodeHealth.get(name);
    if (!h?.ready || observed.status !== 'True' || current?.status !== 'True') return false;
    if (node.metadata.labels?.['node.kubernetes.io/exclude-disruption'] !== undefined) return false;
    if (this.graceDeadlines.has(name) || this.nodesToRetry.has(name)) return false;
    if (this.zoneTainter.get(getZoneKey(node))?.queue.has(name)) return false;
    const taints = node.spec?.taints ?? [];
    if (taintExists(taints, UNREACHABLE_TAINT) || taintExists(taints, NOT_READY_TAINT)) return false;
    return this.now() - h.probeTimestamp < this.ctx.timings.nodeStatusUpdateFrequencyMs;
  }

  /**
   * The lazy path (sim/heartbeats.ts): what the Lease informer would have delivered since the
   * node was last looked at. The latest renewal r delivered before this pass (r + watch latency
   * < now: the pass timer, set a period earlier, fires before a delivery due at the same
   * instant) is recorded as seen, and the probe timestamp becomes the first monitor pass after
   * its delivery, as the eager passes would have set it.
   */
  private catchUpLease(name: string): void {
    const h = this.nodeHealth.get(name);
    if (!h) return;
    const now = this.now();
    const latency = this.ctx.timings.watchLatencyMs;
    const r = this.ctx.heartbeats.latestRenewalMs(name, now - latency - 1);
    if (r === undefined) return;
    const micro = microTimeOf(r);
    if (h.leaseRenewTime && h.leaseRenewTime >= micro) return;
    h.leaseRenewTime = micro;
    const period = this.ctx.timings.nodeMonitorPeriodMs;
    const k = Math.max(1, Math.floor((r + latency - this.monitorStartedAt) / period) + 1);
    h.probeTimestamp = Math.max(h.probeTimestamp, Math.min(now, this.monitorStartedAt + k * period));
  }

  /**
   * The informer's Nodes sorted by name; the order is kept between passes while no Node is
   * added or deleted (a pass over thousands of nodes every 5 s would otherwise sort them each time).
   */
  private sortedNodes(): Node[] {
    const names = this.sortedNames;
    if (names && names.length === this.nodeInformer.size) {
      const out: Node[] = [];
      for (const name of names) {
        const n = this.nodeInformer.get(name);
        if (!n) break;
        out.push(n);
      }
      if (out.length === names.length) return out;
    }
    const nodes = this.nodeInformer.list().sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    this.sortedNames = nodes.map((n) => n.metadata.name);
    return nodes;
  }

  /**
   * tryUpdateNodeHealth: refreshes the probe timestamp from the Ready heartbeat and the Lease;
   * past the grace period, sets the kubelet-owned conditions to Unknown (status update).
   */
  private tryUpdateNodeHealth(node: Node): { observed: Condition; current: Condition | undefined; node: Node } {
    const name = node.metadata.name;
    const now = this.now();
    const nowS = this.ctx.clock.nowRFC3339();
    let health = this.nodeHealth.get(name);
    let current = readyOf(node);
    let observed: Condition;
    let grace: number;
    if (!current) {
      observed = {
        type: 'Ready',
        status: 'Unknown',
        lastHeartbeatTime: node.metadata.creationTimestamp,
        lastTransitionTime: node.metadata.creationTimestamp,
      };
      grace = this.ctx.timings.nodeStartupGracePeriodMs;
      if (health) health.ready = undefined;
      else {
        const created = Date.parse(node.metadata.creationTimestamp ?? nowS);
        health = { probeTimestamp: created, readyTransitionTimestamp: created };
      }
    } else {
      observed = { ...current };
      grace = this.ctx.timings.nodeMonitorGracePeriodMs;
    }
    const saved = health?.ready;
    if (!health) {
      health = { probeTimestamp: now, readyTransitionTimestamp: now, ready: current && { ...current } };
    } else if (!saved && current) {
      health = { probeTimestamp: now, readyTransitionTimestamp: now, ready: { ...current }, leaseRenewTime: health.leaseRenewTime };
    } else if (saved && current && saved.lastHeartbeatTime !== current.lastHeartbeatTime) {
      const transition = saved.lastTransitionTime !== current.lastTransitionTime ? now : health.readyTransitionTimestamp;
      // on the lazy path a status report may be written long after its time (when the Node is
      // read); every report comes with a Lease renewal at the same tick, which catchUpLease has
      // already counted, so the report moves nothing further
      const probe = this.ctx.heartbeats.latestRenewalMs(name, now) !== undefined ? health.probeTimestamp : now;
      health = {
        probeTimestamp: probe,
        readyTransitionTimestamp: transition,
        ready: { ...current },
        leaseRenewTime: health.leaseRenewTime,
      };
    }
    const lease = this.leaseInformer.get(`kube-node-lease/${name}`);
    const renew: string | undefined = lease?.spec?.renewTime;
    if (renew && (!health.leaseRenewTime || health.leaseRenewTime < renew)) {
      health.leaseRenewTime = renew;
      health.probeTimestamp = now;
    }
    this.nodeHealth.set(name, health);
    if (now > health.probeTimestamp + grace) {
      const conds: Condition[] = node.status?.conditions ? [...node.status.conditions] : [];
      for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
        const i = conds.findIndex((c) => c.type === type);
        if (i < 0) {
          conds.push({
            type,
            status: 'Unknown',
            reason: 'NodeStatusNeverUpdated',
            message: 'Kubelet never posted node status.',
            lastHeartbeatTime: node.metadata.creationTimestamp,
            lastTransitionTime: nowS,
          });
        } else if (conds[i].status !== 'Unknown') {
          conds[i] = {
            ...conds[i],
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
            lastTransitionTime: nowS,
          };
        }
      }
      const newReady = conds.find((c) => c.type === 'Ready');
      if (JSON.stringify(newReady) !== JSON.stringify(observed)) {
        const next = { ...node, status: { ...node.status, conditions: conds } };
        // the reconcile note for the sequence diagram, measured as upstream does from
        // probeTimestamp: when this controller last *observed* a Lease renewal or a new Ready
        // heartbeat (not the renewTime itself). Monitor passes are 5 s apart and the probe
        // timestamp is a pass time, so the first pass past the 50 s grace is at 55 s:
        // "node-2: no Lease renewal observed for 55 s (> node-monitor-grace-period 50 s) → NotReady"
        const age = Math.floor((now - health.probeTimestamp) / 1000);
        const graceName = grace === this.ctx.timings.nodeMonitorGracePeriodMs ? 'node-monitor-grace-period' : 'node-startup-grace-period';
        const seq = this.ctx.relay.record({
          from: PARTICIPANT,
          to: PARTICIPANT,
          kind: 'decision',
          resource: 'nodes',
          name,
          summary: `Node ${name}: no Lease renewal or status heartbeat observed for ${age}s > ${graceName} ${grace / 1000}s → Ready=Unknown`,
          reconcile: this.ctx.relay.newReconcile(),
          note: `${name}: no Lease renewal observed for ${age} s (> ${graceName} ${grace / 1000} s) → NotReady`,
        });
        const out = this.ctx.relay.withCause(seq, () =>
          this.nodesClient.updateStatus(next, { summary: `Node ${name}: Kubelet stopped posting node status → Ready=Unknown` }),
        );
        health.ready = readyOf(out) && { ...readyOf(out)! };
        health.readyTransitionTimestamp = now;
        this.nodeHealth.set(name, health);
        current = newReady;
        return { observed, current, node: out };
      }
    }
    return { observed, current, node };
  }

  /** processTaintBaseEviction, from the Ready condition observed before this pass. */
  private processTaintBaseEviction(node: Node, observed: Condition): void {
    const taints: Taint[] = node.spec?.taints ?? [];
    const name = node.metadata.name;
    if (observed.status === 'False') {
      if (taintExists(taints, UNREACHABLE_TAINT)) {
        swapNodeControllerTaint(
          this.nodesClient,
          name,
          [NOT_READY_TAINT],
          [UNREACHABLE_TAINT],
          this.ctx.clock.nowRFC3339(),
          `taint Node ${name} not-ready:NoExecute`,
        );
      } else this.markNodeForTainting(node, 'False');
    } else if (observed.status === 'Unknown') {
      if (taintExists(taints, NOT_READY_TAINT)) {
        swapNodeControllerTaint(
          this.nodesClient,
          name,
          [UNREACHABLE_TAINT],
          [NOT_READY_TAINT],
          this.ctx.clock.nowRFC3339(),
          `taint Node ${name} unreachable:NoExecute`,
        );
      } else this.markNodeForTainting(node, 'Unknown');
    } else if (observed.status === 'True') {
      this.markNodeAsReachable(node);
    }
  }

  private addPodEvictorForNewZone(node: Node): void {
    const z = getZoneKey(node);
    if (this.zoneStates.has(z)) return;
    this.zoneStates.set(z, 'Initial');
    this.zoneTainter.set(z, { queue: new Map(), limiter: new TokenBucket(this.config.evictionLimiterQPS, 1, () => this.now()) });
  }

  private markNodeForTainting(node: Node, status: 'False' | 'Unknown'): boolean {
    const q = this.zoneTainter.get(getZoneKey(node));
    if (!q) return false;
    const name = node.metadata.name;
    const taints = node.spec?.taints ?? [];
    if ((status === 'False' && !taintExists(taints, NOT_READY_TAINT)) || (status === 'Unknown' && !taintExists(taints, UNREACHABLE_TAINT)))
      q.queue.delete(name);
    if (q.queue.has(name)) return false;
    q.queue.set(name, node.metadata.uid ?? '');
    this.scheduleTaintingPass(this.config.nodeEvictionPeriodMs);
    return true;
  }

  /** markNodeAsReachable: removes both NoExecute taints and any queued tainting. */
  private markNodeAsReachable(node: Node): void {
    const name = node.metadata.name;
    const taints = node.spec?.taints ?? [];
    if (taintExists(taints, UNREACHABLE_TAINT) || taintExists(taints, NOT_READY_TAINT)) {
      swapNodeControllerTaint(
        this.nodesClient,
        name,
        [],
        [UNREACHABLE_TAINT, NOT_READY_TAINT],
        this.ctx.clock.nowRFC3339(),
        `untaint Node ${name}: reachable`,
      );
    }
    this.zoneTainter.get(getZoneKey(node))?.queue.delete(name);
  }

  private scheduleTaintingPass(delayMs: number): void {
    if (this.taintPassTimer || !Number.isFinite(delayMs)) return;
    // The pass is a known deadline only when it will change something: a queued node that
    // lacks its NoExecute taint. Re-queued nodes that are already tainted (every monitor
    // pass re-adds them, as upstream) are periodic no-op work.
    const pending = [...this.zoneTainter.values()].some((q) =>
      [...q.queue.keys()].some((name) => {
        const node = this.nodeInformer.get(name);
        const ready = node && readyOf(node);
        if (!node || !ready || ready.status === 'True') return false;
        const want = ready.status === 'False' ? NOT_READY_TAINT : UNREACHABLE_TAINT;
        return !taintExists(node.spec?.taints ?? [], want);
      }),
    );
    this.taintPassTimer = this.ctx.clock.setTimer(
      delayMs,
      () => {
        this.taintPassTimer = null;
        this.ctx.relay.withCause(null, () => this.doNoExecuteTaintingPass());
      },
      pending ? { deadline: true, label: `${PARTICIPANT}: NoExecute tainting pass` } : { label: `${PARTICIPANT}: NoExecute tainting pass` },
    );
  }

  /** doNoExecuteTaintingPass: per zone, as the rate limiter allows. */
  doNoExecuteTaintingPass(): void {
    let wait = Infinity;
    for (const q of this.zoneTainter.values()) {
      for (const [name] of q.queue) {
        if (!q.limiter.tryAccept()) break;
        q.queue.delete(name);
        const node = this.nodeInformer.get(name);
        const ready = node && readyOf(node);
        if (!node || !ready || ready.status === 'True') continue;
        const [add, opposite] = ready.status === 'False' ? [NOT_READY_TAINT, UNREACHABLE_TAINT] : [UNREACHABLE_TAINT, NOT_READY_TAINT];
        if (
          !swapNodeControllerTaint(
            this.nodesClient,
            name,
            [add],
            [opposite],
            this.ctx.clock.nowRFC3339(),
            `taint Node ${name} ${add.key}:NoExecute`,
          )
        ) {
          q.queue.set(name, node.metadata.uid ?? '');
        }
      }
      if (q.queue.size) wait = Math.min(wait, Math.max(this.config.nodeEvictionPeriodMs, q.limiter.msUntilToken()));
    }
    this.scheduleTaintingPass(wait);
  }

  // ---- disruption -----------------------------------------------------------------------

  /** ComputeZoneState. */
  computeZoneState(conds: (Condition | undefined)[]): [number, ZoneState] {
    let ready = 0;
    let notReady = 0;
    for (const c of conds)
      if (c?.status === 'True') ready++;
      else notReady++;
    return this.zoneStateOf({ ready, notReady });
  }

  /** ComputeZoneState from the counts of Ready and not-Ready nodes. */
  private zoneStateOf({ ready, notReady }: ZoneCount): [number, ZoneState] {
    if (ready === 0 && notReady > 0) return [notReady, 'FullDisruption'];
    if (notReady > 2 && notReady / (notReady + ready) >= this.config.unhealthyZoneThreshold) return [notReady, 'PartialDisruption'];
    return [notReady, 'Normal'];
  }

  private setLimiterInZone(zone: string, size: number, state: ZoneState): void {
    const q = this.zoneTainter.get(zone);
    if (!q) return;
    let qps = this.config.evictionLimiterQPS;
    if (state === 'PartialDisruption') qps = size > this.config.largeClusterThreshold ? this.config.secondaryEvictionLimiterQPS : 0;
    if (q.limiter.qps !== qps) q.limiter = new TokenBucket(qps, 1, () => this.now());
    if (q.queue.size) this.scheduleTaintingPass(this.config.nodeEvictionPeriodMs);
  }

  /** handleDisruption. */
  private handleDisruption(zoneConditions: Map<string, ZoneCount>, allNodes: () => Node[]): void {
    const newStates = new Map<string, ZoneState>();
    let allAreFully = true;
    for (const [z, counts] of zoneConditions) {
      const [, st] = this.zoneStateOf(counts);
      if (st !== 'FullDisruption') allAreFully = false;
      newStates.set(z, st);
      if (!this.zoneStates.has(z)) this.zoneStates.set(z, 'Initial');
    }
    let allWasFully = true;
    for (const [z, st] of this.zoneStates) {
      if (!zoneConditions.has(z)) {
        this.zoneStates.delete(z);
        continue;
      }
      if (st !== 'FullDisruption') {
        allWasFully = false;
        break;
      }
    }
    if (allAreFully && allWasFully) return;
    if (allAreFully) {
      for (const n of allNodes()) this.markNodeAsReachable(this.nodeInformer.get(n.metadata.name) ?? n);
      for (const z of this.zoneStates.keys()) {
        const q = this.zoneTainter.get(z);
        if (q) q.limiter = new TokenBucket(0, 1, () => this.now());
        this.zoneStates.set(z, 'FullDisruption');
      }
      return;
    }
    if (allWasFully) {
      const now = this.now();
      for (const n of allNodes()) {
        const h = this.nodeHealth.get(n.metadata.name);
        if (h) {
          h.probeTimestamp = now;
          h.readyTransitionTimestamp = now;
        }
      }
      for (const z of this.zoneStates.keys()) {
        const st = newStates.get(z) ?? 'Normal';
        this.setLimiterInZone(z, sizeOf(zoneConditions.get(z)), st);
        this.zoneStates.set(z, st);
      }
      return;
    }
    for (const [z, st] of this.zoneStates) {
      const next = newStates.get(z) ?? st;
      if (next === st) continue;
      this.setLimiterInZone(z, sizeOf(zoneConditions.get(z)), next);
      this.zoneStates.set(z, next);
    }
  }

  // ---- events and deadlines -----------------------------------------------------------

  private recordNodeEvent(node: Node, reason: string, event: string): void {
    this.recorder.event(
      { apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid, namespace: '' },
      'Normal',
      reason,
      `Node ${node.metadata.name} event: ${event}`,
    );
  }

  /** RecordNodeStatusChange: "Node X status is now: NodeNotReady". */
  private recordNodeStatusChange(node: Node, status: string): void {
    this.recorder.event(
      { apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid, namespace: '' },
      'Normal',
      status,
      `Node ${node.metadata.name} status is now: ${status}`,
    );
  }

  /**
   * A node silent for two heartbeat periods gets a deadline at the monitor pass where its
   * grace period will have run out (for `settle`); a fresh heartbeat cancels it.
   */
  private trackGraceDeadline(node: Node): void {
    const name = node.metadata.name;
    const h = this.nodeHealth.get(name);
    const d = this.graceDeadlines.get(name);
    const silent =
      h && this.now() - h.probeTimestamp >= 2 * this.ctx.timings.nodeStatusUpdateFrequencyMs && readyOf(node)?.status !== 'Unknown';
    if (!silent || !h) {
      if (d) this.ctx.clock.cancel(d.handle);
      this.graceDeadlines.delete(name);
      return;
    }
    const period = this.ctx.timings.nodeMonitorPeriodMs;
    const due = h.probeTimestamp + (readyOf(node) ? this.ctx.timings.nodeMonitorGracePeriodMs : this.ctx.timings.nodeStartupGracePeriodMs);
    const at = this.monitorStartedAt + (Math.floor((due - this.monitorStartedAt) / period) + 1) * period;
    if (d?.at === at) return;
    if (d) this.ctx.clock.cancel(d.handle);
    const handle = this.ctx.clock.setTimer(at - this.now(), () => this.graceDeadlines.delete(name), {
      deadline: true,
      label: `${name}: node-monitor-grace-period runs out`,
      object: `Node/${name}`,
    });
    this.graceDeadlines.set(name, { at, handle });
  }
}
