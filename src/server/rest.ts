/**
 * The resource endpoints of kube-apiserver over HTTP, in front of the engine's APIServer
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers: get.go, create.go, update.go,
 * patch.go, delete.go, watch.go, and the pods subresources of pkg/registry/core/pod/rest).
 *
 * Paths: /api/v1[/namespaces/NS]/RESOURCE[/NAME[/SUB]] and /apis/G/V/…; verbs get, list,
 * watch, create, update, patch, delete, deletecollection; subresources status, scale,
 * binding, eviction, token (serviceaccounts), log, finalize. Query parameters: dryRun, fieldManager,
 * fieldValidation, force, labelSelector, fieldSelector, limit, continue, watch,
 * resourceVersion, allowWatchBookmarks, timeoutSeconds, gracePeriodSeconds,
 * propagationPolicy, and for logs container, previous, tailLines.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestCtx, Target } from './context';

/** The handlers' shared types, re-exported from context.ts where they are defined. */
export type { RequestCtx, Target } from './context';
import { checkApplyKind, decodeKindBody, decodeObjectBody, decodeUntypedBody, readLimitedBody } from './body';
import { negotiateInput } from './negotiation';
import { checkListResourceVersion, goQueryBool, parseListQuery, queryInt64 } from './params';
import type { Cluster } from '../cluster/cluster';
import type { WriteOptions } from '../cluster/apiserver/apiserver';
import { apiVersionOf, groupResource, type ResourceInfo } from '../cluster/api/resources';
import { StatusError, newBadRequest, newNotFound, type Status } from '../cluster/api/errors';
import type { KObject } from '../cluster/api/types';
import { dropFields, unknownFields } from '../cluster/apimachinery/known-fields';
import { PATCH_MEDIA_TYPES, newUnsupportedPatch } from '../cluster/apiserver/patch';
import { patchScaleDocument, scaleOf } from '../cluster/apiserver/scale';
import { methodNotAllowed, notFoundPath, sendJSON } from './http-util';
import { tableDefFor, toTable, wantsTable } from './table';
import { checkFieldSelector, listPage } from './list';
import { serveWatch } from './watch';
import { podLog } from './logs';
import { TOKEN_REQUEST_KIND } from '../cluster/apiserver/token-request';
/** Resolves /api/v1/… or /apis/G/V/… (`parts` after the version) to a target. */
export function resolveTarget(cluster: Cluster, group: string, version: string, parts: string[]): Target | undefined {
  const find = (r: string) =>
    cluster.api.registry.allVersions().find((i) => i.group === group && i.version === version && i.resource === r);
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    const info = find(parts[2]);
    if (info?.namespaced && parts.length <= 5) return { info, namespace: parts[1], name: parts[3], sub: parts[4] };
  }
  const info = find(parts[0]);
  if (!info || parts.length > 3) return undefined;
  return { info, namespace: '', name: parts[1], sub: parts[2] };
}

/**
 * The browser's attach mode (src/ui/attach) polls lists every few seconds to follow a cluster;
 * it marks its reads with `X-Kube-Relay-Observer: 1` so they are not recorded as relay hops
 * (the relay would otherwise show little but the observer's own polling).
 */
export function isObserver(req: IncomingMessage): boolean {
  return req.headers['x-kube-relay-observer'] === '1';
}

function writeOpts(q: URLSearchParams, manager: string): WriteOptions & { force?: boolean } {
  const fv = q.get('fieldValidation');
  if (fv && !['Strict', 'Warn', 'Ignore'].includes(fv)) throw newBadRequest(`fieldValidation parameter unsupported: ${fv}`);
  const dry = q.getAll('dryRun');
  for (const d of dry) if (d !== 'All') throw newBadRequest(`Invalid dryRun: ${d}; supported values: "All"`);
  return {
    dryRun: dry.includes('All'),
    fieldManager: q.get('fieldManager') ?? (manager || undefined),
    fieldValidation: (fv as 'Strict' | 'Warn' | 'Ignore' | null) ?? 'Warn',
    force: q.get('force') === 'true',
  };
}

/**
 * A body that is not an object to create or update (DeleteOptions, Eviction, Binding, Scale,
 * patches), decoded by its Content-Type: JSON (also when absent), YAML (apply patches), or
 * Kubernetes protobuf; undefined when empty. Read within the server's body limit.
 * @param patch true for a PATCH, whose Content-Type was checked against the patch types.
 * @throws StatusError 413, 415, 400.
 */
async function bodyOf(ctx: RequestCtx, patch = false): Promise<unknown> {
  const { req } = ctx;
  const ct = req.headers['content-type'] ?? '';
  const format = patch ? (/yaml/.test(ct) ? 'yaml' : 'json') : negotiateInput(ct);
  return decodeUntypedBody(await readLimitedBody(req, ctx.server.maxRequestBodyBytes), format);
}

/**
 * The object of a create or update, decoded into the endpoint's kind (body.ts: 415 for a media
 * type the resource does not decode, 400 for a body of another kind or no kind at all).
 */
async function objectBodyOf(ctx: RequestCtx, info: ResourceInfo): Promise<KObject> {
  const format = negotiateInput(ctx.req.headers['content-type'], !!info.custom);
  const bytes = await readLimitedBody(ctx.req, ctx.server.maxRequestBodyBytes);
  return decodeObjectBody(bytes, format, info, ctx.cluster.api.registry);
}

/**
 * Server-side field validation (the strict decoder): Strict rejects unknown fields with
 * the upstream 400, Warn drops them and warns, Ignore drops them.
 */
function decode(info: ResourceInfo, obj: KObject, fv: WriteOptions['fieldValidation'], warnings: string[]): KObject {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw newBadRequest(`Object 'Kind' is missing in '${JSON.stringify(obj)}'`);
  if (info.custom) return obj;
  const unknown = unknownFields(info.kind, obj);
  if (!unknown.length) return obj;
  if (fv === 'Strict') {
    throw newBadRequest(
      `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`,
    );
  }
  if (fv !== 'Ignore') for (const u of unknown) warnings.push(`unknown field "${u}"`);
  dropFields(obj as unknown as Record<string, unknown>, unknown);
  return obj;
}

/** Custom resources: the unstructured decoder keeps what the body says; a kind of another endpoint is refused. */
function checkKind(info: ResourceInfo, obj: KObject): void {
  if (info.custom && obj.kind && obj.kind !== info.kind)
    throw newBadRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${apiVersionOf(info)})`);
}

function crdOf(cluster: Cluster, info: ResourceInfo): KObject | undefined {
  return info.custom
    ? cluster.api.getObject('customresourcedefinitions.apiextensions.k8s.io', '', `${info.resource}.${info.group}`)
    : undefined;
}

/** GET one object (or its status) — as a Table when asked. */
function sendObject(ctx: RequestCtx, t: Target, obj: KObject, code = 200, warnings: string[] = []): void {
  if (wantsTable(ctx.req.headers.accept)) {
    const def = tableDefFor(t.info, crdOf(ctx.cluster, t.info));
    sendJSON(
      ctx.res,
      code,
      toTable(
        def,
        [obj],
        ctx.cluster.now(),
        { resourceVersion: obj.metadata.resourceVersion },
        ctx.query.get('includeObject') ?? 'Metadata',
      ),
      'application/json;as=Table;v=v1;g=meta.k8s.io',
      warnings,
    );
    return;
  }
  sendJSON(ctx.res, code, obj, 'application/json', warnings);
}

function deleteOptionsOf(
  q: URLSearchParams,
  body: unknown,
): {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
} {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, any>;
  const grace = queryInt64(q, 'gracePeriodSeconds') ?? b.gracePeriodSeconds;
  const orphan = goQueryBool(q, 'orphanDependents') ?? b.orphanDependents;
  const policy = q.get('propagationPolicy') ?? b.propagationPolicy ?? (orphan === true ? 'Orphan' : undefined);
  if (policy && !['Background', 'Foreground', 'Orphan'].includes(policy))
    throw newBadRequest(
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
    );
  const dry = [...q.getAll('dryRun'), ...((b.dryRun as string[] | undefined) ?? [])];
  return {
    gracePeriodSeconds: grace !== undefined && grace !== null ? Number(grace) : undefined,
    propagationPolicy: policy,
    preconditions: b.preconditions,
    dryRun: dry.includes('All'),
  };
}

function deleted(ctx: RequestCtx, t: Target, name: string, result: KObject, dryRun: boolean): void {
  const still = ctx.cluster.api.getObject(groupResource(t.info), t.namespace, name);
  if (still || dryRun) {
    sendJSON(ctx.res, 200, dryRun ? result : still);
    return;
  }
  const details = { name, ...(t.info.group ? { group: t.info.group } : {}), kind: t.info.resource, uid: result.metadata.uid };
  sendJSON(ctx.res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
}

/** Serves one resource request. @throws StatusError (the caller writes it as a Status). */
export async function serveResource(ctx: RequestCtx, t: Target): Promise<void> {
  const { cluster, user, query: q, req, res } = ctx;
  const api = cluster.api;
  const { info } = t;
  const ns = info.namespaced ? t.namespace : '';
  const method = req.method ?? 'GET';
  // endpoints/installer.go: every response of a deprecated API carries its warning (api/deprecation.ts)
  if (info.deprecated) res.setHeader('Warning', [`299 - ${JSON.stringify(info.deprecated)}`]);
  if (t.sub && !info.subresources.includes(t.sub)) {
    // requestinfo.go's verb for the method; the request reaches kube-apiserver and is drawn with its 404
    const verbs = new Map([
      ['GET', 'get'],
      ['PUT', 'update'],
      ['PATCH', 'patch'],
      ['POST', 'create'],
      ['DELETE', 'delete'],
    ]);
    const verb = verbs.get(method);
    if (t.name && verb) api.missingSubresource(user, verb, info, ns, t.name, t.sub);
    throw notFoundPath();
  }
  if (!t.name) {
    if (method === 'GET') {
      const labelSelector = q.get('labelSelector') ?? undefined;
      const fieldSelector = q.get('fieldSelector') ?? undefined;
      const lq = parseListQuery(q);
      checkFieldSelector(info, fieldSelector);
      if (lq.watch) return serveWatch(ctx, t, lq);
      checkListResourceVersion(lq);
      const list = api.list(user, info, ns || undefined, { labelSelector, fieldSelector, quiet: isObserver(req) });
      const page = listPage(list, q, lq.limit, lq.continueToken);
      if (wantsTable(req.headers.accept)) {
        const def = tableDefFor(info, crdOf(cluster, info));
        sendJSON(
          res,
          200,
          toTable(def, page.items, cluster.now(), page.metadata, q.get('includeObject') ?? 'Metadata'),
          'application/json;as=Table;v=v1;g=meta.k8s.io',
        );
        return;
      }
      sendJSON(res, 200, page);
      return;
    }
    if (method === 'POST') {
      const o = writeOpts(q, ctx.manager);
      const warnings: string[] = [];
      const body = decode(info, await objectBodyOf(ctx, info), o.fieldValidation, warnings);
      if (info.resource === 'bindings') {
        const b = body as KObject;
        api.bind(user, ns, b.metadata?.name ?? '', b.target?.name ?? '');
        sendJSON(res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
        return;
      }
      checkKind(info, body);
      const r = api.create(user, info, ns, body, o);
      sendObject(ctx, t, r.object, 201, [...warnings, ...r.warnings]);
      return;
    }
    if (method === 'DELETE') {
      const body = await bodyOf(ctx);
      const dopts = deleteOptionsOf(q, body);
      const list = api.list(user, info, ns || undefined, {
        labelSelector: q.get('labelSelector') ?? undefined,
        fieldSelector: q.get('fieldSelector') ?? undefined,
      });
      const items = list.items.map((o) => api.delete(user, info, o.metadata.namespace ?? '', o.metadata.name, dopts));
      sendJSON(res, 200, { ...list, items });
      return;
    }
    throw methodNotAllowed();
  }
  const name = t.name;
  if (t.sub === 'log') {
    if (method !== 'GET') throw methodNotAllowed();
    return podLog(ctx, t);
  }
  if (t.sub === 'binding' || t.sub === 'eviction') {
    if (method !== 'POST') throw methodNotAllowed();
    const body = ((await bodyOf(ctx)) ?? {}) as KObject;
    if (t.sub === 'binding') {
      api.bind(user, ns, name, body.target?.name ?? '');
      sendJSON(res, 201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    } else {
      const s: Status = api.evict(user, ns, name, body as never);
      sendJSON(res, 201, s);
    }
    return;
  }
  if (t.sub === 'token') {
    // serviceaccounts/{name}/token: POST a TokenRequest (token-request.ts), answered 201
    if (method !== 'POST') throw methodNotAllowed();
    const bytes = await readLimitedBody(req, ctx.server.maxRequestBodyBytes);
    const body = decodeKindBody(bytes, negotiateInput(req.headers['content-type']), TOKEN_REQUEST_KIND, api.registry);
    sendJSON(res, 201, api.createToken(user, ns, name, body as never));
    return;
  }
  if (t.sub === 'scale') return serveScale(ctx, t, ns, name);
  switch (method) {
    case 'GET': {
      const obj = api.get(user, info, ns, name, { quiet: isObserver(req) });
      sendObject(ctx, t, obj);
      return;
    }
    case 'PUT': {
      const o = writeOpts(q, ctx.manager);
      const warnings: string[] = [];
      const body = decode(info, await objectBodyOf(ctx, info), o.fieldValidation, warnings);
      checkKind(info, body);
      if (body.metadata?.name && body.metadata.name !== name)
        throw newBadRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`);
      const old = api.getObject(groupResource(info), ns, name);
      if (!old) throw newNotFound(groupResource(info), name);
      const sub = t.sub === 'status' || t.sub === 'finalize' ? t.sub : undefined;
      // a metadata that is not an object reaches the engine as sent, which answers the decoder's 400
      const m = body.metadata;
      const obj = m && typeof m === 'object' && !Array.isArray(m) ? { ...body, metadata: { ...m, name } } : body;
      const r = api.update(user, info, ns, obj, { ...o, subresource: sub });
      sendObject(ctx, t, r.object, 200, [...warnings, ...r.warnings]);
      return;
    }
    case 'PATCH': {
      const ct = (req.headers['content-type'] ?? '').split(';')[0].trim();
      const type = Object.hasOwn(PATCH_MEDIA_TYPES, ct) ? PATCH_MEDIA_TYPES[ct] : undefined;
      if (!type) throw newUnsupportedPatch(!!info.custom);
      const o = writeOpts(q, ctx.manager);
      if (type === 'apply' && !q.get('fieldManager'))
        throw newBadRequest('PATCH, application/apply-patch+yaml requests require fieldManager to be set');
      const body = await bodyOf(ctx, true);
      if (type === 'apply') checkApplyKind(info, body);
      const warnings: string[] = [];
      const r = api.patch(user, info, ns, name, type, body, { ...o, subresource: t.sub === 'status' ? 'status' : undefined });
      if (type !== 'apply' && !info.custom) {
        const unknown = unknownFields(info.kind, r.object);
        if (unknown.length && o.fieldValidation === 'Strict')
          throw newBadRequest(
            `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`,
          );
      }
      sendObject(ctx, t, r.object, r.created ? 201 : 200, [...warnings, ...r.warnings]);
      return;
    }
    case 'DELETE': {
      const dopts = deleteOptionsOf(q, await bodyOf(ctx));
      const r = api.delete(user, info, ns, name, dopts);
      deleted(ctx, t, name, r, !!dopts.dryRun);
      return;
    }
    default:
      throw methodNotAllowed();
  }
}

async function serveScale(ctx: RequestCtx, t: Target, ns: string, name: string): Promise<void> {
  const { cluster, user, req, res, query: q } = ctx;
  const api = cluster.api;
  // authorized on the subresource: get, or the write's verb (a PUT is update, a PATCH patch)
  const verb = req.method === 'PUT' ? 'update' : req.method === 'PATCH' ? 'patch' : undefined;
  // (a write's read is the registry's own, not a request: no hop of its own)
  const cur = api.get(user, t.info, ns, name, { subresource: 'scale', ...(verb ? { authzVerb: verb, quiet: true } : {}) });
  if (req.method === 'GET') {
    sendJSON(res, 200, scaleOf(t.info, cur));
    return;
  }
  if (req.method !== 'PUT' && req.method !== 'PATCH') throw methodNotAllowed();
  const isPatch = req.method === 'PATCH';
  const sct = (req.headers['content-type'] ?? '').split(';')[0].trim();
  if (isPatch && !Object.hasOwn(PATCH_MEDIA_TYPES, sct)) throw newUnsupportedPatch(false);
  const body = await bodyOf(ctx, isPatch);
  let scale: KObject;
  if (req.method === 'PUT') scale = body as KObject;
  else {
    // a Scale has no lists, so a strategic merge (or apply) patch of it merges as a merge patch;
    // a JSON patch that does not apply is patch.go's 422 (scale.ts), never a 500
    const type = PATCH_MEDIA_TYPES[sct];
    scale = patchScaleDocument(t.info, cur, type === 'json' ? 'json' : 'merge', body);
  }
  const replicas = scale?.spec?.replicas;
  if (typeof replicas !== 'number') throw newBadRequest('Scale.autoscaling "" is invalid: spec.replicas: Required value');
  if (replicas < 0) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${replicas}: must be greater than or equal to 0`,
      reason: 'Invalid',
      details: {
        name,
        group: 'autoscaling',
        kind: 'Scale',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: `Invalid value: ${replicas}: must be greater than or equal to 0`,
            field: 'spec.replicas',
          },
        ],
      },
      code: 422,
    });
  }
  const o = writeOpts(q, ctx.manager);
  const next = { ...cur, spec: { ...cur.spec, replicas } };
  if (scale.metadata?.resourceVersion) next.metadata = { ...next.metadata, resourceVersion: scale.metadata.resourceVersion };
  const r = api.update(user, t.info, ns, next, {
    ...o,
    viaSubresource: 'scale',
    summary: `scale ${t.info.kind} ${ns}/${name} to ${replicas}`,
    // a PATCH of …/scale is authorized (and drawn) as patch, a PUT as update
    ...(isPatch ? { authzVerb: 'patch' as const } : {}),
  });
  sendJSON(res, 200, scaleOf(t.info, r.object));
}
