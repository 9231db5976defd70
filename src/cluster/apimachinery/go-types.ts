/**
 * The Go field table of every built-in kind the engine serves: go-types.generated.ts (written by
 * `npm run gen:k8s`, grammar in src/cli/gen-go-types.ts) parsed into Go types. Shared by the
 * apiserver's decode step (apiserver/decode.ts: UnmarshalTypeError, sigs.k8s.io/json), its body
 * limits and patch errors, and kubectl's unknown-field check (known-fields.ts), so it sits
 * below both. Follows the Go types of k8s.io/api (reflect's view of them: names as Go prints
 * them, pointers dereferenced).
 */
import { GO_KINDS, GO_STRUCTS } from './go-types.generated';

/** A parsed Go type: `name` is how Go prints it. */
export type GoType =
  | { k: 'string' | 'bool' | 'int32' | 'int64' | 'uint8' | 'bytes' | 'quantity' | 'intstr' | 'time' | 'any'; name: string }
  | { k: 'slice' | 'map'; name: string; elem: GoType }
  | { k: 'struct'; name: string; key: string };

const PRIMS: Record<string, GoType> = {
  string: { k: 'string', name: 'string' },
  bool: { k: 'bool', name: 'bool' },
  int32: { k: 'int32', name: 'int32' },
  int64: { k: 'int64', name: 'int64' },
  '[]byte': { k: 'bytes', name: '[]uint8' },
  'resource.Quantity': { k: 'quantity', name: 'resource.Quantity' },
  'intstr.IntOrString': { k: 'intstr', name: 'intstr.IntOrString' },
  'v1.Time': { k: 'time', name: 'v1.Time' },
  'v1.MicroTime': { k: 'time', name: 'v1.MicroTime' },
  any: { k: 'any', name: 'interface {}' },
};

/** Parses a type expression of go-types.generated.ts (grammar in src/cli/gen-go-types.ts). */
export function parseGoType(expr: string): GoType {
  const eq = expr.indexOf('=');
  if (eq > 0 && !expr.startsWith('[]') && !expr.startsWith('map[')) return { ...parseGoType(expr.slice(eq + 1)), name: expr.slice(0, eq) };
  if (PRIMS[expr]) return PRIMS[expr];
  if (expr.startsWith('[]')) {
    const elem = parseGoType(expr.slice(2));
    return { k: 'slice', name: `[]${elem.name}`, elem };
  }
  if (expr.startsWith('map[string]')) {
    const elem = parseGoType(expr.slice(11));
    return { k: 'map', name: `map[string]${elem.name}`, elem };
  }
  const cut = expr.lastIndexOf('.');
  const dir = expr.slice(0, cut); // core/v1
  return { k: 'struct', name: `${dir.slice(dir.indexOf('/') + 1)}.${expr.slice(cut + 1)}`, key: expr };
}

const structCache = new Map<string, Map<string, GoType>>();
/** The fields of a struct key (`core/v1.Container`), parsed once. */
export function goStructFields(key: string): Map<string, GoType> | undefined {
  let m = structCache.get(key);
  if (m) return m;
  const src = GO_STRUCTS[key];
  if (src === undefined) return undefined;
  m = new Map();
  for (const pair of src.split(' ')) {
    const i = pair.indexOf(':');
    m.set(pair.slice(0, i), parseGoType(pair.slice(i + 1)));
  }
  structCache.set(key, m);
  return m;
}

/** Struct key of a served built-in kind, e.g. ("apps", "v1", "Deployment") → "apps/v1.Deployment". */
export function goKindKey(group: string, version: string, kind: string): string | undefined {
  return GO_KINDS[`${group ? `${group}/` : ''}${version}/${kind}`];
}
