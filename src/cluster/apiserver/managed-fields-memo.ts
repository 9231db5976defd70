/**
 * The field set of a create, computed once per (manager, field shape) and then checked, not
 * recomputed: the 1,000th Pod a ReplicaSet creates, or the 1,000th `Pulled` Event a kubelet
 * writes, gets the FieldsV1 tree the first one got — the same frozen object, so managedFields
 * entries share it and storage/managed-fields-intern.ts finds it by identity.
 *
 * What the field set of a create depends on (the Added set of
 * sigs.k8s.io/structured-merge-diff/v4 typed/compare.go against the empty object, as
 * managed-fields-diff.ts computes it): the object's field names in their order, which values are
 * absent (`undefined`), leaves (scalars, `null`, empty maps and lists, atomic lists) or maps, the
 * key values of keyed lists (container names, `containerPort`s, condition types, volume
 * mountPaths, ownerReference uids: `k:{"name":"app"}`), the elements of set-like lists
 * (finalizers: `v:"x"`), a template's `creationTimestamp: null`, and, for fields admission sets
 * (`serverSet`), whether the request body sent them. Scalar values are not part of it.
 *
 * A remembered tree is reused only after a walk of the new object confirms that the diff would
 * produce exactly it, key order included ({@link CreateMatcher}: the same decisions as the diff,
 * from the same {@link PathState}, but comparing against the tree instead of building one).
 * So a hit is correct by construction, whatever the values, and a miss costs the check plus the
 * diff. Updates are not remembered: their field sets depend on which values changed.
 */
import {
  ATOMIC,
  KEYED,
  LEAF,
  MAP,
  PathState,
  SET,
  diffFields,
  fSeg,
  isEmptyFields,
  keySeg,
  type DiffOptions,
  type FieldsTree,
} from './managed-fields-diff';

type Obj = Record<string, unknown>;

/** Remembered trees per (kind, manager, subresource, flags), most recently used first. */
export const MEMO_CANDIDATES = 4;
/** (kind, manager, …) keys remembered before the memo starts over. */
export const MEMO_KEYS = 1024;

const NO_KEYS: readonly string[] = [];
/** Own keys of remembered (frozen) trees, in order. */
const keysCache = new WeakMap<object, readonly string[]>();
function keysOf(t: FieldsTree | undefined): readonly string[] {
  if (t === undefined) return NO_KEYS;
  let k = keysCache.get(t);
  if (k === undefined) keysCache.set(t, (k = Object.keys(t)));
  return k;
}

function deepFreeze(t: FieldsTree): FieldsTree {
  if (Object.isFrozen(t)) return t;
  for (const k of Object.keys(t)) deepFreeze(t[k] as FieldsTree);
  return Object.freeze(t);
}

/** Elements of a keyed list by segment, as the diff indexes them (the last of equal keys wins, at the first one's place). */
function index(list: Obj[], key: string): Map<string, Obj> {
  const m = new Map<string, Obj>();
  for (const e of list) m.set(keySeg(key, e[key]), e);
  return m;
}

/**
 * Whether the diff of a create (`diffFields(undefined, obj, opts).changed`) is exactly a given
 * tree. Mirrors the create path of managed-fields-diff.ts's Walker node by node.
 */
export class CreateMatcher extends PathState {
  /** Whether the changed set of creating `obj` is `want` (same keys, same order, same leaves). */
  matches(obj: unknown, want: FieldsTree): boolean {
    return this.node(obj, true, want);
  }

  private node(b: unknown, tracked: boolean, want: FieldsTree | undefined): boolean {
    if (b === undefined) return want === undefined;
    switch (this.shape(b)) {
      case LEAF:
        return this.owns(tracked, b) ? want !== undefined && isEmptyFields(want) : want === undefined;
      case MAP:
        return this.fields(b as Obj, tracked, false, want);
      case KEYED:
        return this.keyed(b as Obj[], tracked, want);
      case ATOMIC:
        return this.atomic(b as Obj[], tracked, want);
      case SET:
        return this.set(b as unknown[], tracked, want);
    }
    return want === undefined;
  }

  /** The fields of a map (or of a keyed element, whose `.` leaf comes first when `dot`). */
  private fields(b: Obj, tracked: boolean, dot: boolean, want: FieldsTree | undefined): boolean {
    const keys = keysOf(want);
    if (want !== undefined && !keys.length) return false;
    let i = 0;
    if (dot) {
      if (keys[0] !== '.' || !isEmptyFields(want!['.'])) return false;
      i = 1;
    }
    for (const k in b) {
      const bv = b[k];
      if (bv === undefined) continue;
      const t = this.segs.length < 2 ? this.track(k, tracked) : tracked;
      if (t === undefined) continue;
      const seg = fSeg(k);
      const sub = i < keys.length && keys[i] === seg ? (want![seg] as FieldsTree) : undefined;
      this.names.push(k);
      this.segs.push(seg);
      const ok = this.node(bv, t, sub);
      this.names.pop();
      this.segs.pop();
      if (!ok) return false;
      if (sub !== undefined) i++;
    }
    return i === keys.length;
  }

  private keyed(b: Obj[], tracked: boolean, want: FieldsTree | undefined): boolean {
    const keys = keysOf(want);
    if (want !== undefined && !keys.length) return false;
    let i = 0;
    for (const [seg, eb] of index(b, this.listKey()!)) {
      const sub = i < keys.length && keys[i] === seg ? (want![seg] as FieldsTree) : undefined;
      this.segs.push(seg);
      const dot = this.owns(tracked, undefined, '.');
      const ok = this.fields(eb, tracked, dot, sub);
      this.segs.pop();
      if (!ok) return false;
      if (sub !== undefined) i++;
    }
    return i === keys.length;
  }

  private atomic(b: Obj[], tracked: boolean, want: FieldsTree | undefined): boolean {
    const keys = keysOf(want);
    if (want !== undefined && !keys.length) return false;
    let i = 0;
    for (const [seg, eb] of index(b, this.listKey()!)) {
      if (!this.owns(tracked, eb, seg)) continue;
      if (keys[i] !== seg || !isEmptyFields(want![seg])) return false;
      i++;
    }
    return i === keys.length;
  }

  private set(b: unknown[], tracked: boolean, want: FieldsTree | undefined): boolean {
    const keys = keysOf(want);
    if (want !== undefined && !keys.length) return false;
    const seen = new Set<string>();
    let i = 0;
    for (const e of b) {
      const seg = `v:${JSON.stringify(e)}`;
      if (seen.has(seg)) continue;
      seen.add(seg);
      if (!this.owns(tracked, e, seg)) continue;
      if (keys[i] !== seg || !isEmptyFields(want![seg])) return false;
      i++;
    }
    return i === keys.length;
  }
}

/**
 * The memo: per (kind, manager, subresource, status flags), the last {@link MEMO_CANDIDATES}
 * distinct field sets of creates, deep-frozen and shared.
 */
export class CreateFieldsMemo {
  private byKey = new Map<string, FieldsTree[]>();

  /**
   * `diffFields(undefined, obj, opts).changed` (a create removes nothing): a remembered tree when
   * the object has its shape, else the diff's, remembered. The tree is frozen (shared by the
   * entries of every object of that shape); undefined when the create owns no field.
   */
  changedOnCreate(obj: unknown, opts: DiffOptions, manager: string, subresource: string | undefined): FieldsTree | undefined {
    const key = `${opts.kind}\u0000${manager}\u0000${subresource ?? ''}\u0000${opts.status ? 1 : 0}${opts.statusAnnotations ? 1 : 0}${opts.writerOnly ? 1 : 0}`;
    const list = this.byKey.get(key);
    if (list) {
      for (let i = 0; i < list.length; i++) {
        const t = list[i];
        if (!new CreateMatcher(opts).matches(obj, t)) continue;
        if (i > 0) {
          list.splice(i, 1);
          list.unshift(t);
        }
        return t;
      }
    }
    const { changed } = diffFields(undefined, obj, opts);
    if (changed === undefined) return undefined;
    const t = deepFreeze(changed);
    if (list) {
      list.unshift(t);
      if (list.length > MEMO_CANDIDATES) list.pop();
    } else {
      if (this.byKey.size >= MEMO_KEYS) this.byKey.clear();
      this.byKey.set(key, [t]);
    }
    return t;
  }

  /** Keys remembered now (tests). */
  get size(): number {
    return this.byKey.size;
  }
}
