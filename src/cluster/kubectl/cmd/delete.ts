/**
 * `kubectl delete`, as staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go: names, -l, --all,
 * --grace-period, --force (with its warning), --now, --cascade, --ignore-not-found;
 * `pod "x" deleted` / `force deleted`, "No resources found" when a selection is empty.
 */
import { fail, resolveTargets, stderrOf, tryStatus, type Ctx, type FlagSpec, type KubectlResult } from './util';
import { objectsOf } from './mutate';

/** Flags of `kubectl delete`. */
export const DELETE_FLAGS: FlagSpec = {
  selector: { short: 'l' },
  all: { bool: true },
  'all-namespaces': { bool: true, short: 'A' },
  'grace-period': {},
  force: { bool: true },
  now: { bool: true },
  cascade: {},
  'ignore-not-found': { bool: true },
  wait: { bool: true },
  timeout: {},
  output: { short: 'o' },
  filename: { short: 'f' },
  'field-selector': {},
  'dry-run': {},
  interactive: { bool: true, short: 'i' },
  recursive: { bool: true, short: 'R' },
};

/** The word kubectl uses for a resource in delete messages: "pod", "deployment.apps". */
function deleteKind(info: { kind: string; group: string }): string {
  return info.group ? `${info.kind.toLowerCase()}.${info.group}` : info.kind.toLowerCase();
}

/** Runs `kubectl delete`. */
export function runDelete(ctx: Ctx): KubectlResult {
  if (!ctx.args.length) {
    return fail(
      `error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'`,
    );
  }
  const targets = resolveTargets(ctx.client, ctx.args);
  const hasNames = targets.some((t) => t.names.length);
  if (hasNames && (ctx.flags.has('all') || ctx.flags.has('selector')))
    return fail('error: name cannot be provided when a selector is specified');
  const force = ctx.flags.has('force') && ctx.flags.get('force') !== 'false';
  let grace = ctx.flags.has('grace-period') ? Number(ctx.flags.get('grace-period')) : -1;
  if (ctx.flags.has('now')) {
    if (grace !== -1) return fail('error: --now and --grace-period cannot be specified together');
    grace = 1;
  }
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  const cascade = ctx.flags.get('cascade') ?? 'background';
  const policyOf: Record<string, 'Background' | 'Foreground' | 'Orphan'> = {
    background: 'Background',
    true: 'Background',
    foreground: 'Foreground',
    orphan: 'Orphan',
    false: 'Orphan',
  };
  const policy = policyOf[cascade];
  if (!policy) return fail(`error: invalid cascade value (${cascade}). Must be "background", "foreground", or "orphan"`);
  const errors: string[] = [];
  const warn: string[] = [];
  if (force && grace === 0)
    warn.push(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.',
    );
  const objs = objectsOf(ctx, targets, errors, true, true);
  if (ctx.flags.has('ignore-not-found')) errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('(NotFound)')));
  let output = '';
  for (const { t, obj } of objs) {
    const r = tryStatus(() =>
      ctx.client.resource(t.info.group, t.info.resource).delete(obj.metadata.namespace ?? '', obj.metadata.name, {
        gracePeriodSeconds: grace >= 0 ? grace : undefined,
        propagationPolicy: policy,
      }),
    );
    if (r.error) {
      if (!(ctx.flags.has('ignore-not-found') && r.error.includes('(NotFound)'))) errors.push(r.error);
      continue;
    }
    output += `${deleteKind(t.info)} "${obj.metadata.name}" ${force && grace === 0 ? 'force deleted' : 'deleted'}\n`;
  }
  if (!objs.length && !hasNames && !errors.length) output = 'No resources found\n';
  return { output, error: stderrOf([...warn, ...errors]), exitCode: errors.length ? 1 : 0 };
}
