/**
 * What `step` stops at (worker/protocol.ts StepFilter): the hops the sequence diagram shows —
 * its category folds (heartbeats, admission notes, Event writes) and its component filter.
 */
import type { StepFilter } from '../../worker/protocol';
import type { KubeState } from '../store/store';

/** The user's relay view as a {@link StepFilter}. */
export function stepFilterOf(s: Pick<KubeState, 'sequence' | 'sequenceView'>): StepFilter {
  const { heartbeats, admission, events } = s.sequence;
  return { heartbeats, admission, events, hiddenComponents: [...s.sequenceView.hiddenComponents] };
}
