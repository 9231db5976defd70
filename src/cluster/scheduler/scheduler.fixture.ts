/**
 * Test fixture for the scheduler: an apiserver with an empty strategy table, fully
 * specified Node and Pod objects, and a started KubeScheduler on a simulated clock — no
 * kubelets, no controllers (the scheduler's own unit of behaviour, as
 * pkg/scheduler/schedule_one_test.go builds it with fake clients and informers).
 */
import { APIServer } from '../apiserver/apiserver';
import { ComponentContext } from '../component-context';
import { users, type Client } from '../client/clientset';
import { ImageRegistry } from '../sim/image-registry';
import { RelayRecorder } from '../relay/recorder';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { KUBERNETES_DEFAULTS } from '../timings';
import type { APIObject, CoreEvent, Namespace, Node, Pod } from '../api/objects';
import type { PodCondition } from 'kubernetes-types/core/v1';
import { KubeScheduler } from './scheduler';

/** A node as tests describe it. */
export interface NodeSpec {
  name: string;
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
}

/** A fully specified Ready Node object. */
export function makeNode(n: NodeSpec): Node {
  const capacity = { cpu: n.cpu ?? '4', memory: n.memory ?? '8Gi', pods: n.pods ?? '110', 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: n.name,
      labels: { 'kubernetes.io/hostname': n.name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...n.labels },
    },
    spec: { ...(n.taints ? { taints: n.taints } : {}), ...(n.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity,
      allocatable: capacity,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      ...(n.images ? { images: n.images } : {}),
    },
  };
}

/** The default cluster's nodes: a NoSchedule-tainted control plane (2 CPU, 4Gi) and 3 workers (4 CPU, 8Gi, 110 pods). */
export function defaultClusterNodes(): NodeSpec[] {
  return [
    {
      name: 'control-plane',
      cpu: '2',
      memory: '4Gi',
      labels: { 'node-role.kubernetes.io/control-plane': '' },
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    },
    { name: 'node-1' },
    { name: 'node-2' },
    { name: 'node-3' },
  ];
}

/** A pod as tests describe it. */
export interface PodSpec {
  name: string;
  namespace?: string;
  cpu?: string;
  memory?: string;
  labels?: Record<string, string>;
  spec?: Record<string, unknown>;
  nodeName?: string;
  priorityClassName?: string;
}

/** A fully specified Pending Pod object (one container). */
export function makePod(p: PodSpec): Pod {
  const requests: Record<string, string> = {};
  if (p.cpu) requests.cpu = p.cpu;
  if (p.memory) requests.memory = p.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name, namespace: p.namespace ?? 'default', labels: p.labels ?? {} },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.27', resources: Object.keys(requests).length ? { requests } : {} }],
      schedulerName: 'default-scheduler',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      ...(p.priorityClassName ? { priorityClassName: p.priorityClassName } : {}),
      ...(p.nodeName ? { nodeName: p.nodeName } : {}),
      ...p.spec,
    },
    status: { phase: 'Pending', qosClass: 'BestEffort' },
  };
}

/** The fixture. */
export class SchedulerFixture {
  readonly clock = new SimClock();
  readonly rng: Rng;
  readonly relay = new RelayRecorder(() => this.clock.now());
  readonly api: APIServer;
  readonly ctx: ComponentContext;
  readonly admin: Client;
  readonly scheduler: KubeScheduler;

  constructor(nodes: NodeSpec[] = defaultClusterNodes(), seed = 1) {
    this.rng = new Rng(seed);
    this.api = new APIServer(this.clock, this.rng, this.relay, {});
    this.ctx = new ComponentContext(this.api, this.clock, this.rng, this.relay, KUBERNETES_DEFAULTS, new ImageRegistry([]));
    this.admin = this.ctx.client(users.kubectl());
    this.admin.resource<Namespace>('', 'namespaces').create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    for (const n of nodes) this.addNode(n);
    this.scheduler = new KubeScheduler(this.ctx);
    this.scheduler.start();
    this.clock.advance(10);
  }

  addNode(n: NodeSpec): Node {
    return this.admin.resource<Node>('', 'nodes').create('', makeNode(n));
  }

  createPod(p: PodSpec): Pod {
    return this.admin.resource<Pod>('', 'pods').create(p.namespace ?? 'default', makePod(p));
  }

  /** Creates any object (of kind `T`, in `group`/`resource`). */
  create<T extends APIObject>(group: string, resource: string, obj: T, namespace = ''): T {
    return this.admin.resource<T>(group, resource).create(namespace, obj);
  }

  pod(name: string, namespace = 'default'): Pod | undefined {
    return this.api.getObject('pods', namespace, name) as Pod | undefined;
  }

  nodeOf(name: string): string | undefined {
    return this.pod(name)?.spec?.nodeName;
  }

  /** Events about an object, in creation order, as "Reason: message". */
  events(name: string): string[] {
    return this.api.store
      .list('events')
      .sort((a, b) => a.createRev - b.createRev)
      .map((e) => e.obj)
      .filter((e) => e.involvedObject?.name === name)
      .map((e) => `${e.reason}: ${e.message}`);
  }

  event(name: string, reason: string): CoreEvent | undefined {
    return this.api.store
      .list('events')
      .map((e) => e.obj as CoreEvent)
      .find((e) => e.involvedObject?.name === name && e.reason === reason);
  }

  condition(name: string, type = 'PodScheduled'): PodCondition | undefined {
    return this.pod(name)?.status?.conditions?.find((c) => c.type === type);
  }

  advance(ms: number): void {
    this.clock.advance(ms);
  }
}
