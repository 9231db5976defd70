/**
 * One "namespace/name" key string per stored Pod, shared by every informer cache and the
 * scheduler's queue (client-go's MetaNamespaceKeyFunc, tools/cache/store.go, computes the same
 * key in each; here the string is computed once). 200,000 Pending Pods are otherwise held by
 * three informers and the scheduling queue under four copies of a ~30-character key.
 *
 * Keyed by the object (stored objects are frozen and shared between informers); an updated
 * object inherits the key of the one it replaces ({@link carryObjectKey}), so the key string a
 * Map holds stays the one every later reader gets.
 */
import type { KObject } from './types';

const keys = new WeakMap<object, string>();

/** The shared key of `o`, or a new flat one (registered for `o`). */
export function sharedObjectKey(o: KObject): string {
  let k = keys.get(o);
  if (k === undefined) {
    const ns = o.metadata.namespace;
    // flat: a rope would be flattened behind its header when first hashed
    k = ns ? [ns, o.metadata.name].join('/') : o.metadata.name;
    keys.set(o, k);
  }
  return k;
}

/** Registers `key` (the key `prev` was held under) for `next`, unless `next` has one already. */
export function carryObjectKey(next: KObject, key: string): void {
  if (!keys.has(next)) keys.set(next, key);
}
