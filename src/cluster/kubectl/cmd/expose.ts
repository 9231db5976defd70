/**
 * `kubectl expose (deployment|replicaset|replicationcontroller|pod|service) NAME …`, as
 * staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go (RunExpose, createService) with the
 * polymorphichelpers it uses: canbeexposed.go (which kinds), mapbasedselectorforobject.go (the
 * selector: matchLabels only), portsforobject.go / protocolsforobject.go (ports and their
 * protocols when --port is missing). Prints `service/NAME exposed`.
 */
import type { KObject } from '../../api/types';
import { parseLabelSpec, printCreated } from './run';
import { KubectlError, fail, resolveTargets, tryStatus, type Ctx, type FlagSpec, type KubectlResult } from './util';

/** Flags of `kubectl expose`. */
export const EXPOSE_FLAGS: FlagSpec = {
  port: {},
  'target-port': {},
  protocol: {},
  type: {},
  name: {},
  selector: {},
  labels: { short: 'l' },
  'cluster-ip': {},
  'external-ip': {},
  'session-affinity': {},
  'load-balancer-ip': {},
  'dry-run': {},
  output: { short: 'o' },
  'field-manager': {},
};

const EXPOSABLE = new Set(['Pod', 'Service', 'ReplicationController', 'Deployment', 'ReplicaSet']);

interface PodSpecLike {
  containers?: { ports?: { containerPort: number; protocol?: string }[] }[];
}
interface LabelSelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Go's `%+v` of []metav1.LabelSelectorRequirement. */
function goRequirements(reqs: NonNullable<LabelSelectorLike['matchExpressions']>): string {
  return `[${reqs.map((r) => `{Key:${r.key} Operator:${r.operator} Values:[${(r.values ?? []).join(' ')}]}`).join(' ')}]`;
}

/** mapbasedselectorforobject.go: the object's selector as a map, or why there is none. */
function selectorOf(obj: KObject): Record<string, string> | string {
  const spec = (obj.spec ?? {}) as { selector?: unknown };
  switch (obj.kind) {
    case 'Pod': {
      const labels = obj.metadata.labels ?? {};
      return Object.keys(labels).length ? labels : 'the pod has no labels and cannot be exposed';
    }
    case 'Service': {
      const sel = (spec.selector ?? {}) as Record<string, string>;
      return Object.keys(sel).length ? sel : 'the service has no pod selector set';
    }
    case 'ReplicationController':
      return (spec.selector ?? {}) as Record<string, string>;
    default: {
      const sel = spec.selector as LabelSelectorLike | undefined;
      const what = obj.kind === 'Deployment' ? 'deployment' : 'replicaset';
      if (!sel) return `invalid ${what}: no selectors, therefore cannot be exposed`;
      if (sel.matchExpressions?.length)
        return `couldn't convert expressions - "${goRequirements(sel.matchExpressions)}" to map-based selector format`;
      return sel.matchLabels ?? {};
    }
  }
}

/** portsforobject.go + protocolsforobject.go: each distinct port, with its protocols in order. */
function portsOf(obj: KObject): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (port: number, protocol: string | undefined): void => {
    const protos = out.get(String(port)) ?? [];
    const p = protocol || 'TCP';
    if (!protos.includes(p)) protos.push(p);
    out.set(String(port), protos);
  };
  const spec = (obj.spec ?? {}) as { ports?: { port: number; protocol?: string }[]; template?: { spec?: PodSpecLike } };
  if (obj.kind === 'Service') {
    for (const p of spec.ports ?? []) add(p.port, p.protocol);
    return out;
  }
  const pod = (obj.kind === 'Pod' ? obj.spec : spec.template?.spec) as PodSpecLike | undefined;
  for (const c of pod?.containers ?? []) for (const p of c.ports ?? []) add(p.containerPort, p.protocol);
  return out;
}

/** `a=b,c=d` (labels.Parse of --selector, equality only) → map. */
function parseSelector(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(',').filter(Boolean)) {
    const m = /^\s*([^=!\s]+)\s*==?\s*([^=\s]*)\s*$/.exec(part);
    if (!m)
      throw new KubectlError(
        `error: couldn't parse the selector string "${s}": unable to parse requirement: found '${part}', expected: '=', '!=', '==', 'in', notin'`,
      );
    out[m[1]] = m[2];
  }
  return out;
}

const sorted = (m: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );

/** expose.go createService: the Service for one exposed object, fields in Go struct order. */
function buildService(ctx: Ctx, obj: KObject): KObject | string {
  const f = (k: string): string | undefined => ctx.flags.get(k) || undefined;
  const selectorFlag = f('selector');
  const selector = selectorFlag ? parseSelector(selectorFlag) : selectorOf(obj);
  if (typeof selector === 'string') return `error: couldn't retrieve selectors via --selector flag or introspection: ${selector}`;
  const known = portsOf(obj);
  const portStrings = f('port') ? f('port')!.split(',') : [...known.keys()];
  const headless = f('cluster-ip') === 'None';
  if (!portStrings.length && !headless) return "error: couldn't find port via --port flag or introspection";
  const ports: Record<string, unknown>[] = [];
  const target = f('target-port');
  portStrings.forEach((ps, i) => {
    if (!/^\d+$/.test(ps)) throw new KubectlError(`error: strconv.Atoi: parsing "${ps}": invalid syntax`);
    const port = Number(ps);
    const targetPort = target === undefined ? port : /^\d+$/.test(target) ? Number(target) : target;
    const protos = f('protocol') ? [f('protocol')!] : (known.get(ps) ?? ['TCP']);
    for (const protocol of protos) {
      const p: Record<string, unknown> = {};
      if (protos.length > 1) p.name = `port-${i + 1}-${protocol.toLowerCase()}`;
      else if (portStrings.length > 1) p.name = `port-${i + 1}`;
      p.protocol = protocol;
      p.port = port;
      p.targetPort = targetPort;
      ports.push(p);
    }
  });
  const labelFlag = f('labels');
  const labels = labelFlag ? parseLabelSpec(labelFlag) : (obj.metadata.labels ?? {});
  if (typeof labels === 'string') return labels;
  const name = f('name') ?? obj.metadata.name.slice(0, 63);
  const metadata: Record<string, unknown> = { name };
  if (ctx.flags.has('namespace')) metadata.namespace = ctx.namespace;
  metadata.creationTimestamp = null;
  if (Object.keys(labels).length) metadata.labels = sorted(labels);
  const spec: Record<string, unknown> = {};
  if (ports.length) spec.ports = ports;
  spec.selector = sorted(selector);
  if (f('cluster-ip')) spec.clusterIP = f('cluster-ip');
  if (f('type')) spec.type = f('type');
  if (f('external-ip')) spec.externalIPs = f('external-ip')!.split(',');
  if (f('session-affinity')) spec.sessionAffinity = f('session-affinity');
  if (f('load-balancer-ip')) spec.loadBalancerIP = f('load-balancer-ip');
  return { kind: 'Service', apiVersion: 'v1', metadata, spec, status: { loadBalancer: {} } } as unknown as KObject;
}

const NO_RESOURCES = `error: You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`;

/** Runs `kubectl expose TYPE NAME [flags]` (or TYPE/NAME). */
export function runExpose(ctx: Ctx): KubectlResult {
  if (!ctx.args.length) return fail(NO_RESOURCES);
  const targets = resolveTargets(ctx.client, ctx.args);
  if (targets.some((t) => !t.names.length)) return fail('error: resource(s) were provided, but no name was specified');
  const out: string[] = [];
  for (const { info, names } of targets) {
    for (const n of names) {
      const got = tryStatus(() => ctx.client.resource(info.group, info.resource).get(info.namespaced ? ctx.namespace : '', n));
      if (got.error) return fail(got.error, out.join(''));
      const obj = got.value as KObject;
      if (!EXPOSABLE.has(info.kind)) return fail(`error: cannot expose a ${info.kind}`, out.join(''));
      const svc = buildService(ctx, { ...obj, kind: info.kind });
      if (typeof svc === 'string') return fail(svc, out.join(''));
      const r = printCreated(ctx, svc, 'exposed', 'kubectl-expose');
      if (r.exitCode) return { ...r, output: out.join('') + r.output };
      out.push(r.output);
    }
  }
  return { output: out.join(''), error: null, exitCode: 0 };
}
