/**
 * One shared, frozen copy of each distinct JSON subtree the store holds (hash-consing).
 *
 * The Pods of one ReplicaSet repeat most of their JSON: the labels, the ownerReference, the
 * container's resources, the two default tolerations, the whole `kube-api-access-*` projected
 * volume (12 objects), and a Pending Pod's PodScheduled condition (the same reason, message and
 * second as the Pods scheduled beside it); Events repeat their `source`. Kept apart, a Pending
 * Pod is about 38 JSON objects; with its repeated subtrees shared it owns about 15 (the root,
 * metadata, spec, the container and the arrays and entries that name its volume).
 * kube-apiserver keeps every object apart (each is its own protobuf in etcd); sharing is the
 * simulator's memory layout only: what a reader sees (JSON, YAML, relay, goldens) is unchanged,
 * byte for byte, because a subtree is replaced only by one with the same keys in the same order
 * and the same values.
 *
 * Shared subtrees are frozen (the store's contract, "stored values are shared read-only",
 * already forbids changing them: code that did now throws a TypeError instead of changing other
 * objects). Neither the object itself nor its `metadata` is ever shared or frozen (the store
 * writes `metadata.resourceVersion`); `metadata.managedFields` is left to
 * managed-fields-intern.ts.
 *
 * Equality is decided shallowly: a subtree's children are interned first, so two subtrees are
 * equal when their keys (in order), their primitive values and the identities of their
 * (interned) children are. The table is keyed by a 32-bit shallow hash (mixed from the kind,
 * the keys' and string values' small ids, the numbers and the children's ids; no key string is
 * built), and a candidate of the same hash is compared field by field; a write costs one pass
 * over the object, and a subtree kept from the previous version (already interned) costs a Map
 * lookup. A subtree is not shared when it holds something JSON
 * would not round-trip (`undefined`, a function, NaN, ±Infinity, −0, a non-plain object or a
 * hole), or a string longer than {@link MAX_INTERNED_STRING}; neither are its ancestors. The
 * table holds at most {@link OBJECT_INTERN_LIMIT} entries and starts over when full (subtrees
 * already shared stay shared and frozen).
 */
import type { KObject } from '../api/types';

/** Distinct subtrees remembered before the table starts over. */
export const OBJECT_INTERN_LIMIT = 16_384;

/** Longest string value a shared subtree may hold (longer ones are the object's own). */
export const MAX_INTERNED_STRING = 1024;

/** A subtree's shallow hash: 32-bit, mixed from its kind, its keys and its children's codes. */
function mix(h: number, x: number): number {
  h = Math.imul(h ^ x, 0x9e3779b1);
  return h ^ (h >>> 15);
}

/** Primitive codes in a hash, apart from string ids (which are ≥ 16). */
const NULL = 1;
const TRUE = 2;
const FALSE = 3;
/** Kinds of subtree, mixed first: a null-prototype object and a plain one print alike but differ for `in`. */
const ARRAY = 5;
const PLAIN = 6;
const NULL_PROTO = 7;

/** Strings given ids before the table starts over (the strings of unshared subtrees are coded too). */
const STRING_IDS_LIMIT = 4 * OBJECT_INTERN_LIMIT;

/** Whether `v` is an object (the only values replaced; a top-level primitive needs no code). */
const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** A finite number's code (never −1, the "not shareable" code). */
function numberCode(v: number): number {
  const c = (v | 0) ^ Math.imul((v * 1000003) | 0, 0x85ebca6b);
  return c === -1 ? -2 : c;
}

/** Deep-freezes a subtree the intern leaves unshared (ObjectIntern.internObject's `own`). */
function freezeOwn(v: unknown): void {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return;
  for (const x of Object.values(v)) freezeOwn(x);
  Object.freeze(v);
}

/** The table of one store (MVCCStore owns one). */
export class ObjectIntern {
  /** The shared subtrees of this generation by shallow hash: one, or the ones that collided. */
  private byHash = new Map<number, object | object[]>();
  private shared = 0;
  /**
   * Each subtree of this generation: the id of the shared subtree equal to it (its own id when
   * it is the shared one; ids are never reused). Emptied with the table, so it holds at most
   * {@link OBJECT_INTERN_LIMIT} entries (a WeakMap would keep one for every stored subtree ever
   * shared); a frozen subtree of an earlier generation is hashed again when an object being
   * stored holds it.
   */
  private ids = new Map<object, number>();
  /** Small ids of the strings (keys and values) met in this generation, for the hashes. */
  private strIds = new Map<string, number>();
  private nextId = 1;

  /**
   * Replaces every subtree of `obj` below its top level (the values of `obj`'s own fields, and
   * below; inside `metadata`, its fields' values except `managedFields`) by the shared frozen
   * subtree equal to it, sharing (and freezing) the ones met first. Mutates `obj`, which the
   * store is about to own. Top-level fields named in `own` are frozen as they are (not shared,
   * their strings not numbered): subtrees that are all but unique, such as an
   * Event's involvedObject (the object, at its resourceVersion, and the field path), which would
   * cost a hash and a table entry each and share nothing.
   */
  internObject(obj: KObject, own?: ReadonlySet<string>): void {
    const root = obj as unknown as Record<string, unknown>;
    if (Object.isFrozen(root)) return;
    for (const k of Object.keys(root)) {
      if (own !== undefined && own.has(k)) {
        // read-only like every stored subtree: a write through a reader throws rather than changing the store
        freezeOwn(root[k]);
        continue;
      }
      if (k === 'metadata') {
        const md = root[k];
        if (md === null || typeof md !== 'object' || Array.isArray(md) || Object.isFrozen(md)) continue;
        const m = md as Record<string, unknown>;
        for (const mk of Object.keys(m)) if (mk !== 'managedFields' && isObject(m[mk])) this.code(m, mk);
      } else if (isObject(root[k])) {
        this.code(root, k);
      }
    }
  }

  /** Distinct subtrees in the table now (tests and benchmarks). */
  get size(): number {
    return this.shared;
  }

  /** The small id of string `s` in this generation. */
  private strId(s: string): number {
    let id = this.strIds.get(s);
    if (id === undefined) this.strIds.set(s, (id = this.strIds.size + 16));
    return id;
  }

  /**
   * The code of `parent[k]` in its parent's hash (−1: not shareable), after replacing an object
   * value by its shared copy: a string's id, a number's bits, the shared subtree's id.
   */
  private code(parent: Record<string | number, unknown>, k: string | number): number {
    const v = parent[k];
    switch (typeof v) {
      case 'string':
        return v.length <= MAX_INTERNED_STRING ? this.strId(v) : -1;
      case 'number':
        // numbers and strings share the code space; equality is decided by value below
        return Number.isFinite(v) && !Object.is(v, -0) ? numberCode(v) : -1;
      case 'boolean':
        return v ? TRUE : FALSE;
      case 'object':
        if (v === null) return NULL;
        break;
      default:
        return -1;
    }
    const o = v as object;
    const known = this.ids.get(o);
    if (known !== undefined) return known;
    const h = this.hashOf(o);
    if (h === undefined) return -1;
    const hit = this.find(h, o);
    if (hit !== undefined) {
      if (!Object.isFrozen(parent)) parent[k] = hit;
      // a frozen subtree of an earlier generation held by a frozen parent keeps its own copy, under the shared one's id
      const id = this.ids.get(hit)!;
      if (Object.isFrozen(parent)) this.ids.set(o, id);
      return id;
    }
    if (this.ids.size >= OBJECT_INTERN_LIMIT || this.strIds.size >= STRING_IDS_LIMIT) {
      this.byHash.clear();
      this.ids.clear();
      this.strIds.clear();
      this.shared = 0;
    }
    // its children are shared, hence frozen, already; an array is stored as a copy of its length
    // (one built by push or spread keeps room for up to 17 elements: 4 bytes each in Chromium)
    const s = Array.isArray(o) && !Object.isFrozen(o) && !Object.isFrozen(parent) ? o.slice() : o;
    if (s !== o) parent[k] = s;
    Object.freeze(s);
    const id = this.nextId++;
    this.ids.set(s, id);
    const bucket = this.byHash.get(h);
    if (bucket === undefined) this.byHash.set(h, s);
    else if (Array.isArray(bucket) && !Object.isFrozen(bucket)) bucket.push(s);
    else this.byHash.set(h, [bucket, s]);
    this.shared++;
    return id;
  }

  /** The shared subtree equal to `o` among those of hash `h`, or undefined. */
  private find(h: number, o: object): object | undefined {
    const bucket = this.byHash.get(h);
    if (bucket === undefined) return undefined;
    // a bucket of collisions is a non-frozen array; a frozen array is a shared subtree itself
    if (Array.isArray(bucket) && !Object.isFrozen(bucket)) {
      for (const c of bucket as object[]) if (this.equal(c, o)) return c;
      return undefined;
    }
    return this.equal(bucket, o) ? bucket : undefined;
  }

  /**
   * Whether shared subtree `a` and subtree `b` (its children coded already) print alike: the same
   * kind, the same keys in the same order, equal primitives and children of one id.
   */
  private equal(a: object, b: object): boolean {
    if (a === b) return true;
    const aa = Array.isArray(a);
    if (aa !== Array.isArray(b)) return false;
    if (aa) {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!this.same(x[i], y[i])) return false;
      return true;
    }
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (let i = 0; i < ka.length; i++) {
      const k = ka[i];
      if (k !== kb[i] || !this.same(x[k], y[k])) return false;
    }
    return true;
  }

  /** Two coded values alike: equal primitives (of one type), or subtrees of one id. */
  private same(x: unknown, y: unknown): boolean {
    if (x === y) return true;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    const ix = this.ids.get(x);
    return ix !== undefined && ix === this.ids.get(y);
  }

  /**
   * The shallow hash of an object not in this generation's table (its children coded first;
   * a frozen one's children are coded but not replaced), or undefined when it cannot be shared.
   */
  private hashOf(o: object): number | undefined {
    if (Array.isArray(o)) {
      const a = o as unknown[];
      let h = mix(ARRAY, a.length);
      let ok = true;
      for (let i = 0; i < a.length; i++) {
        const c = i in a ? this.code(a as unknown as Record<number, unknown>, i) : -1;
        if (c === -1) ok = false;
        else if (ok) h = mix(h, c);
      }
      return ok ? h : undefined;
    }
    const proto: unknown = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null) return undefined;
    const rec = o as Record<string, unknown>;
    const keys = Object.keys(rec);
    let h = mix(proto === null ? NULL_PROTO : PLAIN, keys.length);
    let ok = true;
    for (const k of keys) {
      const c = this.code(rec, k);
      // keep going: the children are still shared when this object cannot be
      if (c === -1) ok = false;
      else if (ok) h = mix(mix(h, this.strId(k)), c);
    }
    return ok ? h : undefined;
  }
}
