/**
 * ObjectMeta validation as k8s.io/apimachinery/pkg/api/validation/objectmeta.go
 * (ValidateObjectMeta, ValidateAnnotations) and
 * k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateLabels, ValidateLabelSelector),
 * plus the small helpers of pkg/apis/core/validation (ValidateNonnegativeField,
 * ValidateImmutableField) every kind uses.
 */
import { goQuote, newBadRequest, type FieldError } from '../../../api/errors';
import type { KObject } from '../../../api/types';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../../api/validation/names';

/** A ValidateNameFunc: (name, prefix) → messages. */
export type NameFn = (name: string, prefix: boolean) => string[];

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** NameIsDNSSubdomain. */
export const nameIsDNSSubdomain: NameFn = (n, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(n) : n);
/** NameIsDNSLabel. */
export const nameIsDNSLabel: NameFn = (n, prefix) => isDNS1123Label(prefix ? maskTrailingDash(n) : n);
/** NameIsDNS1035Label. */
export const nameIsDNS1035Label: NameFn = (n, prefix) => isDNS1035Label(prefix ? maskTrailingDash(n) : n);
/** path.ValidatePathSegmentName (RBAC names and others that allow almost anything). */
export const nameIsPathSegment: NameFn = (n, prefix) => {
  if (!prefix && (n === '.' || n === '..')) return [`may not be '${n}'`];
  for (const bad of ['/', '%']) if (n.includes(bad)) return [`may not contain '${bad}'`];
  return [];
};

/** Total annotation size limit (TotalAnnotationSizeLimitB). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function utf8Len(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** v1validation.ValidateLabels (keys sorted, so the order is stable). */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels ?? {}).sort()) {
    for (const m of isQualifiedName(k)) errs.push({ type: 'Invalid', field: path, value: k, detail: m });
    const v = labels![k];
    for (const m of isValidLabelValue(String(v))) errs.push({ type: 'Invalid', field: path, value: v, detail: m });
  }
  return errs;
}

/** ValidateAnnotations: qualified-name keys (case-insensitive) and the 256 KiB total. */
export function validateAnnotations(ann: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const k of Object.keys(ann ?? {}).sort()) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push({ type: 'Invalid', field: path, value: k, detail: m });
    total += utf8Len(k) + utf8Len(String(ann![k]));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT)
    errs.push({ type: 'TooLong', field: path, detail: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes` });
  return errs;
}

/**
 * ValidateObjectMeta. `namespaced` says whether metadata.namespace is required
 * (the apiserver fills it from the request before validation).
 */
export function validateObjectMeta(obj: KObject, namespaced: boolean, nameFn: NameFn, path = 'metadata'): FieldError[] {
  const m = obj.metadata;
  const errs: FieldError[] = [];
  if (m.generateName)
    for (const msg of nameFn(m.generateName, true))
      errs.push({ type: 'Invalid', field: `${path}.generateName`, value: m.generateName, detail: msg });
  if (!m.name) errs.push({ type: 'Required', field: `${path}.name`, detail: 'name or generateName is required' });
  else for (const msg of nameFn(m.name, false)) errs.push({ type: 'Invalid', field: `${path}.name`, value: m.name, detail: msg });
  if (namespaced) {
    if (!m.namespace) errs.push({ type: 'Required', field: `${path}.namespace` });
    else
      for (const msg of isDNS1123Label(m.namespace))
        errs.push({ type: 'Invalid', field: `${path}.namespace`, value: m.namespace, detail: msg });
  } else if (m.namespace) {
    errs.push({ type: 'Forbidden', field: `${path}.namespace`, detail: 'not allowed on this type' });
  }
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  errs.push(...validateAnnotations(m.annotations, `${path}.annotations`));
  for (const [i, f] of (m.finalizers ?? []).entries()) {
    for (const msg of isQualifiedName(f)) errs.push({ type: 'Invalid', field: `${path}.finalizers[${i}]`, value: f, detail: msg });
  }
  errs.push(...validateOwnerReferences(m.ownerReferences, `${path}.ownerReferences`));
  return errs;
}

type OwnerRef = { apiVersion?: string; kind?: string; name?: string; uid?: string };

/**
 * validateOwnerReference of ValidateOwnerReferences (apimachinery/pkg/api/validation/
 * objectmeta.go): every reference names a version, kind, name and uid; the field path has no
 * index, as upstream's. Not modelled: BannedOwners (an Event as owner) and the
 * one-controller rule.
 */
export function validateOwnerReferences(refs: readonly (OwnerRef | null)[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const r of refs ?? []) {
    const ref: OwnerRef = r ?? {};
    // schema.FromAPIVersionAndKind: an unparsable apiVersion (more than one "/") has no version
    const av = ref.apiVersion ?? '';
    const parts = av.split('/');
    const version = parts.length === 1 ? parts[0] : parts.length === 2 ? parts[1] : '';
    if (!version) errs.push({ type: 'Invalid', field: `${path}.apiVersion`, value: av, detail: 'version must not be empty' });
    if (!ref.kind) errs.push({ type: 'Invalid', field: `${path}.kind`, value: ref.kind ?? '', detail: 'kind must not be empty' });
    if (!ref.name) errs.push({ type: 'Invalid', field: `${path}.name`, value: ref.name ?? '', detail: 'name must not be empty' });
    if (!ref.uid) errs.push({ type: 'Invalid', field: `${path}.uid`, value: ref.uid ?? '', detail: 'uid must not be empty' });
  }
  return errs;
}

/** ValidateNonnegativeField. */
export function nonNegative(v: unknown, path: string): FieldError[] {
  return typeof v === 'number' && v < 0 ? [{ type: 'Invalid', field: path, value: v, detail: 'must be greater than or equal to 0' }] : [];
}

/** ValidateImmutableField with a caller-formatted value (Go %#v). */
export function immutable(changed: boolean, path: string, value: unknown, rawValue?: string): FieldError[] {
  return changed ? [{ type: 'Invalid', field: path, value, rawValue, detail: 'field is immutable' }] : [];
}

/** %#v of a Go map[string]string (nil when undefined). */
export function goStringMap(m: Record<string, string> | undefined | null): string {
  if (m === undefined || m === null) return 'map[string]string(nil)';
  const ks = Object.keys(m).sort();
  return `map[string]string{${ks.map((k) => `${goQuote(k)}:${goQuote(m[k])}`).join(', ')}}`;
}

/** %#v of a v1.LabelSelector value, as field errors print a dereferenced *metav1.LabelSelector. */
export function goLabelSelector(
  s: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined,
): string {
  if (!s) return 'null';
  const exprs = s.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions
        .map(
          (e) =>
            `v1.LabelSelectorRequirement{Key:${goQuote(e.key)}, Operator:${goQuote(e.operator)}, Values:${e.values ? `[]string{${e.values.map(goQuote).join(', ')}}` : '[]string(nil)'}}`,
        )
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprs}}`;
}

/** %#v of an intstr.IntOrString. */
export function goIntOrString(v: number | string | undefined): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${v ?? 0}, StrVal:""}`;
}

const SELECTOR_OPS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** v1validation.ValidateLabelSelector. */
export function validateLabelSelector(
  sel: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined,
  path: string,
): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  for (const [i, e] of (sel.matchExpressions ?? []).entries()) {
    const p = `${path}.matchExpressions[${i}]`;
    const n = e.values?.length ?? 0;
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (n === 0) errs.push({ type: 'Required', field: `${p}.values`, detail: "must be specified when `operator` is 'In' or 'NotIn'" });
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (n > 0)
        errs.push({
          type: 'Forbidden',
          field: `${p}.values`,
          detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        });
    } else {
      errs.push({ type: 'Invalid', field: `${p}.operator`, value: e.operator, detail: 'not a valid selector operator' });
    }
    for (const m of isQualifiedName(e.key ?? '')) errs.push({ type: 'Invalid', field: `${p}.key`, value: e.key, detail: m });
  }
  errs.push(...validateLabels(sel.matchLabels, `${path}.matchLabels`));
  return errs;
}

/** True when the operator list of a selector is valid (LabelSelectorAsSelector would succeed). */
export function selectorParses(sel: { matchExpressions?: { operator: string }[] } | undefined): boolean {
  return !sel || (sel.matchExpressions ?? []).every((e) => SELECTOR_OPS.includes(e.operator));
}

/**
 * A decode-time type check: kube-apiserver rejects a body whose field has the wrong JSON
 * type with 400 `<Kind> in version "<v>" cannot be handled as a <Kind>: json: cannot
 * unmarshal <type> into Go struct field <Struct>.<path> of type <goType>`
 * (k8s.io/apimachinery/pkg/runtime/serializer/json + encoding/json's UnmarshalTypeError).
 */
export function checkStringMap(obj: KObject, m: Record<string, unknown> | undefined, goStruct: string, path: string): void {
  if (m === undefined || m === null) return;
  if (typeof m !== 'object' || Array.isArray(m)) throw decodeError(obj, jsonType(m), goStruct, path, 'map[string]string');
  for (const v of Object.values(m)) if (typeof v !== 'string') throw decodeError(obj, jsonType(v), goStruct, path, 'string');
}

/** JSON type name as encoding/json reports it. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** The 400 BadRequest for a wrongly typed field. */
export function decodeError(obj: KObject, jsType: string, goStruct: string, path: string, goType: string) {
  const v = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[1] : obj.apiVersion;
  return newBadRequest(
    `${obj.kind} in version ${goQuote(v)} cannot be handled as a ${obj.kind}: json: cannot unmarshal ${jsType} into Go struct field ${goStruct}.${path} of type ${goType}`,
  );
}

/** Shorthand: the metadata checks every strategy runs first. */
export function checkMetaTypes(obj: KObject): void {
  checkStringMap(obj, obj.metadata.labels as Record<string, unknown>, 'ObjectMeta', 'metadata.labels');
  checkStringMap(obj, obj.metadata.annotations as Record<string, unknown>, 'ObjectMeta', 'metadata.annotations');
  if (obj.metadata.name !== undefined && typeof obj.metadata.name !== 'string')
    throw decodeError(obj, jsonType(obj.metadata.name), 'ObjectMeta', 'metadata.name', 'string');
}
