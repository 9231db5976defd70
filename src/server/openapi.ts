/**
 * The OpenAPI documents kubectl reads: /openapi/v3 (the index of group-version documents)
 * and /openapi/v3/api/v1, /openapi/v3/apis/G/V — components.schemas with
 * x-kubernetes-group-version-kind for `kubectl explain`, the strategic-merge patch metadata
 * (x-kubernetes-patch-merge-key / x-kubernetes-patch-strategy, the k8s.io/api struct tags
 * that cluster/apimachinery/strategic-merge.ts also follows) for client-side apply, and a PATCH
 * operation per kind with the `fieldValidation` query parameter, which is how kubectl's
 * QueryParamVerifierV3 learns that the server validates fields itself.
 *
 * The schemas come from the editor's JSON Schema (generated from kubernetes-types 1.30 by
 * `npm run gen:k8s`, src/ui/editor/k8s-schema.json, read as data): kinds outside it and
 * custom resources without a schema are served as objects that keep unknown fields.
 * /openapi/v2 is served as JSON, and to kubectl's protobuf request as a document without
 * definitions (see openAPIV2Proto).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Cluster } from '../cluster/cluster';
import type { ResourceInfo } from '../cluster/api/resources';
import { VERSION_INFO } from '../cluster/api/version';
import { groupVersions, resourcesAt } from './discovery';
import { sendJSON } from './http-util';
import { StatusError } from '../cluster/api/errors';

type Json = Record<string, any>;

let source: { defs: Json; kinds: Map<string, Json> } | null = null;

/** The editor schema, loaded once: shared definitions and top-level kinds by "apiVersion/Kind". */
function load(): { defs: Json; kinds: Map<string, Json> } {
  if (source) return source;
  const path = fileURLToPath(new URL('../ui/editor/k8s-schema.json', import.meta.url));
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Json;
  const kinds = new Map<string, Json>();
  for (const m of raw.anyOf ?? []) {
    const av = m.properties?.apiVersion?.const;
    const k = m.properties?.kind?.const;
    if (av && k) kinds.set(`${av}/${k}`, m);
  }
  source = { defs: raw.definitions ?? {}, kinds };
  return source;
}

/** Strategic-merge patch metadata of a list property, by name (and the schema it sits in). */
function patchMeta(prop: string, owner: string): Json {
  const byName = [
    'containers',
    'initContainers',
    'ephemeralContainers',
    'volumes',
    'env',
    'imagePullSecrets',
    'resourceClaims',
    'schedulingGates',
    'webhooks',
  ];
  if (byName.includes(prop))
    return { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': prop === 'volumes' ? 'merge,retainKeys' : 'merge' };
  if (prop === 'ports' && owner === 'Container')
    return { 'x-kubernetes-patch-merge-key': 'containerPort', 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'ports' && owner === 'ServiceSpec')
    return { 'x-kubernetes-patch-merge-key': 'port', 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'volumeMounts') return { 'x-kubernetes-patch-merge-key': 'mountPath', 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'volumeDevices') return { 'x-kubernetes-patch-merge-key': 'devicePath', 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'hostAliases') return { 'x-kubernetes-patch-merge-key': 'ip', 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'topologySpreadConstraints')
    return { 'x-kubernetes-patch-merge-key': 'topologyKey', 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'ownerReferences') return { 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'finalizers' && owner === 'ObjectMeta') return { 'x-kubernetes-patch-strategy': 'merge' };
  if (prop === 'conditions') return { 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' };
  return {};
}

/**
 * DeploymentSpec.strategy (patchStrategy:"retainKeys"), as kube-apiserver publishes a tagged
 * struct property: the $ref wrapped in allOf beside the extension, so kubectl builds $retainKeys.
 */
function retainKeysProperty(prop: any): any {
  const { $ref, ...rest } = prop ?? {};
  return { ...rest, ...($ref ? { allOf: [{ $ref }] } : {}), 'x-kubernetes-patch-strategy': 'retainKeys' };
}

/** JSON Schema (draft 7, as generated) → OpenAPI schema: refs moved, const → enum, patch metadata added. */
function convert(s: unknown, owner: string, refBase: string): any {
  if (Array.isArray(s)) return s.map((x) => convert(x, owner, refBase));
  if (!s || typeof s !== 'object') return s;
  const o = s as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/definitions/', refBase);
    else if (k === 'const') out.enum = [v];
    // kubernetes-types writes every int32/int64 as `number`; the API has (nearly) no floats
    else if (k === 'type' && v === 'number') out.type = 'integer';
    else if (k === 'additionalProperties' && v === false) continue;
    else if (k === 'properties') {
      out.properties = {};
      for (const [p, ps] of Object.entries(v as Json))
        out.properties[p] =
          p === 'strategy' && owner === 'DeploymentSpec'
            ? retainKeysProperty(convert(ps, owner, refBase))
            : { ...convert(ps, owner, refBase), ...((ps as Json)?.type === 'array' ? patchMeta(p, owner) : {}) };
    } else out[k] = convert(v, owner, refBase);
  }
  return out;
}

const GENERIC = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function schemaName(i: ResourceInfo): string {
  return `io.k8s.api.${i.group ? i.group.split('.')[0] : 'core'}.${i.version}.${i.kind}`;
}

function kindSchema(cluster: Cluster, i: ResourceInfo, refBase: string): Json {
  const gvk = { 'x-kubernetes-group-version-kind': [{ group: i.group, version: i.version, kind: i.kind }] };
  if (i.custom) {
    const crd = cluster.api.getObject('customresourcedefinitions.apiextensions.k8s.io', '', `${i.resource}.${i.group}`);
    const v = (crd?.spec?.versions ?? []).find((x: Json) => x.name === i.version);
    return { ...(v?.schema?.openAPIV3Schema ?? GENERIC), ...gvk };
  }
  const m = load().kinds.get(`${i.group ? `${i.group}/` : ''}${i.version}/${i.kind}`);
  return { ...(m ? convert(m, i.kind, refBase) : GENERIC), ...gvk };
}

const QUERY = (name: string, description: string) => ({ name, in: 'query', description, schema: { type: 'string', uniqueItems: true } });
const WRITE_PARAMS = [
  QUERY('dryRun', 'When present, indicates that modifications should not be persisted.'),
  QUERY('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  QUERY(
    'fieldValidation',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict',
  ),
];

/** The paths of one group-version, with the operations kubectl looks at. */
function paths(infos: ResourceInfo[], prefix: string, refBase: string): Json {
  const out: Json = {};
  for (const i of infos) {
    const gvk = { group: i.group, version: i.version, kind: i.kind };
    const ref = { $ref: `${refBase}${schemaName(i)}` };
    const op = (action: string, params: unknown[]) => ({
      parameters: params,
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } },
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
    });
    const base = i.namespaced ? `${prefix}/namespaces/{namespace}/${i.resource}` : `${prefix}/${i.resource}`;
    out[base] = { get: op('list', []), post: op('post', WRITE_PARAMS), delete: op('deletecollection', []) };
    out[`${base}/{name}`] = {
      get: op('get', []),
      put: op('put', WRITE_PARAMS),
      patch: op('patch', [...WRITE_PARAMS, QUERY('force', 'Force is going to "force" Apply requests.')]),
      delete: op('delete', []),
    };
  }
  return out;
}

/** GET /openapi/v3: the index of group-version documents. */
export function openAPIV3Index(cluster: Cluster): Json {
  const p: Json = {};
  for (const g of groupVersions(cluster.api.registry)) {
    for (const v of g.versions) {
      const key = g.group ? `apis/${g.group}/${v}` : `api/${v}`;
      p[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${cluster.api.store.revision}` };
    }
  }
  return { paths: p };
}

/** GET /openapi/v3/api/v1 or /openapi/v3/apis/G/V; undefined when nothing is served there. */
export function openAPIV3Doc(cluster: Cluster, key: string): Json | undefined {
  const parts = key.split('/');
  const [group, version] = parts[0] === 'api' ? ['', parts[1]] : [parts[1], parts[2]];
  const infos = resourcesAt(cluster.api.registry, group ?? '', version ?? '');
  if (!infos.length) return undefined;
  const refBase = '#/components/schemas/';
  const schemas: Json = {};
  for (const [n, d] of Object.entries(load().defs)) schemas[n] = convert(d, n, refBase);
  for (const i of infos) schemas[schemaName(i)] = kindSchema(cluster, i, refBase);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: VERSION_INFO.gitVersion },
    paths: paths(infos, group ? `/apis/${group}/${version}` : `/api/${version}`, refBase),
    components: { schemas },
  };
}

/** The media type of the protobuf OpenAPI v2 document (k8s.io/kube-openapi handler.go). */
const PROTO_V2 = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** Protobuf wire encoding of a length-delimited field (wire type 2). */
function pbField(field: number, bytes: Buffer): Buffer {
  const head: number[] = [(field << 3) | 2];
  let n = bytes.length;
  while (n > 0x7f) {
    head.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  head.push(n);
  return Buffer.concat([Buffer.from(head), bytes]);
}

/**
 * The protobuf OpenAPI v2 answer: a gnostic openapi_v2.Document with `swagger` (field 1) and
 * `info` (field 2: title 1, version 2) and no definitions. kubectl asks for it only when it
 * validates client-side (a kind whose PATCH operation the OpenAPI v3 documents do not show
 * with fieldValidation, e.g. a CustomResource created in the same apply, or an unknown kind):
 * with no definitions its validator skips the object, and the server's own field validation
 * (and REST mapping: `no matches for kind`) decides, as it does for every other kind.
 */
export function openAPIV2Proto(): Buffer {
  const info = Buffer.concat([pbField(1, Buffer.from('Kubernetes')), pbField(2, Buffer.from(VERSION_INFO.gitVersion))]);
  return Buffer.concat([pbField(1, Buffer.from('2.0')), pbField(2, info)]);
}

/**
 * GET /openapi/v2: JSON (the definitions, for clients that read them), or for kubectl's
 * protobuf-only Accept the minimal protobuf document of {@link openAPIV2Proto}, sent as
 * application/octet-stream as kube-openapi's handler does; any other
 * Accept gets 406, as kube-apiserver does for types it cannot produce.
 */
export function openAPIV2(cluster: Cluster, req: IncomingMessage, res: ServerResponse): void {
  const accept = req.headers.accept ?? '';
  if (accept.includes(PROTO_V2) && !/application\/json|\*\/\*/.test(accept)) {
    const body = openAPIV2Proto();
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-cache, private',
    });
    res.end(body);
    return;
  }
  if (accept && !/json|\*\/\*/.test(accept)) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: '406: Not Acceptable',
      reason: 'NotAcceptable',
      code: 406,
    });
  }
  const refBase = '#/definitions/';
  const definitions: Json = {};
  for (const [n, d] of Object.entries(load().defs)) definitions[n] = convert(d, n, refBase);
  const allPaths: Json = {};
  for (const g of groupVersions(cluster.api.registry)) {
    for (const v of g.versions) {
      const infos = resourcesAt(cluster.api.registry, g.group, v);
      for (const i of infos) definitions[schemaName(i)] = kindSchema(cluster, i, refBase);
    }
  }
  sendJSON(res, 200, { swagger: '2.0', info: { title: 'Kubernetes', version: VERSION_INFO.gitVersion }, paths: allPaths, definitions });
}
