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
      this.scheduleHeartbeat();
      this.startInformer();
    });
  }

  /** Powers the machine off (see the file comment). */
  powerOff(): void {
    if (!this.on) return;
    this.on = false;
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

  private scheduleHeartbeat(): void {
    const period = Math.min(this.lease.renewIntervalMs, this.ctx.timings.nodeStatusUpdateFrequencyMs);
    this.timers.set(
      period,
      () => {
        this.ctx.relay.withCause(null, () => {
          this.lease.renew();
          this.nodeStatus.syncNodeStatus();
        });
        this.scheduleHeartbeat();
      },
      { label: `${this.participant}: heartbeat` },
    );
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
