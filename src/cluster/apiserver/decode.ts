/**
 * The apiserver's decode step: the request body is unmarshalled into the kind's Go struct, and
 * a JSON value of the wrong type is a 400 BadRequest before anything else runs:
 *
 *   Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal
 *   string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container
 *
 * Follows k8s.io/apiserver/pkg/endpoints/handlers/create.go (transformDecodeError) and
 * sigs.k8s.io/json internal/golang/encoding/json/decode.go (UnmarshalCaseSensitivePreserveInts):
 * - `Go struct field S.F`: S is the innermost Go struct, F the JSON field names from the root
 *   joined by "." (array indexes and map keys do not appear);
 * - the type is the Go type after pointers are dereferenced (`*int32` prints `int32`), with its
 *   package name (`[]v1.Container`, `v1.ResourceList`, `map[string]string`);
 * - JSON null is always accepted (the Go value keeps its zero value);
 * - a type error is remembered and decoding goes on: the first one in body order wins (kubectl
 *   sends map keys sorted, so fields are walked in sorted order); an error from a type's own
 *   UnmarshalJSON (resource.Quantity, intstr.IntOrString, metav1.Time) stops decoding and wins.
 * Field types come from go-types.generated.ts (`npm run gen:k8s`). Unknown fields are not this
 * step's business (strict field validation reports them).
 */
import { newBadRequest, type StatusError } from '../api/errors';
import { isQuantity, QUANTITY_FORMAT_ERROR } from '../api/quantity';
import { base64Invalid } from './registry/core';
import { goKindKey, goStructFields, type GoType } from '../apimachinery/go-types';

/** Re-exported from apimachinery/go-types.ts, where the Go field table now lives. */
export { goKindKey, goStructFields, parseGoType, type GoType } from '../apimachinery/go-types';

/** JSON type name as encoding/json reports it. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v !== null && typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? 'number' : 'string';
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Ctx {
  /** innermost Go struct (reflect.Type.Name()) */
  struct: string;
  /** JSON field names from the root, "." joined */
  path: string;
}

/** UnmarshalTypeError.Error(). */
function typeError(value: string, goType: string, ctx: Ctx | null): string {
  return ctx
    ? `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${ctx.path} of type ${goType}`
    : `json: cannot unmarshal ${value} into Go value of type ${goType}`;
}

const INT_RANGE = { int32: [-(2 ** 31), 2 ** 31 - 1], int64: [-(2 ** 63), 2 ** 63 - 1], uint8: [0, 255] } as const;

/** Decoding state: the first saved error; a returned string from walk is a fatal one. */
interface State {
  saved?: string;
}

function walk(v: unknown, t: GoType, ctx: Ctx | null, st: State): string | undefined {
  if (v === null || v === undefined) return undefined;
  const save = (value: string, typeName = t.name) => {
    st.saved ??= typeError(value, typeName, ctx);
    return undefined;
  };
  switch (t.k) {
    case 'any':
      return undefined;
    case 'string':
      return typeof v === 'string' ? undefined : save(jsonType(v));
    case 'bool':
      return typeof v === 'boolean' ? undefined : save(jsonType(v));
    case 'int32':
    case 'int64':
    case 'uint8': {
      if (typeof v !== 'number') return save(jsonType(v));
      const [lo, hi] = INT_RANGE[t.k];
      return Number.isInteger(v) && v >= lo && v <= hi ? undefined : save(`number ${v}`);
    }
    case 'bytes': {
      // []byte: a base64 string (or, as for any slice, an array of numbers)
      if (Array.isArray(v)) {
        for (const e of v) {
          const r = walk(e, { k: 'uint8', name: 'uint8' }, ctx, st);
          if (r) return r;
        }
        return undefined;
      }
      if (typeof v !== 'string') return save(jsonType(v));
      const bad = base64Invalid(v);
      if (bad >= 0) st.saved ??= `illegal base64 data at input byte ${bad}`;
      return undefined;
    }
    case 'quantity':
      // Quantity.UnmarshalJSON parses whatever JSON text it is given
      return (typeof v === 'string' || typeof v === 'number') && isQuantity(typeof v === 'string' ? v.trim() : v)
        ? undefined
        : QUANTITY_FORMAT_ERROR;
    case 'intstr':
      // IntOrString.UnmarshalJSON: a string, else json.Unmarshal into its int32 (the error gets the field context)
      if (typeof v === 'string') return undefined;
      if (typeof v === 'number')
        return Number.isInteger(v) && v >= INT_RANGE.int32[0] && v <= INT_RANGE.int32[1]
          ? undefined
          : typeError(`number ${v}`, 'int32', ctx);
      return typeError(jsonType(v), 'int32', ctx);
    case 'time':
      // Time.UnmarshalJSON: json.Unmarshal into a string first
      return typeof v === 'string' ? undefined : typeError(jsonType(v), 'string', ctx);
    case 'slice': {
      if (!Array.isArray(v)) return save(jsonType(v));
      for (const e of v) {
        const r = walk(e, t.elem, ctx, st);
        if (r) return r;
      }
      return undefined;
    }
    case 'map': {
      if (!isObj(v)) return save(jsonType(v));
      for (const k of Object.keys(v).sort()) {
        const r = walk(v[k], t.elem, ctx, st);
        if (r) return r;
      }
      return undefined;
    }
    case 'struct': {
      if (!isObj(v)) return save(jsonType(v));
      const fields = goStructFields(t.key);
      if (!fields) return undefined;
      const name = t.key.slice(t.key.lastIndexOf('.') + 1);
      for (const k of Object.keys(v).sort()) {
        const ft = fields.get(k);
        if (!ft) continue;
        const r = walk(v[k], ft, { struct: name, path: ctx ? `${ctx.path}.${k}` : k }, st);
        if (r) return r;
      }
      return undefined;
    }
  }
}

/** Fast check that `v` decodes into `t` with no error of any kind (walk finds the error otherwise). */
function fits(v: unknown, t: GoType): boolean {
  if (v === null || v === undefined) return true;
  switch (t.k) {
    case 'any':
      return true;
    case 'string':
    case 'time':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'int32':
    case 'int64':
    case 'uint8':
      return typeof v === 'number' && Number.isInteger(v) && v >= INT_RANGE[t.k][0] && v <= INT_RANGE[t.k][1];
    case 'intstr':
      return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && v >= INT_RANGE.int32[0] && v <= INT_RANGE.int32[1]);
    case 'bytes':
      return typeof v === 'string' && base64Invalid(v) < 0;
    case 'quantity':
      return (typeof v === 'string' || typeof v === 'number') && isQuantity(typeof v === 'string' ? v.trim() : v);
    case 'slice':
      if (!Array.isArray(v)) return false;
      for (const e of v) if (!fits(e, t.elem)) return false;
      return true;
    case 'map':
      if (!isObj(v)) return false;
      for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && !fits(v[k], t.elem)) return false;
      return true;
    case 'struct': {
      if (!isObj(v)) return false;
      const fields = goStructFields(t.key);
      if (!fields) return true;
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const ft = fields.get(k);
        if (ft && !fits(v[k], ft)) return false;
      }
      return true;
    }
  }
}

/**
 * The decode error of `obj` against the Go struct `key` (e.g. "apps/v1.Deployment"), without
 * the `<Kind> in version …` prefix, or undefined when every field has a type Go accepts.
 */
export function decodeTypeError(key: string, obj: unknown): string | undefined {
  const top: GoType = { k: 'struct', name: key, key };
  if (fits(obj, top)) return undefined; // the common case: no paths, no sorting
  const st: State = {};
  const fatal = walk(obj, { k: 'struct', name: key, key }, null, st);
  return fatal ?? st.saved;
}

/**
 * The decode step of a create or update of a built-in kind: throws kube-apiserver's 400
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: json: cannot unmarshal …`.
 * Kinds without a Go type table (custom resources) are not checked.
 * @param info the served kind (group, version, kind)
 * @param obj the request body, as sent (its own apiVersion/kind name the "in version" part)
 */
export function checkDecode(info: { group: string; version: string; kind: string }, obj: unknown): void {
  const key = goKindKey(info.group, info.version, info.kind);
  if (!key) return;
  const err = decodeTypeError(key, obj);
  if (err !== undefined) throw decodeBadRequest(info, obj, err);
}

/** transformDecodeError: the 400 for a body that did not decode. */
export function decodeBadRequest(info: { version: string; kind: string }, obj: unknown, err: string): StatusError {
  const o = isObj(obj) ? obj : {};
  const kind = typeof o.kind === 'string' && o.kind ? o.kind : info.kind;
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const version = av ? av.slice(av.indexOf('/') + 1) : info.version;
  return newBadRequest(`${kind} in version "${version}" cannot be handled as a ${info.kind}: ${err}`);
}
