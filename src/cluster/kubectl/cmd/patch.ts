/**
 * `kubectl patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE] [--type
 * strategic|merge|json] [--subresource status|scale]`, after
 * staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go: Validate (the --patch/--patch-file/--local/
 * --type errors), RunPatch (the patch text through k8s.io/apimachinery/pkg/util/yaml.ToJSON:
 * a text starting with `{` is sent as is, anything else is YAML converted to JSON, its error as
 * `unable to parse "…": yaml: …`), the resource builder's GET of each object (ContinueOnError),
 * then PATCH through the apiserver (resource.Helper, field manager `kubectl-patch`, dryRun for
 * --dry-run=server) or, for --dry-run=client and --local, getPatchedJSON locally. The name
 * printer says `patched`, or `patched (no change)` when the object the server returns equals
 * the one read (reflect.DeepEqual; no " (dry run)" suffix: patch sets the printer's operation
 * itself). The scale subresource is the autoscaling/v1 Scale view the HTTP layer serves.
 */
import { StatusError, kubectlErrorMessage } from '../../api/errors';
import { deepCopy, type KObject } from '../../api/types';
import type { ResourceInfo } from '../../api/resources';
import type { PatchType } from '../../apiserver/patch';
import { applyJSONPatch, applyMergePatch } from '../../apiserver/patch-json';
import { patchScaleDocument, scaleOf } from '../../apiserver/scale';
import { applyPatch as strategicMerge } from '../../apimachinery/strategic-merge';
import { parseManifest } from '../parse';
import { objectsOf, printed } from './mutate';
import { sortKeys } from './output';
import { KubectlError, fail, resolveTargets, resolveType, stderrOf, typeName, type Ctx, type FlagSpec, type KubectlResult } from './util';

/** Flags of `kubectl patch`. */
export const PATCH_FLAGS: FlagSpec = {
  patch: { short: 'p' },
  'patch-file': {},
  type: {},
  subresource: {},
  'dry-run': {},
  output: { short: 'o' },
  filename: { short: 'f' },
  kustomize: { short: 'k' },
  recursive: { bool: true, short: 'R' },
  local: { bool: true },
  'field-manager': {},
  record: { bool: true },
  'show-managed-fields': { bool: true },
  'allow-missing-template-keys': { bool: true },
  template: {},
};

/** patch.go patchTypes: --type (lower-cased) → the PATCH content type. */
const PATCH_TYPES: Record<string, PatchType> = { json: 'json', merge: 'merge', strategic: 'strategic' };

/** types.PatchType's media type, as patch.go's UnsupportedMediaType wrap prints it. */
const MEDIA_TYPE: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** schema.GroupVersionKind.String(): "apps/v1, Kind=Deployment", "/v1, Kind=Pod". */
function gvkString(info: ResourceInfo): string {
  return `${info.group}/${info.version}, Kind=${info.kind}`;
}

/** 404 of a path the apiserver does not serve (an unknown subresource). */
function notFoundPath(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}

/**
 * kubectl's CheckErr text for an apiserver error: a 422 without details (the json-patch
 * library's failures) reads "The request is invalid: …" (cmd/util/helpers.go checkErr).
 */
function errorText(e: StatusError): string {
  const s = e.status;
  if (s.reason === 'Invalid' && !s.details) return s.message ? `The request is invalid: ${s.message}` : 'The request is invalid';
  return kubectlErrorMessage(e);
}

/**
 * yaml.ToJSON: `{`-prefixed text is JSON already (sent unparsed; a malformed one fails at the
 * apiserver's decoder, see decodeJSON), anything else YAML. @returns the value, or kubectl's
 * "unable to parse" error.
 */
function patchValue(text: string): { json: string } | { value: unknown } | { error: string } {
  if (text.trimStart().startsWith('{')) return { json: text };
  const chunks = parseManifest(text);
  const bad = chunks.find((c) => c.error);
  if (bad) {
    // sigs.k8s.io/yaml.YAMLToJSON returns go-yaml's error bare; go-yaml names no line for a
    // scanner error on the first line (problem_mark.line == 0)
    let msg = bad.error!.replace(/^error converting YAML to JSON: /, '');
    if (/mapping values are not allowed|cannot start any token/.test(msg)) msg = msg.replace(/^yaml: line 1: /, 'yaml: ');
    return { error: `error: unable to parse ${JSON.stringify(text)}: ${msg}` };
  }
  return { value: chunks[0]?.value ?? null };
}

/** The apiserver's decoding of a JSON request body (src/server/rest.ts bodyOf). */
function decodeJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `error decoding JSON: ${(err as Error).message}`,
      reason: 'BadRequest',
      code: 400,
    });
  }
}

/** getPatchedJSON: the patch applied locally (--dry-run=client, --local). */
function patchLocally(info: ResourceInfo, obj: KObject, type: PatchType, body: unknown): KObject {
  try {
    if (type === 'json') return applyJSONPatch(obj, body) as KObject;
    if (type === 'merge') return applyMergePatch(obj, body as never) as KObject;
  } catch (err) {
    throw new KubectlError(`error: ${(err as Error).message}`);
  }
  if (info.custom) throw new KubectlError(`error: strategic merge patch is not supported for ${gvkString(info)} locally, try --type merge`);
  return strategicMerge(obj as never, body as never, { kind: info.kind, strategic: true }) as unknown as KObject;
}

/** PATCH of …/scale: the patch applied to the Scale, spec.replicas written back to the object. */
function patchScale(ctx: Ctx, info: ResourceInfo, obj: KObject, type: PatchType, body: unknown, dryRun: boolean): KObject {
  const scale = patchScaleDocument(info, obj, type, body);
  const replicas = scale?.spec?.replicas;
  const name = obj.metadata.name;
  if (typeof replicas !== 'number' || replicas < 0) {
    const message = typeof replicas !== 'number' ? 'Required value' : `Invalid value: ${replicas}: must be greater than or equal to 0`;
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Scale.autoscaling "${name}" is invalid: spec.replicas: ${message}`,
      reason: 'Invalid',
      details: {
        name,
        group: 'autoscaling',
        kind: 'Scale',
        causes: [{ reason: typeof replicas !== 'number' ? 'FieldValueRequired' : 'FieldValueInvalid', message, field: 'spec.replicas' }],
      },
      code: 422,
    });
  }
  const next = deepCopy(obj);
  next.spec = { ...next.spec, replicas };
  const written = ctx.client.resource(info.group, info.resource).update(next, {
    dryRun,
    fieldManager: ctx.flags.get('field-manager') || 'kubectl-patch',
    summary: `scale ${info.kind} ${obj.metadata.namespace}/${name} to ${replicas}`,
  });
  return scaleOf(info, written);
}

/** The objects of `-f -` (stdin), each with its resource type. */
function fileObjects(ctx: Ctx): { info: ResourceInfo; obj: KObject }[] {
  const out: { info: ResourceInfo; obj: KObject }[] = [];
  for (const c of parseManifest(ctx.env.stdin ?? '')) {
    if (c.error) throw new KubectlError(`error: error parsing STDIN: ${c.error}`);
    const o = c.value as KObject;
    const info = resolveType(ctx.client, o.kind);
    out.push({ info, obj: o });
  }
  return out;
}

/** Runs `kubectl patch`. */
export function runPatch(ctx: Ctx): KubectlResult {
  const patch = ctx.flags.get('patch') ?? '';
  const patchFile = ctx.flags.get('patch-file') ?? '';
  const local = ctx.flags.has('local') && ctx.flags.get('local') !== 'false';
  const dry = ctx.flags.get('dry-run');
  const dryMode = dry === 'client' || dry === 'true' ? 'client' : dry === 'server' ? 'server' : null;
  // Validate
  if (patch && patchFile) return fail('error: cannot specify --patch and --patch-file together');
  if (!patch && !patchFile) return fail('error: must specify --patch or --patch-file containing the contents of the patch');
  if (local && ctx.args.length) return fail('error: cannot specify --local and server resources');
  if (local && dryMode === 'server') return fail('error: cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
  const typeFlag = ctx.flags.get('type') ?? 'strategic';
  // an empty --type is strategic (RunPatch's default)
  const type = typeFlag ? PATCH_TYPES[typeFlag.toLowerCase()] : 'strategic';
  if (!type) return fail(`error: --type must be one of [json merge strategic], not "${typeFlag}"`);
  // RunPatch: the bar has no file system (only -f - reaches here, see command.ts)
  if (patchFile) return fail(`error: unable to read patch file: open ${patchFile}: no such file or directory`);
  const parsed = patchValue(patch);
  if ('error' in parsed) return fail(parsed.error);
  const sub = ctx.flags.get('subresource') ?? '';

  // the resource builder: -f - or TYPE NAME… / TYPE/NAME…, each object read first
  const errors: string[] = [];
  const found: { info: ResourceInfo; obj: KObject }[] = [];
  if (ctx.flags.has('filename')) {
    if (ctx.args.length) return fail('error: Unexpected args: [' + ctx.args.join(' ') + ']');
    for (const { info, obj } of fileObjects(ctx)) {
      if (local) found.push({ info, obj });
      else {
        const ns = info.namespaced ? (obj.metadata?.namespace ?? ctx.namespace) : '';
        try {
          found.push({ info, obj: ctx.client.resource(info.group, info.resource).get(ns, obj.metadata?.name ?? '', { quiet: true }) });
        } catch (e) {
          if (!(e instanceof StatusError)) throw e;
          errors.push(errorText(e));
        }
      }
    }
  } else if (local) {
    return fail('error: must specify -f and --local');
  } else {
    if (!ctx.args.length)
      return fail(
        `error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'`,
      );
    const targets = resolveTargets(ctx.client, ctx.args);
    if (sub) {
      // GET …/NAME/SUBRESOURCE of a path the apiserver does not serve
      const missing = targets.filter((t) => !t.info.subresources.includes(sub));
      if (missing.length) return fail(errorText(notFoundPath()));
      if (sub !== 'status' && sub !== 'scale') return fail(`error: --subresource=${sub} is not supported in kube-relay`);
    }
    for (const { t, obj } of objectsOf(ctx, targets, errors)) found.push({ info: t.info, obj });
  }

  let output = '';
  const warnings: string[] = [];
  for (const { info, obj } of found) {
    try {
      const body = 'json' in parsed ? decodeJSON(parsed.json) : parsed.value;
      const before = sub === 'scale' ? scaleOf(info, obj) : obj;
      const shown = sub === 'scale' ? 'scale.autoscaling' : typeName(info);
      let after: KObject;
      if (local || dryMode === 'client') after = patchLocally(info, before, type, body);
      else if (sub === 'scale') after = patchScale(ctx, info, obj, type, body, dryMode === 'server');
      else {
        try {
          const r = ctx.client.resource(info.group, info.resource).patch(obj.metadata.namespace ?? '', obj.metadata.name, type, body, {
            dryRun: dryMode === 'server',
            fieldManager: ctx.flags.get('field-manager') || 'kubectl-patch',
            subresource: sub === 'status' ? 'status' : undefined,
          });
          after = r.object;
          // the server's warnings (unknown fields), printed by client-go's warning handler
          for (const w of r.warnings) warnings.push(`Warning: ${w}`);
        } catch (e) {
          // patch.go: apierrors.IsUnsupportedMediaType → errors.Wrap(err, "<type> is not supported by <gvk>")
          if (e instanceof StatusError && e.status.code === 415)
            throw new KubectlError(`error: ${MEDIA_TYPE[type]} is not supported by ${gvkString(info)}: ${e.status.message}`);
          throw e;
        }
      }
      // reflect.DeepEqual(info.Object, patchedObj)
      const same = JSON.stringify(sortKeys(before)) === JSON.stringify(sortKeys(after));
      output += printed(ctx, after, shown, same ? 'patched (no change)' : 'patched');
    } catch (e) {
      if (e instanceof StatusError) errors.push(errorText(e));
      else if (e instanceof KubectlError) errors.push(e.message);
      else throw e;
    }
  }
  if (!found.length && !errors.length) return fail('error: no objects passed to patch');
  return { output, error: stderrOf([...warnings, ...errors]), exitCode: errors.length ? 1 : 0 };
}
