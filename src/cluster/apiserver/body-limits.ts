/**
 * What the apiserver's decoder rejects (or reshapes) before an object reaches the registry, for
 * request bodies that came from outside (the HTTP API, the kubectl bar, the editor):
 *
 * - nesting deeper than Go's encoding/json allows (scanner.go maxNestingDepth = 10000): the
 *   serializer's Interpret step fails, create.go transformDecodeError answers 400
 *   `the object provided is unrecognized (must be of type Widget): couldn't get version/kind;
 *   json parse error: exceeded max depth ({"apiVersion":"example.com/v1 ...)`;
 * - `metadata` that is not an object: 400 `ConfigMap in version "v1" cannot be handled as a
 *   ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type
 *   v1.ObjectMeta` (custom resources get the same text, with their kind);
 * - JSON `null` where Go decodes a zero value: a `null` element of a list of structs is the
 *   zero struct (`ports: [null]` is one port with every field empty, which validation then
 *   rejects), a `null` element (or map value) of strings is "". A `null` field stays (the
 *   engine reads it as absent, as Go's nil pointer / zero value re-encodes).
 *
 * The walks are iterative: a body of any depth is measured without recursion.
 */
import type { KObject } from '../api/types';
import { newBadRequest, type StatusError } from '../api/errors';
import { goKindKey, goStructFields, type GoType } from '../apimachinery/go-types';
import { setOwn } from '../api/safe-object';

/** encoding/json's maxNestingDepth (Go's scanner). */
export const MAX_JSON_DEPTH = 10_000;

/** Whether `v` nests objects/arrays more than `max` deep (the top-level container is depth 1). */
export function exceedsDepth(v: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d > max) return true;
    for (const c of Array.isArray(x) ? x : Object.values(x)) if (c !== null && typeof c === 'object') stack.push([c, d + 1]);
  }
  return false;
}

/** The first `n` characters of `v` as compact JSON, without recursion (summarizeData's view of the body). */
export function jsonPrefix(v: unknown, n: number): string {
  let out = '';
  type Frame = { kind: 'value'; v: unknown } | { kind: 'text'; s: string };
  const stack: Frame[] = [{ kind: 'value', v }];
  while (stack.length && out.length < n) {
    const f = stack.pop()!;
    if (f.kind === 'text') {
      out += f.s;
      continue;
    }
    const x = f.v;
    if (Array.isArray(x)) {
      const parts: Frame[] = [{ kind: 'text', s: '[' }];
      x.forEach((e, i) => parts.push(...(i ? [{ kind: 'text', s: ',' } as Frame] : []), { kind: 'value', v: e }));
      parts.push({ kind: 'text', s: ']' });
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
    } else if (x !== null && typeof x === 'object') {
      const parts: Frame[] = [{ kind: 'text', s: '{' }];
      Object.entries(x).forEach(([k, e], i) =>
        parts.push({ kind: 'text', s: `${i ? ',' : ''}${JSON.stringify(k)}:` }, { kind: 'value', v: e }),
      );
      parts.push({ kind: 'text', s: '}' });
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
    } else out += JSON.stringify(x) ?? 'null';
  }
  return out;
}

/** create.go summarizeData(body, 30) of a JSON object body. */
function summarize(v: unknown): string {
  const s = jsonPrefix(v, 31);
  return s.length > 30 ? `${s.slice(0, 30)} ...` : s;
}

const jsonTypeName = (v: unknown): string =>
  Array.isArray(v)
    ? 'array'
    : typeof v === 'boolean'
      ? 'bool'
      : typeof v === 'number'
        ? 'number'
        : typeof v === 'object'
          ? 'object'
          : 'string';

/**
 * The decode error of a create/update body that no later step could handle: too deep, or
 * `metadata` not an object. undefined when the body can go on.
 * @param info the served kind
 */
export function bodyDecodeError(info: { group: string; version: string; kind: string }, body: unknown): StatusError | undefined {
  if (exceedsDepth(body)) {
    return newBadRequest(
      `the object provided is unrecognized (must be of type ${info.kind}): couldn't get version/kind; json parse error: exceeded max depth (${summarize(body)})`,
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const md = (body as { metadata?: unknown }).metadata;
  if (md !== undefined && md !== null && (typeof md !== 'object' || Array.isArray(md))) {
    const o = body as { kind?: unknown; apiVersion?: unknown };
    const kind = typeof o.kind === 'string' && o.kind ? o.kind : info.kind;
    const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
    const version = av ? av.slice(av.indexOf('/') + 1) : info.version;
    return newBadRequest(
      `${kind} in version "${version}" cannot be handled as a ${info.kind}: json: cannot unmarshal ${jsonTypeName(md)} into Go struct field ${info.kind}.metadata of type v1.ObjectMeta`,
    );
  }
  return undefined;
}

const ZERO: Partial<Record<GoType['k'], unknown>> = { string: '', bool: false, int32: 0, int64: 0, uint8: 0 };

/**
 * Go's zero values for JSON `null` in a decoded body (in place): `null` elements of lists and
 * values of maps become the element type's zero value (`{}` for a struct). Only
 * built-in kinds (with a Go type table) are reshaped. Run after the decode check.
 */
export function applyGoZeroValues(info: { group: string; version: string; kind: string }, obj: KObject): void {
  const key = goKindKey(info.group, info.version, info.kind);
  if (!key) return;
  const stack: [unknown, GoType][] = [[obj, { k: 'struct', name: key, key }]];
  while (stack.length) {
    const [v, t] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (t.k === 'struct' && !Array.isArray(v)) {
      const fields = goStructFields(t.key);
      if (!fields) continue;
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const ft = fields.get(k);
        if (ft && o[k] !== null) stack.push([o[k], ft]);
      }
    } else if (t.k === 'slice' && Array.isArray(v)) {
      const elem = t.elem;
      for (let i = 0; i < v.length; i++) {
        if (v[i] === null) {
          if (elem.k === 'struct')
            v[i] = {}; // array index
          else if (ZERO[elem.k] !== undefined) v[i] = ZERO[elem.k]; // array index
        } else stack.push([v[i], elem]);
      }
    } else if (t.k === 'map' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        if (o[k] === null) {
          if (t.elem.k === 'struct') setOwn(o, k, {});
          else if (ZERO[t.elem.k] !== undefined) setOwn(o, k, ZERO[t.elem.k]);
        } else stack.push([o[k], t.elem]);
      }
    }
  }
}
