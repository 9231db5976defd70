/**
 * The object a relay hop is about (its plural resource, namespace and name), which the story
 * (story.ts) follows and the hop window (module `./window`) filters by. Pure, over RelayHop.
 */
import type { RelayHop } from '../relay-event';

/** An object a hop is about: plural resource ("pods"), namespace ('' when cluster-scoped), name. */
export interface HopObject {
  resource: string;
  namespace: string;
  name: string;
}

/** The object a hop is about, or null (heartbeat-less notes, responses without a name…). */
export function hopObject(h: RelayHop): HopObject | null {
  if (!h.name || !h.resource) return null;
  return { resource: h.resource.split('/')[0], namespace: h.namespace ?? '', name: h.name };
}
