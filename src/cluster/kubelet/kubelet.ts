/**
 * A kubelet per simulated node (pkg/kubelet/kubelet.go): registers its Node, heartbeats
 * (Lease every 10 s; node status checked every 10 s, posted on change or every 5 min), watches
 * the Pods bound to it (a SharedInformer with fieldSelector spec.nodeName=<node>, relay
 * participant `kubelet/<node>`) and runs them through its pod workers on a simulated
 * containerd (`containerd/<node>`). Its token manager (token-manager.ts) requests the projected
 * ServiceAccount tokens of its Pods as `system:node:<node>` (kubelet.go: token.NewManager).
 *
 * Power: {@link Kubelet.powerOff} stops everything at once — no heartbeats, no status, the
 * informer stopped, every pending timer of this kubelet cancelled, containers and sandboxes
 * gone (images stay on disk). The apiserver keeps showing the old state; that is the point.
 * {@link Kubelet.powerOn} boots a fresh kubelet: a new boot ID, "Starting kubelet.", the
 * Node reconciled and posted Ready, a relist of its Pods — those deleted meanwhile are
 * finalized (grace-0 delete), the others get a new sandbox (new Pod IP) and their containers
 * restart with restartCount + 1 (lastState terminated, reason Unknown, exit code 255).
 *
 * All timings come from ctx.timings (simulated ms).
 */
import type { Lease, Node, Pod } from '../api/objects';
import { users, type Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { SharedInformer } from '../client/informer';
import { newListWatchFromClient } from '../client/listwatch';
import type { ComponentContext } from '../component-context';
import { ImageManager } from './image-manager';
import { NodeLease } from './lease';
import { NodeStatusManager } from './node-status';
import { PodWorkers } from './pod-workers';
import { ContainerRuntime } from './runtime';
import { StatusManager } from './status-manager';
import { OwnedTimers } from './timers';
import { VolumeManager, claimStore } from './volumes';
import { TokenManager } from './token-manager';
import type { FileStore } from '../userland/filesystem';
import type { TimerHandle } from '../sim/clock';

/** What the UI can read about one container (not part of any Kubernetes object). */
export interface ContainerInfo {
  name: string;
  /** the process runs something the interpreter does not model: its behaviour is assumed */
  assumed: boolean;
  /** the current run's log lines (kubectl logs) and the previous run's (kubectl logs --previous) */
  logs: string[];
  previousLogs: string[];
  /**
   * What the running container listens on (userland/images/web-servers.ts): `known` when the
   * image's default server is modelled (nginx: port 80, its pages), `assumed` when kube-relay
   * assumes an unknown program serves its declared (or probed) ports with 200 on every path,
   * `none` when a modelled script listens on nothing. Absent while the container is not running.
   */
  serves?: { kind: 'known' | 'assumed' | 'none'; ports: number[] };
}

/** How a node is configured (docs/scenario-format.md#cluster `nodes`). */
export interface NodeConfig {
  name: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  /** e.g. {cpu: "4", memory: "8Gi", pods: "110", "ephemeral-storage": "100Gi"} */
  capacity?: Record<string, string>;
  /** kubeadm control-plane node: node-role.kubernetes.io/control-plane label and NoSchedule taint */
  controlPlane?: boolean;
}

export class Kubelet {
  readonly nodeName: string;
  readonly participant: string;
  readonly client: Client;
  readonly timers: OwnedTimers;
  readonly runtime: ContainerRuntime;
  readonly nodeStatus: NodeStatusManager;
  readonly images: ImageManager;
  readonly statusManager: StatusManager;
  readonly podWorkers: PodWorkers;
  readonly volumes: VolumeManager;
  private readonly lease: NodeLease;
  private readonly recorder: EventRecorder;
  private informer: SharedInformer<Pod> | null = null;
  private on = false;
  /** The heartbeat grid: the last tick's time (simulated ms); ticks fall every heartbeat period from it. */
  private phaseMs = 0;
  /** True while the Lease renewals are lazy (sim/heartbeats.ts) and only needed status syncs run. */
  private lazy = false;
  private statusTimer: TimerHandle | null = null;
  private statusAt = 0;

  constructor(
    private readonly ctx: ComponentContext,
    readonly cfg: NodeConfig,
  ) {
    this.nodeName = cfg.name;
    this.participant = `kubelet/${cfg.name}`;
    this.client = ctx.client(users.node(cfg.name));
    this.recorder = ctx.recorder(this.client, 'kubelet', cfg.name);
    this.timers = new OwnedTimers(ctx.clock, ctx.relay);
    const nodes = this.client.resource<Node>('', 'nodes');
    const pods = this.client.resource<Pod>('', 'pods');
    this.runtime = new ContainerRuntime(ctx, cfg.name, this.timers, () => `10.244.${this.nodeStatus.index}`);
    this.nodeStatus = new NodeStatusManager(ctx, cfg, nodes, this.recorder, this.runtime);
    this.lease = new NodeLease(ctx, cfg.name, this.client.resource<Lease>('coordination.k8s.io', 'leases'), nodes);
    this.images = new ImageManager(ctx, this.runtime, this.recorder);
    this.statusManager = new StatusManager(ctx, pods, this.timers, () => this.nodeStatus.internalIP);
    // token.NewManager(kubeDeps.KubeClient): the kubelet's own client, so its TokenRequests are system:node:<node>'s
    const tokens = new TokenManager(
      (name, namespace, tr) => this.client.createToken(namespace, name, tr),
      () => ctx.clock.now(),
      ctx.rng.derive(`kubelet-token-jitter/${cfg.name}`),
    );
    this.volumes = new VolumeManager(ctx, this.client, this.recorder, this.timers, tokens);
    this.podWorkers = new PodWorkers(
      ctx,
      cfg.name,
      this.runtime,
      this.images,
      this.statusManager,
      this.recorder,
      this.timers,
      this.volumes,
      this.client,
      () => this.nodeStatus.internalIP,
    );
    this.statusManager.probes = this.podWorkers.probes;
    this.runtime.onImagesChanged = () => this.wakeStatusSync();
    ctx.heartbeats.onDisengage(() => this.renewEagerly());
  }

  /** True while the machine is powered on. */
  get powered(): boolean {
    return this.on;
  }

  /** Boots the kubelet: register, heartbeat, watch Pods. Idempotent while running. */
  start(): void {
    if (this.on) return;
    this.on = true;
    this.podWorkers.probes.restart(this.ctx.clock.now());
    this.ctx.relay.withCause(null, () => {
      this.nodeStatus.boot();
      this.nodeStatus.register();
      this.lease.renew();
      this.phaseMs = this.ctx.clock.now();
      this.scheduleHeartbeat();
      this.startInformer();
    });
  }

  /** Powers the machine off (see the file comment). */
  powerOff(): void {
    if (!this.on) return;
    this.on = false;
    if (this.lazy) {
      this.ctx.heartbeats.end(this.nodeName, this.ctx.clock.now());
      this.ctx.heartbeats.endPosts(this.nodeName, this.ctx.clock.now());
    }
    this.lazy = false;
    this.statusTimer = null;
    this.informer?.stop();
    this.informer = null;
    this.timers.cancelAll();
    this.runtime.wipe();
    this.podWorkers.reset();
    this.statusManager.reset();
    this.images.reset();
    this.volumes.reset();
    this.lease.reset();
  }

  /** Powers the machine on: a fresh kubelet start. */
  powerOn(): void {
    this.start();
  }

  private get heartbeatPeriodMs(): number {
    return Math.min(this.lease.renewIntervalMs, this.ctx.timings.nodeStatusUpdateFrequencyMs);
  }

  /** After a tick at phaseMs: the next tick, or the lazy path when it is engaged. */
  private scheduleHeartbeat(): void {
    if (this.ctx.heartbeats.engaged) {
      // from here on the renewals every period are computed, not written (sim/heartbeats.ts)
      this.lazy = true;
      this.ctx.heartbeats.track(this.nodeName, this.phaseMs, this.lease.renewIntervalMs, (at, folded) =>
        this.ctx.relay.withCause(null, () => this.lease.renew(at, folded)),
      );
      this.scheduleStatusSync();
      return;
    }
    this.timers.set(this.heartbeatPeriodMs, () => this.tick(), { label: `${this.participant}: heartbeat` });
  }

  private tick(): void {
    this.phaseMs = this.ctx.clock.now();
    this.ctx.relay.withCause(null, () => {
      this.lease.renew();
      this.nodeStatus.syncNodeStatus();
    });
    this.scheduleHeartbeat();
  }

  /** The first tick of the heartbeat grid after `afterMs` (simulated ms). */
  private nextTickAfter(afterMs: number): number {
    const p = this.heartbeatPeriodMs;
    return this.phaseMs + (Math.floor((afterMs - this.phaseMs) / p) + 1) * p;
  }

  /**
   * Lazy path: the status sync runs only at the grid ticks where it has work (the eager ticks
   * between find the Node, boot ID, index and images unchanged and the report not due, and do
   * nothing): the next tick when the last sync posted or something changed, else the first tick
   * at which the 5 min report is due.
   */
  private scheduleStatusSync(): void {
    const now = this.ctx.clock.now();
    const quiet = this.nodeStatus.quietUntilMs();
    if (quiet === -Infinity) return this.armStatusSync(this.nextTickAfter(now));
    const due = this.nextTickAfter(Math.max(now, quiet - 1));
    const every = this.nodeStatus.reportFrequencyMs;
    if (every % this.heartbeatPeriodMs !== 0) return this.armStatusSync(due);
    // nothing but the report every 5 min until something changes: those reports are computed
    // too, and written when the Node is read (sim/heartbeats.ts)
    this.timers.cancel(this.statusTimer);
    this.statusTimer = null;
    this.ctx.heartbeats.trackPosts(this.nodeName, due, every, (at) => this.ctx.relay.withCause(null, () => this.nodeStatus.reportAt(at)));
  }

  private armStatusSync(at: number): void {
    this.timers.cancel(this.statusTimer);
    this.statusAt = at;
    this.statusTimer = this.timers.set(
      at - this.ctx.clock.now(),
      () => {
        this.statusTimer = null;
        // the reports before this tick stay computed (and are written by the sync's read)
        this.ctx.heartbeats.endPosts(this.nodeName, this.ctx.clock.now() - 1);
        this.ctx.relay.withCause(null, () => this.nodeStatus.syncNodeStatus());
        if (this.lazy) this.scheduleStatusSync();
      },
      { label: `${this.participant}: node status sync` },
    );
  }

  /**
   * The stored Node or the images are about to change or changed: on the lazy path, the reports
   * skipped so far are written, and the next tick syncs the status.
   */
  wakeStatusSync(): void {
    if (!this.lazy || !this.on) return;
    this.ctx.heartbeats.materializePosts(this.nodeName);
    const next = this.nextTickAfter(this.ctx.clock.now());
    if (this.statusTimer && this.statusAt <= next) return;
    this.armStatusSync(next);
  }

  /** The lazy path disengaged (someone watches Leases): real renewals again from the next tick. */
  private renewEagerly(): void {
    if (!this.lazy || !this.on) return;
    const now = this.ctx.clock.now();
    this.lazy = false;
    this.ctx.heartbeats.end(this.nodeName, now);
    this.ctx.heartbeats.endPosts(this.nodeName, now);
    this.timers.cancel(this.statusTimer);
    this.statusTimer = null;
    const at = this.nextTickAfter(now);
    this.timers.set(at - now, () => this.tick(), { label: `${this.participant}: heartbeat` });
  }

  private startInformer(): void {
    if (!this.client.restMapper.forResource('', 'pods')) throw new Error('pods are not served');
    const inf = new SharedInformer<Pod>(
      newListWatchFromClient<Pod>(this.client, '', 'pods', { fieldSelector: `spec.nodeName=${this.nodeName}` }),
    );
    inf.addEventHandler({
      participant: this.participant,
      onAdd: (pod) => this.podWorkers.upsert(pod),
      onUpdate: (_old, pod) => this.podWorkers.upsert(pod),
      onDelete: (pod) => this.podWorkers.remove(pod),
    });
    this.informer = inf;
    inf.start();
  }

  /**
   * The kubelet's knowledge of a Pod's containers (init containers first): whether their
   * behaviour is assumed, and their logs. `container` picks one (default: every container).
   */
  containerInfo(namespace: string, name: string, container?: string): ContainerInfo[] {
    const pod = this.pods().find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
    const rec = pod && this.podWorkers.get(pod.metadata.uid ?? '');
    if (!rec) return [];
    return [...rec.initContainers, ...rec.containers]
      .filter((c) => !container || c.name === container)
      .map((c) => ({
        name: c.name,
        assumed: !!c.process?.assumed,
        logs: [...c.logs],
        previousLogs: [...(c.previousLogs ?? [])],
        ...(c.current.kind === 'running' ? { serves: this.podWorkers.servedPorts(c) } : {}),
      }));
  }

  /** Why a Pod's volumes are not set up yet (e.g. an unbound claim), empty when they are. */
  volumeWaits(namespace: string, name: string): string[] {
    const pod = this.pods().find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
    return pod ? this.volumes.waiting(pod.metadata.uid ?? '') : [];
  }

  /** The files of a PersistentVolumeClaim written by containers (cluster-wide, survives Pods). */
  claimData(namespace: string, claim: string): FileStore {
    return claimStore(this.ctx, namespace, claim);
  }

  /** The Pods this kubelet currently knows (its informer cache). */
  pods(): Pod[] {
    return this.informer?.list() ?? [];
  }
}
