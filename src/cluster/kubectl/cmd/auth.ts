/**
 * `kubectl auth can-i` and `kubectl auth whoami`, after
 * staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go (RunAccessCheck: a SelfSubjectAccessReview,
 * `yes` / `no[ - reason]`, exit 1 on no; RunAccessList: a SelfSubjectRulesReview, rules broken
 * down (rbacutil.BreakdownRule), compacted (CompactRules), sorted by their Go String()
 * (SortableRuleSlice) and printed as `Resources  Non-Resource URLs  Resource Names  Verbs`
 * with describe.CombineResourceGroup) and whoami.go (a SelfSubjectReview printed as an
 * `ATTRIBUTE  VALUE` table, or -o json/yaml).
 */
import type { KObject } from '../../api/types';
import type { PolicyRule } from '../../apiserver/auth/bootstrap-policy';
import { formatTable } from '../tabwriter';
import { fail, ok, type Ctx, type FlagSpec, type KubectlResult } from './util';
import { toJSON, toYAML } from './output';

export const AUTH_FLAGS: FlagSpec = {
  list: { bool: true },
  'all-namespaces': { short: 'A', bool: true },
  quiet: { short: 'q', bool: true },
  subresource: {},
  'no-headers': { bool: true },
  output: { short: 'o' },
};

/** cani.go resourceVerbs / nonResourceURLVerbs (for the "not a known verb" warning). */
const RESOURCE_VERBS = new Set([
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'use',
  'bind',
  'impersonate',
  '*',
  'approve',
  'sign',
  'escalate',
  'attest',
]);
const NON_RESOURCE_VERBS = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);
/** cani.go nonStandardResourceNames: no warning for these. */
const NON_STANDARD = new Set(['users', 'groups']);

/** Go's %v of a []string. */
const goList = (xs: readonly string[] | undefined): string => `[${(xs ?? []).join(' ')}]`;

/** The auth subcommands. */
export function runAuth(ctx: Ctx): KubectlResult {
  const [sub, ...rest] = ctx.args;
  if (sub === 'can-i') return runCanI({ ...ctx, args: rest });
  if (sub === 'whoami') return runWhoami(ctx);
  if (!sub) return fail('error: no subcommand given for "kubectl auth"');
  return fail(`error: unknown command "${sub}" for "kubectl auth"`);
}

function runCanI(ctx: Ctx): KubectlResult {
  const list = ctx.flags.get('list') === 'true';
  const quiet = ctx.flags.get('quiet') === 'true';
  const all = ctx.flags.get('all-namespaces') === 'true';
  const subresource = ctx.flags.get('subresource') ?? '';
  const namespace = all ? '' : ctx.namespace;
  const warnings: string[] = [];
  if (list) {
    if (quiet || all || subresource)
      return fail("error: list option can't be specified with neither quiet, all-namespaces nor subresource options");
    const review = ctx.client.api.review(ctx.client.user, 'selfsubjectrulesreviews.authorization.k8s.io', '', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {} as KObject['metadata'],
      spec: { namespace },
    });
    return printRules(review, ctx.flags.get('no-headers') === 'true');
  }
  if (ctx.flags.get('no-headers') === 'true') return fail('error: --no-headers cannot be set without --list specified');
  if (ctx.args.length !== 2) {
    if (ctx.args.length < 2)
      return fail(
        "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.",
      );
    return fail(
      "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.",
    );
  }
  const [verb, target] = ctx.args;
  let spec: KObject['spec'];
  if (target.startsWith('/')) {
    if (subresource) return fail('error: --subresource can not be used with NonResourceURL');
    if (!NON_RESOURCE_VERBS.has(verb)) warnings.push(`Warning: verb '${verb}' is not a known verb\n\n`);
    spec = { nonResourceAttributes: { verb, path: target } };
  } else {
    const [resArg, resourceName = ''] = target.split(/\/(.*)/s, 2) as [string, string?];
    let group = '';
    let resource = resArg;
    if (resArg !== '*') {
      const info = ctx.client.api.registry.resolve(resArg.toLowerCase());
      if (info) {
        group = info.group;
        resource = info.resource;
        if (!all && !info.namespaced)
          warnings.push(
            group
              ? `Warning: resource '${resource}' is not namespace scoped in group '${group}'\n\n`
              : `Warning: resource '${resource}' is not namespace scoped\n\n`,
          );
      } else {
        const dot = resArg.indexOf('.');
        const gr = dot >= 0 ? { resource: resArg.slice(0, dot), group: resArg.slice(dot + 1) } : { resource: resArg, group: '' };
        if (!NON_STANDARD.has(resArg))
          warnings.push(
            gr.group
              ? `Warning: the server doesn't have a resource type '${gr.resource}' in group '${gr.group}'\n`
              : `Warning: the server doesn't have a resource type '${gr.resource}'\n`,
          );
        group = gr.group;
        resource = gr.resource;
      }
    }
    if (!RESOURCE_VERBS.has(verb)) warnings.push(`Warning: verb '${verb}' is not a known verb\n\n`);
    spec = { resourceAttributes: { namespace, verb, group, resource, subresource, name: resourceName } };
  }
  const review = ctx.client.api.review(ctx.client.user, 'selfsubjectaccessreviews.authorization.k8s.io', '', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: {} as KObject['metadata'],
    spec,
  });
  const st = review.status ?? {};
  const err = warnings.length ? warnings.join('') : null;
  if (quiet) return { output: '', error: err, exitCode: st.allowed ? 0 : 1 };
  if (st.allowed) return ok('yes\n', err);
  let out = 'no';
  if (st.reason) out += ` - ${st.reason}`;
  if (st.evaluationError) out += ` - ${st.evaluationError}`;
  return { output: `${out}\n`, error: err, exitCode: 1 };
}

/** rbacutil.BreakdownRule. */
function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const g of rule.apiGroups ?? []) {
    for (const r of rule.resources ?? []) {
      for (const v of rule.verbs) {
        if (rule.resourceNames?.length)
          for (const n of rule.resourceNames) out.push({ apiGroups: [g], resources: [r], verbs: [v], resourceNames: [n] });
        else out.push({ apiGroups: [g], resources: [r], verbs: [v] });
      }
    }
  }
  for (const u of rule.nonResourceURLs ?? []) for (const v of rule.verbs) out.push({ nonResourceURLs: [u], verbs: [v] });
  return out;
}

/** rbacutil.CompactRules: simple resource rules of one group/resource/name merge their verbs. */
function compact(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple =
      !r.nonResourceURLs?.length && r.apiGroups?.length === 1 && r.resources?.length === 1 && (r.resourceNames?.length ?? 0) <= 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = `${r.apiGroups![0]}\0${r.resources![0]}\0${r.resourceNames?.length ? `1\0${r.resourceNames[0]}` : '0'}`;
    const cur = simple.get(key);
    if (cur) {
      for (const v of r.verbs) if (!cur.verbs.includes(v)) cur.verbs.push(v);
    } else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

/** rbacv1.PolicyRule's generated String(), the sort key of SortableRuleSlice. */
function ruleString(r: PolicyRule): string {
  return `&PolicyRule{Verbs:${goList(r.verbs)},APIGroups:${goList(r.apiGroups)},Resources:${goList(r.resources)},ResourceNames:${goList(r.resourceNames)},NonResourceURLs:${goList(r.nonResourceURLs)},}`;
}

/** describe.CombineResourceGroup. */
function combineResourceGroup(resources: string[] | undefined, groups: string[] | undefined): string {
  if (!resources?.length) return '';
  const [res, sub] = resources[0].split(/\/(.*)/s, 2);
  let s = res;
  if (groups?.length && groups[0] !== '') s += `.${groups[0]}`;
  if (sub !== undefined) s += `/${sub}`;
  return s;
}

function printRules(review: KObject, noHeaders: boolean): KubectlResult {
  const st = review.status ?? {};
  const rules: PolicyRule[] = [
    ...(st.resourceRules ?? []).map((r: PolicyRule) => ({
      verbs: r.verbs,
      apiGroups: r.apiGroups,
      resources: r.resources,
      resourceNames: r.resourceNames,
    })),
    ...(st.nonResourceRules ?? []).map((r: PolicyRule) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
  ];
  const compacted = compact(rules.flatMap(breakdown));
  const keyed = compacted.map((r) => ({ r, k: ruleString(r) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const rows: string[][] = noHeaders ? [] : [['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']];
  for (const { r } of keyed)
    rows.push([combineResourceGroup(r.resources, r.apiGroups), goList(r.nonResourceURLs), goList(r.resourceNames), goList(r.verbs)]);
  const warn = st.incomplete ? `Warning: the list may be incomplete: ${st.evaluationError ?? ''}\n` : null;
  return ok(formatTable(rows), warn);
}

function runWhoami(ctx: Ctx): KubectlResult {
  const review = ctx.client.api.review(ctx.client.user, 'selfsubjectreviews.authentication.k8s.io', '', {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    metadata: {} as KObject['metadata'],
  });
  const o = ctx.flags.get('output');
  // the printers of -o json|yaml (sorted keys, goyaml style)
  if (o === 'json') return ok(toJSON(review));
  if (o === 'yaml') return ok(toYAML(review));
  if (o) return fail(`error: unable to match a printer suitable for the output format "${o}", allowed formats are: json,yaml`);
  const ui = review.status?.userInfo ?? {};
  const rows: string[][] = [['ATTRIBUTE', 'VALUE']];
  if (ui.username) rows.push(['Username', ui.username]);
  if (ui.uid) rows.push(['UID', ui.uid]);
  if (ui.groups?.length) rows.push(['Groups', goList(ui.groups)]);
  for (const k of Object.keys(ui.extra ?? {}).sort()) rows.push([`Extra: ${k}`, goList(ui.extra[k])]);
  return ok(formatTable(rows));
}
