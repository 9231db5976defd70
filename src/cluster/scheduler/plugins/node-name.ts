/**
 * NodeName: a pod that names a node (spec.nodeName) fits only that node.
 *
 * Mirrors pkg/scheduler/framework/plugins/nodename/node_name.go.
 */
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

/** ErrReason. */
export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

/** The NodeName filter plugin. */
export class NodeName implements FilterPlugin, EnqueueExtensions {
  readonly name = 'NodeName';

  filter(_s: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    const want = pod.pod.spec?.nodeName;
    if (!want || want === ni.name) return SUCCESS;
    return newStatus('UnschedulableAndUnresolvable', ERR_REASON_NODE_NAME);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        resource: 'Node',
        actions: ['Add'],
        hint: (pod, _o, n) => (!pod.spec?.nodeName || pod.spec.nodeName === n?.metadata.name ? 'Queue' : 'QueueSkip'),
      },
    ];
  }
}
