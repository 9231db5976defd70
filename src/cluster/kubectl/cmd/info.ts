/**
 * Informational commands: `api-resources` (pkg/cmd/apiresources/apiresources.go: sorted by
 * group then name), `version` (pkg/cmd/version/version.go), `explain` (KIND/VERSION header
 * only; field documentation is out of scope), `top` (pkg/cmd/top: "error: Metrics API not
 * available" without a metrics source; nodes without metrics as `<unknown>` rows last), and `apply -f -` (runApply of ../apply.ts).
 */
import { apiVersionOf } from '../../api/resources';
import { KUBERNETES_GIT_VERSION } from '../../api/version';
import { cpuMillis, bytesOf } from '../../api/quantity';
import type { KObject } from '../../api/types';
import { runApply } from '../apply';
import { formatTable } from '../tabwriter';
import { fail, ok, resolveType, seeHelp, type Ctx, type FlagSpec, type KubectlResult } from './util';

/** Flags of `kubectl api-resources`. */
export const API_RESOURCES_FLAGS: FlagSpec = {
  'no-headers': { bool: true },
  output: { short: 'o' },
  namespaced: {},
  'api-group': {},
  'sort-by': {},
  verbs: {},
  cached: { bool: true },
  categories: {},
};
/** Flags of `kubectl version`. */
export const VERSION_FLAGS: FlagSpec = { client: { bool: true }, output: { short: 'o' } };
/** Flags of `kubectl explain`. */
export const EXPLAIN_FLAGS: FlagSpec = { recursive: { bool: true }, 'api-version': {}, output: {} };
/** Flags of `kubectl top`. */
export const TOP_FLAGS: FlagSpec = {
  'all-namespaces': { bool: true, short: 'A' },
  selector: { short: 'l' },
  containers: { bool: true },
  'no-headers': { bool: true },
  'sort-by': {},
  'show-capacity': { bool: true },
  'use-protocol-buffers': { bool: true },
  'field-selector': {},
  sum: { bool: true },
};
/** Flags of `kubectl apply`. */
export const APPLY_FLAGS: FlagSpec = {
  filename: { short: 'f' },
  'dry-run': {},
  'server-side': { bool: true },
  'force-conflicts': { bool: true },
  'field-manager': {},
  validate: {},
  output: { short: 'o' },
  force: { bool: true },
  prune: { bool: true },
  selector: { short: 'l' },
  recursive: { bool: true, short: 'R' },
  kustomize: { short: 'k' },
  wait: { bool: true },
};

/** The version kube-relay's kubectl reports (client and server): the engine's one version. */
export const KUBECTL_VERSION = KUBERNETES_GIT_VERSION;
const KUSTOMIZE_VERSION = 'v5.6.0';

/** Runs `kubectl api-resources`. */
export function runApiResources(ctx: Ctx): KubectlResult {
  let list = ctx.client.api.registry.all();
  const ns = ctx.flags.get('namespaced');
  if (ns !== undefined) list = list.filter((i) => String(i.namespaced) === ns);
  if (ctx.flags.has('api-group')) list = list.filter((i) => i.group === ctx.flags.get('api-group'));
  // apiresources.go: --verbs and --categories keep the resources that have all of the listed ones
  const all = (flag: string): string[] =>
    (ctx.multi.get(flag) ?? (ctx.flags.has(flag) ? [ctx.flags.get(flag)!] : [])).flatMap((v) => v.split(',')).filter(Boolean);
  const verbs = all('verbs');
  const categories = all('categories');
  if (verbs.length) list = list.filter((i) => verbs.every((v) => i.verbs.includes(v)));
  if (categories.length) list = list.filter((i) => categories.every((c) => (i.categories ?? []).includes(c)));
  const sortBy = ctx.flags.get('sort-by') ?? '';
  const key = (i: (typeof list)[0]): string => (sortBy === 'name' ? i.resource : sortBy === 'kind' ? i.kind : i.group);
  list = [...list].sort((a, b) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0,
  );
  if (ctx.flags.get('output') === 'name') return ok(list.map((i) => `${i.resource}${i.group ? '.' + i.group : ''}\n`).join(''));
  const wide = ctx.flags.get('output') === 'wide';
  const rows: string[][] = ctx.flags.has('no-headers')
    ? []
    : [['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', ...(wide ? ['VERBS', 'CATEGORIES'] : [])]];
  for (const i of list)
    rows.push([
      i.resource,
      i.shortNames.join(','),
      apiVersionOf(i),
      String(i.namespaced),
      i.kind,
      ...(wide ? [i.verbs.join(','), (i.categories ?? []).join(',')] : []),
    ]);
  return ok(formatTable(rows));
}

/** Runs `kubectl version`. */
export function runVersion(ctx: Ctx): KubectlResult {
  let out = `Client Version: ${KUBECTL_VERSION}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`;
  if (!ctx.flags.has('client')) out += `Server Version: ${KUBECTL_VERSION}\n`;
  return ok(out);
}

/** Runs `kubectl explain TYPE` (header only). */
export function runExplain(ctx: Ctx): KubectlResult {
  if (!ctx.args.length)
    return fail(
      'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  const [type, ...fields] = ctx.args[0].split('.');
  const info = resolveType(ctx.client, type);
  const field = fields.length ? `\nFIELD:      ${fields[fields.length - 1]}\n` : '';
  return {
    output:
      `GROUP:      ${info.group}\nKIND:       ${info.kind}\nVERSION:    ${info.version}\n${field}\nDESCRIPTION:\n    <field documentation is not available in kube-relay>\n    \n`.replace(
        info.group ? '' : 'GROUP:      \n',
        '',
      ),
    error: null,
    exitCode: 0,
  };
}

interface MetricsLike {
  nodeMetrics?: () => KObject[];
  nodeUsage?: () => Map<string, { cpuMillicores: number; memoryBytes: number }>;
  podMetrics?: (namespace?: string) => KObject[];
}

function metricsItems(ctx: Ctx, which: 'nodes' | 'pods', namespace?: string): KObject[] | undefined {
  const info = ctx.client.api.registry.forResource('metrics.k8s.io', which);
  if (info) return ctx.client.resource('metrics.k8s.io', which).list(namespace, { quiet: true }).items;
  const m = ctx.env.metrics as MetricsLike | undefined;
  if (which === 'nodes' && typeof m?.nodeMetrics === 'function') return m.nodeMetrics();
  if (which === 'nodes' && typeof m?.nodeUsage === 'function') {
    // NodeMetrics from the simulated metrics-server's per-node sums (Ready nodes only, as metrics-server scrapes kubelets)
    const usage = m.nodeUsage();
    return ctx.client
      .resource('', 'nodes')
      .list(undefined, { quiet: true })
      .items.filter((n) => (n.status?.conditions ?? []).some((c: KObject) => c.type === 'Ready' && c.status === 'True'))
      .map((n) => {
        const u = usage.get(n.metadata.name) ?? { cpuMillicores: 0, memoryBytes: 0 };
        return {
          apiVersion: 'metrics.k8s.io/v1beta1',
          kind: 'NodeMetrics',
          metadata: { name: n.metadata.name },
          usage: { cpu: `${u.cpuMillicores}m`, memory: `${u.memoryBytes}` },
        } as KObject;
      });
  }
  if (which === 'pods' && typeof m?.podMetrics === 'function') return m.podMetrics(namespace);
  return undefined;
}

/** Runs `kubectl top nodes|pods`. */
export function runTop(ctx: Ctx): KubectlResult {
  const what = ctx.args[0];
  if (!what) return fail(`error: required resource not specified\n${seeHelp('top')}`);
  const isNode = ['node', 'nodes', 'no'].includes(what);
  const isPod = ['pod', 'pods', 'po'].includes(what);
  if (!isNode && !isPod) return fail(`error: unknown command "${what}" for "kubectl top"`);
  const allNs = ctx.flags.has('all-namespaces');
  const items = metricsItems(ctx, isNode ? 'nodes' : 'pods', isPod && !allNs ? ctx.namespace : undefined);
  if (!items) return fail('error: Metrics API not available');
  let list = items.filter((i) => !ctx.args[1] || i.metadata.name === ctx.args[1]);
  list = list.sort((a, b) =>
    `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace ?? ''}/${b.metadata.name}`),
  );
  const cpu = (m: number): string => `${Math.round(m)}m`;
  const mem = (b: number): string => `${Math.floor(b / (1024 * 1024))}Mi`;
  if (isNode) {
    // top_node.go RunTopNode: a named node the metrics API has no NodeMetrics for is its NotFound; none at all is "metrics not available yet"
    if (ctx.args[1] && !list.length) return fail(`Error from server (NotFound): nodemetrics.metrics.k8s.io "${ctx.args[1]}" not found`);
    if (!list.length) return fail('error: metrics not available yet');
    const nodes = ctx.client.resource('', 'nodes').list(undefined, { quiet: true }).items;
    const rows: string[][] = ctx.flags.has('no-headers') ? [] : [['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']];
    for (const m of list) {
      const n = nodes.find((x) => x.metadata.name === m.metadata.name);
      const alloc = n?.status?.allocatable ?? {};
      const c = cpuMillis(m.usage?.cpu ?? '0');
      const b = bytesOf(m.usage?.memory ?? '0');
      const cp = cpuMillis(alloc.cpu ?? '0');
      const mp = bytesOf(alloc.memory ?? '0');
      rows.push([
        m.metadata.name,
        cpu(c),
        cp ? `${Math.trunc((c / cp) * 100)}%` : '<unknown>',
        mem(b),
        mp ? `${Math.trunc((b / mp) * 100)}%` : '<unknown>',
      ]);
    }
    // top_node.go + metricsutil PrintNodeMetrics: nodes listed without metrics (a dead node's
    // kubelet cannot be scraped) follow as printMissingMetricsNodeLine rows
    const have = new Set(list.map((m) => m.metadata.name));
    const missing = nodes
      .map((n) => n.metadata.name as string)
      .filter((name) => !have.has(name) && (!ctx.args[1] || name === ctx.args[1]))
      .sort();
    for (const name of missing) rows.push([name, '<unknown>', '<unknown>', '<unknown>', '<unknown>']);
    return ok(formatTable(rows));
  }
  if (!list.length) return { output: '', error: `No resources found in ${ctx.namespace} namespace.\n`, exitCode: 0 };
  const rows: string[][] = ctx.flags.has('no-headers') ? [] : [[...(allNs ? ['NAMESPACE'] : []), 'NAME', 'CPU(cores)', 'MEMORY(bytes)']];
  for (const m of list) {
    let c = 0;
    let b = 0;
    for (const ct of m.containers ?? []) {
      c += cpuMillis(ct.usage?.cpu ?? '0');
      b += bytesOf(ct.usage?.memory ?? '0');
    }
    rows.push([...(allNs ? [m.metadata.namespace ?? ''] : []), m.metadata.name, cpu(c), mem(b)]);
  }
  return ok(formatTable(rows));
}

/** Runs `kubectl apply -f -` with the text passed as stdin. */
export function runApplyCmd(ctx: Ctx): KubectlResult {
  const file = ctx.flags.get('filename');
  if (!file) return fail(`error: must specify one of -f and -k\n${seeHelp('apply')}`);
  if (file !== '-') return fail(`error: the path "${file}" does not exist`);
  const text = ctx.env.stdin ?? '';
  const dry = ctx.flags.get('dry-run');
  // apply.go Complete: --server-side, --force-conflicts and --field-manager (runApply → cmd/apply-server-side.ts)
  const on = (f: string): boolean => ctx.flags.has(f) && ctx.flags.get(f) !== 'false';
  const serverSide = on('server-side');
  if (on('force-conflicts') && !serverSide) return fail('error: --force-conflicts only works with --server-side');
  if (dry === 'client' && serverSide)
    return fail("error: --dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)");
  if (serverSide && on('force')) return fail('error: --force cannot be used with --server-side');
  const run = runApply(ctx.client, text, {
    dryRun: dry === 'client' || dry === 'server' ? dry : false,
    defaultNamespace: ctx.namespace,
    serverSide,
    forceConflicts: on('force-conflicts'),
    fieldManager: ctx.flags.get('field-manager'),
  });
  // apply.go Run: `if len(infos) == 0 && len(errs) == 0` (an empty or comment-only manifest)
  if (!run.results.length && !run.stderr) return fail('error: no objects passed to apply');
  return { output: run.stdout, error: run.stderr || null, exitCode: run.stderr && run.results.some((r) => r.action === 'error') ? 1 : 0 };
}
