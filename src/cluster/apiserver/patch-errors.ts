/**
 * How kube-apiserver fails a patch whose result does not fit the kind's Go types
 * (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go):
 *
 * - strategic merge patch: the merged map is converted to the typed object by
 *   runtime.DefaultUnstructuredConverter.FromUnstructured (apimachinery runtime/converter.go);
 *   its first error becomes `errors.NewInvalid(schema.GroupKind{}, "", field.Invalid(
 *   field.NewPath("patch"), fmt.Sprintf("%+v", patchMap), err.Error()))`, i.e. 422
 *   ` "" is invalid: patch: Invalid value: "map[metadata:map[labels:hello]]": cannot restore map from string`
 *   (kubectl: `The request is invalid: patch: Invalid value: …`);
 * - JSON merge patch and JSON patch: the patched JSON is decoded by the codec; a decode error
 *   becomes the same 422 with the patched document as the value and the json decoder's text
 *   (`json: cannot unmarshal string into Go struct field …`).
 *
 * The converter's texts: `cannot restore map from <kind>`, `cannot restore slice from <kind>`,
 * `cannot restore struct from: <kind>`, `cannot convert int64 to string` (convertible kinds of
 * another JSON group), `unrecognized type: <kind>` (kinds Go cannot convert at all), and the
 * UnmarshalJSON errors of Quantity, IntOrString and Time. Go reflect kind names: string, bool,
 * int64, float64 (JSON numbers: integers decode as int64, others as float64), map, slice.
 * Struct fields are walked in name order (the generated type table has no Go field order), so
 * with several bad fields the one named may differ from upstream's.
 */
import { StatusError, goQuote } from '../api/errors';
import { isQuantity, QUANTITY_FORMAT_ERROR } from '../api/quantity';
import { base64Invalid } from './registry/core';
import { goKindKey, goStructFields, type GoType } from '../apimachinery/go-types';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** reflect.Kind of a decoded JSON value (UnmarshalCaseSensitivePreserveInts). */
function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (isObj(v)) return 'map';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return 'string';
}

/** The Go name of a primitive target (reflect.Type.String()). */
const PRIM_NAME: Record<string, string> = { string: 'string', bool: 'bool', int32: 'int32', int64: 'int64', uint8: 'uint8' };

/** json.Marshal of a JSON value then encoding/json's UnmarshalTypeError into a Go value (no field context). */
function valueTypeError(v: unknown, goType: string): string {
  const t = Array.isArray(v)
    ? 'array'
    : isObj(v)
      ? 'object'
      : typeof v === 'boolean'
        ? 'bool'
        : typeof v === 'number'
          ? 'number'
          : 'string';
  return `json: cannot unmarshal ${t} into Go value of type ${goType}`;
}

/** fromUnstructured(sv, dv) for one value: the converter's error, or undefined. */
function convert(v: unknown, t: GoType): string | undefined {
  if (v === null || v === undefined) return undefined;
  const k = goKind(v);
  switch (t.k) {
    case 'any':
      return undefined;
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64':
    case 'uint8': {
      const numeric = t.k === 'int32' || t.k === 'int64' || t.k === 'uint8';
      if (k === 'string' && t.k === 'string') return undefined;
      if (k === 'bool' && t.k === 'bool') return undefined;
      if (k === 'int64' && numeric) return undefined;
      if (k === 'float64' && numeric && Number.isInteger(v)) return undefined;
      // ConvertibleTo but across JSON groups: ints and floats to any number kind, ints to string
      const convertible = (k === 'int64' && (numeric || t.k === 'string')) || (k === 'float64' && numeric);
      if (convertible) return `cannot convert ${k} to ${PRIM_NAME[t.k]}`;
      return `unrecognized type: ${PRIM_NAME[t.k]}`;
    }
    case 'bytes':
      // []byte: a string is base64-decoded through JSON
      if (k === 'string') {
        const bad = base64Invalid(v as string);
        return bad >= 0 ? `error decoding from json: illegal base64 data at input byte ${bad}` : undefined;
      }
      if (k !== 'slice') return `cannot restore slice from ${k}`;
      for (const e of v as unknown[]) {
        const r = convert(e, { k: 'uint8', name: 'uint8' });
        if (r) return r;
      }
      return undefined;
    case 'quantity':
      // Quantity.UnmarshalJSON of the value marshalled back to JSON
      if (k === 'string' || k === 'int64' || k === 'float64')
        return isQuantity(typeof v === 'string' ? v.trim() : (v as number)) ? undefined : QUANTITY_FORMAT_ERROR;
      return QUANTITY_FORMAT_ERROR;
    case 'intstr':
      if (k === 'string' || k === 'int64') return undefined;
      return valueTypeError(v, 'int32');
    case 'time':
      return k === 'string' ? undefined : valueTypeError(v, 'string');
    case 'slice': {
      if (k !== 'slice') return `cannot restore slice from ${k}`;
      for (const e of v as unknown[]) {
        const r = convert(e, t.elem);
        if (r) return r;
      }
      return undefined;
    }
    case 'map': {
      if (k !== 'map') return `cannot restore map from ${k}`;
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o).sort()) {
        const r = convert(o[key], t.elem);
        if (r) return r;
      }
      return undefined;
    }
    case 'struct': {
      if (k !== 'map') return `cannot restore struct from: ${k}`;
      const fields = goStructFields(t.key);
      if (!fields) return undefined;
      const o = v as Record<string, unknown>;
      for (const [name, ft] of [...fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (!Object.prototype.hasOwnProperty.call(o, name)) continue;
        const r = convert(o[name], ft);
        if (r) return r;
      }
      return undefined;
    }
  }
}

/**
 * DefaultUnstructuredConverter.FromUnstructured(obj, <kind's Go struct>): its first error, or
 * undefined (also for kinds without a type table, e.g. custom resources).
 */
export function fromUnstructuredError(info: { group: string; version: string; kind: string }, obj: unknown): string | undefined {
  const key = goKindKey(info.group, info.version, info.kind);
  if (!key) return undefined;
  return convert(obj, { k: 'struct', name: key, key });
}

/** strconv.FormatFloat(f, 'g', -1, 64), as fmt's %v prints a float64. */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}

/** fmt.Sprintf("%+v", v) of a decoded JSON value: `map[k:v …]` (keys sorted), `[a b]`, `<nil>`. */
export function goPrintV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goPrintV).join(' ')}]`;
  if (isObj(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goPrintV(v[k])}`)
      .join(' ')}]`;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/**
 * `errors.NewInvalid(schema.GroupKind{}, "", field.ErrorList{field.Invalid(field.NewPath("patch"), value, detail)})`:
 * 422 with an empty kind and name (details carry only the cause).
 */
export function newPatchInvalid(value: string, detail: string): StatusError {
  const message = `Invalid value: ${goQuote(value)}: ${detail}`;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: ` "" is invalid: patch: ${message}`,
    reason: 'Invalid',
    details: { causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] },
    code: 422,
  });
}
