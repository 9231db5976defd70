/**
 * Field sets as FieldsV1 trees, compared and combined without path strings — the cheap core of
 * the field manager's Update (sigs.k8s.io/structured-merge-diff/v4 typed/compare.go
 * `TypedValue.Compare` → Added/Modified/Removed, fieldpath/set.go `Union`/`Difference`).
 *
 * A FieldsV1 tree maps path segments (`f:spec`, `k:{"name":"web"}`, `v:"x"`, `.`) to subtrees;
 * a leaf is `{}`. Trees are immutable once built: {@link unionFields} and
 * {@link subtractFields} copy only the spine they change and return their first argument itself
 * when nothing changes, so managedFields entries are shared between object versions
 * (copy-on-write) and an unchanged entry is the same object in the next version.
 *
 * The leaf structure is the one `leafPaths` (patch-managed-fields.ts) documents: non-empty maps
 * are walked, lists with a merge key are keyed (`k:…` with a `.` leaf per element),
 * `ownerReferences` elements are atomic leaves, set-like lists (finalizers) are `v:…` leaves,
 * everything else (scalars, empty maps/lists, atomic lists) is one leaf. A property whose value is
 * `undefined` is absent, as in the JSON the real apiserver compares.
 */
import { getOwn, hasOwn, setOwn } from '../api/safe-object';
import { listStrategy } from '../apimachinery/strategic-merge';
import { deepEqual } from '../api/types';

/** A FieldsV1 set: segment → subtree; `{}` is a leaf. */
export type FieldsTree = Record<string, unknown>;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** True for `{}` (a leaf, or an empty set). */
export function isEmptyFields(t: unknown): boolean {
  for (const k in t as Obj) if (hasOwn(t as Obj, k)) return false;
  return true;
}

/** Fields the field manager never tracks (identity and system fields). */
export const SKIP_TOP = new Set(['apiVersion', 'kind']);
export const SKIP_META = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
]);
/** Keyed lists whose elements are atomic (`+structType=atomic`): the key is the leaf, as `k:{"uid":"…"}: {}`. */
export const ATOMIC_ELEMENTS = new Set(['ownerReferences']);

/**
 * Lists the field manager keys although strategic merge patch (listStrategy) replaces them
 * whole: `+listType=map` in k8s.io/api (conditions by type, podIPs/hostIPs by ip).
 * `names`: field names from the object root.
 */
export function managedListKey(names: readonly string[]): string | undefined {
  const f = names[names.length - 1];
  if (f === 'conditions' && names[0] === 'status') return 'type';
  if ((f === 'podIPs' || f === 'hostIPs') && names[0] === 'status') return 'ip';
  return undefined;
}

/** What a value is to the field manager: absent, one leaf, a map walked by field, a keyed list, atomic elements, a set. */
export const NONE = 0,
  LEAF = 1,
  MAP = 2,
  KEYED = 3,
  ATOMIC = 4,
  SET = 5;
export type Shape = typeof NONE | typeof LEAF | typeof MAP | typeof KEYED | typeof ATOMIC | typeof SET;

const fSegs = new Map<string, string>();
/** `f:<name>`, interned (the same few hundred field names recur on every write). */
export function fSeg(k: string): string {
  let s = fSegs.get(k);
  if (s === undefined) {
    s = `f:${k}`;
    if (fSegs.size < 10_000) fSegs.set(k, s);
  }
  return s;
}

/** `k:{"<key>":<value>}`, as JSON.stringify({ [key]: value }) writes it (keys are plain field names). */
export function keySeg(key: string, v: unknown): string {
  return `k:{"${key}":${JSON.stringify(v)}}`;
}

/** Whether no two elements share a key value (scalar keys). */
function uniqueKeys(list: Obj[], key: string): boolean {
  if (list.length < 2) return true;
  if (list.length === 2) return list[0][key] !== list[1][key];
  const seen = new Set<unknown>();
  for (const e of list) {
    if (seen.has(e[key])) return false;
    seen.add(e[key]);
  }
  return true;
}

/** What {@link diffFields} compares and which changed leaves count as the writer's. */
export interface DiffOptions {
  /** The object's kind (list merge keys depend on it). */
  kind: string;
  /** A status subresource write: only `status` (and, with `statusAnnotations`, `metadata.annotations`) is the writer's. */
  status?: boolean;
  statusAnnotations?: boolean;
  /**
   * Only the writer's part can differ between the versions (the status strategy copies
   * everything else from the stored object): the rest is not walked, so `removed` holds
   * removals from the writer's part only.
   */
  writerOnly?: boolean;
  /**
   * Create only: fields set by the server after the field manager ran (admission, allocation),
   * by path segments; such a changed leaf is the writer's only if `input` sent it ({@link sentAt}).
   */
  serverSet?: (segs: readonly string[]) => boolean;
  /** Create only: the request body. */
  input?: unknown;
}

/** Result of {@link diffFields}; `undefined` for an empty set. */
export interface FieldsDiff {
  /** Leaves added or modified in the writer's part of the object (Added ∪ Modified) that the writer owns. */
  changed: FieldsTree | undefined;
  /** Leaves of the whole object (every part) that the new version no longer has (Removed). */
  removed: FieldsTree | undefined;
}

/**
 * The path a walk is at (field names and FieldsV1 segments from the root) and the decisions
 * that depend on it only: a value's {@link Shape}, a list's key, whether a field is tracked and
 * whether a changed leaf is the writer's. Shared by the diff ({@link diffFields}) and the check
 * of a remembered field set (managed-fields-memo.ts), so both decide alike.
 */
export class PathState {
  protected readonly names: string[] = [];
  protected readonly segs: string[] = [];
  constructor(protected readonly o: DiffOptions) {}

  protected shape(v: unknown): Shape {
    if (v === undefined) return NONE;
    if (v === null || typeof v !== 'object') return LEAF;
    if (!Array.isArray(v)) return isEmptyFields(v) ? LEAF : MAP;
    if (!v.length) return LEAF;
    const key = this.listKey();
    if (key !== undefined) {
      for (const e of v) if (!isObj(e) || e[key] === undefined) return LEAF;
      return ATOMIC_ELEMENTS.has(this.names[this.names.length - 1]) ? ATOMIC : KEYED;
    }
    return listStrategy(this.o.kind, this.names) === 'primitive-merge' ? SET : LEAF;
  }

  protected listKey(): string | undefined {
    const mk = managedListKey(this.names);
    if (mk) return mk;
    const st = listStrategy(this.o.kind, this.names);
    return typeof st === 'object' ? st.key : undefined;
  }

  /**
   * Whether a changed leaf at the current path (plus `seg`, if given) is the writer's:
   * a template's `creationTimestamp: null` is nobody's (it is already in the zero-valued object
   * upstream compares a create against, create.go: liveObj = scope.Creater.New), and a
   * server-set field is the creator's only if it sent it.
   */
  protected owns(tracked: boolean, value: unknown, seg?: string): boolean {
    if (!tracked) return false;
    if (value === null && seg === undefined && this.segs[this.segs.length - 1] === 'f:creationTimestamp') return false;
    const { serverSet, input } = this.o;
    if (!serverSet || input === undefined) return true;
    if (seg !== undefined) this.segs.push(seg);
    const r = !serverSet(this.segs) || sentAt(input, this.segs);
    if (seg !== undefined) this.segs.pop();
    return r;
  }

  /**
   * Whether field `k` of the current map is tracked at all (`undefined`: skipped) and whether it
   * is the writer's part of the object (only the root and `metadata` have rules).
   */
  protected track(k: string, tracked: boolean): boolean | undefined {
    const d = this.segs.length;
    if (d === 0) {
      if (SKIP_TOP.has(k)) return undefined;
      const t = this.o.status ? k === 'status' || (!!this.o.statusAnnotations && k === 'metadata') : k !== 'status';
      return t || !this.o.writerOnly ? t : undefined;
    }
    if (d === 1 && this.segs[0] === 'f:metadata') {
      if (SKIP_META.has(k)) return undefined;
      const t = tracked && (!this.o.status || k === 'annotations');
      return t || !this.o.writerOnly ? t : undefined;
    }
    return tracked;
  }
}

/** The simultaneous walk of two versions; results of each node in `ch`/`rm`. */
class Walker extends PathState {
  ch: FieldsTree | undefined;
  rm: FieldsTree | undefined;

  /** Compares `a` (old) with `b` (new) at the current path; sets `ch` and `rm`. */
  node(a: unknown, b: unknown, tracked: boolean): void {
    if (a === b) {
      this.ch = this.rm = undefined;
      return;
    }
    const sa = this.shape(a);
    const sb = this.shape(b);
    if (sa !== sb && sa !== NONE && sb !== NONE) {
      // the value changed its structure: every old leaf goes, every new leaf comes
      this.node(a, undefined, tracked);
      const rm = this.rm;
      this.node(undefined, b, tracked);
      this.rm = rm;
      return;
    }
    switch (sa === NONE ? sb : sa) {
      case NONE:
        this.ch = this.rm = undefined;
        return;
      case LEAF:
        this.ch = sb === LEAF && (sa === NONE || !deepEqual(a, b)) && this.owns(tracked, b) ? {} : undefined;
        this.rm = sb === NONE ? {} : undefined;
        return;
      case MAP:
        return this.fields(sa === MAP ? (a as Obj) : undefined, sb === MAP ? (b as Obj) : undefined, tracked, undefined, undefined);
      case KEYED:
        return this.keyed(sa === KEYED ? (a as Obj[]) : undefined, sb === KEYED ? (b as Obj[]) : undefined, tracked);
      case ATOMIC:
        return this.atomic(sa === ATOMIC ? (a as Obj[]) : undefined, sb === ATOMIC ? (b as Obj[]) : undefined, tracked);
      case SET:
        return this.set(sa === SET ? (a as unknown[]) : undefined, sb === SET ? (b as unknown[]) : undefined, tracked);
    }
  }

  /**
   * One field `k` (old value `av`, new `bv`) of the current map: `ch`/`rm` are the field's
   * subtrees, or undefined (also for a skipped field). Returns the field's segment.
   */
  private field(k: string, av: unknown, bv: unknown, tracked: boolean): string {
    const t = this.segs.length < 2 ? this.track(k, tracked) : tracked;
    const seg = fSeg(k);
    if (t === undefined) {
      this.ch = this.rm = undefined;
      return seg;
    }
    this.names.push(k);
    this.segs.push(seg);
    this.node(av, bv, t);
    this.names.pop();
    this.segs.pop();
    return seg;
  }

  /**
   * Fields of two maps (either may be absent), also the fields of a keyed element (`ch`/`rm`:
   * the element's own `.` results). Equal scalars and shared subtrees are skipped at once.
   */
  private fields(a: Obj | undefined, b: Obj | undefined, tracked: boolean, ch: FieldsTree | undefined, rm: FieldsTree | undefined): void {
    if (b !== undefined) {
      for (const k in b) {
        const bv = b[k];
        const av = a !== undefined && hasOwn(a, k) ? a[k] : undefined;
        if (av === bv) continue;
        const seg = this.field(k, av, bv, tracked);
        if (this.ch) setOwn((ch ??= {}), seg, this.ch);
        if (this.rm) setOwn((rm ??= {}), seg, this.rm);
      }
    }
    if (a !== undefined) {
      for (const k in a) {
        if (b !== undefined && hasOwn(b, k)) continue;
        const av = a[k];
        if (av === undefined) continue;
        const seg = this.field(k, av, undefined, tracked);
        if (this.rm) setOwn((rm ??= {}), seg, this.rm);
      }
    }
    this.ch = ch;
    this.rm = rm;
  }

  /** Elements by their `k:{"key":…}` segment (the last of equal keys wins, as in leafPaths). */
  private index(list: Obj[] | undefined, key: string): Map<string, Obj> | undefined {
    if (!list) return undefined;
    const m = new Map<string, Obj>();
    for (const e of list) m.set(keySeg(key, e[key]), e);
    return m;
  }

  /** One keyed element (`ea` old, `eb` new; either may be absent), merged into `ch`/`rm` of the list. */
  private elem(seg: string, ea: Obj | undefined, eb: Obj | undefined, tracked: boolean): void {
    this.segs.push(seg);
    const ech: FieldsTree | undefined = !ea && this.owns(tracked, undefined, '.') ? { '.': {} } : undefined;
    const erm: FieldsTree | undefined = !eb ? { '.': {} } : undefined;
    this.fields(ea, eb, tracked, ech, erm);
    this.segs.pop();
  }

  private keyed(a: Obj[] | undefined, b: Obj[] | undefined, tracked: boolean): void {
    const key = this.listKey()!;
    let ch: FieldsTree | undefined;
    let rm: FieldsTree | undefined;
    if (a && b && sameKeys(a, b, key)) {
      // the same elements in the same order (the usual status write): paired by position
      for (let i = 0; i < b.length; i++) {
        if (a[i] === b[i]) continue;
        const seg = keySeg(key, b[i][key]);
        this.elem(seg, a[i], b[i], tracked);
        if (this.ch) setOwn((ch ??= {}), seg, this.ch);
        if (this.rm) setOwn((rm ??= {}), seg, this.rm);
      }
    } else {
      const ia = this.index(a, key);
      const ib = this.index(b, key);
      if (ib) {
        for (const [seg, eb] of ib) {
          this.elem(seg, ia?.get(seg), eb, tracked);
          if (this.ch) setOwn((ch ??= {}), seg, this.ch);
          if (this.rm) setOwn((rm ??= {}), seg, this.rm);
        }
      }
      if (ia) {
        for (const [seg, ea] of ia) {
          if (ib?.has(seg)) continue;
          this.elem(seg, ea, undefined, tracked);
          if (this.rm) setOwn((rm ??= {}), seg, this.rm);
        }
      }
    }
    this.ch = ch;
    this.rm = rm;
  }

  private atomic(a: Obj[] | undefined, b: Obj[] | undefined, tracked: boolean): void {
    const key = this.listKey()!;
    const ia = this.index(a, key);
    const ib = this.index(b, key);
    let ch: FieldsTree | undefined;
    let rm: FieldsTree | undefined;
    if (ib) {
      for (const [seg, eb] of ib) {
        const ea = ia?.get(seg);
        if ((ea === undefined || !deepEqual(ea, eb)) && this.owns(tracked, eb, seg)) setOwn((ch ??= {}), seg, {});
      }
    }
    if (ia) for (const seg of ia.keys()) if (!ib?.has(seg)) setOwn((rm ??= {}), seg, {});
    this.ch = ch;
    this.rm = rm;
  }

  private set(a: unknown[] | undefined, b: unknown[] | undefined, tracked: boolean): void {
    const sa = new Set((a ?? []).map((e) => `v:${JSON.stringify(e)}`));
    const sb = new Set<string>();
    let ch: FieldsTree | undefined;
    let rm: FieldsTree | undefined;
    for (const e of b ?? []) {
      const seg = `v:${JSON.stringify(e)}`;
      sb.add(seg);
      if (!sa.has(seg) && this.owns(tracked, e, seg)) setOwn((ch ??= {}), seg, {});
    }
    for (const seg of sa) if (!sb.has(seg)) setOwn((rm ??= {}), seg, {});
    this.ch = ch;
    this.rm = rm;
  }
}

/** Whether two keyed lists have the same (distinct) keys in the same order. */
function sameKeys(a: Obj[], b: Obj[], key: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i][key] !== b[i][key]) return false;
  return uniqueKeys(b, key);
}

/**
 * Compares two versions of an object (`before` undefined: a create) field by field, stopping
 * at shared or equal subtrees. Cost: proportional to the parts that differ plus the equal
 * leaves compared; no path strings are built.
 */
export function diffFields(before: unknown, after: unknown, opts: DiffOptions): FieldsDiff {
  const w = new Walker(opts);
  w.node(before, after, true);
  return { changed: w.ch, removed: w.rm };
}

/**
 * Whether the request body `obj` sent the field at `segs` (a value there, or the keyed/set
 * element): what a create's writer owns of the fields admission also sets.
 */
export function sentAt(obj: unknown, segs: readonly string[]): boolean {
  let cur: unknown = obj;
  for (const s of segs) {
    if (s === '.') return true;
    if (s.startsWith('f:')) {
      if (!isObj(cur)) return false;
      cur = getOwn(cur, s.slice(2));
    } else {
      if (!Array.isArray(cur)) return false;
      const want = JSON.parse(s.slice(2)) as unknown;
      if (s.startsWith('v:')) return cur.some((e) => deepEqual(e, want));
      const [k, v] = Object.entries(want as Obj)[0] ?? [];
      cur = cur.find((e) => isObj(e) && k !== undefined && deepEqual(e[k], v));
    }
    if (cur === undefined) return false;
  }
  return true;
}

/**
 * a ∪ b (fieldpath.Set.Union), sharing subtrees of both; `a` itself when b adds nothing.
 * As with FieldsV1 built from paths, a leaf of `a` where `b` has a subtree becomes that subtree.
 */
export function unionFields(a: FieldsTree, b: FieldsTree | undefined): FieldsTree {
  if (!b || a === b) return a;
  let out: FieldsTree | undefined;
  for (const k in b) {
    if (!hasOwn(b, k)) continue;
    const av = hasOwn(a, k) ? (a[k] as FieldsTree) : undefined;
    const u = av === undefined ? (b[k] as FieldsTree) : unionFields(av, b[k] as FieldsTree);
    if (u !== av) setOwn((out ??= { ...a }), k, u);
  }
  return out ?? a;
}

/** a − b (fieldpath.Set.Difference): the leaves of `a` not in `b`; `a` itself when none go. */
export function subtractFields(a: FieldsTree, b: FieldsTree | undefined): FieldsTree {
  if (!b) return a;
  let out: FieldsTree | undefined;
  for (const k in b) {
    if (!hasOwn(b, k) || !hasOwn(a, k)) continue;
    const av = a[k] as FieldsTree;
    const bv = b[k] as FieldsTree;
    const aLeaf = isEmptyFields(av);
    const bLeaf = isEmptyFields(bv);
    let r: FieldsTree | undefined;
    if (aLeaf || bLeaf) {
      if (!(aLeaf && bLeaf)) continue;
    } else {
      r = subtractFields(av, bv);
      if (r === av) continue;
      if (isEmptyFields(r)) r = undefined;
    }
    out ??= { ...a };
    if (r === undefined) delete out[k];
    else setOwn(out, k, r);
  }
  return out ?? a;
}
