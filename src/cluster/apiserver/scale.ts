/**
 * The scale subresource's object (autoscaling/v1 Scale) and the patch of it, as
 * pkg/registry/apps/deployment/storage/storage.go ScaleREST (scaleFromDeployment) serves it
 * and handlers/patch.go applies a JSON or merge patch to it. Shared by the kubectl bar
 * (`kubectl patch --subresource=scale`) and the HTTP API (PATCH …/scale).
 */
import type { ResourceInfo } from '../api/resources';
import type { KObject } from '../api/types';
import { newBadRequest } from '../api/errors';
import { formatLabelSelector } from '../api/labels';
import { PatchApplyError, applyJSONPatch, applyMergePatch } from './patch-json';
import { newPatchInvalid, newUnsupportedPatch, type PatchType } from './patch';

/** The Scale of a scalable object: spec.replicas, status.replicas and the selector string. */
export function scaleOf(info: Pick<ResourceInfo, 'kind'>, o: KObject): KObject {
  const sel = formatLabelSelector(info.kind === 'ReplicationController' ? { matchLabels: o.spec?.selector ?? {} } : o.spec?.selector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: o.metadata.name,
      namespace: o.metadata.namespace,
      uid: o.metadata.uid,
      resourceVersion: o.metadata.resourceVersion,
      creationTimestamp: o.metadata.creationTimestamp,
    },
    spec: { replicas: o.spec?.replicas ?? 0 },
    status: { replicas: o.status?.replicas ?? 0, ...(sel !== '<none>' ? { selector: sel } : {}) },
  } as KObject;
}

/**
 * A JSON or merge patch applied to the Scale of `obj`. A patch that does not apply (a missing
 * path, a failed test) is 422 Invalid with patch.go's fixed text, as for any JSON patch;
 * a malformed patch document is 400; strategic merge and apply are 415 here (kube-relay's
 * subset). @returns the patched Scale (not validated: the caller checks spec.replicas)
 * @throws StatusError 400, 415, 422
 */
export function patchScaleDocument(info: Pick<ResourceInfo, 'kind'>, obj: KObject, type: PatchType, body: unknown): KObject {
  if (type !== 'json' && type !== 'merge') throw newUnsupportedPatch(false);
  let scale: unknown;
  try {
    scale = type === 'json' ? applyJSONPatch(scaleOf(info, obj), body) : applyMergePatch(scaleOf(info, obj), body);
  } catch (err) {
    if (err instanceof PatchApplyError) throw newPatchInvalid();
    throw newBadRequest(err instanceof Error ? err.message : String(err));
  }
  if (!scale || typeof scale !== 'object' || Array.isArray(scale)) throw newBadRequest('the patch did not produce an object');
  return scale as KObject;
}
