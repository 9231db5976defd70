/**
 * TaintToleration: the filter rejects nodes with a NoSchedule/NoExecute taint the pod does
 * not tolerate; the score prefers nodes with fewer untolerated PreferNoSchedule taints
 * (counted, then DefaultNormalizeScore reversed; weight 3).
 *
 * Mirrors pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go.
 */
import type { Node, Pod } from '../../api/objects';
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
  type PreScorePlugin,
  type ScorePlugin,
  type Status,
} from '../types';
import {
  doNotScheduleTaints,
  findUntoleratedTaint,
  tolerationsTolerateTaint,
  type Taint,
  type Toleration,
} from '../../component-helpers/scheduling/corev1';

/** The filter's failure reason: `node(s) had untolerated taint {key: value}`. */
export function untoleratedTaintReason(t: Taint): string {
  return `node(s) had untolerated taint {${t.key}: ${t.value ?? ''}}`;
}

function untolerated(pod: Pod, node: Node): Taint | undefined {
  return findUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaints);
}

/** The TaintToleration plugin (Filter, PreScore, Score, NormalizeScore). */
export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = 'TaintToleration';

  filter(_s: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    const t = untolerated(pod.pod, ni.node!);
    return t ? newStatus('UnschedulableAndUnresolvable', untoleratedTaintReason(t)) : SUCCESS;
  }

  preScore(): Status {
    return SUCCESS;
  }

  /** Number of PreferNoSchedule taints not tolerated by the pod's PreferNoSchedule-or-empty-effect tolerations. */
  score(_s: CycleState, pod: PodInfo, ni: NodeInfo): number {
    const tols: Toleration[] = (pod.pod.spec?.tolerations ?? []).filter((t: Toleration) => !t.effect || t.effect === 'PreferNoSchedule');
    let n = 0;
    for (const t of (ni.node!.spec?.taints ?? []) as Taint[]) {
      if (t.effect !== 'PreferNoSchedule') continue;
      if (!tolerationsTolerateTaint(tols, t)) n++;
    }
    return n;
  }

  normalizeScore(_s: CycleState, _p: PodInfo, scores: NodeScore[]): void {
    defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // isSchedulableAfterNodeChange: Queue only when the node goes from untolerated to tolerated
    return [
      {
        resource: 'Node',
        actions: ['Add', 'Update'],
        hint: (pod, o, n) => ((!o || untolerated(pod, o)) && n && !untolerated(pod, n) ? 'Queue' : 'QueueSkip'),
      },
    ];
  }
}
