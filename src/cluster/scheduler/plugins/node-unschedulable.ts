/**
 * NodeUnschedulable: rejects cordoned nodes (spec.unschedulable) unless the pod tolerates
 * the node.kubernetes.io/unschedulable:NoSchedule taint.
 *
 * Mirrors pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go.
 */
import type { Node, Pod } from '../../api/objects';
import type { NodeInfo, PodInfo } from '../node-info';
import {
  newStatus,
  SUCCESS,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type Status,
} from '../types';
import { tolerationsTolerateTaint } from '../../component-helpers/scheduling/corev1';

/** ErrReasonUnschedulable. */
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
const UNSCHEDULABLE_TAINT = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

function nodeOK(pod: Pod, node: Node): boolean {
  return !node.spec?.unschedulable || tolerationsTolerateTaint(pod.spec?.tolerations, UNSCHEDULABLE_TAINT);
}

/** The NodeUnschedulable filter plugin. */
export class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {
  readonly name = 'NodeUnschedulable';

  filter(_s: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    if (!ni.unschedulable || tolerationsTolerateTaint(pod.pod.spec?.tolerations, UNSCHEDULABLE_TAINT)) return SUCCESS;
    return newStatus('UnschedulableAndUnresolvable', ERR_REASON_UNSCHEDULABLE);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // isSchedulableAfterNodeChange: Queue when the node becomes schedulable (or is added schedulable)
    return [
      {
        resource: 'Node',
        actions: ['Add', 'Update'],
        hint: (pod, o, n) => (n && nodeOK(pod, n) && (!o || !nodeOK(pod, o)) ? 'Queue' : 'QueueSkip'),
      },
    ];
  }
}
