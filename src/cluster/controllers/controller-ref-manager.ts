/**
 * Adoption and orphaning by selector: BaseControllerRefManager.ClaimObject,
 * PodControllerRefManager.ClaimPods and ReplicaSetControllerRefManager.ClaimReplicaSets from
 * kubernetes/kubernetes pkg/controller/controller_ref_manager.go.
 *
 * Adoption and release are strategic-merge PATCHes of metadata.ownerReferences, as upstream's
 * ownerRefControllerPatch and generateDeleteOwnerRefStrategicMergeBytes build them (the object's
 * uid in the patch as a precondition): a PATCH is all the controllers' roles grant (the
 * replicaset-controller may patch Pods, not get or update them). {@link patchObject} is a
 * read-modify-write for the callers that change other fields.
 */
import type { ResourceClient } from '../client/clientset';
import { deepCopy, getControllerOf, newControllerRef } from '../api/types';
import type { APIObject } from '../api/objects';
import { matches, type Selector } from '../api/labels';
import { isConflict, isNotFound, errorMessage } from './controller-utils';
import { StatusError } from '../api/errors';

/**
 * Read-modify-write standing in for PATCH: `mutate` changes a fresh copy of the object and
 * returns false to skip the write (nothing to change).
 * @throws StatusError 404 when the object is gone; other StatusErrors from the update.
 */
export function patchObject<T extends APIObject>(
  rc: ResourceClient<T>,
  namespace: string,
  name: string,
  mutate: (o: T) => boolean,
  summary?: string,
): T {
  for (let attempt = 0; ; attempt++) {
    const cur = deepCopy(rc.get(namespace, name, { quiet: true }));
    if (!mutate(cur)) return cur;
    try {
      return rc.update(cur, { summary });
    } catch (err) {
      if (attempt === 0 && isConflict(err)) continue;
      throw err;
    }
  }
}

/** What a ref manager needs: the controller object, its selector, a client for the owned kind. */
export interface RefManagerOptions<T extends APIObject> {
  /** The controller object (e.g. the ReplicaSet); read-only. */
  controller: APIObject;
  selector: Selector;
  /** Client of the owned resource (pods, replicasets). */
  client: ResourceClient<T>;
  /**
   * RecheckDeletionTimestamp: an uncached read of the controller before the first adoption;
   * throws when it is gone (uid changed) — adoption then fails with that error.
   */
  canAdopt: () => void;
  /** Extra filters an object must pass to be claimed (ClaimPods' filters). */
  filters?: ((o: T) => boolean)[];
}

/**
 * ClaimObjects: adopts orphans that match, releases owned objects that no longer match, and
 * returns the objects the controller owns and that match. Errors from individual adoptions
 * and releases are collected; the first is thrown after every object was tried.
 */
export function claimObjects<T extends APIObject>(opts: RefManagerOptions<T>, objects: T[]): T[] {
  const owner = opts.controller;
  const kind = owner.kind;
  const claimed: T[] = [];
  const errs: unknown[] = [];
  let adoptChecked = false;
  const match = (o: T) => matches(opts.selector, o.metadata.labels) && (opts.filters ?? []).every((f) => f(o));
  for (const o of objects) {
    const ref = getControllerOf(o);
    try {
      if (ref) {
        if (ref.uid !== owner.metadata.uid) continue; // owned by someone else
        if (match(o)) {
          claimed.push(o);
          continue;
        }
        if (owner.metadata.deletionTimestamp) continue;
        release(opts, o);
        continue;
      }
      // an orphan
      if (owner.metadata.deletionTimestamp || !match(o)) continue;
      if (o.metadata.deletionTimestamp) continue;
      if (owner.metadata.namespace && owner.metadata.namespace !== o.metadata.namespace) continue;
      if (!adoptChecked) {
        adoptChecked = true;
        try {
          opts.canAdopt();
        } catch (err) {
          throw new Error(`can't adopt ${o.kind} ${o.metadata.namespace}/${o.metadata.name} (${o.metadata.uid}): ${errorMessage(err)}`);
        }
      }
      const adopted = adopt(opts, o, kind);
      if (adopted) claimed.push(adopted);
    } catch (err) {
      if (isNotFound(err)) continue;
      errs.push(err);
    }
  }
  if (errs.length) throw errs[0];
  return claimed;
}

/** The uid precondition of a patch failed: the object was replaced (upstream's 409 is ignored as a NotFound would be). */
function uidChanged(err: unknown): boolean {
  return err instanceof StatusError && err.code === 409 && /uid/i.test(err.message);
}

/**
 * AdoptPod / AdoptReplicaSet: ownerRefControllerPatch as a strategic-merge patch,
 * `{"metadata":{"ownerReferences":[<controllerRef>],"uid":"<object uid>"}}` (ownerReferences merge
 * by uid; ValidateOwnerReferences refuses a second controller).
 */
function adopt<T extends APIObject>(opts: RefManagerOptions<T>, o: T, _kind: string): T | null {
  const owner = opts.controller;
  const ref = newControllerRef(owner);
  const r = opts.client.patch(
    o.metadata.namespace ?? '',
    o.metadata.name,
    'strategic',
    { metadata: { ownerReferences: [ref], uid: o.metadata.uid } },
    { summary: `adopt ${o.kind} ${o.metadata.namespace}/${o.metadata.name} (ownerReferences += ${owner.kind} ${owner.metadata.name})` },
  );
  return r.object as T;
}

/**
 * ReleasePod / ReleaseReplicaSet: generateDeleteOwnerRefStrategicMergeBytes,
 * `{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"<owner uid>"}],"uid":"<object uid>"}}`;
 * NotFound and Invalid are ignored (the object is being deleted or already gone), as upstream.
 */
function release<T extends APIObject>(opts: RefManagerOptions<T>, o: T): void {
  const owner = opts.controller;
  try {
    opts.client.patch(
      o.metadata.namespace ?? '',
      o.metadata.name,
      'strategic',
      // the last reference: the field goes, as upstream stores it (an empty list is omitted, omitempty)
      (o.metadata.ownerReferences ?? []).every((r) => r.uid === owner.metadata.uid)
        ? { metadata: { ownerReferences: null, uid: o.metadata.uid } }
        : { metadata: { ownerReferences: [{ $patch: 'delete', uid: owner.metadata.uid }], uid: o.metadata.uid } },
      { summary: `release ${o.kind} ${o.metadata.namespace}/${o.metadata.name} (ownerReferences -= ${owner.kind} ${owner.metadata.name})` },
    );
  } catch (err) {
    if (isNotFound(err) || uidChanged(err) || (err instanceof StatusError && err.code === 422)) return;
    throw err;
  }
}

/**
 * controller.RecheckDeletionTimestamp with the uid check of claimPods / claimReplicaSets:
 * reads the controller uncached and throws when it was replaced or is being deleted.
 */
export function recheckDeletionTimestamp<T extends APIObject>(rc: Pick<ResourceClient<T>, 'get'>, owner: APIObject): () => void {
  return () => {
    const fresh = rc.get(owner.metadata.namespace ?? '', owner.metadata.name, { quiet: true });
    if (fresh.metadata.uid !== owner.metadata.uid) {
      throw new Error(
        `original ${owner.kind} ${owner.metadata.namespace}/${owner.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${owner.metadata.uid}`,
      );
    }
    if (fresh.metadata.deletionTimestamp) {
      throw new Error(`${owner.metadata.namespace}/${owner.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    }
  };
}
