/**
 * NodeAffinity: the filter enforces spec.nodeSelector and required node affinity; the score
 * sums the weights of matching preferred terms (DefaultNormalizeScore; weight 2).
 *
 * Mirrors pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go.
 */
import type { NodeInfo, PodInfo } from '../node-info';
import { defaultNormalizeScore, MAX_NODE_SCORE } from '../framework';
import {
  newStatus,
  SUCCESS,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FilterPlugin,
  type NodeScore,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
  type Status,
} from '../types';
import { nodeSelectorTermMatches, podMatchesNodeSelectorAndAffinity } from '../../component-helpers/scheduling/corev1';

/** ErrReasonPod. */
export const ERR_REASON_POD_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";

/** The NodeAffinity plugin (PreFilter, Filter, PreScore, Score, NormalizeScore). */
export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = 'NodeAffinity';

  preFilter(_s: CycleState, pod: PodInfo): Status {
    const spec = pod.pod.spec ?? {};
    const hasSelector = spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0;
    if (!hasSelector && !spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution) return newStatus('Skip');
    return SUCCESS;
  }

  filter(_s: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    return podMatchesNodeSelectorAndAffinity(pod.pod, ni.node!)
      ? SUCCESS
      : newStatus('UnschedulableAndUnresolvable', ERR_REASON_POD_NODE_AFFINITY);
  }

  preScore(_s: CycleState, pod: PodInfo): Status {
    return (pod.pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).length
      ? SUCCESS
      : newStatus('Skip');
  }

  score(_s: CycleState, pod: PodInfo, ni: NodeInfo): number {
    let sum = 0;
    for (const t of pod.pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
      if (t.weight && nodeSelectorTermMatches(t.preference ?? {}, ni.node!)) sum += t.weight;
    }
    return sum;
  }

  normalizeScore(_s: CycleState, _p: PodInfo, scores: NodeScore[]): void {
    defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // isSchedulableAfterNodeChange: Queue when the node matches now and did not before (or is new)
    return [
      {
        resource: 'Node',
        actions: ['Add', 'Update'],
        hint: (pod, o, n) =>
          n && podMatchesNodeSelectorAndAffinity(pod, n) && (!o || !podMatchesNodeSelectorAndAffinity(pod, o)) ? 'Queue' : 'QueueSkip',
      },
    ];
  }
}
