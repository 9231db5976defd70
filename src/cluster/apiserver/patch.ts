/**
 * PATCH, as staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go does it: read the
 * live object, apply the patch document (JSON patch, JSON merge patch, strategic merge patch
 * for built-in kinds, server-side apply), then run the result through the ordinary update
 * pipeline (admission, validation, optimistic concurrency). Server-side apply of an object
 * that does not exist creates it. Every write through here records managedFields
 * (see patch-managed-fields.ts for the subset modelled).
 */
import type { APIServer, RequestUser, WriteOptions, WriteResult } from './apiserver';
import { apiVersionOf, groupResource, type ResourceInfo } from '../api/resources';
import { StatusError, newBadRequest, newInvalid, newNotFound } from '../api/errors';
import { deepCopy, type KObject } from '../api/types';
import { applyPatch as strategicMerge, goJSON, StrategicMergePatchError } from '../apimachinery/strategic-merge';
import { decodeTypeError, goKindKey } from './decode';
import { fromUnstructuredError, goPrintV, newPatchInvalid as newPatchDecodeInvalid } from './patch-errors';
import { PatchApplyError, applyJSONPatch, applyMergePatch } from './patch-json';
import { dropFields, unknownFields } from '../apimachinery/known-fields';
import { applyGoZeroValues, exceedsDepth } from './body-limits';
import { fieldManagerOf, leafPaths, liveEntries, managedFieldsForUpdate, serverSetOnCreate, serverSideApply } from './patch-managed-fields';

/** The four patch types (types.PatchType). */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** Content-Type of a PATCH request → patch type. */
export const PATCH_MEDIA_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** Options of a patch: the write options plus `force` (server-side apply only). */
export interface PatchOptions extends WriteOptions {
  /** `force=true`: server-side apply takes conflicting fields from their managers. */
  force?: boolean;
  subresource?: 'status';
}

/** The result of a patch: the stored object, warnings, and whether apply created it (201). */
export interface PatchResult extends WriteResult {
  created: boolean;
}

/** 415 for a strategic merge patch of a custom resource (patch.go, the apiserver's accepted list). */
export function newUnsupportedPatch(custom: boolean): StatusError {
  const accepted = custom
    ? 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'
    : 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json';
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted}`,
    reason: 'UnsupportedMediaType',
    code: 415,
  });
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * lastappliedmanager.go allowedConflictsFromLastApplied: the fields of the live object's
 * last-applied-configuration whose live value is still the one applied (neither modified nor
 * removed since); undefined without the annotation (or with one that is not a JSON object).
 */
export function allowedConflictsFromLastApplied(live: KObject): Set<string> | undefined {
  const text = live.metadata.annotations?.[LAST_APPLIED];
  if (typeof text !== 'string') return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!last || typeof last !== 'object' || Array.isArray(last)) return undefined;
  const livePaths = leafPaths(live);
  const out = new Set<string>();
  for (const [p, v] of leafPaths(last as KObject))
    if (livePaths.has(p) && JSON.stringify(livePaths.get(p)) === JSON.stringify(v)) out.add(p);
  return out;
}

/**
 * lastappliedupdater.go buildLastApplied + setLastApplied: the applied configuration, without
 * the annotation itself, encoded as unstructured JSON (keys sorted, no trailing newline).
 */
function setLastApplied(next: KObject, cfg: KObject): void {
  const c = deepCopy(cfg);
  // an annotations map the configuration had stays (empty: `{}`), as Unstructured.SetAnnotations keeps it
  if (c.metadata?.annotations && typeof c.metadata.annotations === 'object') {
    const ann = { ...c.metadata.annotations };
    delete ann[LAST_APPLIED];
    c.metadata.annotations = ann;
  }
  next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [LAST_APPLIED]: goJSON(c) };
}

/**
 * A JSON patch that does not apply: patch.go answers errors.NewGenericServerResponse(422, "",
 * GroupResource{}, "", err.Error(), 0, false), whose message is the fixed 422 text — the
 * json-patch library's own words (`testing value /x failed: test failed`) are not sent.
 * kubectl prints `The request is invalid: the server rejected our request due to an error in our request`.
 */
export function newPatchInvalid(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: {},
    code: 422,
  });
}

/**
 * metadata.managedFields of an object about to be stored by an Update (create, PUT, non-apply
 * PATCH), as the fieldmanager does it (fieldmanager.go UpdateNoErrors): the request's
 * managedFields when it sends some (kubectl's CSA→SSA migration replaces them), else the live
 * object's; the writer (`opts.fieldManager`, else its User-Agent prefix) takes the fields it
 * changed. A status write tracks status (and, for Deployments, annotations) only.
 */
export function managedFieldsOnWrite(
  api: APIServer,
  user: RequestUser,
  info: ResourceInfo,
  old: KObject | undefined,
  obj: KObject,
  input: KObject,
  opts: WriteOptions,
  statusAnnotations = false,
): void {
  // the stored entries are shared, not copied: entries are immutable (copy-on-write, see
  // managed-fields-diff.ts), as the stored object itself is
  const sent = opts.subresource === 'status' ? undefined : input.metadata?.managedFields;
  const live = old ? liveEntries(old.metadata.managedFields, sent) : Array.isArray(sent) && sent.length ? undefined : [];
  const manager = opts.fieldManager || fieldManagerOf(user);
  // the diff reads `next` and never writes it: an object that has its kind already is read as it
  // is (a copy would have the same keys in the same order); the request body is read only where
  // admission sets fields (serverSet)
  const next = obj.kind === info.kind ? obj : { ...obj, kind: info.kind };
  const serverSet = old ? undefined : serverSetOnCreate(groupResource(info));
  const mf = managedFieldsForUpdate(
    old,
    next,
    manager,
    apiVersionOf(info),
    api.clock.nowRFC3339(),
    opts.subresource ?? opts.viaSubresource,
    {
      statusAnnotations,
      live,
      ...(old ? {} : { serverSet, input: serverSet ? { ...input, kind: info.kind } : undefined }),
    },
  );
  if (mf.length) obj.metadata.managedFields = mf as KObject['metadata']['managedFields'];
  else delete obj.metadata.managedFields;
}

/**
 * patch: PATCH …/{resource}/{name}[/status] with a parsed patch document (`body`: the
 * JSON value of the request; for `apply`, the YAML/JSON applied configuration).
 * The patched document of a built-in kind is decoded as the apiserver does (decodePatched):
 * unknown fields (a top-level `__proto__`) are dropped with a warning in `warnings`.
 * @throws StatusError 404 (not found, except apply), 415 (strategic merge of a custom
 * resource), 400 (malformed patch, nesting deeper than 10,000), 413 (more than 10,000 JSON
 * patch operations), 422 (a JSON patch that does not apply, a patched document that does not
 * decode, unknown fields with fieldValidation=Strict, invalid result), 409 (apply conflict,
 * stale resourceVersion).
 */
export function patchObject(
  api: APIServer,
  user: RequestUser,
  info: ResourceInfo,
  namespace: string,
  name: string,
  type: PatchType,
  body: unknown,
  opts: PatchOptions = {},
): PatchResult {
  const ns = info.namespaced ? namespace : '';
  // the authorization filter runs before the handler: `patch` (apply creating also needs `create`, checked by create)
  api.authorizeRequest(user, 'patch', info, ns, name, opts.subresource ?? '');
  const current = api.getObject(groupResource(info), ns, name);
  const strategic = !info.custom;
  if (type === 'strategic' && !strategic) throw newUnsupportedPatch(true);
  const time = api.clock.nowRFC3339();
  const summary = opts.summary ?? `patch (${type}) ${info.kind} ${info.namespaced ? `${ns}/` : ''}${name}`;
  if (type === 'apply') {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw newBadRequest('error decoding YAML: the applied configuration must be an object');
    const cfg = body as KObject;
    if (!cfg.kind || !cfg.apiVersion) throw newBadRequest('invalid object type: /, Kind=');
    if (cfg.metadata?.name && cfg.metadata.name !== name)
      throw newBadRequest('the name of the object (' + cfg.metadata.name + ') does not match the name on the URL (' + name + ')');
    // structured-merge-diff refuses fields the schema does not declare, whatever fieldValidation
    // says (fieldmanager/internal/structuredmerge.go Apply: "failed to create typed patch object")
    const unknown = info.custom ? [] : unknownFields(info.kind, cfg);
    if (unknown.length) {
      const errs = unknown.map((u) => `.${u}: field not declared in schema`);
      throw newBadRequest(
        `failed to create typed patch object (${ns}/${name}; ${info.group ? `${info.group}/` : '/'}${info.version}, Kind=${info.kind}): ${errs.length === 1 ? errs[0] : `errors:\n  ${errs.join('\n  ')}`}`,
      );
    }
    const applied = deepCopy(cfg);
    applied.metadata = { ...applied.metadata, name };
    if (info.namespaced) applied.metadata.namespace = ns;
    const merge = (cur: KObject, c: KObject): KObject =>
      strategicMerge(cur as never, c as never, { kind: info.kind, strategic }) as unknown as KObject;
    const manager = opts.fieldManager || 'unknown';
    const next = serverSideApply(current, applied, merge, {
      manager,
      force: !!opts.force,
      apiVersion: apiVersionOf(info),
      time,
      allowedConflicts: manager === 'kubectl' && current ? allowedConflictsFromLastApplied(current) : undefined,
    });
    // lastappliedupdater.go: kubectl's server-side apply keeps an existing last-applied annotation in step
    if (manager === 'kubectl' && current?.metadata.annotations?.[LAST_APPLIED] !== undefined) setLastApplied(next, cfg);
    if (!current)
      return { ...api.create(user, info, ns, next, { ...opts, summary, managedFieldsSet: true, authzVerb: 'patch' }), created: true };
    next.metadata.resourceVersion = current.metadata.resourceVersion;
    return { ...api.update(user, info, ns, next, { ...opts, summary, managedFieldsSet: true, authzVerb: 'patch' }), created: false };
  }
  if (!current) throw newNotFound(groupResource(info), name);
  if (exceedsDepth(body)) throw newBadRequest('error decoding patch: exceeded max depth');
  if (type === 'json' && Array.isArray(body) && body.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${body.length}`,
      reason: 'RequestEntityTooLarge',
      code: 413,
    });
  }
  let patched: KObject;
  try {
    if (type === 'json') patched = applyJSONPatch(current, body) as KObject;
    else if (type === 'merge') patched = applyMergePatch(current, body) as KObject;
    else patched = strategicMerge(current as never, body as never, { kind: info.kind, strategic: true }) as unknown as KObject;
  } catch (err) {
    if (err instanceof PatchApplyError) throw newPatchInvalid();
    // interpretStrategicMergePatchError: a merge error that is not a metav1.Status reaches
    // ErrorToAPIStatus, which answers 500 with StatusReasonUnknown ("") and the bare text
    if (err instanceof StrategicMergePatchError && err.code === 500) {
      throw new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: err.message,
        reason: '',
        code: 500,
      });
    }
    throw newBadRequest(err instanceof Error ? err.message : String(err));
  }
  if (!patched || typeof patched !== 'object' || Array.isArray(patched)) throw newBadRequest('the patch did not produce an object');
  // patch.go: the result must fit the kind's Go types (patch-errors.ts) — 422, not the create/update 400
  if (!info.custom) {
    if (type === 'strategic') {
      const err = fromUnstructuredError(info, patched);
      if (err !== undefined) throw newPatchDecodeInvalid(goPrintV(body), err);
    } else {
      const key = goKindKey(info.group, info.version, info.kind);
      const err = key && decodeTypeError(key, patched);
      if (err) throw newPatchDecodeInvalid(goJSON(patched), err);
    }
  }
  const warnings = decodePatched(info, patched, opts.fieldValidation);
  patched.metadata = patched.metadata ?? {};
  if (patched.metadata.name !== name) patched.metadata.name = name;
  if (opts.subresource !== 'status' && !patched.metadata.resourceVersion)
    patched.metadata.resourceVersion = current.metadata.resourceVersion;
  const r = api.update(user, info, ns, patched, { ...opts, summary, authzVerb: 'patch' });
  return { ...r, warnings: [...warnings, ...r.warnings], created: false };
}

/** handlers/patch.go maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/**
 * jsonPatcher.applyPatchToCurrentObject's DecodeInto of the patched document (built-in kinds):
 * a field of the wrong JSON type (`metadata` replaced by a string) is 422 `patch: Invalid
 * value: "<patched JSON>": json: cannot unmarshal …`; unknown fields (a top-level `__proto__`,
 * `metadata.constructor`) are dropped with a warning (fieldValidation Warn, the default when
 * the client names none), rejected with Strict (422 `strict decoding error: unknown field …`),
 * dropped silently with Ignore. JSON nulls become Go zero values. Edits `patched` in place.
 * @returns the warnings
 * @throws StatusError 422
 */
function decodePatched(info: ResourceInfo, patched: KObject, fieldValidation: WriteOptions['fieldValidation']): string[] {
  if (info.custom) return [];
  const key = goKindKey(info.group, info.version, info.kind);
  if (!key) return [];
  const invalidPatch = (detail: string) => newInvalid('', '', [{ type: 'Invalid', field: 'patch', value: goJSON(patched), detail }]);
  const typeErr = decodeTypeError(key, patched);
  if (typeErr !== undefined) throw invalidPatch(typeErr);
  const unknown = unknownFields(info.kind, patched);
  if (unknown.length) {
    if (fieldValidation === 'Strict') throw invalidPatch(`strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`);
    dropFields(patched as unknown as Record<string, unknown>, unknown);
  }
  applyGoZeroValues(info, patched);
  return fieldValidation === 'Ignore' ? [] : unknown.map((u) => `unknown field "${u}"`);
}
