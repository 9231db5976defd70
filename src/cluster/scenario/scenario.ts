/**
 * Scenario files (docs/scenario-format.md): a YAML script of a cluster — its options and a list of
 * steps (apply, applyFile, kubectl, advance, settle, killNode, restoreNode, addNode,
 * deletePod, applyKustomize, snapshot). This module validates a parsed scenario and turns it
 * into typed steps; runner.ts plays them. text.ts guards the file's text and YAML (size,
 * aliases, nesting), nodes.ts validates node entries as kube-apiserver validates Nodes,
 * limits.ts holds the bounds (simulated time, node and step counts).
 */
import { formatDuration, parseDuration } from '../util/duration';
import { ScenarioError, checkFields, isObj, kindOf } from './fields';
import { nodeConfig } from './nodes';
import { MAX_FIRE_TIMERS, MAX_NODE_HOURS, MAX_NODES, MAX_REQUESTS, MAX_SIMULATED_MS, MAX_SNAPSHOTS, MAX_STEPS } from './limits';
import { parseSelector } from '../api/labels';
import { isDNS1123Label } from '../api/validation/names';
import type { NodeConfig } from '../kubelet/kubelet';
import { RESTART_POLICIES, type DockerRunSpec, type RestartPolicy } from '../docker/standalone';

/** A Pod chosen by selector: the index-th (by name) Pod matching `selector` in `namespace`. */
export interface PodPick {
  namespace?: string;
  selector: string;
  index?: number;
}

export type Step =
  | { kind: 'apply'; manifest: string; as?: ActAs }
  | { kind: 'applyFile'; path: string }
  /** `files`: the folder's files (path → text) inline, as the editor's tabs are; else `path` is relative to the scenario file */
  | { kind: 'applyKustomize'; path: string; files?: Record<string, string> }
  | { kind: 'kubectl'; command: string; as?: ActAs }
  | { kind: 'canI'; verb: string; resource: string; namespace?: string; as?: ActAs }
  | { kind: 'advance'; ms: number }
  | { kind: 'settle'; limitMs: number; quietMs: number }
  | { kind: 'killNode'; node: string | { nodeOfPod: PodPick } }
  | { kind: 'restoreNode'; node: string }
  | { kind: 'removeNode'; node: string }
  | { kind: 'addNode'; node: NodeConfig }
  /** `via: 'api'`: one DELETE through the API (the Pods table's delete button), not `kubectl delete pod` */
  | { kind: 'deletePod'; pod: { namespace: string; name: string } | PodPick; via?: 'api' }
  | { kind: 'snapshot'; name: string }
  | { kind: 'note'; text: Record<string, string> }
  | { kind: 'dockerRun'; run: DockerRunSpec }
  | { kind: 'request'; from: RequestFrom; url: string; count: number }
  | { kind: 'setLoad'; namespace: string; workload: string; cpuMillicores: number }
  /** starts (or restarts) a user controller (docs/user-controllers.md): its source inline or from a file */
  | { kind: 'controller'; name: string; source?: string; file?: string; code?: string; for?: string; owns?: string[] }
  | { kind: 'stopController'; name: string }
  /** later steps without their own `as` act as this identity (the UI's "Acting as"); null: the kubectl user again */
  | { kind: 'actAs'; as: { user: string; groups: string[] } | null }
  /** marks an image reference missing in (or back present in) the simulated registry */
  | { kind: 'setImageMissing'; image: string; missing: boolean }
  /** a `docker …` command line against a machine's engine (docker/cli.ts) */
  | { kind: 'docker'; line: string }
  /** `nslookup NAME` from a Pod of `namespace` through cluster DNS (its queries are relay hops) */
  | { kind: 'dnsLookup'; name: string; namespace: string }
  /** fires pending timers one at a time until a relay hop other than a heartbeat, at most `max` timers (the Step button of old sessions) */
  | { kind: 'fireTimers'; max: number };

/** Who a step acts as (kubectl's --as / --as-group): a user name and optional groups. */
export interface ActAs {
  user: string;
  groups?: string[];
}

/** Who sends a scenario `request`: an off-cluster client, a named Pod, or the index-th Pod a selector picks. */
export type RequestFrom = { kind: 'external' } | { kind: 'pod'; namespace: string; name: string } | { kind: 'pick'; pick: PodPick };

export interface Scenario {
  name: string;
  cluster: {
    seed: number;
    nodes: number | NodeConfig[];
    images: { missing: string[] };
    /** Control-plane nodes of a `nodes: N` count (1 unless `controlPlane.replicas`); absent = 1. */
    controlPlane?: { replicas: number };
  };
  steps: Step[];
}

export { ScenarioError };

/** Every step kind, in the order error messages list them (play.ts has a player for each). */
export const STEP_KINDS: readonly Step['kind'][] = [
  'apply',
  'applyFile',
  'applyKustomize',
  'kubectl',
  'canI',
  'advance',
  'settle',
  'killNode',
  'restoreNode',
  'removeNode',
  'addNode',
  'deletePod',
  'snapshot',
  'note',
  'dockerRun',
  'request',
  'setLoad',
  'controller',
  'stopController',
  'actAs',
  'setImageMissing',
  'docker',
  'dnsLookup',
  'fireTimers',
];

function fail(where: string, msg: string): never {
  throw new ScenarioError(`${where}: ${msg}`);
}

function str(v: unknown, where: string, what: string): string {
  if (typeof v !== 'string' || v === '') fail(where, `${what} must be a non-empty string${v === undefined ? '' : ` (got ${kindOf(v)})`}`);
  return v;
}

/** A duration field; `what` names a field of a mapping (`for`, `quiet`), undefined for the step's own value. */
function dur(v: unknown, where: string, what?: string): number {
  try {
    return parseDuration(v as string);
  } catch (e) {
    return fail(where, `${what ? `${what}: ` : ''}${(e as Error).message}`);
  }
}

function podPick(v: unknown, where: string): PodPick {
  if (!isObj(v)) fail(where, 'expected {selector, index?, namespace?}');
  checkFields(v, where, ['selector', 'index', 'namespace']);
  const selector = str(v.selector, where, 'selector');
  try {
    parseSelector(selector);
  } catch (e) {
    fail(where, `selector: ${(e as Error).message}`);
  }
  const index = v.index === undefined ? 0 : v.index;
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) fail(where, 'index must be a non-negative integer');
  return { selector, index, namespace: v.namespace === undefined ? undefined : namespace(v.namespace, where) };
}

/** A namespace name: a DNS-1123 label, as kube-apiserver validates Namespace names. */
function namespace(v: unknown, where: string): string {
  const ns = str(v, where, 'namespace');
  const errs = isDNS1123Label(ns);
  if (errs.length) fail(where, `namespace: Invalid value: ${JSON.stringify(ns)}: ${errs.join(', ')}`);
  return ns;
}

/** `NS/NAME` or `NAME` (namespace default). */
function nsName(v: unknown, where: string, what: string): { namespace: string; name: string } {
  const s = str(v, where, what);
  const [ns, name, extra] = s.includes('/') ? s.split('/') : ['default', s];
  if (!ns || !name || extra !== undefined) fail(where, `${what} must be NAMESPACE/NAME or NAME (got ${JSON.stringify(s)})`);
  return { namespace: namespace(ns, where), name };
}

function cpuQuantity(q: string, where: string): number {
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(q.trim());
  if (!m) return fail(where, `cpu must be a quantity such as 900m or 2 (got ${JSON.stringify(q)})`);
  return m[2] ? Number(m[1]) : Number(m[1]) * 1000;
}

/** `request: {from: external | {pod: NS/NAME} | {selector, namespace?, index?}, url, count?}` (count 1..100, default 1). */
function requestStep(v: unknown, where: string): Step {
  if (!isObj(v)) fail(where, 'expected {from, url, count?}');
  checkFields(v, where, ['from', 'url', 'count']);
  const url = str(v.url, where, 'url');
  const count = v.count === undefined ? 1 : v.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100)
    fail(where, 'count must be an integer from 1 to 100');
  let from: RequestFrom;
  const f = v.from === undefined ? 'external' : v.from;
  if (f === 'external') from = { kind: 'external' };
  else if (isObj(f) && f.pod !== undefined) {
    checkFields(f, `${where} from`, ['pod']);
    from = { kind: 'pod', ...nsName(f.pod, where, 'from.pod') };
  } else if (isObj(f) && f.selector !== undefined) from = { kind: 'pick', pick: podPick(f, where) };
  else return fail(where, 'from must be external, {pod: NS/NAME} or {selector, namespace?, index?}');
  return { kind: 'request', from, url, count };
}

/** A step's `as: {user, groups?}` (nothing when absent). */
function actAs(v: unknown, where: string): { as?: ActAs } {
  if (v === undefined) return {};
  if (!isObj(v)) fail(where, 'as must be {user: NAME, groups?: [GROUP…]}');
  checkFields(v, `${where} as`, ['user', 'groups']);
  const user = str(v.user, where, 'as.user');
  if (v.groups === undefined) return { as: { user } };
  if (!Array.isArray(v.groups) || v.groups.some((g) => typeof g !== 'string' || !g)) fail(where, 'as.groups must be a list of group names');
  return { as: { user, groups: v.groups as string[] } };
}

/** One step's mapping → a typed step (no cross-step checks; see {@link parseScenario}). */
function parseStep(raw: unknown, i: number): Step {
  if (!isObj(raw)) fail(`steps[${i}]`, `each step must be a mapping with one key, e.g. \`- advance: 90s\` (got ${kindOf(raw)})`);
  const keys = Object.keys(raw);
  if (keys.length !== 1)
    fail(`steps[${i}]`, `a step has exactly one key (one of ${STEP_KINDS.join(', ')}); got ${keys.join(', ') || 'none'}`);
  const kind = keys[0];
  const v = raw[kind];
  const where = `steps[${i}] (${kind})`;
  switch (kind) {
    case 'apply':
      if (isObj(v)) {
        checkFields(v, where, ['manifest', 'as']);
        return { kind, manifest: str(v.manifest, where, 'manifest'), ...actAs(v.as, where) };
      }
      return { kind, manifest: str(v, where, 'the manifest') };
    case 'applyFile':
      return { kind, path: str(v, where, 'the path') };
    case 'applyKustomize':
      if (isObj(v)) {
        // {path, files: {PATH: TEXT}}: the folder's files inline (the editor's tabs)
        checkFields(v, where, ['path', 'files']);
        if (typeof v.path !== 'string') fail(where, `path must be the folder among files, "" for their root (got ${kindOf(v.path)})`);
        const path = v.path;
        if (!isObj(v.files)) fail(where, 'files must be a mapping of file paths to their text');
        const files: Record<string, string> = Object.create(null);
        for (const [p, text] of Object.entries(v.files))
          files[p] = typeof text === 'string' ? text : fail(where, `files: ${p} must be text`);
        return { kind, path, files };
      }
      return { kind, path: str(v, where, 'the path') };
    case 'kubectl':
      if (isObj(v)) {
        checkFields(v, where, ['command', 'as']);
        return { kind, command: str(v.command, where, 'command'), ...actAs(v.as, where) };
      }
      return { kind, command: str(v, where, 'the command') };
    case 'canI': {
      if (!isObj(v)) fail(where, 'expected {verb, resource, namespace?, as?}, e.g. {verb: list, resource: pods, as: {user: jane}}');
      checkFields(v, where, ['verb', 'resource', 'namespace', 'as']);
      const step: Step = { kind, verb: str(v.verb, where, 'verb'), resource: str(v.resource, where, 'resource'), ...actAs(v.as, where) };
      if (v.namespace !== undefined) step.namespace = str(v.namespace, where, 'namespace');
      return step;
    }
    case 'advance':
      return { kind, ms: dur(v, where) };
    case 'settle':
      if (isObj(v)) {
        checkFields(v, where, ['for', 'quiet']);
        if (v.for === undefined) fail(where, 'for is required, e.g. {for: 10m, quiet: 30s}');
        return { kind, limitMs: dur(v.for, where, 'for'), quietMs: v.quiet === undefined ? 30_000 : dur(v.quiet, where, 'quiet') };
      }
      return { kind, limitMs: dur(v, where), quietMs: 30_000 };
    case 'killNode':
      if (isObj(v)) {
        if (!('nodeOfPod' in v)) fail(where, 'expected a node name or {nodeOfPod: {selector, index}}');
        checkFields(v, where, ['nodeOfPod']);
        return { kind, node: { nodeOfPod: podPick(v.nodeOfPod, where) } };
      }
      return { kind, node: str(v, where, 'the node name') };
    case 'restoreNode':
    case 'removeNode':
      return { kind, node: str(v, where, 'the node name') };
    case 'addNode':
      return { kind, node: nodeConfig(v, where) };
    case 'deletePod': {
      if (isObj(v)) {
        if (v.name !== undefined) {
          checkFields(v, where, ['namespace', 'name', 'via']);
          if (v.via !== undefined && v.via !== 'api' && v.via !== 'kubectl') fail(where, 'via must be kubectl (the default) or api');
          return {
            kind,
            pod: { namespace: v.namespace === undefined ? 'default' : namespace(v.namespace, where), name: str(v.name, where, 'name') },
            ...(v.via === 'api' ? { via: 'api' as const } : {}),
          };
        }
        return { kind, pod: podPick(v, where) };
      }
      return { kind, pod: nsName(v, where, 'the Pod') };
    }
    case 'snapshot':
      return { kind, name: str(v, where, 'the snapshot name') };
    case 'note':
      if (typeof v === 'string') return { kind, text: { en: v } };
      if (!isObj(v)) fail(where, 'a note is text or {en, ko}');
      return {
        kind,
        text: Object.fromEntries(
          Object.entries(v).map(([k, x]) => {
            if (!/^[a-z]{2}(-[A-Za-z]{2})?$/.test(k))
              fail(where, `a note's keys are language codes such as en or ko (got ${JSON.stringify(k)})`);
            return [k, str(x, where, k)];
          }),
        ),
      };
    case 'dockerRun': {
      // `docker run -d` on one machine, outside Kubernetes: {node, image, name?, restart?}
      if (!isObj(v)) fail(where, 'expected {node, image, name?, restart?}');
      checkFields(v, where, ['node', 'image', 'name', 'restart']);
      const restart = v.restart === undefined ? 'no' : str(v.restart, where, 'restart');
      if (!RESTART_POLICIES.includes(restart as RestartPolicy)) fail(where, `restart must be one of ${RESTART_POLICIES.join(', ')}`);
      return {
        kind,
        run: {
          node: str(v.node, where, 'node'),
          image: str(v.image, where, 'image'),
          name: v.name === undefined ? undefined : str(v.name, where, 'name'),
          restart: restart as RestartPolicy,
        },
      };
    }
    case 'request':
      return requestStep(v, where);
    case 'setLoad': {
      // {namespace?, workload: deployment/web | app=web, cpu: 900m} — total CPU over the workload's Ready Pods
      if (!isObj(v)) fail(where, 'expected {namespace?, workload, cpu}');
      checkFields(v, where, ['namespace', 'workload', 'cpu']);
      const cpu = typeof v.cpu === 'number' ? v.cpu * 1000 : cpuQuantity(str(v.cpu, where, 'cpu'), where);
      if (!Number.isFinite(cpu) || cpu < 0 || cpu > 1e12) fail(where, 'cpu must be a non-negative quantity such as 900m or 2');
      return {
        kind,
        namespace: v.namespace === undefined ? 'default' : namespace(v.namespace, where),
        workload: str(v.workload, where, 'workload'),
        cpuMillicores: Math.round(cpu),
      };
    }
    case 'controller': {
      // {name, source | file, for?, owns?}: a user controller (user-controller/)
      if (!isObj(v)) fail(where, 'expected {name, source or file, for?, owns?}');
      checkFields(v, where, ['name', 'source', 'file', 'code', 'for', 'owns']);
      const name = str(v.name, where, 'name');
      const errs = isDNS1123Label(name);
      if (errs.length) fail(where, `name: Invalid value: ${JSON.stringify(name)}: ${errs.join(', ')}`);
      if ((v.source === undefined) === (v.file === undefined))
        fail(where, 'give exactly one of source (the code) and file (a path relative to the scenario file)');
      const owns = v.owns === undefined ? undefined : v.owns;
      if (owns !== undefined && (!Array.isArray(owns) || owns.some((o) => typeof o !== 'string' || o === '')))
        fail(where, 'owns must be a list of kinds such as deployments.apps');
      return {
        kind,
        name,
        ...(v.source !== undefined ? { source: str(v.source, where, 'source') } : { file: str(v.file, where, 'file') }),
        ...(v.code !== undefined ? { code: str(v.code, where, 'code') } : {}),
        ...(v.for !== undefined ? { for: str(v.for, where, 'for') } : {}),
        ...(owns !== undefined ? { owns: owns as string[] } : {}),
      };
    }
    case 'stopController':
      return { kind, name: str(v, where, 'the controller name') };
    case 'actAs': {
      // {user, groups?}, or null: back to the kubectl user
      if (v === null) return { kind, as: null };
      const as = actAs(v, where).as!;
      return { kind, as: { user: as.user, groups: as.groups ?? [] } };
    }
    case 'setImageMissing': {
      if (!isObj(v)) fail(where, 'expected {image, missing}');
      checkFields(v, where, ['image', 'missing']);
      if (typeof v.missing !== 'boolean') fail(where, `missing must be true or false (got ${kindOf(v.missing)})`);
      return { kind, image: str(v.image, where, 'image'), missing: v.missing };
    }
    case 'docker':
      return { kind, line: str(v, where, 'the docker command line') };
    case 'dnsLookup': {
      if (typeof v === 'string') return { kind, name: str(v, where, 'the name'), namespace: 'default' };
      if (!isObj(v)) fail(where, 'expected a name or {name, namespace?}');
      checkFields(v, where, ['name', 'namespace']);
      return { kind, name: str(v.name, where, 'name'), namespace: v.namespace === undefined ? 'default' : namespace(v.namespace, where) };
    }
    case 'fireTimers': {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1 || v > MAX_FIRE_TIMERS)
        fail(where, `must be a number of timers from 1 to ${MAX_FIRE_TIMERS}`);
      return { kind, max: v };
    }
    default:
      return fail(`steps[${i}]`, `unknown step ${JSON.stringify(kind)} (expected one of ${STEP_KINDS.join(', ')})`);
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Most control-plane nodes `cluster.controlPlane.replicas` may ask for. */
export const MAX_CONTROL_PLANE_REPLICAS = 7;

/** The names a `nodes: N` count gives: the control-plane nodes (control-plane, control-plane2, …) and node-1..node-N. */
function countNodeNames(n: number, controlPlanes = 1): string[] {
  const out = ['control-plane'];
  for (let i = 2; i <= controlPlanes; i++) out.push(`control-plane${i}`);
  for (let i = 1; i <= n; i++) out.push(`node-${i}`);
  return out;
}

/**
 * Cross-step checks, in step order: node names must exist where a step names them (the
 * scenario's node list, plus addNode steps before, minus removeNode steps before); the
 * scenario's simulated time (advance and settle limits added up), that time × the nodes
 * there are, its node, snapshot and request counts stay within limits.ts.
 */
function checkSteps(steps: Step[], nodeNames: string[]): void {
  const known = new Set(nodeNames);
  const listed = () => [...known].join(', ') || 'none';
  let simMs = 0;
  let nodeMs = 0;
  let snapshots = 0;
  let requests = 0;
  steps.forEach((s, i) => {
    const where = `steps[${i}] (${s.kind})`;
    const need = (name: string) => {
      if (!known.has(name)) fail(where, `node ${JSON.stringify(name)} is not in the scenario (nodes at this step: ${listed()})`);
    };
    switch (s.kind) {
      case 'killNode':
        if (typeof s.node === 'string') need(s.node);
        break;
      case 'restoreNode':
        need(s.node);
        break;
      case 'removeNode':
        need(s.node);
        known.delete(s.node);
        break;
      case 'dockerRun':
        need(s.run.node);
        break;
      case 'addNode':
        if (known.has(s.node.name)) fail(where, `nodes ${JSON.stringify(s.node.name)} already exists`);
        known.add(s.node.name);
        if (known.size > MAX_NODES + 1) fail(where, `the scenario would have more than ${MAX_NODES + 1} nodes`);
        break;
      case 'snapshot':
        if (++snapshots > MAX_SNAPSHOTS) fail(where, `at most ${MAX_SNAPSHOTS} snapshot steps (each holds a copy of every object)`);
        break;
      case 'request':
        requests += s.count;
        if (requests > MAX_REQUESTS) fail(where, `the request steps would send more than ${MAX_REQUESTS} requests in all`);
        break;
      case 'advance':
      case 'settle': {
        const ms = s.kind === 'advance' ? s.ms : s.limitMs;
        simMs += ms;
        if (simMs > MAX_SIMULATED_MS)
          fail(
            where,
            `the scenario's simulated time would reach ${formatDuration(simMs)}; the limit is ${formatDuration(MAX_SIMULATED_MS)} (advance and settle limits added up)`,
          );
        nodeMs += ms * known.size;
        if (nodeMs > MAX_NODE_HOURS * 3600_000)
          fail(
            where,
            `the scenario would simulate ${round1(nodeMs / 3600_000)} node-hours (${known.size} nodes for ${formatDuration(ms)} here); the limit is ${MAX_NODE_HOURS} node-hours`,
          );
        break;
      }
    }
  });
}

/**
 * Validates a parsed scenario (its YAML document) before anything runs: every field of the
 * cluster and of every step (types, unknown fields, node names and capacities as
 * kube-apiserver validates Nodes, durations by Go's time.ParseDuration rules), the node
 * names steps refer to, and the limits of limits.ts.
 * @throws ScenarioError naming where (`cluster.nodes[1]`, `steps[3] (settle)`) and the problem.
 */
export function parseScenario(doc: unknown): Scenario {
  if (!isObj(doc)) fail('scenario', 'the file must be a YAML mapping with `steps`');
  checkFields(doc, 'scenario', ['name', 'title', 'cluster', 'steps']);
  if (doc.name !== undefined && typeof doc.name !== 'string') fail('name', `must be text (got ${kindOf(doc.name)})`);
  if (doc.title !== undefined && !isObj(doc.title) && typeof doc.title !== 'string') fail('title', 'must be text or {en, ko}');
  const c = doc.cluster === undefined ? {} : doc.cluster;
  if (!isObj(c)) fail('cluster', `must be a mapping (got ${kindOf(c)})`);
  checkFields(c, 'cluster', ['seed', 'nodes', 'images', 'controlPlane']);
  let replicas = 1;
  if (c.controlPlane !== undefined) {
    if (!isObj(c.controlPlane)) fail('cluster.controlPlane', `must be a mapping (got ${kindOf(c.controlPlane)})`);
    checkFields(c.controlPlane, 'cluster.controlPlane', ['replicas']);
    const r = c.controlPlane.replicas === undefined ? 1 : c.controlPlane.replicas;
    if (typeof r !== 'number' || !Number.isInteger(r) || r < 1 || r > MAX_CONTROL_PLANE_REPLICAS)
      fail(
        'cluster.controlPlane.replicas',
        `must be an integer from 1 to ${MAX_CONTROL_PLANE_REPLICAS} (got ${typeof r === 'number' ? r : kindOf(r)})`,
      );
    if (Array.isArray(c.nodes))
      fail('cluster.controlPlane', 'applies to a `nodes` count; a list of nodes marks its control-plane nodes with `controlPlane: true`');
    replicas = r;
  }
  const seed = c.seed === undefined ? 1 : c.seed;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) fail('cluster.seed', `must be an integer (got ${kindOf(seed)})`);
  let nodes: number | NodeConfig[] = 3;
  let nodeNames: string[];
  if (c.nodes !== undefined) {
    if (typeof c.nodes === 'number') {
      if (!Number.isInteger(c.nodes) || c.nodes < 0 || c.nodes > MAX_NODES)
        fail('cluster.nodes', `must be a count from 0 to ${MAX_NODES} or a list of nodes (got ${c.nodes})`);
      nodes = c.nodes;
      nodeNames = countNodeNames(c.nodes, replicas);
    } else if (Array.isArray(c.nodes)) {
      if (c.nodes.length > MAX_NODES + 1) fail('cluster.nodes', `at most ${MAX_NODES + 1} nodes (got ${c.nodes.length})`);
      const seen = new Map<string, number>();
      nodes = c.nodes.map((n, i) => {
        const cfg = nodeConfig(n, `cluster.nodes[${i}]`);
        const before = seen.get(cfg.name);
        if (before !== undefined)
          fail(`cluster.nodes[${i}]`, `nodes ${JSON.stringify(cfg.name)} already exists (cluster.nodes[${before}] has that name)`);
        seen.set(cfg.name, i);
        return cfg;
      });
      nodeNames = [...seen.keys()];
    } else fail('cluster.nodes', `must be a count or a list of nodes (got ${kindOf(c.nodes)})`);
  } else nodeNames = countNodeNames(3, replicas);
  const images = c.images === undefined ? {} : c.images;
  if (!isObj(images)) fail('cluster.images', `must be a mapping (got ${kindOf(images)})`);
  checkFields(images, 'cluster.images', ['missing']);
  const missing = images.missing === undefined ? [] : images.missing;
  if (!Array.isArray(missing) || missing.some((m) => typeof m !== 'string'))
    fail('cluster.images.missing', 'must be a list of image references');

  if (!Array.isArray(doc.steps)) fail('steps', `must be a list (got ${kindOf(doc.steps)})`);
  if (doc.steps.length > MAX_STEPS) fail('steps', `at most ${MAX_STEPS} steps (got ${doc.steps.length})`);
  const steps = doc.steps.map(parseStep);
  checkSteps(steps, nodeNames);
  return {
    name: typeof doc.name === 'string' ? doc.name : '',
    cluster: {
      seed,
      nodes,
      images: { missing: missing as string[] },
      ...(c.controlPlane !== undefined ? { controlPlane: { replicas } } : {}),
    },
    steps,
  };
}
