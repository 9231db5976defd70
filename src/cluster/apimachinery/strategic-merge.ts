/**
 * A small strategic merge patch, as k8s.io/apimachinery/pkg/util/strategicpatch
 * (CreateThreeWayMergePatch, StrategicMergePatch) with the patchMergeKey /
 * patchStrategy tags of k8s.io/api, and the JSON merge patch kubectl falls back to for
 * custom resources (k8s.io/apimachinery/pkg/util/jsonmergepatch CreateThreeWayJSONMergePatch).
 *
 * Three-way: changes and additions come from modified vs current (the live object, so
 * server defaults and fields nobody configured stay), deletions from original
 * (last-applied) vs modified. Lists with a merge key merge by key and carry
 * `$setElementOrder/<field>`; removed elements become `{"$patch":"delete", key: …}`;
 * other lists are replaced whole.
 */

import { getOwn, hasOwn, setOwn } from '../api/safe-object';

type Obj = Record<string, unknown>;

/**
 * An error of strategicpatch's merge with the HTTP code kube-apiserver answers for it
 * (handlers/patch.go interpretStrategicMergePatchError): mergepatch's ErrBadPatchFormat* are
 * 400 BadRequest; every other merge error (an unknown `$patch` directive, a list element
 * without its merge key, `$patch: merge` in a list, a `$setElementOrder` list the patch list
 * disagrees with) is not a metav1.Status, so ErrorToAPIStatus makes it a 500 with an empty
 * reason and the bare text (kubectl: `Error from server: …`).
 */
export class StrategicMergePatchError extends Error {
  constructor(
    message: string,
    readonly code: 400 | 500,
  ) {
    super(message);
  }
}

/**
 * Go's fmt %v of a patch as the apiserver decodes it (util/json: integral numbers become int64,
 * others float64): `map[k:v …]` (keys sorted), `[a b]`, `<nil>`, floats as %g (1.5e+06).
 */
export function goFormatV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloatG(v);
  if (Array.isArray(v)) return `[${v.map(goFormatV).join(' ')}]`;
  const o = v as Obj;
  return `map[${Object.keys(o)
    .sort(goKeyLess)
    .map((k) => `${k}:${goFormatV(o[k])}`)
    .join(' ')}]`;
}

/** strconv.FormatFloat(f, 'g', -1, 64): %e when the exponent is < -4 or ≥ 6 (shortest digits). */
function goFloatG(n: number): string {
  if (n === 0) return '0';
  const [mant, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** fmt's %s of a `$patch` value (a string prints bare; anything else as %!s(T=v)). */
function goFormatS(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? `%!s(int64=${v})` : `%!s(float64=${goFloatG(v)})`;
  if (typeof v === 'boolean') return `%!s(bool=${v})`;
  if (v === null) return '%!s(<nil>)';
  return goFormatV(v);
}

/** mergepatch.ErrBadPatchType. */
function errBadPatchType(t: unknown, m: Obj): StrategicMergePatchError {
  return new StrategicMergePatchError(`unknown patch type: ${goFormatS(t)} in map: ${goFormatV(m)}`, 500);
}

/** mergepatch.ErrNoMergeKey. */
function errNoMergeKey(m: Obj, key: string): StrategicMergePatchError {
  return new StrategicMergePatchError(`map: ${goFormatV(m)} does not contain declared merge key: ${key}`, 500);
}

/** How lists merge under a field: by a key, as a set of primitives, or replaced. */
export type ListStrategy = { key: string } | 'primitive-merge' | 'replace';

const NAME_KEYED = new Set([
  'containers',
  'initContainers',
  'ephemeralContainers',
  'volumes',
  'env',
  'imagePullSecrets',
  'resourceClaims',
  'schedulingGates',
  'secrets',
  'webhooks',
]);

/**
 * The list strategy of a field, from the k8s.io/api struct tags. `path` is the chain of
 * field names from the object root ("spec", "template", "spec", "containers", "ports").
 */
export function listStrategy(kind: string, path: string[]): ListStrategy {
  const f = path[path.length - 1];
  const parent = path[path.length - 2];
  if (NAME_KEYED.has(f)) {
    if (f === 'secrets' && kind !== 'ServiceAccount') return 'replace';
    return { key: 'name' };
  }
  if (f === 'ports') {
    if (parent === 'containers' || parent === 'initContainers' || parent === 'ephemeralContainers') return { key: 'containerPort' };
    if (kind === 'Service' && path.length === 2) return { key: 'port' };
    return 'replace';
  }
  if (f === 'volumeMounts') return { key: 'mountPath' };
  if (f === 'volumeDevices') return { key: 'devicePath' };
  if (f === 'hostAliases') return { key: 'ip' };
  if (f === 'topologySpreadConstraints') return { key: 'topologyKey' };
  if (f === 'ownerReferences' && parent === 'metadata') return { key: 'uid' };
  // status.conditions of the built-in kinds (PodStatus, NodeStatus, DeploymentStatus, …) and
  // NodeStatus.addresses: patchStrategy:"merge" patchMergeKey:"type"
  if (f === 'conditions' && parent === 'status') return { key: 'type' };
  if (f === 'addresses' && parent === 'status' && kind === 'Node') return { key: 'type' };
  if (f === 'finalizers' && parent === 'metadata') return 'primitive-merge';
  return 'replace';
}

/**
 * Whether the map at `path` carries patchStrategy "retainKeys" (k8s.io/api struct tags):
 * DeploymentSpec.strategy, and each element of PodSpec.volumes (`merge,retainKeys`).
 * `path` of a list element is its list's path.
 */
export function retainKeysAt(kind: string, path: string[]): boolean {
  const f = path[path.length - 1];
  if (f === 'volumes' && path[path.length - 2] === 'spec') return true;
  return kind === 'Deployment' && path.length === 2 && path[0] === 'spec' && f === 'strategy';
}

/** hasAdditionalNewField: `original` has a key with a non-null value that `modified` lacks. */
function hasAdditionalNewField(original: Obj, modified: Obj): boolean {
  return Object.keys(original).some(
    (k) => original[k] !== null && original[k] !== undefined && !Object.prototype.hasOwnProperty.call(modified, k),
  );
}

/** Go's sortScalars over strings (fmt %v then sort.Strings order). */
function sortedKeys(keys: string[]): string[] {
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a as Obj);
  const kb = Object.keys(b as Obj);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Obj)[k], (b as Obj)[k]));
}

export interface PatchOptions {
  /** Kind of the object (merge keys depend on it). */
  kind: string;
  /** false for JSON merge patch (custom resources): every list is replaced, no directives. */
  strategic: boolean;
}

function strategyAt(opts: PatchOptions, path: string[]): ListStrategy {
  return opts.strategic ? listStrategy(opts.kind, path) : 'replace';
}

/**
 * CreateThreeWayMergePatch(original, modified, current). Returns `{}` when nothing
 * would change.
 */
export function createThreeWayPatch(original: Obj | null, modified: Obj, current: Obj, opts: PatchOptions): Obj {
  return diffMaps(original ?? {}, modified, current, [], opts);
}

function diffMaps(o: Obj, m: Obj, c: Obj, path: string[], opts: PatchOptions): Obj {
  const patch: Obj = {};
  for (const k of Object.keys(m)) {
    const mv = m[k];
    const cv = getOwn(c, k);
    const ov = getOwn(o, k);
    const p = [...path, k];
    if (isObj(mv) && isObj(cv)) {
      const sub = diffMaps(isObj(ov) ? ov : {}, mv, cv, p, opts);
      if (Object.keys(sub).length) setOwn(patch, k, sub);
      continue;
    }
    if (Array.isArray(mv) && Array.isArray(cv)) {
      const st = strategyAt(opts, p);
      if (typeof st === 'object' && mv.every(isObj) && cv.every(isObj)) {
        const res = diffKeyedList(Array.isArray(ov) ? (ov as Obj[]) : [], mv as Obj[], cv as Obj[], st.key, p, opts);
        if (res) {
          if (res.list.length) setOwn(patch, k, res.list);
          patch[`$setElementOrder/${k}`] = res.order;
        }
        continue;
      }
      if (st === 'primitive-merge') {
        const add = mv.filter((x) => !cv.some((y) => jsonEqual(x, y)));
        const del = (Array.isArray(ov) ? ov : []).filter((x) => !mv.some((y) => jsonEqual(x, y)));
        if (
          add.length ||
          del.length ||
          !jsonEqual(
            mv,
            cv.filter((x) => mv.some((y) => jsonEqual(x, y))),
          )
        ) {
          if (add.length) setOwn(patch, k, add);
          if (del.length) patch[`$deleteFromPrimitiveList/${k}`] = del;
          patch[`$setElementOrder/${k}`] = mv;
        }
        continue;
      }
    }
    if (!jsonEqual(mv, cv)) setOwn(patch, k, mv);
  }
  // deletions: in original (last-applied) but no longer in modified
  for (const k of Object.keys(o)) {
    if (Object.prototype.hasOwnProperty.call(m, k)) continue;
    setOwn(patch, k, null);
  }
  // patch.go diffMaps with BuildRetainKeysDirective: the keys modified keeps (non-null), when
  // the patch changes something or the live (or last-applied) map holds keys modified dropped
  if (opts.strategic && retainKeysAt(opts.kind, path)) {
    const keep = Object.keys(m).filter((k) => m[k] !== null && m[k] !== undefined);
    if (keep.length && (Object.keys(patch).length > 0 || hasAdditionalNewField(c, m) || hasAdditionalNewField(o, m)))
      patch.$retainKeys = sortedKeys(keep);
  }
  return patch;
}

function diffKeyedList(
  o: Obj[],
  m: Obj[],
  c: Obj[],
  key: string,
  path: string[],
  opts: PatchOptions,
): { list: Obj[]; order: Obj[] } | null {
  const out: Obj[] = [];
  for (const me of m) {
    const kv = me[key];
    const ce = c.find((x) => jsonEqual(x[key], kv));
    const oe = o.find((x) => jsonEqual(x[key], kv));
    if (!ce) {
      out.push(me);
      continue;
    }
    const sub = diffMaps(oe ?? {}, me, ce, path, opts);
    if (Object.keys(sub).length) out.push({ ...sub, [key]: kv });
  }
  for (const oe of o) {
    const kv = oe[key];
    if (!m.some((x) => jsonEqual(x[key], kv))) out.push({ $patch: 'delete', [key]: kv });
  }
  const orderChanged = !jsonEqual(
    m.map((x) => x[key]),
    c.filter((x) => m.some((y) => jsonEqual(y[key], x[key]))).map((x) => x[key]),
  );
  if (out.length === 0 && !orderChanged) return null;
  return { list: out, order: m.map((x) => ({ [key]: x[key] })) };
}

/** Applies a strategic (or JSON) merge patch to `current`, returning a new object. */
export function applyPatch(current: Obj, patch: Obj, opts: PatchOptions): Obj {
  return mergeMap(current, patch, [], opts);
}

/**
 * mergeMap (patch.go): a `$patch` directive decides the whole map (handleDirectiveInMergeMap:
 * `replace` → the patch without it, `delete` → an empty map, anything else → ErrBadPatchType);
 * then `$retainKeys`, then each `$setElementOrder/<list>` with its list (mergePatchIntoOriginal),
 * then every other key; `$deleteFromPrimitiveList/<list>` removes values from the live list.
 */
function mergeMap(c: Obj, patch: Obj, path: string[], opts: PatchOptions): Obj {
  if (opts.strategic && hasOwn(patch, '$patch')) {
    const d = patch.$patch;
    if (d === 'replace') {
      const r: Obj = {};
      for (const k of Object.keys(patch)) if (k !== '$patch') setOwn(r, k, patch[k]);
      return r;
    }
    if (d === 'delete') return {};
    throw errBadPatchType(d, patch);
  }
  const out: Obj = {};
  for (const k of Object.keys(c)) Object.defineProperty(out, k, { value: c[k], enumerable: true, writable: true, configurable: true });
  if (opts.strategic && Object.prototype.hasOwnProperty.call(patch, '$retainKeys')) applyRetainKeysDirective(out, patch);
  const done = new Set<string>();
  if (opts.strategic) {
    for (const k of Object.keys(patch)) {
      if (!k.startsWith('$setElementOrder/')) continue;
      const f = k.slice('$setElementOrder/'.length);
      const order = patch[k];
      const pl = getOwn(patch, f);
      const cur = getOwn(out, f);
      const st = strategyAt(opts, [...path, f]);
      const key = typeof st === 'object' ? st.key : '';
      if (!Array.isArray(order) || (pl !== undefined && !Array.isArray(pl)))
        throw new StrategicMergePatchError('invalid patch format of setElementOrder list', 400);
      validatePatchWithSetOrderList(Array.isArray(pl) ? pl : [], order, key);
      const foundOriginal = Array.isArray(cur);
      const foundPatch = Array.isArray(pl);
      let merged: unknown[];
      if (foundOriginal && !foundPatch) merged = cur as unknown[];
      else if (!foundOriginal && foundPatch) merged = (pl as unknown[]).filter((x) => !(isObj(x) && hasOwn(x, '$patch')));
      else if (foundOriginal && foundPatch) merged = mergeList(cur as unknown[], pl as unknown[], st, [...path, f], opts);
      else continue;
      setOwn(out, f, normalizeElementOrder(merged, order, foundOriginal ? (cur as unknown[]) : [], key));
      done.add(f);
    }
  }
  for (const k of Object.keys(patch)) {
    if (k.startsWith('$') || done.has(k)) continue;
    const pv = patch[k];
    const p = [...path, k];
    if (pv === null) {
      delete out[k];
      continue;
    }
    const cv = getOwn(out, k);
    if (isObj(pv) && isObj(cv)) setOwn(out, k, mergeMap(cv, pv, p, opts));
    else if (isObj(pv)) setOwn(out, k, stripNulls(mergeMap({}, pv, p, opts)));
    else if (Array.isArray(pv) && Array.isArray(cv)) setOwn(out, k, mergeList(cv, pv, strategyAt(opts, p), p, opts));
    else if (Array.isArray(pv)) setOwn(out, k, opts.strategic ? pv.filter((x) => !(isObj(x) && hasOwn(x, '$patch'))) : pv);
    else setOwn(out, k, pv);
  }
  // $deleteFromPrimitiveList/<list>: deleteFromSlice on the live list (any patch strategy)
  for (const k of Object.keys(patch)) {
    if (!opts.strategic || !k.startsWith('$deleteFromPrimitiveList/')) continue;
    const f = k.slice('$deleteFromPrimitiveList/'.length);
    const del = patch[k] as unknown[];
    const cur = getOwn(out, f);
    if (Array.isArray(cur) && Array.isArray(del)) {
      const kept = cur.filter((x) => !del.some((d) => jsonEqual(d, x)));
      if (kept.length) setOwn(out, f, kept);
      else delete out[f];
    }
  }
  return out;
}

/** mergeSliceHandler: lists of a merge strategy merge (by key, or as a set of primitives); others are replaced. */
function mergeList(c: unknown[], p: unknown[], st: ListStrategy, path: string[], opts: PatchOptions): unknown[] {
  if (typeof st === 'object') {
    if (p.some((x) => !isObj(x)) || c.some((x) => !isObj(x))) return p;
    return mergeKeyedList(c as Obj[], p as Obj[], st.key, path, opts);
  }
  if (st === 'primitive-merge') {
    const both: unknown[] = [];
    for (const x of [...c, ...p]) if (!both.some((y) => jsonEqual(x, y))) both.push(x);
    return normalizeElementOrder(both, p, c, '');
  }
  return p;
}

/**
 * validatePatchWithSetOrderList: the patch list's items (deletions aside) appear in the
 * `$setElementOrder` list in the same relative order.
 */
function validatePatchWithSetOrderList(patchList: unknown[], order: unknown[], key: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const nonDelete = key ? patchList.filter((x) => !(isObj(x) && x.$patch === 'delete')) : patchList;
  let pi = 0;
  let oi = 0;
  while (pi < nonDelete.length && oi < order.length) {
    const pe = nonDelete[pi];
    if (isObj(pe) && hasOwn(pe, '$patch')) {
      pi++;
      continue;
    }
    if (jsonEqual(keyOf(pe, key), keyOf(order[oi], key))) pi++;
    oi++;
  }
  if (pi < nonDelete.length && oi >= order.length) {
    throw new StrategicMergePatchError(
      `The order in patch list:\n${goFormatV(patchList)}\n doesn't match $setElementOrder list:\n${goFormatV(order)}\n`,
      500,
    );
  }
}

/** An element's identity: its merge key's value, or the primitive itself. */
function keyOf(x: unknown, key: string): unknown {
  return key ? (isObj(x) ? x[key] : undefined) : x;
}

/**
 * normalizeElementOrder (patch.go): the merged items the order list names, in its order,
 * interleaved with the server-only items kept where the live list had them (mergeSortedSlice:
 * a server-only item goes before the next patch item that follows it in the live list).
 */
function normalizeElementOrder(merged: unknown[], order: unknown[], live: unknown[], key: string): unknown[] {
  const idx = (list: unknown[], x: unknown) => list.findIndex((y) => jsonEqual(keyOf(y, key), keyOf(x, key)));
  const patchItems = merged.filter((x) => idx(order, x) >= 0);
  const serverOnly = merged.filter((x) => idx(order, x) < 0);
  patchItems.sort((a, b) => idx(order, a) - idx(order, b));
  const byLive = serverOnly.map((x, i) => ({ x, i, l: idx(live, x) }));
  byLive.sort((a, b) => (a.l >= 0 && b.l >= 0 ? a.l - b.l : a.i - b.i));
  const left = byLive.map((e) => e.x);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < patchItems.length) {
    if (i >= left.length) out.push(patchItems[j++]);
    else if (j >= patchItems.length) out.push(left[i++]);
    else {
      const li = idx(live, left[i]);
      const ri = idx(live, patchItems[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(patchItems[j++]);
    }
  }
  return out;
}

/**
 * applyRetainKeysDirective (patch.go, server side): every key the patch sets must be listed
 * (else `invalid patch format of retainKeys`, a 400), and the keys of `out` not listed are
 * cleared (emptyDir → hostPath, RollingUpdate → Recreate without the old rollingUpdate).
 * @throws Error with mergepatch's ErrBadPatchFormatForRetainKeys text
 */
function applyRetainKeysDirective(out: Obj, patch: Obj): void {
  const list = patch.$retainKeys;
  if (!Array.isArray(list)) throw new Error('invalid patch format of retainKeys');
  const keep = new Set(list.map((x) => String(x)));
  for (const k of Object.keys(patch)) {
    if (k === '$retainKeys' || patch[k] === null || k.startsWith('$deleteFromPrimitiveList/') || k.startsWith('$setElementOrder/'))
      continue;
    if (!keep.has(k)) throw new Error('invalid patch format of retainKeys');
  }
  for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
}

function stripNulls(o: Obj): Obj {
  for (const k of Object.keys(o)) if (o[k] === null) delete o[k];
  return o;
}

/**
 * mergeSlice of a list with a merge key: its special elements first
 * (mergeSliceWithSpecialElements: `{$patch: delete, <key>: v}` deletes, `{$patch: replace}`
 * makes the list the patch's other elements, `merge` and anything else are errors), then each
 * element merged into the live one with its key or appended, then the order normalized
 * (patch items in patch order, server-only items where they were).
 */
function mergeKeyedList(c: Obj[], p: Obj[], key: string, path: string[], opts: PatchOptions): Obj[] {
  let base = c.slice();
  const plain: Obj[] = [];
  let replace = false;
  for (const pe of p) {
    if (!hasOwn(pe, '$patch')) {
      plain.push(pe);
      continue;
    }
    const d = pe.$patch;
    if (d === 'delete') {
      if (!hasOwn(pe, key)) throw errNoMergeKey(pe, key);
      base = base.filter((x) => !jsonEqual(x[key], pe[key]));
    } else if (d === 'replace') replace = true;
    else if (d === 'merge') throw new StrategicMergePatchError('merging lists cannot yet be specified in the patch', 500);
    else throw errBadPatchType(d, pe);
  }
  if (replace) return plain;
  const merged = base.slice();
  for (const pe of plain) {
    if (!hasOwn(pe, key)) throw errNoMergeKey(pe, key);
    const i = merged.findIndex((x) => jsonEqual(x[key], pe[key]));
    if (i >= 0)
      merged[i] = mergeMap(merged[i], pe, path, opts); // array index
    else merged.push(stripNulls(mergeMap({}, pe, path, opts)));
  }
  return normalizeElementOrder(merged, plain, base, key) as Obj[];
}

/**
 * JSON exactly as Go's encoding/json marshals a map[string]interface{}: keys sorted,
 * compact, `<`, `>`, `&`, U+2028 and U+2029 escaped.
 */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goString(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  const o = v as Obj;
  const keys = Object.keys(o).sort(goKeyLess);
  return `{${keys.map((k) => `${goString(k)}:${goJSON(o[k])}`).join(',')}}`;
}

/** Go sorts map keys by their UTF-8 bytes; for BMP text this is code-unit order except surrogates. */
function goKeyLess(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function goString(s: string): string {
  return JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** strconv.FormatFloat(f, 'g'-like) as encoding/json prints float64 (integers without exponent below 1e21). */
function goNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const abs = Math.abs(n);
  if (abs < 1e-6 || abs >= 1e21) {
    return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(n);
}
