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

import { getOwn, setOwn } from '../api/safe-object';

type Obj = Record<string, unknown>;

/** How lists merge under a field: by a key, as a set of primitives, or replaced. */
export type ListStrategy = { key: string } | 'primitive-merge' | 'replace';

const NAME_KEYED = new Set(['containers', 'initContainers', 'ephemeralContainers', 'volumes', 'env', 'imagePullSecrets', 'resourceClaims', 'schedulingGates', 'secrets', 'webhooks']);

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
  return Object.keys(original).some((k) => original[k] !== null && original[k] !== undefined && !Object.prototype.hasOwnProperty.call(modified, k));
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
        if (add.length || del.length || !jsonEqual(mv, cv.filter((x) => mv.some((y) => jsonEqual(x, y))))) {
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
    if (keep.length && (Object.keys(patch).length > 0 || hasAdditionalNewField(c, m) || hasAdditionalNewField(o, m))) patch.$retainKeys = sortedKeys(keep);
  }
  return patch;
}

function diffKeyedList(o: Obj[], m: Obj[], c: Obj[], key: string, path: string[], opts: PatchOptions): { list: Obj[]; order: Obj[] } | null {
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
  const orderChanged = !jsonEqual(m.map((x) => x[key]), c.filter((x) => m.some((y) => jsonEqual(y[key], x[key]))).map((x) => x[key]));
  if (out.length === 0 && !orderChanged) return null;
  return { list: out, order: m.map((x) => ({ [key]: x[key] })) };
}

/** Applies a strategic (or JSON) merge patch to `current`, returning a new object. */
export function applyPatch(current: Obj, patch: Obj, opts: PatchOptions): Obj {
  return mergeMap(current, patch, [], opts);
}

function mergeMap(c: Obj, patch: Obj, path: string[], opts: PatchOptions): Obj {
  const out: Obj = {};
  for (const k of Object.keys(c)) Object.defineProperty(out, k, { value: c[k], enumerable: true, writable: true, configurable: true });
  if (patch.$patch === 'replace') {
    const r: Obj = {};
    for (const k of Object.keys(patch)) if (k !== '$patch') setOwn(r, k, patch[k]);
    return r;
  }
  if (opts.strategic && Object.prototype.hasOwnProperty.call(patch, '$retainKeys')) applyRetainKeysDirective(out, patch);
  for (const k of Object.keys(patch)) {
    if (k.startsWith('$')) continue;
    const pv = patch[k];
    const p = [...path, k];
    if (pv === null) {
      delete out[k];
      continue;
    }
    const cv = getOwn(out, k);
    if (isObj(pv) && isObj(cv)) setOwn(out, k, mergeMap(cv, pv, p, opts));
    else if (isObj(pv)) setOwn(out, k, stripNulls(mergeMap({}, pv, p, opts)));
    else if (Array.isArray(pv)) {
      const st = strategyAt(opts, p);
      const order = getOwn(patch, `$setElementOrder/${k}`) as Obj[] | undefined;
      if (typeof st === 'object') setOwn(out, k, mergeKeyedList(Array.isArray(cv) ? (cv as Obj[]) : [], pv as Obj[], order, st.key, p, opts));
      else if (st === 'primitive-merge') {
        const base = Array.isArray(cv) ? [...cv] : [];
        for (const x of pv) if (!base.some((y) => jsonEqual(x, y))) base.push(x);
        setOwn(out, k, base);
      } else setOwn(out, k, pv);
    } else setOwn(out, k, pv);
  }
  // directives without a list change: deletions from primitive lists, reorder
  for (const k of Object.keys(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const f = k.slice('$deleteFromPrimitiveList/'.length);
      const del = patch[k] as unknown[];
      const cur = getOwn(out, f);
      if (Array.isArray(cur) && Array.isArray(del)) {
        const kept = cur.filter((x) => !del.some((d) => jsonEqual(d, x)));
        if (kept.length) setOwn(out, f, kept);
        else delete out[f];
      }
    } else if (k.startsWith('$setElementOrder/')) {
      const f = k.slice('$setElementOrder/'.length);
      const cur = getOwn(out, f);
      if (Array.isArray(cur) && Array.isArray(patch[k]) && !Object.prototype.hasOwnProperty.call(patch, f)) {
        const st = strategyAt(opts, [...path, f]);
        if (typeof st === 'object') setOwn(out, f, reorder(cur as Obj[], patch[k] as Obj[], st.key));
      }
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
    if (k === '$retainKeys' || patch[k] === null || k.startsWith('$deleteFromPrimitiveList/') || k.startsWith('$setElementOrder/')) continue;
    if (!keep.has(k)) throw new Error('invalid patch format of retainKeys');
  }
  for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
}

function stripNulls(o: Obj): Obj {
  for (const k of Object.keys(o)) if (o[k] === null) delete o[k];
  return o;
}

function mergeKeyedList(c: Obj[], p: Obj[], order: Obj[] | undefined, key: string, path: string[], opts: PatchOptions): Obj[] {
  let out = c.map((x) => x);
  if (p.some((x) => !isObj(x))) return p;
  for (const pe of p) {
    const kv = pe[key];
    const i = out.findIndex((x) => isObj(x) && jsonEqual(x[key], kv));
    if (pe.$patch === 'delete') {
      if (i >= 0) out.splice(i, 1);
      continue;
    }
    if (pe.$patch === 'replace') {
      const r: Obj = {};
      for (const k of Object.keys(pe)) if (k !== '$patch') setOwn(r, k, pe[k]);
      if (i >= 0) out[i] = r; // array index
      else out.push(r);
      continue;
    }
    if (i >= 0) out[i] = mergeMap(out[i], pe, path, opts); // array index
    else out.push(stripNulls(mergeMap({}, pe, path, opts)));
  }
  if (order) out = reorder(out, order, key);
  return out;
}

function reorder(list: Obj[], order: Obj[], key: string): Obj[] {
  const ordered: Obj[] = [];
  for (const o of order) {
    const e = list.find((x) => jsonEqual(x[key], o[key]));
    if (e) ordered.push(e);
  }
  for (const e of list) if (!ordered.includes(e)) ordered.push(e);
  return ordered;
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
