/**
 * Node heartbeats: a Node update that only refreshes its conditions' lastHeartbeatTime (the
 * kubelet's periodic status report, pkg/kubelet/kubelet_node_status.go) changes nothing a
 * person cares about. Used by `settle` (quiet detection) and by the relay's "heartbeat"
 * category.
 */
import { deepCopy, deepEqual, type KObject } from './types';

function stripHeartbeat(n: KObject): unknown {
  const c = deepCopy(n);
  delete c.metadata.resourceVersion;
  delete c.metadata.managedFields;
  for (const cond of c.status?.conditions ?? []) delete cond.lastHeartbeatTime;
  return c;
}

/** True when `next` differs from `prev` only in resourceVersion and heartbeat times. */
export function isNodeHeartbeatOnly(next: KObject, prev: KObject): boolean {
  return deepEqual(stripHeartbeat(next), stripHeartbeat(prev));
}
