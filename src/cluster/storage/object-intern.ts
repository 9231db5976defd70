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
 * equal when their keys, their primitive values and the identities of their (interned) children
 * are; a write costs one pass over the object, and a subtree kept from the previous version
 * (already interned) costs a WeakMap lookup. A subtree is not shared when it holds something JSON
 * would not round-trip (`undefined`, a function, NaN, ±Infinity, −0, a non-plain object or a
 * hole), or a string longer than {@link MAX_INTERNED_STRING}; neither are its ancestors. The
 * table holds at most {@link OBJECT_INTERN_LIMIT} entries and starts over when full (subtrees
 * already shared stay shared and frozen).
 */
import type { KObject } from '../api/types';
import { flatten } from '../util/intern';

/** Distinct subtrees remembered before the table starts over. */
export const OBJECT_INTERN_LIMIT = 16_384;

/** Longest string value a shared subtree may hold (longer ones are the object's own). */
export const MAX_INTERNED_STRING = 1024;

/** The table of one store (MVCCStore owns one). */
export class ObjectIntern {
  private byKey = new Map<string, object>();
  /**
   * Each subtree of this generation's table: its id (its token in its parent's key; ids are never
   * reused). Emptied with the table, so it holds at most {@link OBJECT_INTERN_LIMIT} entries
   * (a WeakMap would keep one for every stored subtree ever shared); a frozen subtree of an
   * earlier generation is keyed again when an object being stored holds it.
   */
  private ids = new Map<object, number>();
  private nextId = 1;

  /**
   * Replaces every subtree of `obj` below its top level (the values of `obj`'s own fields, and
   * below; inside `metadata`, its fields' values except `managedFields`) by the shared frozen
   * subtree equal to it, sharing (and freezing) the ones met first. Mutates `obj`, which the
   * store is about to own.
   */
  internObject(obj: KObject): void {
    const root = obj as unknown as Record<string, unknown>;
    if (Object.isFrozen(root)) return;
    for (const k of Object.keys(root)) {
      if (k === 'metadata') {
        const md = root[k];
        if (md === null || typeof md !== 'object' || Array.isArray(md) || Object.isFrozen(md)) continue;
        const m = md as Record<string, unknown>;
        for (const mk of Object.keys(m)) if (mk !== 'managedFields') this.token(m, mk);
      } else {
        this.token(root, k);
      }
    }
  }

  /** Distinct subtrees in the table now (tests and benchmarks). */
  get size(): number {
    return this.byKey.size;
  }

  /**
   * The token of `parent[k]` in its parent's key (undefined: not shareable), after replacing an
   * object value by its shared copy.
   */
  private token(parent: Record<string | number, unknown>, k: string | number): string | undefined {
    const v = parent[k];
    switch (typeof v) {
      case 'string':
        return v.length <= MAX_INTERNED_STRING ? `s${v.length}:${v}` : undefined;
      case 'number':
        return Number.isFinite(v) && !Object.is(v, -0) ? `n${v}` : undefined;
      case 'boolean':
        return v ? 't' : 'f';
      case 'object':
        if (v === null) return 'z';
        break;
      default:
        return undefined;
    }
    const o = v as object;
    const known = this.ids.get(o);
    if (known !== undefined) return `#${known}`;
    const key = this.keyOf(o);
    if (key === undefined) return undefined;
    const hit = this.byKey.get(key);
    if (hit !== undefined && !Object.isFrozen(parent)) {
      parent[k] = hit;
      return `#${this.ids.get(hit)!}`;
    }
    if (this.ids.size >= OBJECT_INTERN_LIMIT) {
      this.byKey.clear();
      this.ids.clear();
    }
    Object.freeze(o); // its children are shared, hence frozen, already
    const id = this.nextId++;
    this.ids.set(o, id);
    // a frozen subtree of an earlier generation, held by a frozen parent, keeps its own copy
    if (hit === undefined) this.byKey.set(flatten(key), o);
    return `#${id}`;
  }

  /**
   * The shallow key of an object not in this generation's table (its children interned first;
   * a frozen one's children are keyed but not replaced), or undefined.
   */
  private keyOf(o: object): string | undefined {
    if (Array.isArray(o)) {
      const a = o as unknown[];
      let key = `a${a.length}`;
      let ok = true;
      for (let i = 0; i < a.length; i++) {
        const t = i in a ? this.token(a as unknown as Record<number, unknown>, i) : undefined;
        if (t === undefined) ok = false;
        else if (ok) key += `,${t}`;
      }
      return ok ? key : undefined;
    }
    const proto: unknown = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null) return undefined;
    const rec = o as Record<string, unknown>;
    const keys = Object.keys(rec);
    // a null-prototype object and a plain one print alike but differ for `in`: kept apart
    let key = proto === null ? `N${keys.length}` : `o${keys.length}`;
    let ok = true;
    for (const k of keys) {
      const t = this.token(rec, k);
      // keep going: the children are still shared when this object cannot be
      if (t === undefined) ok = false;
      else if (ok) key += `,${k.length}:${k}=${t}`;
    }
    return ok ? key : undefined;
  }
}
