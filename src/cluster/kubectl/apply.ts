/**
 * `kubectl apply -f -` (client-side apply) of kubectl v1.33, as
 * staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (Run, applyOneObject),
 * apply/patcher.go (three-way patch, 5 retries on Conflict), the resource builder of
 * k8s.io/cli-runtime/pkg/resource (visitor.go StreamVisitor: parse errors and schema
 * errors stop the stream; mapper.go infoForData: "resource mapping not found …";
 * ContinueOnError) and the error printing of k8s.io/kubectl/pkg/cmd/util/helpers.go
 * (checkErr, StandardErrorMessage, MultipleErrors, AddSourceToErr).
 *
 * Every document's kind is resolved before any object is applied, so a CRD and its
 * instances in one file give "no matches for kind" for the instances, as kubectl does.
 */
import type { Client, ResourceClient } from '../client/clientset';
import { StatusError, kubectlErrorMessage } from '../api/errors';
import { apiVersionOf, parseApiVersion, type ResourceInfo } from '../api/resources';
import { deepCopy, type KObject } from '../api/types';
import { parseManifest } from './parse';
import { applyPatch, createThreeWayPatch, goJSON } from '../apimachinery/strategic-merge';
import { dropFields, unknownFields } from '../apimachinery/known-fields';
import { FIELD_MANAGER_SERVER_SIDE_APPLY, serverSideApplyObject } from './cmd/apply-server-side';

export interface ApplyOptions {
  /** File name used in messages; default "STDIN". */
  source?: string;
  dryRun?: 'client' | 'server' | false;
  /** Namespace for objects that name none; default "default". */
  defaultNamespace?: string;
  /** Field manager; default "kubectl-client-side-apply" ("kubectl" with `serverSide`). */
  fieldManager?: string;
  /** `--server-side`: PATCH application/apply-patch+yaml (cmd/apply-server-side.ts). */
  serverSide?: boolean;
  /** `--force-conflicts` (server-side only): take conflicting fields from their managers. */
  forceConflicts?: boolean;
  /** --validate: strict (default), warn, ignore. */
  validate?: 'strict' | 'warn' | 'ignore';
}

export interface ApplyResult {
  /** "deployment.apps/peekcart" (kubectl's name printer). */
  object: string;
  action: 'created' | 'configured' | 'unchanged' | 'serverside-applied' | 'error';
  namespace: string | null;
  kind?: string;
  name?: string;
  /** Exactly what kubectl prints on stderr for this object. */
  message?: string;
  /** Warnings kubectl prints as `Warning: …` (without the prefix). */
  warnings: string[];
  documentIndex: number;
  /** 1-based line where the document starts. */
  line: number;
}

/** The whole run: per-object results plus kubectl's stdout and stderr text. */
export interface ApplyRun {
  results: ApplyResult[];
  stdout: string;
  stderr: string;
}

/** The annotation client-side apply keeps the last applied configuration in. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const MAX_PATCH_RETRY = 5;

interface PendingError {
  /** index into results */
  result: number;
  /** builder errors are aggregated separately from per-object apply errors */
  phase: 'builder' | 'apply';
  /** a StatusError (printed via StandardErrorMessage) or plain text */
  status?: StatusError;
  text?: string;
  /** stops the stream (parse/schema errors) */
  fatal?: boolean;
}

interface Info {
  obj: KObject;
  info: ResourceInfo;
  namespace: string;
  name: string;
  result: number;
}

function objectName(kind: string, group: string, name: string): string {
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`;
}

/** resource.Info.String(): the mapping and name as kubectl prints them inside errors. */
function infoString(i: Info): string {
  const gv = `${i.info.group}/${i.info.version}`;
  return `Resource: "${gv}, Resource=${i.info.resource}", GroupVersionKind: "${gv}, Kind=${i.info.kind}"\nName: "${i.name}", Namespace: "${i.namespace}"`;
}

/** AddSourceToErr for a StatusError: prefixes the message with `error when <verb> "<source>": `. */
export function withSource(err: StatusError, verb: string, source: string): StatusError {
  return new StatusError({ ...err.status, message: `error when ${verb} "${source}": ${err.status.message}` });
}

function isObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/**
 * GetModifiedConfiguration: the object (annotations present, possibly empty, without the
 * last-applied key) as compact sorted JSON plus a newline.
 */
export function lastAppliedConfiguration(obj: KObject): string {
  const c = deepCopy(obj);
  c.metadata = c.metadata ?? ({} as KObject['metadata']);
  const ann = { ...(c.metadata.annotations ?? {}) };
  delete ann[LAST_APPLIED];
  c.metadata.annotations = ann;
  return `${goJSON(c)}\n`;
}

/** `kubectl apply -f -` of a (multi-document) manifest. See the file comment. */
export function applyManifest(client: Client, text: string, opts: ApplyOptions = {}): ApplyResult[] {
  return runApply(client, text, opts).results;
}

/** Like {@link applyManifest}, also returning kubectl's stdout and stderr text. */
export function runApply(client: Client, text: string, opts: ApplyOptions = {}): ApplyRun {
  const source = opts.source ?? 'STDIN';
  const defaultNs = opts.defaultNamespace ?? 'default';
  const validate = opts.validate ?? 'strict';
  const results: ApplyResult[] = [];
  const errors: PendingError[] = [];
  const infos: Info[] = [];
  const stdout: string[] = [];
  const registry = client.api.registry;

  // ---- builder: parse, validate schema basics, resolve every kind -------------------
  for (const chunk of parseManifest(text)) {
    if (chunk.error !== undefined) {
      results.push({
        object: '',
        action: 'error',
        namespace: null,
        warnings: [],
        documentIndex: chunk.index,
        line: chunk.errorLine ?? chunk.line,
      });
      errors.push({ result: results.length - 1, phase: 'builder', text: `error parsing ${source}: ${chunk.error}`, fatal: true });
      break;
    }
    const docs: unknown[] =
      isObject(chunk.value) && chunk.value.kind === 'List' && Array.isArray(chunk.value.items) ? chunk.value.items : [chunk.value];
    let stop = false;
    for (const v of docs) {
      const base = { warnings: [] as string[], documentIndex: chunk.index, line: chunk.line };
      if (!isObject(v)) {
        results.push({ object: '', action: 'error', namespace: null, ...base });
        errors.push({
          result: results.length - 1,
          phase: 'builder',
          text: `unable to decode "${source}": json: cannot unmarshal ${jsonTypeName(v)} into Go value of type unstructured.detector`,
        });
        continue;
      }
      const missing = [
        typeof v.apiVersion === 'string' && v.apiVersion ? null : 'apiVersion not set',
        typeof v.kind === 'string' && v.kind ? null : 'kind not set',
      ].filter((x): x is string => !!x);
      if (missing.length && validate !== 'ignore') {
        results.push({ object: '', action: 'error', namespace: null, ...base });
        const detail = missing.length === 1 ? missing[0] : `[${missing.join(', ')}]`;
        errors.push({
          result: results.length - 1,
          phase: 'builder',
          text: `error validating "${source}": error validating data: ${detail}; if you choose to ignore these errors, turn validation off with --validate=false`,
          fatal: true,
        });
        stop = true;
        break;
      }
      if (!v.kind) {
        results.push({ object: '', action: 'error', namespace: null, ...base });
        errors.push({
          result: results.length - 1,
          phase: 'builder',
          text: `unable to decode "${source}": Object 'Kind' is missing in '${goJSON(v)}'`,
        });
        continue;
      }
      const meta = isObject(v.metadata) ? v.metadata : {};
      const name = typeof meta.name === 'string' ? meta.name : '';
      const fileNs = typeof meta.namespace === 'string' ? meta.namespace : '';
      const apiVersion = String(v.apiVersion ?? '');
      const [group] = parseApiVersion(apiVersion);
      const info = registry.forKind(apiVersion, String(v.kind));
      if (!info) {
        results.push({
          object: objectName(String(v.kind), group, name),
          action: 'error',
          namespace: fileNs || null,
          kind: String(v.kind),
          name,
          ...base,
        });
        errors.push({
          result: results.length - 1,
          phase: 'builder',
          text: `resource mapping not found for name: "${name}" namespace: "${fileNs}" from "${source}": no matches for kind "${v.kind}" in version "${apiVersion}"\nensure CRDs are installed first`,
        });
        continue;
      }
      const namespace = info.namespaced ? fileNs || defaultNs : '';
      const obj = deepCopy(v) as KObject;
      obj.metadata = isObject(obj.metadata) ? obj.metadata : ({} as KObject['metadata']);
      if (info.namespaced) obj.metadata.namespace = namespace;
      results.push({
        object: objectName(info.kind, info.group, name),
        action: 'error',
        namespace: info.namespaced ? namespace : null,
        kind: info.kind,
        name,
        ...base,
      });
      infos.push({ obj, info, namespace, name, result: results.length - 1 });
    }
    if (stop) break;
  }

  // ---- apply each object ------------------------------------------------------------
  for (const i of infos) {
    const r = results[i.result];
    try {
      const outcome = applyOne(client, i, r, source, opts, validate);
      if (outcome.error) errors.push({ result: i.result, phase: 'apply', ...outcome.error });
      else {
        r.action = outcome.action!;
        const suffix = opts.dryRun === 'client' ? ' (dry run)' : opts.dryRun === 'server' ? ' (server dry run)' : '';
        stdout.push(`${r.object} ${r.action}${suffix}`);
      }
    } catch (e) {
      errors.push({ result: i.result, phase: 'apply', text: String((e as Error)?.message ?? e) });
    }
  }

  // ---- messages, as checkErr prints them -----------------------------------------
  const builder = errors.filter((e) => e.phase === 'builder');
  const apply = errors.filter((e) => e.phase === 'apply');
  const topLevel = (builder.length ? 1 : 0) + apply.length;
  const lines: string[] = [];
  const single = topLevel === 1 && builder.length <= 1;
  for (const e of errors) {
    const r = results[e.result];
    r.action = 'error';
    if (single) {
      r.message = e.status ? kubectlErrorMessage(e.status) : e.text!.startsWith('error: ') ? e.text! : `error: ${e.text}`;
    } else {
      r.message = e.status ? `Error from server (${e.status.reason}): ${e.status.message}` : e.text!;
    }
  }
  if (single) lines.push(results[errors[0].result].message!);
  else if (topLevel > 0) {
    if (builder.length)
      lines.push(
        apply.length
          ? builder.length === 1
            ? builder[0].text!
            : `[${builder.map((b) => b.text).join(', ')}]`
          : builder.map((b) => b.text!).join('\n'),
      );
    for (const e of apply) lines.push(results[e.result].message!);
  }
  const warnLines = results.flatMap((r) => r.warnings.map((w) => `Warning: ${w}`));
  const stderr = [...warnLines, ...lines].join('\n');
  return { results, stdout: stdout.length ? `${stdout.join('\n')}\n` : '', stderr: stderr ? `${stderr}\n` : '' };
}

interface Outcome {
  action?: ApplyResult['action'];
  error?: { status?: StatusError; text?: string };
}

function applyOne(
  client: Client,
  i: Info,
  r: ApplyResult,
  source: string,
  opts: ApplyOptions,
  validate: 'strict' | 'warn' | 'ignore',
): Outcome {
  const rc = client.resourceAt(i.info); // the manifest's own version (kubectl's REST mapping)
  const obj = i.obj;
  if (!i.name) {
    if (typeof obj.metadata.generateName === 'string' && obj.metadata.generateName)
      return { error: { text: `from ${obj.metadata.generateName}: cannot use generate name with apply` } };
    return {
      error: {
        text: `error when retrieving current configuration of:\n${infoString(i)}\nfrom server for: "${source}": resource name may not be empty`,
      },
    };
  }
  if (opts.serverSide) {
    if (opts.dryRun === 'client') return { action: 'serverside-applied' };
    const fv = validate === 'strict' ? 'Strict' : validate === 'warn' ? 'Warn' : 'Ignore';
    const out = serverSideApplyObject(rc, i.namespace, i.name, obj, {
      fieldManager: opts.fieldManager ?? FIELD_MANAGER_SERVER_SIDE_APPLY,
      force: !!opts.forceConflicts,
      dryRun: opts.dryRun === 'server',
      fieldValidation: fv,
    });
    r.warnings.push(...out.warnings);
    return out.error ? { error: out.error } : { action: 'serverside-applied' };
  }
  // server-side field validation (strict decoding) of the body
  const unknown = unknownFields(i.info.kind, obj);
  const strictError = (verb: string): StatusError => {
    const v = i.info.version;
    const msg = `${i.info.kind} in version "${v}" cannot be handled as a ${i.info.kind}: strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`;
    return withSource(
      new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: msg, reason: 'BadRequest', code: 400 }),
      verb,
      source,
    );
  };
  if (unknown.length) {
    if (validate === 'warn') for (const u of unknown) r.warnings.push(`unknown field "${u}"`);
    if (validate !== 'strict') dropFields(obj as Record<string, unknown>, unknown);
  }
  const fieldValidation = validate === 'strict' ? 'Strict' : validate === 'warn' ? 'Warn' : 'Ignore';
  const writeOpts = {
    dryRun: opts.dryRun === 'server',
    fieldManager: opts.fieldManager ?? 'kubectl-client-side-apply',
    fieldValidation,
  } as const;

  const lastApplied = lastAppliedConfiguration(obj);
  const modified = deepCopy(obj);
  modified.metadata.annotations = { ...(modified.metadata.annotations ?? {}), [LAST_APPLIED]: lastApplied };

  let live: KObject | undefined;
  try {
    live = rc.get(i.namespace, i.name);
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    if (e.reason !== 'NotFound')
      return { error: { status: withSource(e, `retrieving current configuration of:\n${infoString(i)}\nfrom server for:`, source) } };
  }
  if (!live) {
    if (opts.dryRun === 'client') return { action: 'created' };
    if (unknown.length && validate === 'strict') return { error: { status: strictError('creating') } };
    try {
      const res = rc.createWithWarnings(i.namespace, modified, writeOpts);
      r.warnings.push(...res.warnings);
      return { action: 'created' };
    } catch (e) {
      if (e instanceof StatusError) return { error: { status: withSource(e, 'creating', source) } };
      throw e;
    }
  }
  if (opts.dryRun === 'client') return { action: 'configured' };
  if (!live.metadata.annotations?.[LAST_APPLIED]) {
    r.warnings.push(
      `resource ${i.info.resource}/${i.name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.`,
    );
  }
  return patchWithRetries(rc, i, live, modified, source, writeOpts, r, unknown.length > 0 && validate === 'strict' ? strictError : null);
}

function patchWithRetries(
  rc: ResourceClient,
  i: Info,
  live: KObject,
  modified: KObject,
  source: string,
  writeOpts: { dryRun: boolean; fieldManager: string; fieldValidation: 'Strict' | 'Warn' | 'Ignore' },
  r: ApplyResult,
  strictError: ((verb: string) => StatusError) | null,
): Outcome {
  const patchOpts = { kind: i.info.kind, strategic: !i.info.custom };
  let current = live;
  let patch: Record<string, unknown> = {};
  let lastErr: StatusError | undefined;
  for (let attempt = 0; attempt <= MAX_PATCH_RETRY; attempt++) {
    if (attempt > 0) {
      try {
        current = rc.get(i.namespace, i.name);
      } catch (e) {
        if (e instanceof StatusError) return { error: { status: e } };
        throw e;
      }
    }
    let original: Record<string, unknown> | null = null;
    const la = current.metadata.annotations?.[LAST_APPLIED];
    if (la) {
      try {
        original = JSON.parse(la);
      } catch {
        original = null;
      }
    }
    patch = createThreeWayPatch(original, modified as Record<string, unknown>, current as Record<string, unknown>, patchOpts);
    if (Object.keys(patch).length === 0) return { action: 'unchanged' };
    if (strictError) {
      lastErr = strictError('patching');
      break;
    }
    const next = applyPatch(current as Record<string, unknown>, patch, patchOpts) as KObject;
    next.metadata = next.metadata ?? current.metadata;
    const rv = (patch.metadata as Record<string, unknown> | undefined)?.resourceVersion;
    next.metadata.resourceVersion = typeof rv === 'string' ? rv : current.metadata.resourceVersion;
    try {
      const res = rc.updateWithWarnings(next, writeOpts);
      r.warnings.push(...res.warnings);
      return { action: 'configured' };
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      lastErr = e;
      if (e.reason !== 'Conflict') break;
    }
  }
  const err = lastErr!;
  const msg = strictError ? err.status.message.replace(/^error when patching "[^"]*": /, '') : err.status.message;
  return {
    error: {
      status: new StatusError({
        ...err.status,
        message: `error when applying patch:\n${goJSON(patch)}\nto:\n${infoString(i)}\nfor: "${source}": ${msg}`,
      }),
    },
  };
}

/** The resource info kubectl resolved for an apiVersion/kind (for callers that print names). */
export function resolveKind(
  client: Client,
  apiVersion: string,
  kind: string,
): { resource: string; group: string; apiVersion: string } | undefined {
  const i = client.api.registry.forKind(apiVersion, kind);
  return i ? { resource: i.resource, group: i.group, apiVersion: apiVersionOf(i) } : undefined;
}
