/** Names as kubectl prints them, from what the engine serves (never derived from the kind). */
import type { StoredObject } from '../store/types';

/**
 * The resource name `kubectl get` takes for a row's kind: the plural of the engine's REST
 * mapping (StoredObject.resource, group-qualified: "storageclasses.storage.k8s.io" →
 * "storageclasses", "endpoints" → "endpoints"), as k8s.io/apimachinery/pkg/api/meta's
 * RESTMapper names it; never kind + "s". "" when the object is unknown.
 */
export function plural(o: Pick<StoredObject, 'resource'> | undefined): string {
  const r = o?.resource ?? '';
  const dot = r.indexOf('.');
  return dot < 0 ? r : r.slice(0, dot);
}
