/**
 * Plays a scenario (scenario.ts) on a fresh {@link Cluster} in fast-forward and collects
 * the JSON result of docs/scenario-format.md: per-step results, snapshots, the final state and the
 * relay. File access (applyFile, applyKustomize) is injected, so this stays pure.
 */
import { Cluster, type ApplyResult } from '../cluster';
import type { KObject } from '../api/types';
import { parseSelector, matches } from '../api/labels';
import type { RelayHop } from '../relay/relay-event';
import type { ActAs, Scenario, Step, PodPick } from './scenario';
import type { StandaloneContainer } from '../docker/standalone';
import type { TrafficResult } from '../userland/traffic-types';
import type { SandboxFactory } from '../user-controller/types';
import type { ControlPlaneInstanceView } from '../control-plane';

export const KUBERNETES_VERSION = 'v1.33';

export interface StepResult {
  index: number;
  step: string;
  /** simulated time when the step began / ended (RFC 3339) */
  time: string;
  endTime: string;
  results?: ApplyResult[];
  settled?: boolean;
  output?: string;
  error?: string | null;
  /** for killNode / deletePod by selector: what was picked */
  target?: string;
  note?: Record<string, string>;
  /** for request: one result per request (userland/traffic-types.ts TrafficResult) */
  requests?: TrafficResult[];
}

export type { StandaloneContainer };

export interface Snapshot {
  name: string;
  time: string;
  objects: KObject[];
  events: KObject[];
  /** Containers started by dockerRun steps (no API object), when any. */
  standaloneContainers?: StandaloneContainer[];
  /** Each control-plane node's instances and their roles (control-plane.ts), e.g. `kube-controller-manager (control-plane2)` `leader`. */
  controlPlane: ControlPlaneInstanceView[];
}

/** A relay hop as the JSON output carries it (time as RFC 3339 with milliseconds). */
export type RelayHopOut = Omit<RelayHop, 'time'> & { time: string };

export interface ScenarioResult {
  kubernetesVersion: string;
  name: string;
  steps: StepResult[];
  snapshots: Snapshot[];
  /** `standaloneContainers`: containers started by dockerRun steps (outside Kubernetes), when any. */
  final: {
    time: string;
    objects: KObject[];
    events: KObject[];
    standaloneContainers?: StandaloneContainer[];
    controlPlane: ControlPlaneInstanceView[];
  };
  relay: RelayHopOut[];
}

export interface RunnerIO {
  /** Reads a file relative to the scenario file. Throws when missing. */
  readFile(path: string): string;
  /** Renders a kustomization folder as `kubectl kustomize` would (optional). */
  kustomize?(path: string): string;
  /** Where `controller` steps run the learner's code (headless: src/cli/controller-vm.ts). */
  controllerSandbox?: SandboxFactory;
  /** JavaScript of a controller's source (TypeScript types stripped); `file` is its path, or "" when inline. Default: the source as is. */
  compileController?(source: string, file: string): string;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
const isoMs = (ms: number) => new Date(ms).toISOString();

function pickPod(cluster: Cluster, pick: PodPick): KObject {
  const sel = parseSelector(pick.selector);
  const pods = cluster
    .list('pods', pick.namespace ?? 'default')
    .filter((p) => matches(sel, p.metadata.labels) && !p.metadata.deletionTimestamp)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  const p = pods[pick.index ?? 0];
  if (!p)
    throw new Error(
      `no Pod #${pick.index ?? 0} matches ${pick.selector} in namespace ${pick.namespace ?? 'default'} (found ${pods.length})`,
    );
  return p;
}

/** `{standaloneContainers}` when any `docker run` container exists, else nothing (output unchanged). */
function standalone(cluster: Cluster): { standaloneContainers?: StandaloneContainer[] } {
  const list = cluster.docker.list();
  return list.length ? { standaloneContainers: list } : {};
}

/** Runs one step; returns its result entry (apply rejections are data, not exceptions). */
/** kubectl's `--as` / `--as-group` flags for a step's `as`. */
function asFlags(as: ActAs | undefined): string {
  if (!as) return '';
  return ` --as=${quoteArg(as.user)}${(as.groups ?? []).map((g) => ` --as-group=${quoteArg(g)}`).join('')}`;
}
const quoteArg = (s: string): string => (/^[\w:./@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function runStep(cluster: Cluster, step: Step, index: number, io: RunnerIO, snapshots: Snapshot[]): StepResult {
  const start = cluster.now();
  const r: StepResult = { index, step: step.kind, time: iso(start), endTime: iso(start) };
  try {
    switch (step.kind) {
      case 'apply':
        r.results = cluster.apply(step.manifest, step.as ? { as: step.as } : {});
        break;
      case 'applyFile':
        r.results = cluster.apply(io.readFile(step.path), { source: step.path });
        break;
      case 'applyKustomize':
        if (!io.kustomize) throw new Error('kustomize is not available in this runner');
        r.results = cluster.apply(io.kustomize(step.path), { source: step.path });
        break;
      case 'kubectl': {
        const k = cluster.kubectl(step.command + asFlags(step.as));
        r.output = k.output;
        r.error = k.error;
        break;
      }
      case 'canI': {
        const k = cluster.kubectl(
          `auth can-i ${step.verb} ${step.resource}${step.namespace ? ` -n ${step.namespace}` : ''}${asFlags(step.as)}`,
        );
        r.output = k.output;
        r.error = k.error;
        break;
      }
      case 'advance':
        cluster.advance(step.ms);
        break;
      case 'settle':
        r.settled = cluster.settle(step.limitMs, step.quietMs);
        break;
      case 'killNode': {
        const node = typeof step.node === 'string' ? step.node : pickPod(cluster, step.node.nodeOfPod).spec?.nodeName;
        if (!node) throw new Error('the picked Pod is not bound to a node');
        cluster.killNode(node);
        r.target = node;
        break;
      }
      case 'restoreNode':
        cluster.restoreNode(step.node);
        break;
      case 'removeNode':
        cluster.removeNode(step.node);
        break;
      case 'addNode':
        cluster.addNode(step.node);
        break;
      case 'deletePod': {
        const p = 'selector' in step.pod ? pickPod(cluster, step.pod) : null;
        const ns = p ? p.metadata.namespace! : (step.pod as { namespace: string }).namespace;
        const name = p ? p.metadata.name : (step.pod as { name: string }).name;
        const k = cluster.kubectl(`delete pod ${name} -n ${ns}`);
        r.output = k.output;
        r.error = k.error;
        r.target = `${ns}/${name}`;
        break;
      }
      case 'snapshot':
        snapshots.push({
          name: step.name,
          time: iso(cluster.now()),
          objects: cluster.objects(),
          events: cluster.events(),
          ...standalone(cluster),
          controlPlane: cluster.controlPlane.view(),
        });
        break;
      case 'note':
        r.note = step.text;
        break;
      case 'dockerRun': {
        const c = cluster.docker.run(step.run);
        r.output = `${c.id}\n`;
        r.target = `${c.node}/${c.name}`;
        break;
      }
      case 'request': {
        const f = step.from;
        const p = f.kind === 'pick' ? pickPod(cluster, f.pick) : null;
        const source = p
          ? { kind: 'pod' as const, namespace: p.metadata.namespace!, name: p.metadata.name }
          : f.kind === 'pod'
            ? { kind: 'pod' as const, namespace: f.namespace, name: f.name }
            : { kind: 'external' as const };
        if (source.kind === 'pod') r.target = `${source.namespace}/${source.name}`;
        r.requests = cluster.sendRequests({ source, url: step.url, count: step.count });
        break;
      }
      case 'controller': {
        const source = step.source ?? io.readFile(step.file!);
        const code = io.compileController ? io.compileController(source, step.file ?? '') : source;
        cluster.startController({
          name: step.name,
          source,
          code,
          ...(step.for ? { for: step.for } : {}),
          ...(step.owns ? { owns: step.owns } : {}),
        });
        r.target = step.name;
        break;
      }
      case 'stopController':
        cluster.stopController(step.name);
        r.target = step.name;
        break;
      case 'setLoad':
        cluster.loads.set({ namespace: step.namespace, workload: step.workload, totalCpuMillicores: step.cpuMillicores });
        r.target = `${step.namespace}/${step.workload}`;
        break;
    }
  } catch (e) {
    r.error = (e as Error).message;
  }
  r.endTime = iso(cluster.now());
  return r;
}

/** Plays a whole scenario on a new cluster and returns the result. */
export function runScenario(sc: Scenario, io: RunnerIO): ScenarioResult {
  const cluster = new Cluster({
    seed: sc.cluster.seed,
    nodes: sc.cluster.nodes,
    images: sc.cluster.images,
    controlPlane: sc.cluster.controlPlane,
    relayCapacity: 1_000_000,
    controllerSandbox: io.controllerSandbox,
  });
  const steps: StepResult[] = [];
  const snapshots: Snapshot[] = [];
  sc.steps.forEach((s, i) => steps.push(runStep(cluster, s, i, io, snapshots)));
  return {
    kubernetesVersion: KUBERNETES_VERSION,
    name: sc.name,
    steps,
    snapshots,
    final: {
      time: iso(cluster.now()),
      objects: cluster.objects(),
      events: cluster.events(),
      ...standalone(cluster),
      controlPlane: cluster.controlPlane.view(),
    },
    relay: cluster.relay.all().map((h) => ({ ...h, time: isoMs(h.time) })),
  };
}
