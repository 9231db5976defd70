/**
 * Decodes `application/vnd.kubernetes.protobuf` request bodies, which kubectl's typed clients send
 * (`kubectl create namespace|configmap|secret|deployment|service|job|cronjob|role…`), into the
 * object's JSON form, as kube-apiserver's protobuf serializer
 * (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go) followed by the
 * JSON encoding of the Go struct would give it.
 *
 * Envelope: the 4 bytes "k8s\0", then a runtime.Unknown {typeMeta = 1 {apiVersion = 1, kind = 2},
 * raw = 2, contentEncoding = 3, contentType = 4}; `raw` is the object's message
 * (k8s.io/api/<group>/<version>/generated.proto, schema in protobuf-schema.generated.ts).
 *
 * Go's view of the message decides the result: gogo marshals every non-pointer field, zero or
 * not, and a pointer field only when set. So a zero value ("" / 0 / false / empty struct) of a
 * non-pointer field is dropped (Go cannot tell it from unset; encoding/json omits it or prints
 * its zero), while a pointer field keeps its zero (`replicas: 0`). Well-known messages become
 * their JSON forms: Quantity → "500m", IntOrString → 80 | "http", Time → RFC 3339 (zero → unset),
 * MicroTime → RFC 3339 with microseconds, Duration → Go's "1m30s", RawExtension/FieldsV1 → their
 * JSON, ExtraValue → its list of strings. Fields the schema does not know are skipped, as the generated Unmarshal does.
 */
import { StatusError, newBadRequest } from '../cluster/api/errors';
import type { KObject } from '../cluster/api/types';
import { PROTO_MESSAGES } from './protobuf-schema.generated';
import { WireError, packedVarints, readFields, signed64, utf8, type WireField } from './protobuf-wire';

/** The media type of Kubernetes protobuf bodies. */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
/** What the resource endpoints accept, in kube-apiserver's order (for 415 answers). */
export const ACCEPTED_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];

const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

interface FieldSpec {
  name: string;
  /** scalar name, message full name, or map<K,V> */
  type: string;
  repeated: boolean;
  /** Go holds it by pointer: a zero value is kept. */
  pointer: boolean;
}

/**
 * Embedded Go structs that encoding/json inlines (`json:",inline"`) but protobuf nests as a field
 * (k8s.io/api v1.32 types.go): `Message.field` → the field's keys move up into the message.
 */
const INLINE = new Set([
  'k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapProjection.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference',
  'k8s.io.api.core.v1.SecretEnvSource.localObjectReference',
  'k8s.io.api.core.v1.SecretKeySelector.localObjectReference',
  'k8s.io.api.core.v1.SecretProjection.localObjectReference',
  'k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon',
  'k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource',
  'k8s.io.api.core.v1.Probe.handler',
  'k8s.io.api.core.v1.Volume.volumeSource',
  'k8s.io.api.networking.v1.IngressRule.ingressRuleValue',
  'k8s.io.api.admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations',
  'k8s.io.api.admissionregistration.v1.RuleWithOperations.rule',
]);

const parsed = new Map<string, Map<number, FieldSpec>>();

/**
 * Fields whose generated.proto name is not their JSON name (the schema holds proto names):
 * BoundObjectReference's `uID` is `json:"uid"` (k8s.io/api/authentication/v1/types.go).
 */
const JSON_NAMES: ReadonlyMap<string, string> = new Map([['k8s.io.api.authentication.v1.BoundObjectReference.uID', 'uid']]);

function schemaOf(message: string): Map<number, FieldSpec> | undefined {
  const cached = parsed.get(message);
  if (cached) return cached;
  const text = PROTO_MESSAGES[message];
  if (text === undefined) return undefined;
  const fields = new Map<number, FieldSpec>();
  for (const part of text.split(' ').filter(Boolean)) {
    const [no, name, rest] = [part.slice(0, part.indexOf(':')), ...splitOnce(part.slice(part.indexOf(':') + 1))];
    const pointer = rest.endsWith('?');
    const t = pointer ? rest.slice(0, -1) : rest;
    fields.set(Number(no), {
      name: JSON_NAMES.get(`${message}.${name}`) ?? name,
      type: t.replace(/\*$/, ''),
      repeated: t.endsWith('*'),
      pointer,
    });
  }
  parsed.set(message, fields);
  return fields;
}

function splitOnce(s: string): [string, string] {
  const i = s.indexOf(':');
  return [s.slice(0, i), s.slice(i + 1)];
}

/** 415 as kube-apiserver answers a body it has no decoder for (negotiation.NewUnsupportedMediaTypeError). */
export function unsupportedMediaType(accepted: string[] = ACCEPTED_MEDIA_TYPES): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    reason: 'UnsupportedMediaType',
    details: {},
    code: 415,
  });
}

/** The protobuf package of an API version: "v1" → k8s.io.api.core.v1, "rbac.authorization.k8s.io/v1" → k8s.io.api.rbac.v1. */
export function protoPackage(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  return `k8s.io.api.${group ? group.split('.')[0] : 'core'}.${version}`;
}

const base64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

function float(f: WireField, type: string): number {
  const b = f.value as Uint8Array;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return type === 'double' ? v.getFloat64(0, true) : v.getFloat32(0, true);
}

function scalar(type: string, v: bigint): unknown {
  switch (type) {
    case 'bool':
      return v !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, v));
    case 'int64':
      return Number(signed64(v));
    case 'sint32':
    case 'sint64':
      return Number((v >> 1n) ^ -(v & 1n));
    default:
      return Number(v);
  }
}

/** Go's time.Duration.String() for whole/fractional seconds ("1h2m3s", "1.5s", "0s"). */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let rest = Math.abs(ns);
  if (rest < 1e9) {
    const [unit, div] = rest < 1e3 ? ['ns', 1] : rest < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    return `${neg ? '-' : ''}${rest / div}${unit}`;
  }
  const h = Math.floor(rest / 3.6e12);
  rest -= h * 3.6e12;
  const m = Math.floor(rest / 6e10);
  rest -= m * 6e10;
  const s = rest / 1e9;
  return `${neg ? '-' : ''}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

function rfc3339(seconds: number, nanos: number, micro: boolean): string {
  const iso = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

/** Well-known apimachinery messages, in their JSON form; undefined for ordinary messages. */
function wellKnown(type: string, b: Uint8Array): { value: unknown } | undefined {
  switch (type) {
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return { value: (decodeMessage(type, b).string as string | undefined) ?? '0' };
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString': {
      const o = decodeMessage(type, b, true);
      return { value: o.type === 1 ? (o.strVal ?? '') : (o.intVal ?? 0) };
    }
    case `${META}.Time`:
    case `${META}.MicroTime`: {
      const o = decodeMessage(type, b, true) as { seconds?: number; nanos?: number };
      const zero = !o.seconds && !o.nanos;
      return { value: zero ? null : rfc3339(o.seconds ?? 0, o.nanos ?? 0, type.endsWith('MicroTime')) };
    }
    case `${META}.Duration`:
      return { value: goDuration((decodeMessage(type, b, true).duration as number | undefined) ?? 0) };
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
    case `${META}.FieldsV1`: {
      const raw = readFields(b).find((f) => f.no === 1)?.value as Uint8Array | undefined;
      return { value: raw?.length ? JSON.parse(utf8(raw)) : null };
    }
    case 'k8s.io.api.authentication.v1.ExtraValue':
    case 'k8s.io.api.authorization.v1.ExtraValue':
    case 'k8s.io.api.certificates.v1.ExtraValue':
      // `type ExtraValue []string` (authentication/v1, authorization/v1, certificates/v1 types.go):
      // protobuf wraps the slice in a message, JSON is the bare list
      return { value: (decodeMessage(type, b, true).items as string[] | undefined) ?? [] };
    default:
      return undefined;
  }
}

function isZero(v: unknown): boolean {
  if (v === '' || v === 0 || v === false || v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

function value(type: string, f: WireField): unknown {
  if (f.wireType === 0) return scalar(type, f.value as bigint);
  if (f.wireType === 1 || f.wireType === 5)
    return type === 'double' || type === 'float'
      ? float(f, type)
      : Number(new DataView((f.value as Uint8Array).buffer, (f.value as Uint8Array).byteOffset).getUint32(0, true));
  const b = f.value as Uint8Array;
  if (type === 'string') return utf8(b);
  if (type === 'bytes') return base64(b);
  const known = wellKnown(type, b);
  if (known) return known.value;
  return decodeMessage(type, b);
}

/**
 * Decodes one message to its JSON object (see the module comment for zero values).
 * @param keepZero keep every field (for the well-known messages, whose zero values matter).
 */
function decodeMessage(message: string, b: Uint8Array, keepZero = false): Record<string, unknown> {
  const schema = schemaOf(message);
  if (!schema) throw newBadRequest(`protobuf: no schema for message ${message}`);
  const out: Record<string, unknown> = {};
  for (const f of readFields(b)) {
    const spec = schema.get(f.no);
    if (!spec) continue;
    const map = /^map<(\w+),(.+)>$/.exec(spec.type);
    if (map) {
      const entry = readFields(f.value as Uint8Array);
      const k = entry.find((e) => e.no === 1);
      const v = entry.find((e) => e.no === 2);
      const m = (out[spec.name] ??= {}) as Record<string, unknown>;
      m[k ? String(value(map[1], k)) : ''] = v ? value(map[2], v) : zeroOf(map[2]);
    } else if (spec.repeated) {
      const list = (out[spec.name] ??= []) as unknown[];
      if (f.wireType === 2 && spec.type !== 'string' && spec.type !== 'bytes' && !spec.type.includes('.'))
        list.push(...packedVarints(f.value as Uint8Array).map((v) => scalar(spec.type, v)));
      else list.push(value(spec.type, f));
    } else if (INLINE.has(`${message}.${spec.name}`)) Object.assign(out, value(spec.type, f));
    else out[spec.name] = value(spec.type, f);
  }
  if (!keepZero) {
    for (const spec of schema.values()) if (spec.name in out && !spec.pointer && isZero(out[spec.name])) delete out[spec.name];
  }
  return out;
}

/** The JSON of a map value absent from its entry (Go's zero value). */
function zeroOf(type: string): unknown {
  if (type === 'string' || type === 'bytes') return '';
  if (type === 'k8s.io.apimachinery.pkg.api.resource.Quantity') return '0';
  return type.includes('.') ? {} : 0;
}

/**
 * Decodes a Kubernetes protobuf request body to the object kube-apiserver would see.
 * @returns the object with apiVersion and kind from the envelope.
 * @throws StatusError 400 for a malformed body, 415 for a kind without a protobuf schema (custom resources).
 */
export function decodeKubernetesProtobuf(body: Uint8Array): KObject {
  if (body.length < 4 || MAGIC.some((m, i) => body[i] !== m))
    throw newBadRequest('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  try {
    const unknown = readFields(body.subarray(4));
    const typeMeta = readFields((unknown.find((f) => f.no === 1)?.value as Uint8Array | undefined) ?? new Uint8Array());
    const text = (no: number) => utf8((typeMeta.find((f) => f.no === no)?.value as Uint8Array | undefined) ?? new Uint8Array());
    const apiVersion = text(1);
    const kind = text(2);
    const raw = (unknown.find((f) => f.no === 2)?.value as Uint8Array | undefined) ?? new Uint8Array();
    const message = `${protoPackage(apiVersion)}.${kind}`;
    if (!kind || !schemaOf(message)) throw unsupportedMediaType(['application/json', 'application/yaml']);
    return { apiVersion, kind, ...decodeMessage(message, raw) } as KObject;
  } catch (err) {
    if (err instanceof WireError) throw newBadRequest(`proto: ${err.message}`);
    throw err;
  }
}
