/**
 * NodePorts: rejects nodes where a requested hostPort (same protocol and port, and the same
 * hostIP or either side 0.0.0.0) is already in use.
 *
 * Mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go and
 * framework.HostPortInfo.CheckConflict.
 */
import type { HostPort, NodeInfo, PodInfo } from '../node-info';
import { podHostPorts } from '../node-info';
import {
  newStatus,
  SUCCESS,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type PreFilterPlugin,
  type Status,
} from '../types';

/** ErrReason. */
export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

/** HostPortInfo.CheckConflict for one port. */
export function portConflicts(used: HostPort[], want: HostPort): boolean {
  return used.some(
    (u) => u.protocol === want.protocol && u.port === want.port && (u.ip === want.ip || u.ip === '0.0.0.0' || want.ip === '0.0.0.0'),
  );
}

/** The NodePorts plugin (PreFilter, Filter). */
export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = 'NodePorts';

  preFilter(_s: CycleState, pod: PodInfo): Status {
    return pod.hostPorts.length ? SUCCESS : newStatus('Skip');
  }

  filter(_s: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    for (const p of pod.hostPorts) if (portConflicts(ni.usedPorts, p)) return newStatus('Unschedulable', ERR_REASON_NODE_PORTS);
    return SUCCESS;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        resource: 'AssignedPod',
        actions: ['Delete'],
        hint: (pod, old) => {
          const mine = podHostPorts(pod);
          return old && podHostPorts(old).some((p) => portConflicts(mine, p)) ? 'Queue' : 'QueueSkip';
        },
      },
      { resource: 'Node', actions: ['Add', 'Update'] },
    ];
  }
}
