/**
 * Object shapes shared by the whole engine. Typed kinds come from `kubernetes-types`
 * (the Kubernetes 1.30 API; the engine behaves as v1.33 — fields added since 1.30 are
 * passed through untyped).
 */
import type { ObjectMeta as K8sObjectMeta, OwnerReference as K8sOwnerReference } from 'kubernetes-types/meta/v1';
import { setOwn } from './safe-object';

/** Removes `readonly` (kubernetes-types marks server-set fields readonly; the server sets them). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * metav1.ObjectMeta, writable. `name` is typed as present: every stored object has one
 * (an input with only generateName gets its name in the apiserver before anything reads it).
 */
export type ObjectMeta = Mutable<Omit<K8sObjectMeta, 'name' | 'ownerReferences'>> & {
  name: string;
  ownerReferences?: OwnerReference[];
};

export type OwnerReference = Mutable<K8sOwnerReference>;

/**
 * Any stored Kubernetes object, as JSON. Objects handed out by the store, informers and
 * listers are shared and must be treated as read-only: copy with {@link deepCopy} before
 * changing them (as client-go's listers demand).
 */
export interface KObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  // deliberately loose: kinds are typed where used, via kubernetes-types casts
  [field: string]: any;
}

/** A list as the apiserver returns it (`PodList`, …). */
export interface KList<T extends KObject = KObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string };
  items: T[];
}

/** Watch event types, as in k8s.io/apimachinery/pkg/watch. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event. `oldObject` is set on MODIFIED/DELETED for in-process consumers. */
export interface WatchEvent<T extends KObject = KObject> {
  type: WatchEventType;
  object: T;
  oldObject?: T;
}

/**
 * Deep copy of a JSON value (objects are plain JSON; no Dates, no class instances).
 *
 * One exception, structural sharing: an array under a `managedFields` key (metadata.managedFields)
 * is not copied but shared. Its entries are immutable once the apiserver computed them
 * (managed-fields-diff.ts: field sets are copy-on-write, entries are shared between object
 * versions) and no code edits that list in place — writers assign a new array. Copying it made
 * every controller's copy of a Pod/ReplicaSet about twice as costly (and as much garbage).
 */
export function deepCopy<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(deepCopy) as unknown as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v as object)) {
    const x = (v as Record<string, unknown>)[k];
    const c = k === 'managedFields' && Array.isArray(x) ? x : deepCopy(x);
    // an own "__proto__" key (from untrusted YAML/JSON) stays an inert own property
    setOwn(out, k, c);
  }
  return out as T;
}

/**
 * Deep copy of a JSON value that keeps frozen subtrees as they are: the store's shared read-only
 * values (storage/object-intern.ts freezes every subtree it shares) cannot be changed, so a copy
 * of them protects nothing. For writers that change only the top of the copy (the apiserver's
 * status update assigns metadata fields and replaces status); code that edits nested fields
 * must use {@link deepCopy}. Same `managedFields` rule as deepCopy.
 */
export function copyUnfrozen<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  if (Array.isArray(v)) return v.map(copyUnfrozen) as unknown as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v as object)) {
    const x = (v as Record<string, unknown>)[k];
    setOwn(out, k, k === 'managedFields' && Array.isArray(x) ? x : copyUnfrozen(x));
  }
  return out as T;
}

/** Deep structural equality of two JSON values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** "namespace/name" or "name" — the cache key of client-go's MetaNamespaceKeyFunc. */
export function metaNamespaceKey(obj: { metadata?: { namespace?: string; name?: string } }): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name}` : `${obj.metadata?.name}`;
}

/** Splits a MetaNamespaceKey into [namespace, name] (namespace "" for cluster-scoped). */
export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return i < 0 ? ['', key] : [key.slice(0, i), key.slice(i + 1)];
}

/** The controller ownerReference of an object, if any (metav1.GetControllerOf). */
export function getControllerOf(obj: KObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** Builds a controller ownerReference to `owner` (metav1.NewControllerRef). */
export function newControllerRef(owner: KObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}
