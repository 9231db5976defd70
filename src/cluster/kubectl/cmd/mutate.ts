/**
 * Commands that change one field of existing objects: `scale`
 * (staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go), `label` (label/label.go: --overwrite,
 * `key-` removal, "labeled"/"unlabeled"/"not labeled"), `annotate` (annotate/annotate.go)
 * and `set image` (set/set_image.go).
 */
import { deepCopy, type KObject } from '../../api/types';
import { copyOwn, deleteOwn, hasOwn, setOwn } from '../../api/safe-object';
import { toJSON, toYAML } from './output';
import {
  KubectlError,
  fail,
  listVisited,
  ok,
  resolveTargets,
  seeHelp,
  stderrOf,
  tryStatus,
  typeName,
  type Ctx,
  type FlagSpec,
  type KubectlResult,
  type Target,
} from './util';

const SELECT: FlagSpec = {
  selector: { short: 'l' },
  all: { bool: true },
  'all-namespaces': { bool: true, short: 'A' },
  'dry-run': {},
  output: { short: 'o' },
  filename: { short: 'f' },
  'field-selector': {},
};
/** Flags of `kubectl scale`. */
export const SCALE_FLAGS: FlagSpec = { ...SELECT, replicas: {}, 'current-replicas': {}, 'resource-version': {}, timeout: {} };
/** Flags of `kubectl label`. */
export const LABEL_FLAGS: FlagSpec = {
  ...SELECT,
  overwrite: { bool: true },
  list: { bool: true },
  'resource-version': {},
  local: { bool: true },
};
/** Flags of `kubectl annotate`. */
export const ANNOTATE_FLAGS: FlagSpec = LABEL_FLAGS;
/** Flags of `kubectl set image`. */
export const SET_IMAGE_FLAGS: FlagSpec = { ...SELECT, local: { bool: true }, record: { bool: true } };

/**
 * The objects named by targets (or selected with -l / --all), read as kubectl's resource builder
 * reads them (RetrieveLazy: a GET of each named object, a LIST for a selector) before the
 * command writes; the reads are drawn in the relay unless `quiet` (kubectl delete by name sends
 * its DELETE without reading first).
 */
export function objectsOf(
  ctx: Ctx,
  targets: Target[],
  errors: string[],
  requireNames = true,
  quiet = false,
): { t: Target; obj: KObject }[] {
  const out: { t: Target; obj: KObject }[] = [];
  for (const t of targets) {
    const rc = ctx.client.resource(t.info.group, t.info.resource);
    const ns = t.info.namespaced ? ctx.namespace : '';
    if (t.names.length) {
      for (const n of t.names) {
        const r = tryStatus(() => rc.get(ns, n, { quiet }));
        if (r.value) out.push({ t, obj: r.value });
        else errors.push(r.error!);
      }
    } else if (ctx.flags.has('selector') || ctx.flags.has('all') || !requireNames) {
      const list = listVisited(t.info, ctx.flags.get('selector'), ctx.flags.get('field-selector'), () =>
        rc.list(t.info.namespaced && !ctx.flags.has('all-namespaces') ? ns : undefined, {
          labelSelector: ctx.flags.get('selector'),
          fieldSelector: ctx.flags.get('field-selector'),
          quiet,
        }),
      );
      for (const o of list.items) out.push({ t, obj: o });
    } else throw new KubectlError('error: resource(s) were provided, but no name was specified');
  }
  return out;
}

/**
 * What a mutating command prints for one object (PrintFlags.ToPrinter): `-o yaml` / `-o json`
 * the object (managedFields dropped unless --show-managed-fields), `-o name` `<type>/<name>`,
 * otherwise `<type>/<name> <operation>`.
 */
export function printed(ctx: Ctx, obj: KObject, type: string, operation: string): string {
  const out = ctx.flags.get('output');
  const o = deepCopy(obj);
  if (!ctx.flags.has('show-managed-fields') && o.metadata) delete o.metadata.managedFields;
  if (out === 'yaml') return toYAML(o);
  if (out === 'json') return toJSON(o);
  if (out === 'name') return `${type}/${obj.metadata.name}\n`;
  return `${type}/${obj.metadata.name} ${operation}\n`;
}

/** Runs `kubectl scale`. */
export function runScale(ctx: Ctx): KubectlResult {
  const replicas = ctx.flags.get('replicas');
  if (replicas === undefined) return fail('error: required flag(s) "replicas" not set');
  if (!/^-?\d+$/.test(replicas) || Number(replicas) < 0)
    return fail('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  if (!ctx.args.length)
    return fail(
      `error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'`,
    );
  const targets = resolveTargets(ctx.client, ctx.args);
  const errors: string[] = [];
  let output = '';
  const found = objectsOf(ctx, targets, errors);
  // scale.go: nothing read → "no objects passed to scale" with the builder's errors (an
  // aggregate: one message, or "[a, b]"), as the apiserver worded them
  if (!found.length) {
    const raw = errors.map((e) => e.replace(/^Error from server \([^)]*\): /, '').replace(/\n$/, ''));
    const agg = raw.length === 0 ? '' : raw.length === 1 ? ` ${raw[0]}` : ` [${raw.join(', ')}]`;
    return fail(`error: no objects passed to scale${agg}`);
  }
  if (ctx.flags.get('resource-version') && found.length > 1) return fail('error: cannot use --resource-version with multiple resources');
  // a failed scale ends the command with its error alone (RunScale returns it)
  const stop = (msg: string): void => void errors.splice(0, errors.length, msg);
  for (const { t, obj } of found) {
    // the scaler PATCHes …/scale whatever the kind: a resource without one answers 404
    if (!t.info.subresources.includes('scale')) {
      const r = tryStatus(() =>
        ctx.client.missingSubresource('patch', t.info.group, t.info.resource, obj.metadata.namespace ?? '', obj.metadata.name, 'scale'),
      );
      stop(r.error ?? 'Error from server (NotFound): the server could not find the requested resource');
      break;
    }
    // scale.go ScaleSimple: with a precondition (--current-replicas, --resource-version) kubectl
    // GETs the Scale, checks it and PUTs it back; without one it sends a JSON merge patch
    // {"spec":{"replicas":N}} to …/scale (authorized as patch). Field manager: the User-Agent's.
    const cur = ctx.flags.get('current-replicas');
    const rv = ctx.flags.get('resource-version');
    const precondition = (cur !== undefined && cur !== '-1') || !!rv;
    let now = obj;
    if (precondition) {
      // the precondition is checked on a fresh GET of …/scale (ScaleSimple's scaleGetter)
      const g = tryStatus(() =>
        ctx.client.resource(t.info.group, t.info.resource).get(obj.metadata.namespace ?? '', obj.metadata.name, { subresource: 'scale' }),
      );
      if (!g.value) {
        stop(g.error!);
        break;
      }
      now = g.value;
    }
    if (cur !== undefined && cur !== '-1' && Number(cur) !== (now.spec?.replicas ?? 0)) {
      stop(`error: Expected replicas to be ${cur}, was ${now.spec?.replicas ?? 0}`);
      break;
    }
    if (rv && rv !== now.metadata.resourceVersion) {
      stop(`error: Expected resource version to be ${rv}, was ${now.metadata.resourceVersion}`);
      break;
    }
    const c = deepCopy(now);
    c.spec.replicas = Number(replicas);
    const r = tryStatus(() =>
      ctx.client.resource(t.info.group, t.info.resource).update(c, {
        viaSubresource: 'scale',
        summary: `scale ${t.info.kind} ${c.metadata.namespace}/${c.metadata.name} to ${replicas}`,
        ...(precondition ? {} : { authzVerb: 'patch' as const }),
      }),
    );
    if (r.error) {
      stop(r.error);
      break;
    }
    // scale.go prints the object its builder read (the replicas before the scale)
    output += printed(ctx, obj, typeName(t.info), 'scaled');
  }
  return { output, error: stderrOf(errors), exitCode: errors.length ? 1 : 0 };
}

interface KVChanges {
  /** key → value, in the order given (a Map: label keys are user data). */
  set: Map<string, string>;
  remove: string[];
  resources: string[];
}

function splitChanges(args: string[], what: 'label' | 'annotation'): KVChanges {
  const res: KVChanges = { set: new Map(), remove: [], resources: [] };
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq > 0) res.set.set(a.slice(0, eq), a.slice(eq + 1));
    else if (a.endsWith('-') && a.length > 1 && !a.includes('/')) res.remove.push(a.slice(0, -1));
    else if (res.set.size || res.remove.length)
      throw new KubectlError(`error: all resources must be specified before ${what} changes: ${a}`);
    else res.resources.push(a);
  }
  return res;
}

function runKV(ctx: Ctx, what: 'label' | 'annotation'): KubectlResult {
  const ch = splitChanges(ctx.args, what);
  const field = what === 'label' ? 'labels' : 'annotations';
  if (!ch.set.size && !ch.remove.length && !ctx.flags.has('list'))
    return fail(`error: at least one ${what} update is required\n${seeHelp(what === 'label' ? 'label' : 'annotate')}`);
  if (!ch.resources.length)
    return fail(
      `error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n${seeHelp(what === 'label' ? 'label' : 'annotate')}`,
    );
  // label.go validate / annotate.go validateAnnotations: their own wording
  const both = ch.remove.filter((k) => ch.set.has(k));
  if (both.length)
    return fail(
      what === 'label'
        ? 'error: can not both modify and remove a label in the same command'
        : `error: can not both modify and remove the following annotation(s) in the same command: ${both.join(', ')}`,
    );
  const targets = resolveTargets(ctx.client, ch.resources);
  const errors: string[] = [];
  let output = '';
  const overwrite = ctx.flags.has('overwrite') && ctx.flags.get('overwrite') !== 'false';
  for (const { t, obj } of objectsOf(ctx, targets, errors)) {
    const cur: Record<string, string> = obj.metadata[field] ?? {};
    if (!overwrite) {
      const clashes = [...ch.set].filter(([k, v]) => hasOwn(cur, k) && cur[k] !== v);
      if (clashes.length) {
        if (what === 'label')
          errors.push(clashes.map(([k]) => `error: '${k}' already has a value (${cur[k]}), and --overwrite is false`).join('\n'));
        else
          errors.push(
            `error: --overwrite is false but found the following declared annotation(s): ${clashes.map(([k]) => `'${k}' already has a value (${cur[k]})`).join(', ')}`,
          );
        continue;
      }
    }
    const next = copyOwn(cur);
    for (const [k, v] of ch.set) setOwn(next, k, v);
    if (ctx.flags.has('list') && ctx.flags.get('list') !== 'false') {
      // --list: the map after the changes, made locally, one key=value a line; nothing is sent
      for (const k of ch.remove) deleteOwn(next, k);
      for (const k of Object.keys(next).sort()) output += `${k}=${next[k]}\n`;
      continue;
    }
    const dryClient = ctx.flags.get('dry-run') === 'client' || ctx.flags.get('dry-run') === 'true';
    for (const k of ch.remove) {
      if (!deleteOwn(next, k) && what === 'label' && !dryClient) output += `label "${k}" not found.\n`;
    }
    const changed = JSON.stringify(Object.entries(next).sort()) !== JSON.stringify(Object.entries(cur).sort());
    let shown = obj;
    if (dryClient) {
      // label.go / annotate.go with --dry-run=client: the change is made locally, nothing sent
      shown = deepCopy(obj);
      setOwn(shown.metadata, field, next);
    } else {
      // kubectl label / annotate send a JSON merge patch of the map (jsonpatch.CreateMergePatch):
      // the keys set, null for the keys removed (`{}` when nothing changes: the PATCH is sent
      // all the same); field manager kubectl-label / kubectl-annotate
      const delta: Record<string, string | null> = Object.create(null);
      for (const [k, v] of Object.entries(next)) if (!hasOwn(cur, k) || cur[k] !== v) setOwn(delta, k, v);
      for (const k of Object.keys(cur)) if (!hasOwn(next, k)) setOwn(delta, k, null);
      const body = changed ? { metadata: { [field]: delta } } : {};
      const r = tryStatus(() =>
        ctx.client.resource(t.info.group, t.info.resource).patch(obj.metadata.namespace ?? '', obj.metadata.name, 'merge', body, {
          summary: `${what} ${obj.metadata.name}`,
          fieldManager: what === 'label' ? 'kubectl-label' : 'kubectl-annotate',
        }),
      );
      if (r.error) {
        errors.push(r.error);
        continue;
      }
      shown = r.value!.object;
    }
    // label.go updateDataChangeMsg (not under --dry-run=client, which always says "labeled")
    let msg = what === 'label' ? 'labeled' : 'annotated';
    if (what === 'label' && !dryClient) {
      if (!changed) msg = 'not labeled';
      else if (!overwrite && Object.keys(next).length < Object.keys(cur).length) msg = 'unlabeled';
    }
    output += printed(ctx, shown, typeName(t.info), msg);
  }
  return { output, error: stderrOf(errors), exitCode: errors.length ? 1 : 0 };
}

/** Runs `kubectl label`. */
export function runLabel(ctx: Ctx): KubectlResult {
  return runKV(ctx, 'label');
}

/** Runs `kubectl annotate`. */
export function runAnnotate(ctx: Ctx): KubectlResult {
  return runKV(ctx, 'annotation');
}

/** The pod template of a workload (Pod: the spec itself). */
export function podSpecOf(obj: KObject): KObject['spec'] | undefined {
  if (obj.kind === 'Pod') return obj.spec;
  if (obj.kind === 'CronJob') return obj.spec?.jobTemplate?.spec?.template?.spec;
  return obj.spec?.template?.spec;
}

/** Runs `kubectl set image`. */
export function runSetImage(ctx: Ctx): KubectlResult {
  const resources = ctx.args.filter((a) => !a.includes('='));
  const pairs = ctx.args.filter((a) => a.includes('='));
  if (!resources.length || !pairs.length)
    return fail(`error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n${seeHelp('set image')}`);
  const targets = resolveTargets(ctx.client, resources);
  const errors: string[] = [];
  let output = '';
  for (const { t, obj } of objectsOf(ctx, targets, errors)) {
    const c = deepCopy(obj);
    const spec = podSpecOf(c);
    if (!spec) {
      errors.push(`error: ${typeName(t.info)}/${obj.metadata.name} the object is not a pod or does not have a pod template: ${obj.kind}`);
      continue;
    }
    let changed = false;
    // set_image.go: a name no container has is an error of its own; the others are patched all the same
    const missing: string[] = [];
    for (const p of pairs) {
      const [name, image] = [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)];
      const all = [...(spec.initContainers ?? []), ...(spec.containers ?? [])] as { name: string; image: string }[];
      const hits = name === '*' ? all : all.filter((x) => x.name === name);
      if (!hits.length) missing.push(name);
      for (const h of hits) {
        if (h.image !== image) changed = true;
        h.image = image;
      }
    }
    for (const m of missing) errors.push(`error: unable to find container named "${m}"`);
    if (!changed) continue;
    // set_image.go: a strategic merge patch (CreateTwoWayMergePatch of the object before and
    // after) under the field manager kubectl-set: the changed containers by their merge key name,
    // with $setElementOrder of each list that changed
    const r = tryStatus(() =>
      ctx.client
        .resource(t.info.group, t.info.resource)
        .patch(obj.metadata.namespace ?? '', obj.metadata.name, 'strategic', setImagePatch(obj, podSpecOf(obj)!, spec), {
          summary: `set image ${obj.metadata.name}`,
          fieldManager: 'kubectl-set',
        }),
    );
    // set_image.go prints the server's answer (the local object with --dry-run=client); a failed
    // PATCH reads "failed to patch image update to pod template: <the apiserver's message>"
    if (r.error)
      errors.push(`error: failed to patch image update to pod template: ${r.error.replace(/^Error from server \([^)]*\): /, '')}`);
    else output += printed(ctx, r.value!.object, typeName(t.info), 'image updated');
  }
  if (!output && !errors.length) return ok('');
  return { output, error: stderrOf(errors), exitCode: errors.length ? 1 : 0 };
}

type Container = { name: string; image?: string };

/**
 * The strategic merge patch `kubectl set image` sends (set_image.go through
 * CreateTwoWayMergePatch): for each container list with a changed image,
 * `$setElementOrder/<list>` (every container's name, in order) and the changed entries as
 * `{image, name}`, nested at the pod spec's path (spec, spec.template.spec or
 * spec.jobTemplate.spec.template.spec).
 */
export function setImagePatch(obj: KObject, before: KObject['spec'], after: KObject['spec']): Record<string, unknown> {
  const specPatch: Record<string, unknown> = {};
  const lists: [string, unknown][] = [];
  for (const list of ['containers', 'initContainers'] as const) {
    const was = (before?.[list] ?? []) as Container[];
    const now = (after?.[list] ?? []) as Container[];
    const changed = now.filter((c, i) => was[i]?.image !== c.image).map((c) => ({ image: c.image, name: c.name }));
    if (!changed.length) continue;
    setOwn(
      specPatch,
      `$setElementOrder/${list}`,
      now.map((c) => ({ name: c.name })),
    );
    lists.push([list, changed]);
  }
  // keys in encoding/json's sorted order, as kubectl sends them: the directives first
  for (const [list, changed] of lists) setOwn(specPatch, list, changed);
  if (obj.kind === 'Pod') return { spec: specPatch };
  if (obj.kind === 'CronJob') return { spec: { jobTemplate: { spec: { template: { spec: specPatch } } } } };
  return { spec: { template: { spec: specPatch } } };
}
