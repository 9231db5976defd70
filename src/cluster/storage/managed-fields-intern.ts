/**
 * One shared, frozen copy of each distinct managedFields entry the store holds.
 *
 * The Pods of one ReplicaSet carry the same managedFields (the same manager, operation, time
 * and field set: `f:metadata.f:ownerReferences.k:{"uid":…}` names the ReplicaSet, not the Pod),
 * as do the Events one component writes in one second. Kept apart, a Pending Pod's
 * managedFields are about half of its JSON objects (38 of 71) and an Event's about 17 of 24.
 * kube-apiserver keeps them apart too (each object is its own protobuf in etcd); interning is
 * the simulator's memory layout only: what a reader sees (JSON, YAML, relay, goldens) is
 * unchanged, byte for byte, because an entry is replaced only by one that serializes the same.
 *
 * Interned entries are deep-frozen, so code that mutated a stored entry in place (which the
 * store's contract, "stored values are shared read-only", already forbids) throws a TypeError
 * instead of changing other objects. Carried-forward entries (an update that keeps another
 * manager's entry) are recognised by identity and cost nothing; a new entry equal to the last
 * one returned with the same fieldsV1 object (the next Event of a manager in the same second)
 * costs a look at its fields ({@link sameFields}); any other new entry costs the JSON of its
 * scalar fields, plus one JSON.stringify of its fieldsV1 the first time that object is met (the
 * field sets of creates are shared per shape, apiserver/managed-fields-memo.ts). The table holds at most {@link INTERN_LIMIT} entries and starts over when full
 * (entries already shared stay shared and frozen).
 */
import type { KObject } from '../api/types';

/** Distinct entries remembered before the table starts over. */
export const INTERN_LIMIT = 8192;

function deepFreeze(o: unknown): void {
  if (o === null || typeof o !== 'object' || Object.isFrozen(o)) return;
  for (const v of Object.values(o)) deepFreeze(v);
  Object.freeze(o);
}

/**
 * Whether plain object `b` serializes as frozen entry `a` (own keys `ka`, in order) does, by a
 * shallow look: the same own enumerable keys in the same order, each value identical (`===`: a
 * string, or the same frozen object, such as a fieldsV1 shared by the memo of create field sets).
 * False is only "not shown equal": the table's key decides then.
 */
export function sameFields(a: object, ka: readonly string[], b: object): boolean {
  if (Object.getPrototypeOf(b) !== Object.prototype) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let i = 0;
  for (const k in y) {
    if (k !== ka[i] || !Object.hasOwn(y, k) || x[k] !== y[k]) return false;
    i++;
  }
  return i === ka.length;
}

/** The table of one store (MVCCStore owns one). */
export class ManagedFieldsIntern {
  private byKey = new Map<string, object>();
  private interned = new WeakSet<object>();
  /** A number for each interned entry (never reused), and the shared lists by their entries' numbers. */
  private entryIds = new WeakMap<object, number>();
  private nextEntryId = 1;
  private lists = new Map<string, NonNullable<KObject['metadata']['managedFields']>>();
  /**
   * A number for each distinct fieldsV1 JSON, and the number of each fieldsV1 object met, by
   * identity: a manager's next entry often differs only in `time` and shares the fieldsV1 object
   * (a Lease renewal, a status heartbeat, every create of one shape: apiserver/managed-fields-memo.ts),
   * so its key costs the JSON of the entry's few scalar fields and a number. Numbers are never
   * reused, so equal numbers mean equal JSON.
   */
  private fieldsIds = new Map<string, number>();
  private fieldsIdOf = new WeakMap<object, number>();
  private nextFieldsId = 1;
  /**
   * Per fieldsV1 object, the entry holding it that {@link internEntry} returned last (shared and
   * frozen) and that entry's own keys in order: the Events one manager writes in one second, and
   * the Pods one ReplicaSet creates, carry an entry equal to it (the fieldsV1 is the memo's).
   */
  private lastByFields = new WeakMap<object, { e: object; keys: readonly string[] }>();
  /** The fieldsV1 {@link fieldsId} numbered last, and its number. */
  private lastFields: object | undefined;
  private lastFieldsId = 0;

  /**
   * Replaces each entry of `obj.metadata.managedFields` by the shared frozen entry that
   * serializes the same (the array itself stays the object's own). Mutates `obj`, which the
   * store is about to own. No-op without managedFields.
   */
  internManagedFields(obj: KObject): void {
    const list = obj.metadata?.managedFields;
    if (!Array.isArray(list) || Object.isFrozen(list)) return;
    let key: string | undefined = '';
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      const s = this.internEntry(e);
      if (s !== e) list[i] = s as (typeof list)[number];
      if (key === undefined) continue;
      const id = this.entryIds.get(s as object);
      key = id === undefined ? undefined : i ? `${key},${id}` : String(id);
    }
    // the list too: one shared frozen array per sequence of interned entries (a pushed array's
    // backing store has room for 17 entries; the shared one is a literal of its length)
    if (key === undefined || !list.length) return;
    const hit = this.lists.get(key);
    if (hit) {
      obj.metadata.managedFields = hit;
      return;
    }
    if (this.lists.size >= INTERN_LIMIT) this.lists.clear();
    const shared = Object.freeze(list.slice());
    this.lists.set(key, shared as typeof list);
    obj.metadata.managedFields = shared as typeof list;
  }

  /** Distinct entries in the table now (tests and benchmarks). */
  get size(): number {
    return this.byKey.size;
  }

  private internEntry(e: unknown): unknown {
    if (e === null || typeof e !== 'object' || this.interned.has(e)) return e;
    // the last entry returned with this fieldsV1 is checked field by field before any key is built
    const f = (e as { fieldsV1?: unknown }).fieldsV1;
    const last = f !== null && typeof f === 'object' ? this.lastByFields.get(f) : undefined;
    if (last !== undefined && sameFields(last.e, last.keys, e)) return last.e;
    const key = this.keyOf(e);
    const hit = this.byKey.get(key);
    if (hit) return this.remember(hit);
    if (this.byKey.size >= INTERN_LIMIT) {
      this.byKey.clear();
      this.fieldsIds.clear();
    }
    deepFreeze(e);
    this.byKey.set(key, e);
    this.interned.add(e);
    this.entryIds.set(e, this.nextEntryId++);
    // its fieldsV1 is frozen now: remember its number (keyOf just computed it)
    if (this.lastFields !== undefined && f === this.lastFields) this.fieldsIdOf.set(this.lastFields, this.lastFieldsId);
    return this.remember(e);
  }

  /** Makes `e` (shared, frozen) the last entry returned with its fieldsV1 ({@link lastByFields}). */
  private remember(e: object): object {
    const f = (e as { fieldsV1?: unknown }).fieldsV1;
    if (f !== null && typeof f === 'object') this.lastByFields.set(f, { e, keys: Object.keys(e) });
    return e;
  }

  /**
   * The table's key of an entry: its JSON with fieldsV1 left out (its place kept, so key order
   * still counts), then the number of fieldsV1's JSON. Two entries have the same key exactly when
   * they have the same JSON.
   */
  private keyOf(e: object): string {
    const f = (e as { fieldsV1?: unknown }).fieldsV1;
    if (f === null || typeof f !== 'object') return JSON.stringify(e);
    return `${JSON.stringify({ ...e, fieldsV1: 0 })}\u0000${this.fieldsId(f)}`;
  }

  /** The number of a fieldsV1 value's JSON (one JSON.stringify per fieldsV1 object, the first time it is met). */
  private fieldsId(f: object): number {
    let id = this.fieldsIdOf.get(f);
    if (id !== undefined) return id;
    const json = JSON.stringify(f);
    id = this.fieldsIds.get(json);
    if (id === undefined) this.fieldsIds.set(json, (id = this.nextFieldsId++));
    // a frozen fieldsV1 (deep-frozen: by this table or by the memo of create field sets) cannot
    // change, so its number holds for as long as it lives; another is remembered once frozen
    if (Object.isFrozen(f)) this.fieldsIdOf.set(f, id);
    this.lastFields = f;
    this.lastFieldsId = id;
    return id;
  }
}
