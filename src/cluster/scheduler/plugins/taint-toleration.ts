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
  type StateData,
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

const PRE_SCORE_KEY = 'PreScoreTaintToleration';

/** getAllTolerationPreferNoSchedule: the tolerations with effect PreferNoSchedule or none. */
function preferNoScheduleTolerations(pod: PodInfo): Toleration[] {
  return (pod.pod.spec?.tolerations ?? []).filter((t: Toleration) => !t.effect || t.effect === 'PreferNoSchedule');
}

/** preScoreState: the tolerations Score counts against. */
class PreScoreState implements StateData {
  constructor(readonly tolerations: Toleration[]) {}
  clone(): PreScoreState {
    return this;
  }
}

/** The TaintToleration plugin (Filter, PreScore, Score, NormalizeScore). */
export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = 'TaintToleration';

  filter(_s: CycleState, pod: PodInfo, ni: NodeInfo): Status {
    const t = ni.taints && findUntoleratedTaint(ni.taints, pod.pod.spec?.tolerations, doNotScheduleTaints);
    return t ? newStatus('UnschedulableAndUnresolvable', untoleratedTaintReason(t)) : SUCCESS;
  }

  /** PreScore: the pod's PreferNoSchedule-or-empty-effect tolerations (getAllTolerationPreferNoSchedule), once per cycle. */
  preScore(state: CycleState, pod: PodInfo): Status {
    state.write(PRE_SCORE_KEY, new PreScoreState(preferNoScheduleTolerations(pod)));
    return SUCCESS;
  }

  /** Number of PreferNoSchedule taints not tolerated by the pod's PreferNoSchedule-or-empty-effect tolerations. */
  score(state: CycleState, pod: PodInfo, ni: NodeInfo): number {
    if (!ni.taints) return 0;
    const tols = state.read<PreScoreState>(PRE_SCORE_KEY)?.tolerations ?? preferNoScheduleTolerations(pod);
    let n = 0;
    for (const t of ni.taints) {
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
