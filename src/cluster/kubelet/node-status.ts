/**
 * Node registration and node status, as pkg/kubelet/kubelet_node_status.go
 * (registerWithAPIServer, tryUpdateNodeStatus: status is computed every
 * nodeStatusUpdateFrequency = 10 s and posted only when it changed or when
 * nodeStatusReportFrequency = 5 min passed) with the setters of pkg/kubelet/nodestatus/setters.go
 * (conditions, events on transitions):
 *   MemoryPressure False KubeletHasSufficientMemory "kubelet has sufficient memory available"
 *   DiskPressure   False KubeletHasNoDiskPressure   "kubelet has no disk pressure"
 *   PIDPressure    False KubeletHasSufficientPID    "kubelet has sufficient PID available"
 *   Ready          True  KubeletReady               "kubelet is posting ready status"
 * Events (component kubelet, host = node, involvedObject Node with uid = node name as the
 * kubelet's nodeRef): Starting "Starting kubelet.", NodeAllocatableEnforced "Updated Node
 * Allocatable limit across pods", Rebooted "Node X has been rebooted, boot id: …",
 * NodeHasSufficientMemory "Node X status is now: NodeHasSufficientMemory", …, NodeReady.
 *
 * Allocatable follows kubeadm's defaults: memory = capacity − 100Mi (evictionHard
 * memory.available), ephemeral-storage = 90 % (nodefs.available 10 %), cpu and pods equal.
 * spec.podCIDR (10.244.N.0/24) is set here at registration; upstream the nodeipam controller
 * of kube-controller-manager allocates it (--allocate-node-cidrs), which this engine folds
 * into registration. Times: RFC 3339 of simulated time; frequencies in simulated ms.
 */
import { deepCopy, deepEqual } from '../api/types';
import type { Node } from '../api/objects';
import type { NodeStatus, NodeSystemInfo } from 'kubernetes-types/core/v1';
import { StatusError } from '../api/errors';
import type { ResourceClient } from '../client/clientset';
import type { EventRecorder, ObjectRef } from '../client/record';
import type { ComponentContext } from '../component-context';
import { bytesOf } from '../api/quantity';
import { KUBERNETES_GIT_VERSION } from '../api/version';
import type { ContainerRuntime } from './runtime';
import { podCIDRIndex } from '../component-helpers/nodeipam/pod-cidr-set';

/** What a kubelet registers (the NodeConfig of kubelet.ts). */
export interface NodeStatusConfig {
  name: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  capacity?: Record<string, string>;
  controlPlane?: boolean;
}

/** status.nodeInfo.kubeletVersion: the engine's one Kubernetes version (api/version.ts). */
export const KUBELET_VERSION = KUBERNETES_GIT_VERSION;
export const CONTAINER_RUNTIME_VERSION = 'containerd://2.1.1';
const OS_IMAGE = 'Debian GNU/Linux 12 (bookworm)';
const KERNEL_VERSION = '6.8.0-52-generic';
const EVICTION_HARD_MEMORY = 100 * 1024 * 1024;

interface CondSpec {
  type: string;
  status: string;
  reason: string;
  message: string;
  event: string;
}

/** The conditions a healthy kubelet posts, in upstream order. */
const HEALTHY: CondSpec[] = [
  {
    type: 'MemoryPressure',
    status: 'False',
    reason: 'KubeletHasSufficientMemory',
    message: 'kubelet has sufficient memory available',
    event: 'NodeHasSufficientMemory',
  },
  {
    type: 'DiskPressure',
    status: 'False',
    reason: 'KubeletHasNoDiskPressure',
    message: 'kubelet has no disk pressure',
    event: 'NodeHasNoDiskPressure',
  },
  {
    type: 'PIDPressure',
    status: 'False',
    reason: 'KubeletHasSufficientPID',
    message: 'kubelet has sufficient PID available',
    event: 'NodeHasSufficientPID',
  },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', event: 'NodeReady' },
];

export class NodeStatusManager {
  /** N of 10.244.N.0/24 and 172.18.0.(N+2); fixed at first registration. */
  index = -1;
  bootID = '';
  private readonly machineID: string;
  private readonly systemUUID: string;
  private lastReportAt = -Infinity;
  private registered = false;
  /**
   * The inputs of the last sync that found nothing but heartbeat times to change: the stored
   * Node's resourceVersion, the boot ID, the node index (its addresses) and the runtime's image
   * version. While all four are the same, computeStatus would give the same status again (the
   * setters depend on nothing else but the clock, whose reading only the heartbeat times show),
   * so the next sync skips the comparison. Cleared when a sync posts.
   */
  private unchangedFor: { resourceVersion: string; bootID: string; index: number; images: number } | null = null;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly cfg: NodeStatusConfig,
    private readonly nodes: ResourceClient<Node>,
    private readonly recorder: EventRecorder,
    private readonly runtime: ContainerRuntime,
  ) {
    this.machineID = ctx.rng.uuid().replace(/-/g, '');
    this.systemUUID = ctx.rng.uuid();
  }

  get podCIDR(): string {
    return `10.244.${this.index}.0/24`;
  }

  get internalIP(): string {
    return `172.18.0.${this.index + 2}`;
  }

  /** The kubelet's nodeRef (pkg/kubelet/kubelet.go): UID is the node name. */
  get nodeRef(): ObjectRef {
    return { apiVersion: 'v1', kind: 'Node', name: this.cfg.name, uid: this.cfg.name, namespace: '' };
  }

  /** Kubelet start-up: a new boot ID and the start events. */
  boot(): void {
    this.bootID = this.ctx.rng.uuid();
    this.registered = false;
    this.lastReportAt = -Infinity;
    this.recorder.event(this.nodeRef, 'Normal', 'Starting', 'Starting kubelet.');
    this.recorder.event(this.nodeRef, 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
  }

  private chooseIndex(existing: Node | undefined): void {
    if (this.index >= 0) return;
    // the lowest 10.244.N.0/24 no stored Node holds, from the cluster's CIDR set (no list)
    this.index = podCIDRIndex(existing) ?? this.ctx.podCIDRs.lowestFree();
  }

  private labels(): Record<string, string> {
    const l: Record<string, string> = {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': this.cfg.name,
      'kubernetes.io/os': 'linux',
    };
    if (this.cfg.controlPlane) {
      l['node-role.kubernetes.io/control-plane'] = '';
      l['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
    }
    return { ...l, ...this.cfg.labels };
  }

  private taints(): { key: string; value?: string; effect: string }[] {
    const t = [...(this.cfg.taints ?? [])].map((x) => ({ ...x }));
    if (this.cfg.controlPlane && !t.some((x) => x.key === 'node-role.kubernetes.io/control-plane')) {
      t.push({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' });
    }
    return t;
  }

  private resources(): { capacity: Record<string, string>; allocatable: Record<string, string> } {
    const c = { cpu: '2', memory: '4Gi', pods: '110', 'ephemeral-storage': '100Gi', ...this.cfg.capacity };
    const mem = bytesOf(c.memory);
    const eph = bytesOf(c['ephemeral-storage']);
    const capacity: Record<string, string> = {
      ...c,
      cpu: c.cpu,
      'ephemeral-storage': formatKi(eph),
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: formatKi(mem),
      pods: c.pods,
    };
    const allocatable: Record<string, string> = {
      ...capacity,
      'ephemeral-storage': String(Math.floor(eph * 0.9)),
      memory: formatKi(Math.max(0, mem - EVICTION_HARD_MEMORY)),
    };
    return { capacity: sortKeys(capacity), allocatable: sortKeys(allocatable) };
  }

  /**
   * registerWithAPIServer: create the Node, or — after a reboot — find it and reconcile its
   * default labels. Then post status. Returns false when the apiserver refused.
   */
  register(): boolean {
    const name = this.cfg.name;
    let existing: Node | undefined;
    try {
      existing = this.nodes.get('', name, { quiet: true });
    } catch (err) {
      if (!(err instanceof StatusError) || err.code !== 404) throw err;
    }
    this.chooseIndex(existing);
    try {
      if (!existing) {
        const node: Node = {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: {
            name,
            labels: this.labels(),
            annotations: {
              'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
              'node.alpha.kubernetes.io/ttl': '0',
              'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
            },
          },
          spec: {
            podCIDR: this.podCIDR,
            podCIDRs: [this.podCIDR],
            providerID: `kind://docker/kube-relay/${name}`,
            ...(this.taints().length ? { taints: this.taints() } : {}),
          },
          status: this.computeStatus(undefined, true).status,
        };
        const out = this.nodes.create('', node, { summary: `register Node ${name}` });
        this.lastReportAt = this.ctx.clock.now();
        this.registered = true;
        if (!out.status?.conditions?.length) this.syncNodeStatus(true);
        return true;
      }
      // updateDefaultLabels on an existing Node
      const want = this.labels();
      const labels: Record<string, string> = { ...existing.metadata.labels };
      let changed = false;
      for (const k of Object.keys(want)) {
        if (labels[k] === undefined) {
          labels[k] = want[k];
          changed = true;
        }
      }
      if (changed) this.nodes.update({ ...existing, metadata: { ...existing.metadata, labels } });
      this.registered = true;
      this.syncNodeStatus(true);
      return true;
    } catch (err) {
      if (err instanceof StatusError) return false;
      throw err;
    }
  }

  /** Has the Node been registered since the last boot? */
  get isRegistered(): boolean {
    return this.registered;
  }

  /**
   * The status the setters produce from the stored one. `emit` records the transition events;
   * `atMs` (simulated ms, default now) is the time the heartbeats read. Returns the status and whether any condition transitioned.
   */
  computeStatus(old: NodeStatus | undefined, emit: boolean, atMs?: number): { status: NodeStatus; transitioned: boolean } {
    const now = atMs === undefined ? this.ctx.clock.nowRFC3339() : rfc3339Of(atMs);
    const name = this.cfg.name;
    if (emit && old?.nodeInfo?.bootID && old.nodeInfo.bootID !== this.bootID) {
      this.recorder.event(this.nodeRef, 'Warning', 'Rebooted', `Node ${name} has been rebooted, boot id: ${this.bootID}`);
    }
    let transitioned = false;
    const conditions = HEALTHY.map((h) => {
      const prev = (old?.conditions ?? []).find((c) => c.type === h.type);
      const changed = !prev || prev.status !== h.status;
      if (changed) {
        transitioned = true;
        if (emit) this.recorder.event(this.nodeRef, 'Normal', h.event, `Node ${name} status is now: ${h.event}`);
      }
      return {
        lastHeartbeatTime: now,
        lastTransitionTime: changed ? now : prev.lastTransitionTime,
        message: h.message,
        reason: h.reason,
        status: h.status,
        type: h.type,
      };
    });
    const { capacity, allocatable } = this.resources();
    const status: NodeStatus = {
      addresses: [
        { address: this.internalIP, type: 'InternalIP' },
        { address: name, type: 'Hostname' },
      ],
      allocatable,
      capacity,
      conditions,
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: this.runtime.listImages().map((i) => ({ names: [i.repoDigest, i.ref], sizeBytes: i.sizeBytes })),
      // no kubeProxyVersion (deprecated; v1.30's types still require it)
      nodeInfo: {
        architecture: 'amd64',
        bootID: this.bootID,
        containerRuntimeVersion: CONTAINER_RUNTIME_VERSION,
        kernelVersion: KERNEL_VERSION,
        kubeletVersion: KUBELET_VERSION,
        machineID: this.machineID,
        operatingSystem: 'linux',
        osImage: OS_IMAGE,
        systemUUID: this.systemUUID,
      } as NodeSystemInfo,
    };
    return { status, transitioned };
  }

  /**
   * Until when (simulated ms) a sync does nothing as long as the stored Node, the boot ID, the
   * node index and the images stay as the last sync found them: the next report time after a sync
   * that found nothing to post, -Infinity when the next sync has work (none yet, or it posted).
   * The lazy heartbeat path (kubelet.ts) skips the syncs before it.
   */
  quietUntilMs(): number {
    if (!this.registered || !this.unchangedFor) return -Infinity;
    return this.lastReportAt + this.ctx.timings.nodeStatusReportFrequencyMs;
  }

  /**
   * Writes the unchanged status report of `atMs` (simulated ms, not after now) that the lazy path
   * skipped (sim/heartbeats.ts): the stored status with every heartbeat time at `atMs`, as the
   * sync at that tick would have posted it. Never throws StatusError.
   */
  reportAt(atMs: number): void {
    try {
      const node = this.nodes.get('', this.cfg.name, { quiet: true });
      const { status, transitioned } = this.computeStatus(node.status, false, atMs);
      if (transitioned) return;
      const next = deepCopy(node);
      next.status = { ...node.status, ...status };
      delete next.metadata.resourceVersion;
      this.nodes.updateStatus(next, { category: 'heartbeat', summary: `node status heartbeat ${this.cfg.name}` });
      this.lastReportAt = atMs;
      this.unchangedFor = null;
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
    }
  }

  /** The report period (simulated ms): nodeStatusReportFrequency. */
  get reportFrequencyMs(): number {
    return this.ctx.timings.nodeStatusReportFrequencyMs;
  }

  /**
   * tryUpdateNodeStatus: post when something besides heartbeat times changed, or when
   * nodeStatusReportFrequency passed since the last report (or `force`).
   */
  syncNodeStatus(force = false): void {
    if (!this.registered) {
      this.register();
      return;
    }
    let node: Node;
    try {
      node = this.nodes.get('', this.cfg.name, { quiet: true });
    } catch (err) {
      // registrationCompleted stays true: a kubelet whose Node object was deleted keeps failing
      // "error getting node" and does not re-register until it restarts
      // (kubernetes/kubernetes#71398, still so in v1.33)
      if (err instanceof StatusError && err.code === 404) return;
      throw err;
    }
    const due = this.ctx.clock.now() - this.lastReportAt >= this.ctx.timings.nodeStatusReportFrequencyMs;
    const u = this.unchangedFor;
    const rv = node.metadata.resourceVersion ?? '';
    if (
      !due &&
      !force &&
      u &&
      u.resourceVersion === rv &&
      u.bootID === this.bootID &&
      u.index === this.index &&
      u.images === this.runtime.imagesVersion
    )
      return;
    const probe = this.computeStatus(node.status, false);
    const changed = !deepEqual(stripHeartbeats(probe.status), stripHeartbeats(pick(node.status, probe.status)));
    this.unchangedFor = changed
      ? null
      : { resourceVersion: rv, bootID: this.bootID, index: this.index, images: this.runtime.imagesVersion };
    if (!changed && !due && !force) return;
    this.unchangedFor = null;
    const { status, transitioned } = this.computeStatus(node.status, true);
    const next = deepCopy(node);
    next.status = { ...node.status, ...status };
    delete next.metadata.resourceVersion;
    try {
      this.nodes.updateStatus(next, {
        category: transitioned ? undefined : 'heartbeat',
        summary: transitioned ? `update status Node ${this.cfg.name}: Ready` : `node status heartbeat ${this.cfg.name}`,
      });
      this.lastReportAt = this.ctx.clock.now();
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
    }
  }
}

/** Bytes as the kubelet (cAdvisor) reports memory: whole Ki, e.g. "8388608Ki". */
function formatKi(bytes: number): string {
  return `${Math.floor(bytes / 1024)}Ki`;
}

/** RFC 3339 of simulated ms, second precision (metav1.Time), as SimClock.nowRFC3339 formats it. */
function rfc3339Of(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

/** The fields of `from` that `like` has (a status as JSON). */
function pick(from: object | undefined, like: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(like)) out[k] = (from as Record<string, unknown> | undefined)?.[k];
  return out;
}

function stripHeartbeats(s: object): unknown {
  const c = deepCopy(s) as { conditions?: Record<string, unknown>[] };
  for (const cond of c.conditions ?? []) delete cond.lastHeartbeatTime;
  return c;
}
