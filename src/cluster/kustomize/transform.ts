/**
 * kustomize's builtin transformers over field specs: labels, annotations, namespace,
 * name prefix/suffix, images, replicas, and the name reference fix-up that rewrites
 * references to renamed objects (api/filters/nameref).
 */
import { CLUSTER_SCOPED, groupVersion, kindOf, meta, nameOf, nsOf, type FieldSpec, type Image, type Obj, type Res } from './types';
import { NAME_REFERENCES } from './fieldspecs';
import { getOwn, hasOwn, setOwn } from '../api/safe-object';

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether a field spec's group/version/kind selects `o`. */
export function specSelects(spec: { kind?: string; group?: string; version?: string }, o: Obj): boolean {
  const { group, version } = groupVersion(o);
  if (spec.kind && spec.kind !== kindOf(o)) return false;
  if (spec.group && spec.group !== group) return false;
  if (spec.version && spec.version !== version) return false;
  return true;
}

/**
 * Visits the field at `spec.path` in `o` (lists along the way are traversed element by
 * element), creating missing maps when `spec.create`. `fn` gets the parent map and the key.
 */
export function visitField(o: Obj, spec: FieldSpec, fn: (parent: Obj, key: string) => void): void {
  const segs = spec.path.split('/').map((s) => s.replace(/\[\]$/, ''));
  const walk = (node: unknown, i: number): void => {
    if (Array.isArray(node)) {
      for (const e of node) walk(e, i);
      return;
    }
    if (!isObj(node)) return;
    const k = segs[i];
    if (i === segs.length - 1) {
      if (hasOwn(node, k) || spec.create) fn(node, k);
      return;
    }
    if (!hasOwn(node, k) || node[k] === null) {
      if (!spec.create) return;
      setOwn(node, k, {});
    }
    walk(node[k], i + 1);
  };
  walk(o, 0);
}

/** Sets `pairs` into the maps at `specs` (labels, selectors, annotations). */
export function addMapEntries(resources: Res[], pairs: Record<string, string>, specs: FieldSpec[]): void {
  for (const r of resources) {
    for (const spec of specs) {
      if (!specSelects(spec, r.obj)) continue;
      visitField(r.obj, spec, (parent, key) => {
        if (!isObj(getOwn(parent, key))) setOwn(parent, key, {});
        const m = parent[key] as Obj;
        for (const [k, v] of Object.entries(pairs)) setOwn(m, k, v);
      });
    }
  }
}

const record = (r: Res) => r.prev.push({ name: nameOf(r.obj), namespace: nsOf(r.obj) });

/** The namespace transformer: namespaced objects move to `ns`; ServiceAccount subjects follow. */
export function setNamespace(resources: Res[], ns: string): void {
  for (const r of resources) {
    const kind = kindOf(r.obj);
    if (!CLUSTER_SCOPED.has(kind)) {
      if (nsOf(r.obj) !== ns) {
        record(r);
        meta(r.obj).namespace = ns;
      }
    }
    if ((kind === 'RoleBinding' || kind === 'ClusterRoleBinding') && Array.isArray(r.obj.subjects)) {
      for (const s of r.obj.subjects as Obj[]) {
        if (isObj(s) && s.kind === 'ServiceAccount' && (s.namespace === undefined || s.namespace === '' || s.namespace === 'default'))
          s.namespace = ns;
      }
    }
  }
}

const PREFIX_SKIP = new Set(['CustomResourceDefinition', 'APIService', 'Namespace']);

/** namePrefix / nameSuffix on metadata.name. */
export function addPrefixSuffix(resources: Res[], prefix: string, suffix: string): void {
  if (!prefix && !suffix) return;
  for (const r of resources) {
    if (PREFIX_SKIP.has(kindOf(r.obj))) continue;
    record(r);
    meta(r.obj).name = prefix + nameOf(r.obj) + suffix;
  }
}

/** Splits an image reference into name, tag and digest (kustomize image.Split). */
function splitImage(ref: string): { name: string; tag: string; digest: string } {
  let name = ref;
  let digest = '';
  let tag = '';
  const at = name.indexOf('@');
  if (at >= 0) {
    digest = name.slice(at + 1);
    name = name.slice(0, at);
  }
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  return { name, tag, digest };
}

function updateImage(ref: string, img: Image): string | null {
  const p = splitImage(ref);
  if (p.name !== img.name) return null;
  const name = img.newName ?? p.name;
  if (img.digest) return `${name}@${img.digest}`;
  if (img.newTag) return `${name}:${img.newTag}`;
  if (p.digest) return p.tag ? `${name}:${p.tag}@${p.digest}` : `${name}@${p.digest}`;
  return p.tag ? `${name}:${p.tag}` : name;
}

/** The image tag transformer: every containers[]/initContainers[] image anywhere in the object. */
export function setImages(resources: Res[], images: Image[]): void {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObj(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'containers' || k === 'initContainers') && Array.isArray(v)) {
        for (const c of v) {
          if (!isObj(c) || typeof c.image !== 'string') continue;
          for (const img of images) {
            const u = updateImage(c.image, img);
            if (u !== null) {
              c.image = u;
              break;
            }
          }
        }
      } else walk(v);
    }
  };
  for (const r of resources) walk(r.obj);
}

/** Whether `r` is or was called `name`. */
export const hadName = (r: Res, name: string) => nameOf(r.obj) === name || r.prev.some((p) => p.name === name);

/** The name reference fix-up: references to an object's previous names become its current name. */
export function fixNameReferences(resources: Res[]): void {
  for (const ref of NAME_REFERENCES) {
    const referrals = resources.filter((r) => kindOf(r.obj) === ref.kind && r.prev.length > 0);
    if (!referrals.length) continue;
    for (const referrer of resources) {
      for (const spec of ref.fieldSpecs) {
        if (!specSelects(spec, referrer.obj)) continue;
        // roleRef names a Role or a ClusterRole by kind
        if (spec.path === 'roleRef/name' && (referrer.obj.roleRef as Obj | undefined)?.kind !== ref.kind) continue;
        visitField(referrer.obj, { ...spec, create: false }, (parent, key) => {
          const v = parent[key];
          if (typeof v === 'string') {
            const n = resolve(referrals, referrer, v);
            if (n !== null) setOwn(parent, key, n);
          } else if (Array.isArray(v)) {
            if (key === 'subjects') {
              for (const s of v) {
                if (!isObj(s) || s.kind !== ref.kind || typeof s.name !== 'string') continue;
                const n = resolve(referrals, referrer, s.name, typeof s.namespace === 'string' ? s.namespace : undefined);
                if (n !== null) s.name = n;
              }
            } else {
              setOwn(
                parent,
                key,
                v.map((x) => (typeof x === 'string' ? (resolve(referrals, referrer, x) ?? x) : x)),
              );
            }
          } else if (isObj(v) && typeof v.name === 'string') {
            const n = resolve(referrals, referrer, v.name, typeof v.namespace === 'string' ? v.namespace : undefined);
            if (n !== null) v.name = n;
          }
        });
      }
    }
  }
}

function resolve(referrals: Res[], referrer: Res, old: string, ns?: string): string | null {
  const rns = ns ?? nsOf(referrer.obj);
  const norm = (s: string) => (s === '' ? 'default' : s);
  let cands = referrals.filter((r) => r.prev.some((p) => p.name === old));
  if (cands.length > 1 || !CLUSTER_SCOPED.has(kindOf(referrer.obj))) {
    const same = cands.filter((r) => CLUSTER_SCOPED.has(kindOf(r.obj)) || norm(nsOf(r.obj)) === norm(rns));
    if (same.length) cands = same;
  }
  if (cands.length === 0) return null;
  const n = nameOf(cands[0].obj);
  return n === old ? null : n;
}
