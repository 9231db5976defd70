/** Pure helpers for the inspector's Owners tab: the ownerReferences chain up, and what an object owns down. */
import type { KObject, StoredObject } from '../store/types';

function refKey(o: KObject, ref: { kind: string; name: string }): string {
  return o.metadata.namespace ? `${ref.kind}/${o.metadata.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
}

/**
 * The owner chain, nearest first (controller reference preferred, else the first reference),
 * as store keys; an owner missing from the store is still listed (`stored: undefined`).
 */
export function ownerChain(
  objects: ReadonlyMap<string, StoredObject>,
  obj: KObject,
  max = 8,
): { key: string; stored: StoredObject | undefined }[] {
  const out: { key: string; stored: StoredObject | undefined }[] = [];
  const seen = new Set<string>();
  let cur: KObject | undefined = obj;
  while (cur && out.length < max) {
    const refs = cur.metadata.ownerReferences ?? [];
    const ref = refs.find((r) => r.controller) ?? refs[0];
    if (!ref) break;
    const key = refKey(cur, ref);
    if (seen.has(key)) break;
    seen.add(key);
    const stored = objects.get(key);
    out.push({ key, stored });
    cur = stored?.object;
  }
  return out;
}

export interface OwnedNode {
  key: string;
  children: OwnedNode[];
}

/** What `obj` owns (by uid), recursively to `depth` levels, in key order. */
export function ownedTree(objects: ReadonlyMap<string, StoredObject>, obj: KObject, depth = 3): OwnedNode[] {
  const byOwner = new Map<string, string[]>();
  for (const s of objects.values()) {
    for (const r of s.object.metadata.ownerReferences ?? []) {
      let l = byOwner.get(r.uid);
      if (!l) byOwner.set(r.uid, (l = []));
      l.push(s.key);
    }
  }
  const walk = (uid: string | undefined, d: number): OwnedNode[] => {
    if (!uid || d <= 0) return [];
    return (byOwner.get(uid) ?? [])
      .slice()
      .sort()
      .map((key) => ({ key, children: walk(objects.get(key)?.object.metadata.uid, d - 1) }));
  };
  return walk(obj.metadata.uid, depth);
}

/** "deployment.apps/peekcart"-style label of a store key ("Deployment/default/peekcart" → "deployment/peekcart"). */
export function keyLabel(key: string): string {
  const parts = key.split('/');
  return `${parts[0].toLowerCase()}/${parts.at(-1)}`;
}
