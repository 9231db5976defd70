/**
 * `patches` (strategic merge or JSON 6902, optionally with a `target` selector) and the
 * deprecated `patchesStrategicMerge` / `patchesJson6902`, as kustomize's PatchTransformer,
 * PatchStrategicMergeTransformer and PatchJson6902Transformer apply them.
 */
import { parseAllDocuments } from 'yaml';
import { applyPatch } from '../apimachinery/strategic-merge';
import { matches, parseSelector } from '../api/labels';
import { KustomizeError, clone, groupVersion, idString, kindOf, nameOf, nsOf, type Obj, type PatchTarget, type Res } from './types';
import { hadName } from './transform';
import { getOwn, hasOwn, setOwn } from '../api/safe-object';

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Parses patch text: a JSON 6902 op list, or strategic merge patch documents. */
export function parsePatch(text: string, where: string): { ops: Obj[] } | { smp: Obj[] } {
  let docs: unknown[];
  try {
    docs = parseAllDocuments(text).map((d) => {
      if (d.errors.length) throw d.errors[0];
      return d.toJS();
    });
  } catch (e) {
    throw new KustomizeError(`trouble parsing patch from ${where}: ${(e as Error).message}`);
  }
  docs = docs.filter((d) => d !== null && d !== undefined);
  if (docs.length === 1 && Array.isArray(docs[0])) return { ops: docs[0] as Obj[] };
  return { smp: docs.filter(isObj) };
}

const rx = (p: string) => new RegExp(`^(?:${p})$`);

/** Resources selected by a patch target (names and kinds are anchored regular expressions). */
export function selectTargets(resources: Res[], t: PatchTarget): Res[] {
  return resources.filter((r) => {
    const o = r.obj;
    const { group, version } = groupVersion(o);
    if (t.kind && !rx(t.kind).test(kindOf(o))) return false;
    if (t.group && !rx(t.group).test(group)) return false;
    if (t.version && !rx(t.version).test(version)) return false;
    if (t.name && !rx(t.name).test(nameOf(o)) && !r.prev.some((p) => rx(t.name!).test(p.name))) return false;
    if (t.namespace && !rx(t.namespace).test(nsOf(o)) && !r.prev.some((p) => rx(t.namespace!).test(p.namespace))) return false;
    const m = o.metadata as Obj | undefined;
    if (t.labelSelector && !matches(parseSelector(t.labelSelector), m?.labels as Record<string, string>)) return false;
    if (t.annotationSelector && !matches(parseSelector(t.annotationSelector), m?.annotations as Record<string, string>)) return false;
    return true;
  });
}

/** Applies strategic merge patch documents: each to its target, or to the one object it names. */
export function applySmp(resources: Res[], patches: Obj[], target: PatchTarget | undefined): void {
  for (const p of patches) {
    let targets: Res[];
    if (target) targets = selectTargets(resources, target);
    else {
      const pm = (p.metadata ?? {}) as Obj;
      const name = String(pm.name ?? '');
      const ns = String(pm.namespace ?? '');
      const { group, version } = groupVersion(p);
      targets = resources.filter((r) => {
        const gv = groupVersion(r.obj);
        if (kindOf(r.obj) !== p.kind || (group && gv.group !== group) || (version && gv.version !== version)) return false;
        if (!hadName(r, name)) return false;
        const nsEq = (a: string) => (a || 'default') === (ns || 'default');
        return !ns || nsEq(nsOf(r.obj)) || r.prev.some((x) => nsEq(x.namespace));
      });
      if (targets.length !== 1) {
        const id = idString(p);
        const why = targets.length ? `multiple matches for Id ${id}` : `no matches for Id ${id}`;
        throw new KustomizeError(`no resource matches strategic merge patch "${id}": ${why}; failed to find unique target for patch ${id}`);
      }
    }
    for (const r of targets) {
      const patch = clone(p);
      const pm = patch.metadata as Obj | undefined;
      if (pm) {
        delete pm.name;
        delete pm.namespace;
      }
      if (patch.$patch === 'delete') {
        resources.splice(resources.indexOf(r), 1);
        continue;
      }
      r.obj = applyPatch(r.obj, patch, { kind: kindOf(r.obj), strategic: true });
    }
  }
}

function unescape(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new KustomizeError(`invalid JSON pointer ${JSON.stringify(path)}`);
  return path.slice(1).split('/').map(unescape);
}

/** Resolves the container of the last path segment. */
function container(doc: Obj, segs: string[], op: string, path: string): Obj | unknown[] {
  let node: unknown = doc;
  for (const s of segs.slice(0, -1)) {
    if (Array.isArray(node)) node = /^\d+$/.test(s) ? node[Number(s)] : undefined;
    else if (isObj(node)) node = getOwn(node, s);
    else node = undefined;
    if (node === undefined || node === null)
      throw new KustomizeError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  if (!Array.isArray(node) && !isObj(node))
    throw new KustomizeError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return node;
}

function getAt(doc: Obj, path: string, op: string): unknown {
  const segs = pointer(path);
  if (!segs.length) return doc;
  const c = container(doc, segs, op, path);
  const k = segs[segs.length - 1];
  const v = Array.isArray(c) ? c[Number(k)] : getOwn(c, k);
  if (v === undefined) throw new KustomizeError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return v;
}

function removeAt(doc: Obj, path: string, op: string): unknown {
  const segs = pointer(path);
  const c = container(doc, segs, op, path);
  const k = segs[segs.length - 1];
  if (Array.isArray(c)) {
    const i = Number(k);
    if (!Number.isInteger(i) || i < 0 || i >= c.length) throw new KustomizeError(`Unable to remove nonexistent key: ${k}: missing value`);
    return c.splice(i, 1)[0];
  }
  if (!hasOwn(c, k)) throw new KustomizeError(`Unable to remove nonexistent key: ${k}: missing value`);
  const v = c[k];
  delete c[k];
  return v;
}

function addAt(doc: Obj, path: string, value: unknown, op: string, replace: boolean): void {
  const segs = pointer(path);
  const c = container(doc, segs, op, path);
  const k = segs[segs.length - 1];
  if (Array.isArray(c)) {
    const i = k === '-' ? c.length : Number(k);
    if (!Number.isInteger(i) || i < 0 || i > c.length || (replace && i >= c.length))
      throw new KustomizeError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    if (replace)
      c[i] = value; // array index
    else c.splice(i, 0, value);
  } else setOwn(c, k, value);
}

/** Applies RFC 6902 operations to an object (returns the new object). */
export function applyJson6902(o: Obj, ops: Obj[]): Obj {
  const doc = clone(o);
  for (const raw of ops) {
    const op = String(raw.op ?? '');
    const path = String(raw.path ?? '');
    const value = clone(raw.value);
    switch (op) {
      case 'add':
        addAt(doc, path, value, op, false);
        break;
      case 'replace':
        addAt(doc, path, value, op, true);
        break;
      case 'remove':
        removeAt(doc, path, op);
        break;
      case 'move': {
        const v = removeAt(doc, String(raw.from ?? ''), op);
        addAt(doc, path, v, op, false);
        break;
      }
      case 'copy':
        addAt(doc, path, clone(getAt(doc, String(raw.from ?? ''), op)), op, false);
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, path, op)) !== JSON.stringify(value))
          throw new KustomizeError(`testing value ${path} failed: test failed`);
        break;
      default:
        throw new KustomizeError(`Unexpected kind: ${op}`);
    }
  }
  return doc;
}

/** A JSON 6902 patch applied to every target. */
export function applyOps(resources: Res[], ops: Obj[], target: PatchTarget): void {
  for (const r of selectTargets(resources, target)) r.obj = applyJson6902(r.obj, ops);
}
