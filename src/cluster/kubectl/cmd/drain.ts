/**
 * `kubectl cordon|uncordon|drain`, as staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go
 * and pkg/drain (filters.go: DaemonSet, mirror, local-storage and unreplicated Pod filters
 * with their messages; drain.go evictPods: "evicting pod ns/name", "pod/x evicted").
 * Each Pod is evicted through the pods/eviction subresource (policy/v1), which honours its
 * PodDisruptionBudget (pkg/registry/core/pod/storage/eviction.go): a budget with no
 * disruptions left answers 429 "Cannot evict pod as it would violate the pod's disruption
 * budget."; upstream drain retries every 5 s until its timeout, the bar (one instant) reports
 * the retry line once and stops. `--disable-eviction` deletes instead.
 */
import { deepCopy, type KObject } from '../../api/types';
import { StatusError } from '../../api/errors';
import { fail, seeHelp, stderrOf, tryStatus, type Ctx, type FlagSpec, type KubectlResult } from './util';

/** Flags of `kubectl cordon` / `uncordon`. */
export const CORDON_FLAGS: FlagSpec = { selector: { short: 'l' }, 'dry-run': {} };
/** Flags of `kubectl drain`. */
export const DRAIN_FLAGS: FlagSpec = {
  ...CORDON_FLAGS,
  'ignore-daemonsets': { bool: true },
  'delete-emptydir-data': { bool: true },
  'delete-local-data': { bool: true },
  force: { bool: true },
  'grace-period': {},
  timeout: {},
  'disable-eviction': { bool: true },
  'pod-selector': {},
  'skip-wait-for-delete-timeout': {},
  'chunk-size': {},
};

function setUnschedulable(ctx: Ctx, name: string, on: boolean): { line: string; error?: string } {
  const rc = ctx.client.resource('', 'nodes');
  const r = tryStatus(() => rc.get('', name, { quiet: true }));
  if (r.error) return { line: '', error: r.error };
  const cur = deepCopy(r.value!);
  if (Boolean(cur.spec?.unschedulable) === on) return { line: `node/${name} already ${on ? 'cordoned' : 'uncordoned'}\n` };
  cur.spec = { ...cur.spec };
  if (on) cur.spec.unschedulable = true;
  else delete cur.spec.unschedulable;
  const u = tryStatus(() => rc.update(cur, { summary: `${on ? 'cordon' : 'uncordon'} node ${name}` }));
  if (u.error) return { line: '', error: u.error };
  return { line: `node/${name} ${on ? 'cordoned' : 'uncordoned'}\n` };
}

function nodeNames(ctx: Ctx): string[] {
  if (ctx.flags.has('selector'))
    return ctx.client
      .resource('', 'nodes')
      .list(undefined, { labelSelector: ctx.flags.get('selector'), quiet: true })
      .items.map((n) => n.metadata.name);
  return ctx.args.map((a) => a.replace(/^(nodes?|no)\//, ''));
}

/** Runs `kubectl cordon` (on) or `uncordon`. */
export function runCordon(ctx: Ctx, on: boolean): KubectlResult {
  const cmd = on ? 'cordon' : 'uncordon';
  if (!ctx.args.length && !ctx.flags.has('selector')) return fail(`error: USAGE: ${cmd} NODE [flags]\n${seeHelp(cmd)}`);
  let output = '';
  const errors: string[] = [];
  for (const n of nodeNames(ctx)) {
    const r = setUnschedulable(ctx, n, on);
    output += r.line;
    if (r.error) errors.push(r.error);
  }
  return { output, error: stderrOf(errors), exitCode: errors.length ? 1 : 0 };
}

/** Runs `kubectl drain`. */
export function runDrain(ctx: Ctx): KubectlResult {
  if (!ctx.args.length && !ctx.flags.has('selector')) return fail(`error: USAGE: drain NODE [flags]\n${seeHelp('drain')}`);
  const f = (k: string): boolean => ctx.flags.has(k) && ctx.flags.get(k) !== 'false';
  let output = '';
  const stderr: string[] = [];
  const names = nodeNames(ctx);
  for (let ni = 0; ni < names.length; ni++) {
    const node = names[ni];
    const c = setUnschedulable(ctx, node, true);
    if (c.error) {
      stderr.push(c.error);
      return { output, error: stderrOf(stderr), exitCode: 1 };
    }
    output += c.line;
    const podsRc = ctx.client.resource('', 'pods');
    const pods = podsRc
      .list(undefined, { fieldSelector: `spec.nodeName=${node}`, labelSelector: ctx.flags.get('pod-selector'), quiet: true })
      .items.sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
    const id = (p: KObject): string => `${p.metadata.namespace}/${p.metadata.name}`;
    const dsErrors: string[] = [];
    const dsWarn: string[] = [];
    const localErrors: string[] = [];
    const unmanagedErrors: string[] = [];
    const unmanagedWarn: string[] = [];
    const evict: KObject[] = [];
    for (const p of pods) {
      const phase = p.status?.phase;
      if (p.metadata.annotations?.['kubernetes.io/config.mirror']) continue;
      const finished = phase === 'Succeeded' || phase === 'Failed';
      const ctl = (p.metadata.ownerReferences ?? []).find((r) => r.controller);
      if (p.metadata.deletionTimestamp) continue;
      if (ctl?.kind === 'DaemonSet' && !finished) {
        if (f('ignore-daemonsets')) dsWarn.push(id(p));
        else dsErrors.push(id(p));
        continue;
      }
      if (!finished && (p.spec?.volumes ?? []).some((v: KObject) => v.emptyDir)) {
        if (!f('delete-emptydir-data') && !f('delete-local-data')) {
          localErrors.push(id(p));
          continue;
        }
      }
      if (!ctl && !finished) {
        if (!f('force')) {
          unmanagedErrors.push(id(p));
          continue;
        }
        unmanagedWarn.push(id(p));
      }
      evict.push(p);
    }
    const errs: string[] = [];
    if (dsErrors.length) errs.push(`cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${dsErrors.join(', ')}`);
    if (localErrors.length)
      errs.push(`cannot delete Pods with local storage (use --delete-emptydir-data to override): ${localErrors.join(', ')}`);
    if (unmanagedErrors.length)
      errs.push(`cannot delete Pods that declare no controller (use --force to override): ${unmanagedErrors.join(', ')}`);
    if (errs.length) {
      const msg = errs.join(', ');
      stderr.push(`error: unable to drain node "${node}" due to error: ${msg}, continuing command...`);
      stderr.push(
        `There are pending nodes to be drained:\n${names
          .slice(ni)
          .map((n) => ` ${n}`)
          .join('\n')}`,
      );
      stderr.push(errs.join('\n'));
      return { output, error: stderrOf(stderr), exitCode: 1 };
    }
    const warns: string[] = [];
    if (dsWarn.length) warns.push(`ignoring DaemonSet-managed Pods: ${dsWarn.join(', ')}`);
    if (unmanagedWarn.length) warns.push(`deleting Pods that declare no controller: ${unmanagedWarn.join(', ')}`);
    if (warns.length) stderr.push(`Warning: ${warns.join('; ')}`);
    const grace =
      ctx.flags.has('grace-period') && Number(ctx.flags.get('grace-period')) >= 0 ? Number(ctx.flags.get('grace-period')) : undefined;
    const evicted: string[] = [];
    let blocked = false;
    for (const p of evict) {
      const ns = p.metadata.namespace ?? '';
      const name = p.metadata.name;
      output += `evicting pod ${id(p)}\n`;
      try {
        // EvictPod (pods/eviction, policy/v1) — or DeletePod with --disable-eviction
        if (f('disable-eviction')) podsRc.delete(ns, name, { gracePeriodSeconds: grace, summary: `delete pod ${id(p)} (drain ${node})` });
        else ctx.client.evict(ns, name, grace !== undefined ? { deleteOptions: { gracePeriodSeconds: grace } } : {});
        evicted.push(name);
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        if (err.code === 404) continue;
        if (err.code === 429) {
          // upstream retries every 5 s until --timeout; the bar runs at one instant, so it reports once and stops
          stderr.push(`error when evicting pods/"${name}" -n "${ns}" (will retry after 5s): ${err.message}`);
          blocked = true;
          continue;
        }
        stderr.push(`error when evicting pods/"${name}" -n "${ns}": ${err.message}`);
        blocked = true;
      }
    }
    for (const n of evicted) output += `pod/${n} evicted\n`;
    if (blocked) return { output, error: stderrOf(stderr), exitCode: 1 };
    output += `node/${node} drained\n`;
  }
  return { output, error: stderrOf(stderr), exitCode: 0 };
}
