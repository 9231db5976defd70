/**
 * Request bodies as kube-apiserver reads and decodes them:
 *
 * - read with a limit (handlers/rest.go limitedReadBody; the apiserver's MaxRequestBodyBytes is
 *   3 MiB, `--max-resource-write-bytes`' default): over it, 413 `Request entity too large:
 *   limit is 3145728`;
 * - decoded by the negotiated serializer (negotiation.ts) into the endpoint's kind, the way
 *   handlers/create.go and update.go run the codec: the JSON serializer first reads apiVersion /
 *   kind (apimachinery runtime/serializer/json SimpleMetaFactory.Interpret), defaults what is
 *   missing from the endpoint (gvkWithDefaults), creates that kind (scheme.New: `no kind "X" is
 *   registered for version "v1" in scheme …`) and converts it to the endpoint's internal type
 *   (`converting (k8s.io/api/core/v1) Secret to (k8s.io/kubernetes/pkg/apis/core) ConfigMap:
 *   unknown conversion`); handlers/rest.go transformDecodeError words the 400:
 *   `Secret in version "v1" cannot be handled as a ConfigMap: …`, or, when no kind could be read,
 *   `the object provided is unrecognized (must be of type Namespace): … (<summary>)`;
 * - a decoded kind of another version of the same group converts, and create.go then refuses it:
 *   `the API version in the data (autoscaling/v1) does not match the expected API version (autoscaling/v2)`.
 */
import type { IncomingMessage } from 'node:http';
import { parse as parseYAML, parseAllDocuments } from 'yaml';
import { newBadRequest, type StatusError } from '../cluster/api/errors';
import { statusError } from './http-util';
import type { ResourceInfo, ResourceRegistry } from '../cluster/api/resources';
import type { KObject } from '../cluster/api/types';
import { goJSONSyntaxError } from './go-json';
import { decodeKubernetesProtobuf } from './protobuf';
import type { InputFormat } from './negotiation';

/** kube-apiserver's default limit on a request body, bytes (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** 413 as errors.NewRequestEntityTooLargeError(`limit is N`). */
export function newRequestEntityTooLarge(limit: number): StatusError {
  return statusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/**
 * Reads the body, at most `limit` bytes. A Content-Length over the limit is refused before
 * reading; a longer stream is cut at limit + 1 bytes (the rest is not read: the connection is
 * closed after the answer).
 * @throws StatusError 413.
 */
export function readLimitedBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    req.pause();
    return Promise.reject(newRequestEntityTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        req.pause();
        reject(newRequestEntityTooLarge(limit));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!done) reject(e);
    });
  });
}

/** handlers/rest.go summarizeData: the body as text when it starts with "{", else hex; 30 bytes. */
export function summarizeData(data: Uint8Array, maxLength = 30): string {
  if (data.length === 0) return '<empty>';
  const cut = data.length > maxLength;
  const head = Buffer.from(data.subarray(0, maxLength));
  const s = data[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return cut ? `${s} ...` : s;
}

const FIND_KIND = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return 'object';
}

/** The Go package of a group's external types (`k8s.io/api/apps/v1`). */
function externalPackage(group: string, version: string): string {
  if (group === 'apiextensions.k8s.io') return `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/${version}`;
  if (group === 'apiregistration.k8s.io') return `k8s.io/kube-aggregator/pkg/apis/apiregistration/${version}`;
  return `k8s.io/api/${group ? group.split('.')[0] : 'core'}/${version}`;
}

/** The Go package of a group's internal types (`k8s.io/kubernetes/pkg/apis/apps`). */
function internalPackage(group: string): string {
  if (group === 'apiextensions.k8s.io') return 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions';
  if (group === 'apiregistration.k8s.io') return 'k8s.io/kube-aggregator/pkg/apis/apiregistration';
  return `k8s.io/kubernetes/pkg/apis/${group ? group.split('.')[0] : 'core'}`;
}

function splitAPIVersion(apiVersion: string): [string, string] {
  const i = apiVersion.indexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

/**
 * Decodes a create/update body into the endpoint's kind (see the file comment for the errors).
 * Custom resources keep the engine's own checks (their decoder is unstructured).
 * @returns the object, with apiVersion and kind defaulted from the endpoint when missing.
 * @throws StatusError 400 (and 415 for protobuf of a kind without a schema).
 */
export function decodeObjectBody(
  bytes: Buffer,
  format: InputFormat,
  info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'custom'>,
  registry: { forKind(apiVersion: string, kind: string): unknown },
): KObject {
  const unrecognized = (why: string) =>
    newBadRequest(`the object provided is unrecognized (must be of type ${info.kind}): ${why} (${summarizeData(bytes)})`);
  let obj: unknown;
  if (format === 'protobuf') {
    obj = decodeKubernetesProtobuf(bytes);
  } else {
    let jsonBytes: Uint8Array = bytes;
    if (format === 'yaml') {
      const docs = parseAllDocuments(bytes.toString('utf8'));
      const first = Array.isArray(docs) ? docs[0] : undefined;
      const bad = first?.errors[0];
      if (bad) throw unrecognized(`error converting YAML to JSON: yaml: ${bad.message.split('\n')[0]}`);
      jsonBytes = Buffer.from(JSON.stringify(first ? (first.toJS({ maxAliasCount: 100 }) ?? null) : null));
    }
    const syntax = goJSONSyntaxError(jsonBytes);
    if (syntax) throw unrecognized(`couldn't get version/kind; json parse error: ${syntax}`);
    obj = JSON.parse(Buffer.from(jsonBytes).toString('utf8'));
  }
  if (obj === null) obj = {};
  if (typeof obj !== 'object' || Array.isArray(obj))
    throw unrecognized(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeName(obj)} into Go value of type ${FIND_KIND}`,
    );
  const o = obj as Record<string, unknown>;
  for (const f of ['apiVersion', 'kind'] as const) {
    if (o[f] !== undefined && o[f] !== null && typeof o[f] !== 'string')
      throw unrecognized(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeName(o[f])} into Go struct field .${f} of type string`,
      );
  }
  if (info.custom) return o as unknown as KObject;
  // gvkWithDefaults
  let [group, version] = splitAPIVersion(typeof o.apiVersion === 'string' ? o.apiVersion : '');
  const kind = typeof o.kind === 'string' && o.kind ? o.kind : info.kind;
  if (!version && !group) [group, version] = [info.group, info.version];
  if (!version && group === info.group) version = info.version;
  const gv = group ? `${group}/${version}` : version;
  const found = registry.forKind(gv, kind);
  if (!found)
    throw newBadRequest(
      `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${info.kind}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(gv)} in scheme "pkg/api/legacyscheme/scheme.go:30"`,
    );
  if (kind !== info.kind || (group !== info.group && !sameInternalType(group, info.group, kind))) {
    throw newBadRequest(
      `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${info.kind}: converting (${externalPackage(group, version)}) ${kind} to (${internalPackage(info.group)}) ${info.kind}: unknown conversion`,
    );
  }
  if (group !== info.group || version !== info.version) {
    throw newBadRequest(
      `the API version in the data (${gv}) does not match the expected API version (${info.group ? `${info.group}/${info.version}` : info.version})`,
    );
  }
  return { ...o, apiVersion: gv, kind } as unknown as KObject;
}

/**
 * The body of a subresource POST whose kind is no stored resource (serviceaccounts/token takes
 * an authentication.k8s.io/v1 TokenRequest), decoded as decodeObjectBody decodes a create's:
 * the same 400s for another kind, another version or no kind at all.
 * @throws StatusError 400.
 */
export function decodeKindBody(
  bytes: Buffer,
  format: InputFormat,
  kind: { group: string; version: string; kind: string },
  registry: ResourceRegistry,
): KObject {
  const gv = `${kind.group}/${kind.version}`;
  return decodeObjectBody(bytes, format, kind, {
    forKind: (apiVersion, k) => (apiVersion === gv && k === kind.kind) || !!registry.forKind(apiVersion, k),
  });
}

/** Kinds of two groups that share one internal type (events.k8s.io Event is stored as core Event). */
function sameInternalType(a: string, b: string, kind: string): boolean {
  const pair = new Set([a, b]);
  return kind === 'Event' && pair.has('') && pair.has('events.k8s.io');
}

/**
 * versionCheckManager (apimachinery managedfields/internal/versioncheck.go): an apply patch
 * must carry exactly the endpoint's group/version/kind, else 400 `invalid object type: /v1, Kind=Secret`.
 * @throws StatusError 400.
 */
export function checkApplyKind(info: ResourceInfo, body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const b = body as Record<string, unknown>;
  const apiVersion = typeof b.apiVersion === 'string' ? b.apiVersion : '';
  const kind = typeof b.kind === 'string' ? b.kind : '';
  // Unstructured.GroupVersionKind(): an apiVersion ParseGroupVersion refuses gives the empty GVK
  const malformed = apiVersion.split('/').length > 2;
  const [group, version] = malformed ? ['', ''] : splitAPIVersion(apiVersion);
  if (malformed) throw newBadRequest('invalid object type: /, Kind=');
  if (group !== info.group || version !== info.version || kind !== info.kind) {
    throw newBadRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
  }
}

/**
 * A body that is not an object to create or update (DeleteOptions, Eviction, Binding, Scale,
 * patches, the access reviews), decoded as `format` says: JSON, YAML or Kubernetes protobuf;
 * undefined when empty.
 * @throws StatusError 400 `error decoding JSON: …` / `error decoding YAML: …`.
 */
export function decodeUntypedBody(bytes: Buffer, format: InputFormat): unknown {
  if (format === 'protobuf') return bytes.length ? decodeKubernetesProtobuf(bytes) : undefined;
  const text = bytes.toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return format === 'yaml' ? parseYAML(text, { maxAliasCount: 100 }) : JSON.parse(text);
  } catch (err) {
    throw newBadRequest(`error decoding ${format === 'yaml' ? 'YAML' : 'JSON'}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
