/**
 * Test fixture for the kubelet and node controllers: a bare apiserver (empty strategy table),
 * namespaces default and kube-node-lease, kubelets, and helpers to create bound Pods and
 * read events. Simulated time starts at 2026-01-01T00:00:00Z. Used by *.test.ts only.
 */
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { APIServer } from '../apiserver/apiserver';
import { ComponentContext } from '../component-context';
import { KUBERNETES_DEFAULTS, type Timings } from '../timings';
import { ImageRegistry } from '../sim/image-registry';
import { users, type Client } from '../client/clientset';
import type { Namespace, Pod } from '../api/objects';
import type { KObject } from '../api/types';
import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { Kubelet, type NodeConfig } from './kubelet';
import { SharedInformerFactory } from '../client/informer';
import { NodeLifecycleController } from '../controllers/nodelifecycle';
import { TaintEvictionController } from '../controllers/tainteviction';

export interface TestEnv {
  clock: SimClock;
  relay: RelayRecorder;
  api: APIServer;
  ctx: ComponentContext;
  admin: Client;
  kubelets: Map<string, Kubelet>;
  t0: number;
  /** every event occurrence (a new Event or a count bump), in order */
  occurrences: { at: number; reason: string; message: string; object: string; component: string; type: string }[];
}

/** Builds the environment and starts one kubelet per node config. */
export function newEnv(opts: { nodes?: NodeConfig[]; missing?: string[]; seed?: number; timings?: Partial<Timings> } = {}): TestEnv {
  const clock = new SimClock();
  const rng = new Rng(opts.seed ?? 1);
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, rng, relay, {});
  const ctx = new ComponentContext(
    api,
    clock,
    rng,
    relay,
    { ...KUBERNETES_DEFAULTS, ...opts.timings },
    new ImageRegistry(opts.missing ?? []),
  );
  const admin = ctx.client(users.kubectl());
  const occurrences: TestEnv['occurrences'] = [];
  api.store.listen((ev) => {
    if (ev.resource !== 'events' || ev.type === 'DELETED') return;
    const e = ev.obj;
    occurrences.push({
      at: clock.now(),
      reason: e.reason,
      message: e.message,
      type: e.type,
      component: e.source?.component,
      object: `${e.involvedObject?.kind}/${e.involvedObject?.namespace ? e.involvedObject.namespace + '/' : ''}${e.involvedObject?.name}`,
    });
  });
  for (const name of ['default', 'kube-node-lease', 'kube-system']) {
    admin.resource<Namespace>('', 'namespaces').create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  const kubelets = new Map<string, Kubelet>();
  for (const cfg of opts.nodes ?? [{ name: 'node-1', capacity: { cpu: '4', memory: '8Gi', pods: '110' } }]) {
    const k = new Kubelet(ctx, cfg);
    kubelets.set(cfg.name, k);
    k.start();
  }
  return { clock, relay, api, ctx, admin, kubelets, t0: clock.now(), occurrences };
}

/** The DefaultTolerationSeconds admission plugin's tolerations (300 s). */
export const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** Creates a Pod (as kubectl) and binds it to `node` (as the scheduler would). */
export function createPod(env: TestEnv, name: string, node: string, containers: Container[], spec: Partial<PodSpec> = {}): Pod {
  const pods = env.admin.resource<Pod>('', 'pods');
  pods.create('default', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { containers, restartPolicy: 'Always', terminationGracePeriodSeconds: 30, tolerations: DEFAULT_TOLERATIONS, ...spec },
    status: { phase: 'Pending', qosClass: 'BestEffort' },
  });
  return env.ctx.client(users.scheduler()).bind('default', name, node) as Pod;
}

/** The stored Pod, or undefined. */
export function getPod(env: TestEnv, name: string, ns = 'default'): KObject | undefined {
  return env.api.store.get('pods', `${ns}/${name}`)?.obj;
}

/** Events in creation order as [seconds since t0 (1 decimal), reason, message], optionally for one object. */
export function events(env: TestEnv, involvedName?: string): [number, string, string][] {
  return env.api.store
    .list('events')
    .sort((a, b) => a.createRev - b.createRev)
    .map((e) => e.obj)
    .filter((e) => !involvedName || e.involvedObject?.name === involvedName)
    .map((e) => [Math.round((Date.parse(e.firstTimestamp) - env.t0) / 100) / 10, e.reason, e.message]);
}

/** Event occurrences as [seconds since t0 (ms precision), reason, message], optionally filtered by involved object name. */
export function timeline(env: TestEnv, name?: string, reasons?: string[]): [number, string, string][] {
  return env.occurrences
    .filter((o) => (!name || o.object.endsWith('/' + name)) && (!reasons || reasons.includes(o.reason)))
    .map((o) => [(o.at - env.t0) / 1000, o.reason, o.message]);
}

/** Seconds since t0. */
export function since(env: TestEnv, ms = env.clock.now()): number {
  return (ms - env.t0) / 1000;
}

/** Starts the node lifecycle and taint eviction controllers on shared informers, as kube-controller-manager would. */
export function startNodeControllers(env: TestEnv): {
  nlc: NodeLifecycleController;
  tec: TaintEvictionController;
  factory: SharedInformerFactory;
} {
  const factory = new SharedInformerFactory(env.ctx.client(users.controller('kube-controller-manager')));
  const nlc = new NodeLifecycleController(env.ctx, factory);
  const tec = new TaintEvictionController(env.ctx, factory);
  factory.start();
  nlc.run();
  tec.run();
  return { nlc, tec, factory };
}
