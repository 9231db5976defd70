/**
 * Own-property access for plain objects keyed by user data (labels, annotations, ConfigMap
 * data, JSON Patch pointers, merge patches, applied configurations, managedFields sets).
 *
 * Go's `map[string]T` has no inherited keys: in Kubernetes `__proto__`, `constructor` and
 * `prototype` are ordinary keys (a ConfigMap data key `__proto__` is valid and stored). A
 * JavaScript object literal is not such a map: `o[k] = v` with `k === "__proto__"` replaces the
 * object's prototype (or, reached through `{}.__proto__`, pollutes Object.prototype for the
 * whole process), and `o[k]` / `k in o` see `constructor`, `toString`, … inherited from
 * Object.prototype. Every walker of user-controlled keys goes through these helpers (or a Map):
 * reads see own properties only, writes define an own data property whatever the key.
 * src/cluster/fuzz/safe-keys.test.ts scans the fixed walkers so that raw `o[k] = v` does not
 * come back.
 */

/** A JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** Whether `v` is a JSON object: non-null, `typeof 'object'`, not an array. */
export function isJsonObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether `o` has `k` as an own property (never an inherited one such as `constructor`). */
export function hasOwn(o: object | null | undefined, k: string): boolean {
  return o !== null && o !== undefined && Object.prototype.hasOwnProperty.call(o, k);
}

/** `o[k]` when `k` is an own property of `o`, else undefined (`constructor` of `{}` is undefined). */
export function getOwn<V>(o: Readonly<Record<string, V>> | null | undefined, k: string): V | undefined {
  return hasOwn(o, k) ? (o as Record<string, V>)[k] : undefined;
}

/**
 * Sets `o[k] = v` as an own, enumerable, writable data property, also for `k === "__proto__"`
 * (plain assignment would replace the prototype). Returns `v`.
 */
export function setOwn<V>(o: object, k: string, v: V): V {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else (o as Record<string, unknown>)[k] = v;
  return v;
}

/** Deletes own property `k` (a no-op for an inherited one). Returns whether it was there. */
export function deleteOwn(o: object, k: string): boolean {
  if (!hasOwn(o, k)) return false;
  delete (o as Record<string, unknown>)[k];
  return true;
}

/** A plain object with `entries` as own data properties (like Object.fromEntries, which is safe too). */
export function objectOf<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [k, v] of entries) setOwn(out, k, v);
  return out;
}

/** A shallow copy of `o`'s own enumerable properties (spread is safe; this names the intent). */
export function copyOwn<V>(o: Readonly<Record<string, V>>): Record<string, V> {
  return objectOf(Object.entries(o));
}
