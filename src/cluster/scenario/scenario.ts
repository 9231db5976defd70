/**
 * Scenario files (docs/scenario-format.md): a YAML script of a cluster — its options and a list of
 * steps (apply, applyFile, kubectl, advance, settle, killNode, restoreNode, addNode,
 * deletePod, applyKustomize, snapshot). This module validates a parsed scenario and turns it
 * into typed steps; runner.ts plays them.
 */
import { parseDuration } from './duration';
import type { NodeConfig } from '../kubelet/kubelet';
import { RESTART_POLICIES, type DockerRunSpec, type RestartPolicy } from '../docker/standalone';

/** A Pod chosen by selector: the index-th (by name) Pod matching `selector` in `namespace`. */
export interface PodPick {
  namespace?: string;
  selector: string;
  index?: number;
}

export type Step =
  | { kind: 'apply'; manifest: string }
  | { kind: 'applyFile'; path: string }
  | { kind: 'applyKustomize'; path: string }
  | { kind: 'kubectl'; command: string }
  | { kind: 'advance'; ms: number }
  | { kind: 'settle'; limitMs: number; quietMs: number }
  | { kind: 'killNode'; node: string | { nodeOfPod: PodPick } }
  | { kind: 'restoreNode'; node: string }
  | { kind: 'removeNode'; node: string }
  | { kind: 'addNode'; node: NodeConfig }
  | { kind: 'deletePod'; pod: { namespace: string; name: string } | PodPick }
  | { kind: 'snapshot'; name: string }
  | { kind: 'note'; text: Record<string, string> }
  | { kind: 'dockerRun'; run: DockerRunSpec }
  | { kind: 'request'; from: RequestFrom; url: string; count: number }
  | { kind: 'setLoad'; namespace: string; workload: string; cpuMillicores: number };

/** Who sends a scenario `request`: an off-cluster client, a named Pod, or the index-th Pod a selector picks. */
export type RequestFrom = { kind: 'external' } | { kind: 'pod'; namespace: string; name: string } | { kind: 'pick'; pick: PodPick };

export interface Scenario {
  name: string;
  cluster: {
    seed: number;
    nodes: number | NodeConfig[];
    images: { missing: string[] };
  };
  steps: Step[];
}

/** Thrown for an invalid scenario file; the CLI prints it and exits 1. */
export class ScenarioError extends Error {}

const STEP_KINDS = ['apply', 'applyFile', 'applyKustomize', 'kubectl', 'advance', 'settle', 'killNode', 'restoreNode', 'removeNode', 'addNode', 'deletePod', 'snapshot', 'note', 'dockerRun', 'request', 'setLoad'];

function fail(where: string, msg: string): never {
  throw new ScenarioError(`${where}: ${msg}`);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, where: string, what: string): string {
  if (typeof v !== 'string' || v === '') fail(where, `${what} must be a non-empty string`);
  return v;
}

function dur(v: unknown, where: string, what: string): number {
  try {
    return parseDuration(v as string);
  } catch {
    return fail(where, `${what} must be a duration such as 500ms, 90s, 6m or 1h (got ${JSON.stringify(v)})`);
  }
}

function podPick(v: unknown, where: string): PodPick {
  if (!isObj(v)) fail(where, 'expected {selector, index?, namespace?}');
  const selector = str(v.selector, where, 'selector');
  const index = v.index === undefined ? 0 : v.index;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) fail(where, 'index must be a non-negative integer');
  return { selector, index, namespace: v.namespace === undefined ? undefined : str(v.namespace, where, 'namespace') };
}

function nodeConfig(v: unknown, where: string): NodeConfig {
  if (!isObj(v)) fail(where, 'a node must be a mapping with at least a name');
  const name = str(v.name, where, 'node name');
  const cfg: NodeConfig = { name };
  if (v.labels !== undefined) {
    if (!isObj(v.labels)) fail(where, 'labels must be a mapping');
    cfg.labels = Object.fromEntries(Object.entries(v.labels).map(([k, x]) => [k, String(x ?? '')]));
  }
  if (v.taints !== undefined) {
    if (!Array.isArray(v.taints)) fail(where, 'taints must be a list');
    cfg.taints = v.taints.map((t, i) => {
      if (!isObj(t)) fail(`${where}.taints[${i}]`, 'must be a mapping');
      return { key: str(t.key, where, 'taint key'), value: t.value === undefined ? undefined : String(t.value), effect: str(t.effect, where, 'taint effect') };
    });
  }
  if (v.capacity !== undefined) {
    if (!isObj(v.capacity)) fail(where, 'capacity must be a mapping');
    cfg.capacity = Object.fromEntries(Object.entries(v.capacity).map(([k, x]) => [k, String(x)]));
  }
  if (v.controlPlane !== undefined) cfg.controlPlane = Boolean(v.controlPlane);
  return cfg;
}

function cpuQuantity(q: string, where: string): number {
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(q.trim());
  if (!m) return fail(where, `cpu must be a quantity such as 900m or 2 (got ${JSON.stringify(q)})`);
  return m[2] ? Number(m[1]) : Number(m[1]) * 1000;
}

/** `request: {from: external | {pod: NS/NAME} | {selector, namespace?, index?}, url, count?}` (count 1..100, default 1). */
function requestStep(v: unknown, where: string): Step {
  if (!isObj(v)) fail(where, 'expected {from, url, count?}');
  const url = str(v.url, where, 'url');
  const count = v.count === undefined ? 1 : v.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100) fail(where, 'count must be an integer from 1 to 100');
  let from: RequestFrom;
  const f = v.from === undefined ? 'external' : v.from;
  if (f === 'external') from = { kind: 'external' };
  else if (isObj(f) && f.pod !== undefined) {
    const s = str(f.pod, where, 'from.pod');
    const [ns, name] = s.includes('/') ? s.split('/', 2) : ['default', s];
    if (!name) fail(where, 'from.pod must be NAMESPACE/NAME');
    from = { kind: 'pod', namespace: ns, name };
  } else if (isObj(f) && f.selector !== undefined) from = { kind: 'pick', pick: podPick(f, where) };
  else return fail(where, 'from must be external, {pod: NS/NAME} or {selector, namespace?, index?}');
  return { kind: 'request', from, url, count };
}

/**
 * Validates a parsed scenario (its YAML document)
 * @throws ScenarioError naming the step (`steps[3] (settle)`) and the problem.
 */
export function parseScenario(doc: unknown): Scenario {
  if (!isObj(doc)) fail('scenario', 'the file must be a YAML mapping with `steps`');
  const c = doc.cluster === undefined ? {} : doc.cluster;
  if (!isObj(c)) fail('cluster', 'must be a mapping');
  const seed = c.seed === undefined ? 1 : c.seed;
  if (typeof seed !== 'number' || !Number.isInteger(seed)) fail('cluster.seed', 'must be an integer');
  let nodes: number | NodeConfig[] = 3;
  if (c.nodes !== undefined) {
    if (typeof c.nodes === 'number') {
      if (!Number.isInteger(c.nodes) || c.nodes < 0 || c.nodes > 10_000) fail('cluster.nodes', 'must be a count from 0 to 10000 or a list of nodes');
      nodes = c.nodes;
    } else if (Array.isArray(c.nodes)) {
      nodes = c.nodes.map((n, i) => nodeConfig(n, `cluster.nodes[${i}]`));
    } else fail('cluster.nodes', 'must be a count or a list of nodes');
  }
  const images = c.images === undefined ? {} : c.images;
  if (!isObj(images)) fail('cluster.images', 'must be a mapping');
  const missing = images.missing === undefined ? [] : images.missing;
  if (!Array.isArray(missing) || missing.some((m) => typeof m !== 'string')) fail('cluster.images.missing', 'must be a list of image references');

  if (!Array.isArray(doc.steps)) fail('steps', 'must be a list');
  const steps: Step[] = doc.steps.map((raw, i): Step => {
    if (!isObj(raw)) fail(`steps[${i}]`, 'each step must be a mapping with one key, e.g. `- advance: 90s`');
    const keys = Object.keys(raw);
    if (keys.length !== 1) fail(`steps[${i}]`, `a step has exactly one key (one of ${STEP_KINDS.join(', ')}); got ${keys.join(', ') || 'none'}`);
    const kind = keys[0];
    const v = raw[kind];
    const where = `steps[${i}] (${kind})`;
    switch (kind) {
      case 'apply':
        return { kind, manifest: str(v, where, 'the manifest') };
      case 'applyFile':
        return { kind, path: str(v, where, 'the path') };
      case 'applyKustomize':
        return { kind, path: str(v, where, 'the path') };
      case 'kubectl':
        return { kind, command: str(v, where, 'the command') };
      case 'advance':
        return { kind, ms: dur(v, where, 'advance') };
      case 'settle':
        if (isObj(v)) return { kind, limitMs: dur(v.for, where, 'for'), quietMs: v.quiet === undefined ? 30_000 : dur(v.quiet, where, 'quiet') };
        return { kind, limitMs: dur(v, where, 'settle'), quietMs: 30_000 };
      case 'killNode':
        if (isObj(v)) {
          if (!('nodeOfPod' in v)) fail(where, 'expected a node name or {nodeOfPod: {selector, index}}');
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
          if (v.name !== undefined) return { kind, pod: { namespace: v.namespace === undefined ? 'default' : str(v.namespace, where, 'namespace'), name: str(v.name, where, 'name') } };
          return { kind, pod: podPick(v, where) };
        }
        const s = str(v, where, 'the Pod');
        const [ns, name] = s.includes('/') ? s.split('/', 2) : ['default', s];
        if (!name) fail(where, 'expected NAMESPACE/NAME');
        return { kind, pod: { namespace: ns, name } };
      }
      case 'snapshot':
        return { kind, name: str(v, where, 'the snapshot name') };
      case 'note':
        if (typeof v === 'string') return { kind, text: { en: v } };
        if (!isObj(v)) fail(where, 'a note is text or {en, ko}');
        return { kind, text: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) };
      case 'dockerRun': {
        // `docker run -d` on one machine, outside Kubernetes: {node, image, name?, restart?}
        if (!isObj(v)) fail(where, 'expected {node, image, name?, restart?}');
        const restart = v.restart === undefined ? 'no' : str(v.restart, where, 'restart');
        if (!RESTART_POLICIES.includes(restart as RestartPolicy)) fail(where, `restart must be one of ${RESTART_POLICIES.join(', ')}`);
        return { kind, run: { node: str(v.node, where, 'node'), image: str(v.image, where, 'image'), name: v.name === undefined ? undefined : str(v.name, where, 'name'), restart: restart as RestartPolicy } };
      }
      case 'request':
        return requestStep(v, where);
      case 'setLoad': {
        // {namespace?, workload: deployment/web | app=web, cpu: 900m} — total CPU over the workload's Ready Pods
        if (!isObj(v)) fail(where, 'expected {namespace?, workload, cpu}');
        const cpu = typeof v.cpu === 'number' ? v.cpu * 1000 : cpuQuantity(str(v.cpu, where, 'cpu'), where);
        if (!Number.isFinite(cpu) || cpu < 0) fail(where, 'cpu must be a non-negative quantity such as 900m or 2');
        return { kind, namespace: v.namespace === undefined ? 'default' : str(v.namespace, where, 'namespace'), workload: str(v.workload, where, 'workload'), cpuMillicores: Math.round(cpu) };
      }
      default:
        return fail(`steps[${i}]`, `unknown step "${kind}" (expected one of ${STEP_KINDS.join(', ')})`);
    }
  });
  return {
    name: typeof doc.name === 'string' ? doc.name : '',
    cluster: { seed, nodes, images: { missing: missing as string[] } },
    steps,
  };
}
