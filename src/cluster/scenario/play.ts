/**
 * The one player of scenario steps (scenario.ts `Step`, docs/scenario-format.md): every step,
 * wherever it comes from, runs here against a {@link Cluster} — a scenario file's steps in the
 * headless runner (runner.ts) and the apiserver's `--scenario` (src/cli/apiserver.ts), a tour's
 * steps and every user action of the worker (src/worker/cluster-api.ts), and the worker's session
 * log when it is replayed (src/worker/session-log.ts).
 *
 * {@link STEP_PLAYERS} holds one player per step kind; a new kind adds its type to `Step`, its
 * parsing to scenario.ts `parseStep` and its player here (the mapped type makes a missing player a
 * type error). A player fills the step's result entry and returns what a live caller needs back
 * (the apply results, kubectl's stdout/stderr/exit code, …).
 */
import type { Cluster, ApplyResult } from '../cluster';
import type { KObject } from '../api/types';
import { parseSelector, matches } from '../api/labels';
import type { KubectlResult } from '../kubectl/command';
import type { GetWatchSession } from '../kubectl/cmd/get-watch';
import type { DnsLookupResult, TrafficResult } from '../userland/traffic-types';
import type { UserControllerStatus, SandboxFactory } from '../user-controller/types';
import type { StandaloneContainer } from '../docker/standalone';
import type { ControlPlaneInstanceView } from '../control-plane';
import type { ActAs, PodPick, Step } from './scenario';
import { applyKustomize as applyKustomizeFiles } from './kustomize-files';

/** One step's entry in a scenario result (docs/scenario-format.md#result). */
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

/** A `snapshot` step's record: every object and Event at that moment. */
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

/** What steps may read besides the cluster: files, kustomize, the user controllers' sandbox. */
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

/**
 * The state steps share while one cluster plays them: the files they may read, the snapshots
 * taken so far, and who steps without their own `as` act as.
 */
export interface PlayContext {
  readonly io: RunnerIO;
  readonly snapshots: Snapshot[];
  /** Set by `actAs` steps; null: the kubectl user (kubernetes-admin). */
  actingAs: { user: string; groups: string[] } | null;
  /** Where a live `kubectl get -w` goes (the worker's kubectl bar); absent: a watch prints what it has and ends. */
  onWatch?: (session: GetWatchSession) => void;
}

/** A fresh {@link PlayContext}: no snapshots yet, acting as the kubectl user. */
export function playContext(io: RunnerIO, snapshots: Snapshot[] = []): PlayContext {
  return { io, snapshots, actingAs: null };
}

/** What each step kind's player hands back to a live caller (void: nothing). */
export interface StepValues {
  apply: ApplyResult[];
  applyFile: ApplyResult[];
  applyKustomize: ApplyResult[];
  kubectl: KubectlResult;
  canI: KubectlResult;
  advance: void;
  settle: boolean;
  killNode: string;
  restoreNode: void;
  removeNode: void;
  addNode: void;
  deletePod: void;
  snapshot: void;
  note: void;
  dockerRun: StandaloneContainer;
  request: TrafficResult[];
  setLoad: void;
  controller: UserControllerStatus;
  stopController: void;
  actAs: void;
  setImageMissing: void;
  docker: KubectlResult;
  dnsLookup: DnsLookupResult;
  fireTimers: void;
}

/** A step kind. */
export type StepKind = Step['kind'];
/** The step of kind `K`. */
export type StepOf<K extends StepKind> = Extract<Step, { kind: K }>;
/** Plays one step of kind `K`: fills `r` (the result entry) and returns the step's value; throws on failure. */
export type StepPlayer<K extends StepKind> = (cluster: Cluster, step: StepOf<K>, r: StepResult, ctx: PlayContext) => StepValues[K];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

/** `{standaloneContainers}` when any `docker run` container exists, else nothing (output unchanged). */
export function standalone(cluster: Cluster): { standaloneContainers?: StandaloneContainer[] } {
  const list = cluster.docker.list();
  return list.length ? { standaloneContainers: list } : {};
}

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

/** kubectl's `--as` / `--as-group` flags for a step's `as`. */
function asFlags(as: ActAs | undefined): string {
  if (!as) return '';
  return ` --as=${quoteArg(as.user)}${(as.groups ?? []).map((g) => ` --as-group=${quoteArg(g)}`).join('')}`;
}
const quoteArg = (s: string): string => (/^[\w:./@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The `as` option of an engine call for a step without its own `as`: the context's identity, or nothing. */
const asOpts = (ctx: PlayContext): { as?: ActAs } => (ctx.actingAs ? { as: ctx.actingAs } : {});

/** A kubectl line: the step's own `as` as flags, else the context's identity as the kubeconfig's impersonation. */
function kubectlLine(cluster: Cluster, line: string, as: ActAs | undefined, r: StepResult, ctx: PlayContext): KubectlResult {
  const k = as ? cluster.kubectl(line + asFlags(as)) : cluster.kubectl(line, undefined, ctx.onWatch, asOpts(ctx));
  r.output = k.output;
  r.error = k.error;
  return k;
}

/** One player per step kind (see the file comment). */
export const STEP_PLAYERS: { readonly [K in StepKind]: StepPlayer<K> } = {
  apply: (cluster, step, r, ctx) => (r.results = cluster.apply(step.manifest, step.as ? { as: step.as } : asOpts(ctx))),
  applyFile: (cluster, step, r, ctx) => (r.results = cluster.apply(ctx.io.readFile(step.path), { source: step.path, ...asOpts(ctx) })),
  applyKustomize: (cluster, step, r, ctx) => {
    if (step.files) {
      const as = asOpts(ctx);
      return (r.results = applyKustomizeFiles({ apply: (text, opts) => cluster.apply(text, { ...opts, ...as }) }, step.files, step.path));
    }
    if (!ctx.io.kustomize) throw new Error('kustomize is not available in this runner');
    return (r.results = cluster.apply(ctx.io.kustomize(step.path), { source: step.path, ...asOpts(ctx) }));
  },
  kubectl: (cluster, step, r, ctx) => kubectlLine(cluster, step.command, step.as, r, ctx),
  canI: (cluster, step, r, ctx) =>
    kubectlLine(cluster, `auth can-i ${step.verb} ${step.resource}${step.namespace ? ` -n ${step.namespace}` : ''}`, step.as, r, ctx),
  advance: (cluster, step) => cluster.advance(step.ms),
  settle: (cluster, step, r) => (r.settled = cluster.settle(step.limitMs, step.quietMs)),
  killNode: (cluster, step, r) => {
    const node = typeof step.node === 'string' ? step.node : pickPod(cluster, step.node.nodeOfPod).spec?.nodeName;
    if (!node) throw new Error('the picked Pod is not bound to a node');
    cluster.killNode(node);
    r.target = node;
    return node;
  },
  restoreNode: (cluster, step) => cluster.restoreNode(step.node),
  removeNode: (cluster, step) => cluster.removeNode(step.node),
  addNode: (cluster, step) => cluster.addNode(step.node),
  deletePod: (cluster, step, r, ctx) => {
    const p = 'selector' in step.pod ? pickPod(cluster, step.pod) : null;
    const ns = p ? p.metadata.namespace! : (step.pod as { namespace: string }).namespace;
    const name = p ? p.metadata.name : (step.pod as { name: string }).name;
    if (step.via === 'api') cluster.deletePod(ns, name, asOpts(ctx));
    else kubectlLine(cluster, `delete pod ${name} -n ${ns}`, undefined, r, ctx);
    r.target = `${ns}/${name}`;
  },
  snapshot: (cluster, step, _r, ctx) => {
    ctx.snapshots.push({
      name: step.name,
      time: iso(cluster.now()),
      objects: cluster.objects(),
      events: cluster.events(),
      ...standalone(cluster),
      controlPlane: cluster.controlPlane.view(),
    });
  },
  note: (_cluster, step, r) => {
    r.note = step.text;
  },
  dockerRun: (cluster, step, r) => {
    const c = cluster.docker.run(step.run);
    r.output = `${c.id}\n`;
    r.target = `${c.node}/${c.name}`;
    return c;
  },
  request: (cluster, step, r) => {
    const f = step.from;
    const p = f.kind === 'pick' ? pickPod(cluster, f.pick) : null;
    const source = p
      ? { kind: 'pod' as const, namespace: p.metadata.namespace!, name: p.metadata.name }
      : f.kind === 'pod'
        ? { kind: 'pod' as const, namespace: f.namespace, name: f.name }
        : { kind: 'external' as const };
    if (source.kind === 'pod') r.target = `${source.namespace}/${source.name}`;
    return (r.requests = cluster.sendRequests({ source, url: step.url, count: step.count }));
  },
  setLoad: (cluster, step, r) => {
    cluster.loads.set({ namespace: step.namespace, workload: step.workload, totalCpuMillicores: step.cpuMillicores });
    r.target = `${step.namespace}/${step.workload}`;
  },
  controller: (cluster, step, r, ctx) => {
    const source = step.source ?? ctx.io.readFile(step.file!);
    const code = step.code ?? (ctx.io.compileController ? ctx.io.compileController(source, step.file ?? '') : source);
    const status = cluster.startController({
      name: step.name,
      source,
      code,
      ...(step.for ? { for: step.for } : {}),
      ...(step.owns ? { owns: step.owns } : {}),
    });
    r.target = step.name;
    return status;
  },
  stopController: (cluster, step, r) => {
    cluster.stopController(step.name);
    r.target = step.name;
  },
  actAs: (_cluster, step, _r, ctx) => {
    ctx.actingAs = step.as;
  },
  setImageMissing: (cluster, step) => {
    if (step.missing) cluster.images.markMissing(step.image);
    else cluster.images.markPresent(step.image);
  },
  docker: (cluster, step, r) => {
    const k = cluster.dockerCommand(step.line);
    r.output = k.output;
    r.error = k.error;
    return k;
  },
  dnsLookup: (cluster, step, r) => {
    const d = cluster.dnsLookup(step.name, step.namespace);
    r.output = d.output;
    return d;
  },
  fireTimers: (cluster, step) => {
    const before = cluster.relay.lastSeq;
    for (let i = 0; i < step.max; i++) {
      if (!cluster.step()) break;
      if (cluster.relay.lastSeq > before && cluster.relay.since(before).some((h) => h.category !== 'heartbeat')) break;
    }
  },
};

/** What {@link playStep} returns: the result entry, and the player's value (absent when the step failed). */
export interface Played<K extends StepKind> {
  result: StepResult;
  value?: StepValues[K];
}

/**
 * Plays one step on `cluster`: its entry in the result (`index`, times before and after, what
 * the player filled) and its value. A failure is the entry's `error` (apply rejections are
 * results, not failures); with `opts.throws` it is thrown too, after the entry is filled, for
 * a live caller that reports it.
 */
export function playStep<K extends StepKind>(
  cluster: Cluster,
  step: StepOf<K>,
  index: number,
  ctx: PlayContext,
  opts: { throws?: boolean } = {},
): Played<K> {
  const start = cluster.now();
  const result: StepResult = { index, step: step.kind, time: iso(start), endTime: iso(start) };
  const player = STEP_PLAYERS[step.kind] as StepPlayer<K>;
  let value: StepValues[K] | undefined;
  try {
    value = player(cluster, step, result, ctx);
  } catch (e) {
    result.error = (e as Error).message;
    result.endTime = iso(cluster.now());
    if (opts.throws) throw e;
    return { result };
  }
  result.endTime = iso(cluster.now());
  return { result, value };
}
