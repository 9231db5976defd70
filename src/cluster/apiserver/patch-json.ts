/**
 * JSON Patch (RFC 6902, `application/json-patch+json`) and JSON Merge Patch (RFC 7386,
 * `application/merge-patch+json`), as kube-apiserver applies them with
 * github.com/evanphx/json-patch (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go
 * jsonPatcher). Error texts follow evanphx/json-patch v4 (the version the apiserver vendors).
 * Pure functions over plain JSON values; the inputs are never changed.
 */

import { deleteOwn, getOwn, hasOwn, setOwn } from '../api/safe-object';

type Json = unknown;
type Obj = Record<string, unknown>;

/** One RFC 6902 operation. */
export interface JSONPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** A patch that could not be applied: the text evanphx/json-patch returns. */
export class PatchApplyError extends Error {}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const clone = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

function equal(a: Json, b: Json): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObj(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

/** "/spec/containers/0/image" → ["spec", "containers", "0", "image"] (RFC 6901 unescaping). */
function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchApplyError(`Unable to find path "${path}": invalid pointer`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The container holding the last segment of `path`, or an error naming the missing path. */
function parentOf(doc: Json, parts: string[], path: string): Obj | unknown[] {
  let cur: Json = doc;
  for (const p of parts.slice(0, -1)) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(p) ? cur[Number(p)] : undefined;
    else if (isObj(cur)) cur = getOwn(cur, p);
    else cur = undefined;
    if (cur === undefined || cur === null) throw new PatchApplyError(`doc is missing path: "${path}": missing value`);
  }
  if (!Array.isArray(cur) && !isObj(cur)) throw new PatchApplyError(`doc is missing path: "${path}": missing value`);
  return cur;
}

function index(list: unknown[], seg: string, _path: string, forAdd: boolean): number {
  if (forAdd && seg === '-') return list.length;
  const i = Number(seg);
  if (!/^\d+$/.test(seg) || i > list.length || (!forAdd && i === list.length)) {
    throw new PatchApplyError(`Unable to access invalid index: ${seg}: invalid index referenced`);
  }
  return i;
}

function getAt(doc: Json, path: string): Json {
  const parts = pointer(path);
  if (!parts.length) return doc;
  const parent = parentOf(doc, parts, path);
  const last = parts[parts.length - 1];
  const v = Array.isArray(parent) ? parent[index(parent, last, path, false)] : getOwn(parent, last);
  if (v === undefined) throw new PatchApplyError(`doc is missing path: "${path}": missing value`);
  return v;
}

function removeAt(doc: Json, path: string, op: string): Json {
  const parts = pointer(path);
  const parent = parentOf(doc, parts, path);
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) {
    const i = index(parent, last, path, false);
    return parent.splice(i, 1)[0];
  }
  if (!hasOwn(parent, last)) throw new PatchApplyError(`Unable to ${op} nonexistent key: ${last}: missing value`);
  const v = parent[last];
  deleteOwn(parent, last);
  return v;
}

function addAt(doc: Json, path: string, value: Json, replace: boolean): Json {
  const parts = pointer(path);
  if (!parts.length) return value;
  const parent = parentOf(doc, parts, path);
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) {
    const i = index(parent, last, path, !replace);
    if (replace)
      parent[i] = value; // array index
    else parent.splice(i, 0, value);
  } else {
    if (replace && !hasOwn(parent, last)) throw new PatchApplyError(`doc is missing key: ${path}: missing value`);
    setOwn(parent, last, value);
  }
  return doc;
}

/**
 * Applies an RFC 6902 patch. @throws PatchApplyError with evanphx/json-patch's text
 * (the apiserver answers 422 with it); Error for a malformed operation (400).
 */
export function applyJSONPatch(doc: Json, ops: unknown): Json {
  if (!Array.isArray(ops)) throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let out = clone(doc);
  for (const raw of ops as JSONPatchOp[]) {
    if (!isObj(raw) || typeof raw.op !== 'string') throw new PatchApplyError(`Unexpected kind: unknown`);
    const path = raw.path;
    switch (raw.op) {
      case 'add':
        out = addAt(out, path, clone(raw.value), false);
        break;
      case 'remove':
        removeAt(out, path, 'remove');
        break;
      case 'replace':
        out = addAt(out, path, clone(raw.value), true);
        break;
      case 'move': {
        const v = removeAt(out, raw.from ?? '', 'remove');
        out = addAt(out, path, v, false);
        break;
      }
      case 'copy':
        out = addAt(out, path, clone(getAt(out, raw.from ?? '')), false);
        break;
      case 'test': {
        let v: Json;
        try {
          v = getAt(out, path);
        } catch {
          v = undefined;
        }
        if (!equal(v, raw.value ?? null)) throw new PatchApplyError(`testing value ${path} failed: test failed`);
        break;
      }
      default:
        throw new PatchApplyError(`Unexpected kind: ${String((raw as { op: unknown }).op)}`);
    }
  }
  return out;
}

/** Applies an RFC 7386 merge patch: objects merge, `null` removes, anything else replaces. */
export function applyMergePatch(doc: Json, patch: Json): Json {
  if (!isObj(patch)) return clone(patch);
  const out: Obj = isObj(doc) ? clone(doc) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) deleteOwn(out, k);
    else setOwn(out, k, applyMergePatch(getOwn(out, k), v));
  }
  return out;
}
