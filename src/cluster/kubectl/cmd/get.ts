/**
 * `kubectl get`, as staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (Run, printGeneric,
 * table printing with a blank line between kinds, `kind/name` prefixes when several types
 * are requested, "No resources found in X namespace."; `-w` in ./get-watch.ts), the human-readable table printer
 * of k8s.io/cli-runtime/pkg/printers/tableprinter.go (NAMESPACE column, --show-labels,
 * -L, --no-headers), sorter.go (--sort-by) and customcolumn.go (-o custom-columns).
 */
import type { Client } from '../../client/clientset';
import type { ResourceInfo } from '../../api/resources';
import { deepCopy, type KObject } from '../../api/types';
import { formatTable } from '../tabwriter';
import { evalPath, renderJSONPath } from '../jsonpath';
import { listOf, toJSON, toYAML } from './output';
import { runGetWatch } from './get-watch';
import { customColumns, tableLayout } from './get-table';

/** The table layout and custom columns, re-exported from get-table.ts (shared with get-watch.ts). */
export { customColumns, tableForInfo, tableLayout, type TableLayout } from './get-table';
import {
  KubectlError,
  fail,
  listVisited,
  seeHelp,
  stderrOf,
  tryStatus,
  typeName,
  resolveTargets,
  type Ctx,
  type FlagSpec,
  type KubectlResult,
} from './util';

/** Flags of `kubectl get`. */
export const GET_FLAGS: FlagSpec = {
  'all-namespaces': { bool: true, short: 'A' },
  selector: { short: 'l' },
  'field-selector': {},
  output: { short: 'o' },
  'show-labels': { bool: true },
  'no-headers': { bool: true },
  'sort-by': {},
  'label-columns': { short: 'L' },
  watch: { bool: true, short: 'w' },
  'watch-only': { bool: true },
  'show-kind': { bool: true },
  'ignore-not-found': { bool: true },
  'chunk-size': {},
  'show-managed-fields': { bool: true },
  filename: { short: 'f' },
  raw: {},
  'output-watch-events': { bool: true },
  'server-print': { bool: true },
  subresource: {},
  recursive: { bool: true, short: 'R' },
};

/** The resources `kubectl get all` expands to, in discovery order. */
export const ALL_CATEGORY = [
  'pods',
  'replicationcontrollers',
  'services',
  'daemonsets.apps',
  'deployments.apps',
  'replicasets.apps',
  'statefulsets.apps',
  'horizontalpodautoscalers.autoscaling',
  'cronjobs.batch',
  'jobs.batch',
];

/**
 * Discovery's group order (kube-aggregator's APIServicePriorities, GroupPriorityMinimum high
 * first; the core group leads): the order a category expands in.
 */
const GROUP_PRIORITY = new Map<string, number>([
  ['', 18000],
  ['apiregistration.k8s.io', 17800],
  ['apps', 17800],
  ['events.k8s.io', 17750],
  ['authentication.k8s.io', 17700],
  ['authorization.k8s.io', 17600],
  ['autoscaling', 17500],
  ['batch', 17400],
  ['certificates.k8s.io', 17300],
  ['networking.k8s.io', 17200],
  ['policy', 17100],
  ['rbac.authorization.k8s.io', 17000],
  ['storage.k8s.io', 16800],
  ['admissionregistration.k8s.io', 16700],
  ['scheduling.k8s.io', 16600],
  ['coordination.k8s.io', 16500],
  ['apiextensions.k8s.io', 16400],
  ['node.k8s.io', 16300],
  ['discovery.k8s.io', 16200],
  ['flowcontrol.apiserver.k8s.io', 16100],
]);

/**
 * A category name (`all`, `api-extensions`, a CRD's categories) → its resources, as
 * restmapper's discovery CategoryExpander lists them: groups in discovery order, resources by
 * name within a group. Undefined when `t` names no category.
 */
export function expandCategory(client: Client, t: string): string[] | undefined {
  if (t === 'all')
    return [
      ...ALL_CATEGORY,
      ...client.api.registry
        .all()
        .filter((i) => i.custom && i.categories?.includes('all'))
        .map((i) => `${i.resource}.${i.group}`),
    ];
  const prio = (g: string) => GROUP_PRIORITY.get(g) ?? 1000;
  const hits = client.api.registry.all().filter((i) => (i.categories ?? []).includes(t));
  if (!hits.length || client.api.registry.resolve(t)) return undefined;
  hits.sort(
    (a, b) => prio(b.group) - prio(a.group) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) || (a.resource < b.resource ? -1 : 1),
  );
  return hits.map((i) => (i.group ? `${i.resource}.${i.group}` : i.resource));
}

function compareValues(a: unknown, b: unknown): number {
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : -1;
  if (b === undefined || b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = typeof a === 'string' ? a : JSON.stringify(a);
  const sb = typeof b === 'string' ? b : JSON.stringify(b);
  const ta = Date.parse(sa);
  const tb = Date.parse(sb);
  if (/^\d{4}-\d\d-\d\dT/.test(sa) && /^\d{4}-\d\d-\d\dT/.test(sb) && !Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** --sort-by: a stable sort on the first value the JSONPath selects. */
export function sortBy(items: KObject[], expr: string): KObject[] {
  const path = expr.startsWith('{') ? expr : `{${expr}}`;
  const keyed = items.map((o, i) => ({ o, i, k: evalPath(o, path)[0] }));
  keyed.sort((x, y) => compareValues(x.k, y.k) || x.i - y.i);
  return keyed.map((x) => x.o);
}

interface Fetched {
  info: ResourceInfo;
  objs: KObject[];
  /** names were given (a get of particular objects) */
  named: boolean;
}

/** Lists or gets the requested objects; NotFound errors go to `errors`. */
export function fetch(ctx: Ctx, targets: { info: ResourceInfo; names: string[] }[], errors: string[]): Fetched[] {
  const allNs = ctx.flags.has('all-namespaces') && ctx.flags.get('all-namespaces') !== 'false';
  const selector = ctx.flags.get('selector');
  const fieldSelector = ctx.flags.get('field-selector');
  const out: Fetched[] = [];
  for (const t of targets) {
    const rc = ctx.client.resource(t.info.group, t.info.resource);
    const ns = t.info.namespaced ? ctx.namespace : '';
    if (t.names.length) {
      const objs: KObject[] = [];
      for (const n of t.names) {
        const r = tryStatus(() => rc.get(ns, n));
        if (r.value) objs.push(r.value);
        else if (!ctx.flags.has('ignore-not-found')) errors.push(r.error!);
      }
      out.push({ info: t.info, objs, named: true });
    } else {
      const list = listVisited(t.info, selector, fieldSelector, () =>
        rc.list(t.info.namespaced && !allNs ? ctx.namespace : undefined, { labelSelector: selector, fieldSelector }),
      );
      const objs = [...list.items].sort((a, b) => {
        const ka = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
        const kb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
        return ka < kb ? -1 : ka > kb ? 1 : 0;
      });
      out.push({ info: t.info, objs, named: false });
    }
  }
  return out;
}

/** Runs `kubectl get`. */
export function runGet(ctx: Ctx): KubectlResult {
  if (!ctx.args.length) {
    return fail(
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\n' +
        seeHelp('get'),
    );
  }
  const targets = resolveTargets(ctx.client, ctx.args, (t) => expandCategory(ctx.client, t));
  const allNs = ctx.flags.has('all-namespaces') && ctx.flags.get('all-namespaces') !== 'false';
  const errors: string[] = [];
  const fetched = fetch(ctx, targets, errors);
  let outFmt = ctx.flags.get('output') ?? '';
  let tpl = '';
  const eq = outFmt.indexOf('=');
  if (eq >= 0) {
    tpl = outFmt.slice(eq + 1);
    outFmt = outFmt.slice(0, eq);
  }
  const sortExpr = ctx.flags.get('sort-by');
  if (sortExpr) for (const f of fetched) f.objs = sortBy(f.objs, sortExpr);
  const on = (f: string) => ctx.flags.has(f) && ctx.flags.get(f) !== 'false';
  if (on('watch') || on('watch-only'))
    return runGetWatch(
      ctx,
      targets,
      fetched.flatMap((f) => f.objs),
      errors,
    );
  const items = fetched.flatMap((f) => f.objs.map((o) => ({ info: f.info, obj: o })));
  const exit = errors.length ? 1 : 0;
  const done = (output: string, extra: string[] = []): KubectlResult => ({
    output,
    error: stderrOf([...extra, ...errors]),
    exitCode: exit,
  });
  const single = items.length === 1 && fetched.every((f) => f.named) && targets.length === 1 && targets[0].names.length === 1;

  switch (outFmt) {
    case 'name':
      return done(items.map((i) => `${typeName(i.info)}/${i.obj.metadata.name}\n`).join(''));
    case 'yaml':
    case 'json': {
      const objs = items.map((i) => stripManaged(ctx, i.obj));
      if (!objs.length && !fetched.every((f) => f.named)) {
        // kubectl prints an empty List
      }
      const doc = single ? objs[0] : listOf(objs);
      return done(outFmt === 'json' ? toJSON(doc) : toYAML(doc));
    }
    case 'jsonpath':
    case 'jsonpath-as-json': {
      const objs = items.map((i) => stripManaged(ctx, i.obj));
      const doc = single ? objs[0] : listOf(objs);
      try {
        return done(renderJSONPath(JSON.parse(toJSON(doc)), tpl));
      } catch (e) {
        throw new KubectlError(`error: error parsing jsonpath ${tpl}, ${(e as Error).message}`);
      }
    }
    case 'custom-columns':
      return done(
        customColumns(
          ctx,
          items.map((i) => i.obj),
          tpl,
        ),
      );
    case '':
    case 'wide':
      break;
    default:
      throw new KubectlError(
        `error: unable to match a printer suitable for the output format "${outFmt}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`,
      );
  }
  if (!items.length) {
    if (errors.length || fetched.every((f) => f.named)) return done('');
    const namespaced = targets.some((t) => t.info.namespaced);
    return {
      output: '',
      error: namespaced && !allNs ? `No resources found in ${ctx.namespace} namespace.\n` : 'No resources found\n',
      exitCode: 0,
    };
  }
  const withKind = targets.length > 1 || ctx.flags.has('show-kind');
  const blocks: string[] = [];
  for (const f of fetched) {
    if (!f.objs.length) continue;
    const layout = tableLayout(ctx, f.info, outFmt === 'wide', withKind);
    const rows: string[][] = ctx.flags.has('no-headers') ? [] : [layout.header];
    for (const o of f.objs) rows.push(layout.row(o, ctx.nowMs));
    blocks.push(formatTable(rows));
  }
  return done(blocks.join('\n'));
}

function stripManaged(ctx: Ctx, o: KObject): KObject {
  const c = deepCopy(o);
  if (!ctx.flags.has('show-managed-fields')) delete c.metadata.managedFields;
  return c;
}
