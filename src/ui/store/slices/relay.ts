/** Relay hops (a capped ring for the sequence diagram) and the pulses they send along graph links. */
import type { StateCreator } from 'zustand/vanilla';
import type { Pulse, RelayHop } from '../types';
import type { ActionStory } from '../../../worker/protocol';
import type { KubeState } from '../store';
import { DEFAULT_SEQUENCE_OPTIONS, type SequenceOptions } from '../../../cluster/relay/sequence/to-mermaid';
import { DEFAULT_SEQUENCE_VIEW, type SequenceView } from '../../../cluster/relay/sequence/window';

/** Hops the UI keeps; older ones drop off the front, but the story's first ones (cluster/relay/sequence/story-keep.ts). */
export const RELAY_CAP = 3_000;

export interface RelaySlice {
  hops: RelayHop[];
  /** Latest hop per graph link id (see graph/participants.ts). */
  pulses: Record<string, Pulse>;
  /** Sequence-diagram view options; `pinned` starts the diagram at the latest apply. */
  sequence: SequenceOptions & { pinned: boolean };
  /** seq of the first hop of the latest apply. */
  applySeq: number | null;
  /** The diagram's window (last N hops / one reconciliation / one object's story) and filters. */
  sequenceView: SequenceView;
  /** The latest user action that wrote to the cluster: the default view tells its story (sequence/story.ts). */
  story: ActionStory | null;
  /** How many hops the worker counts in {@link story} (TickBatch.storyCount); null when not told. */
  storyCount: number | null;
}

export const createRelaySlice: StateCreator<KubeState, [], [], RelaySlice> = () => ({
  hops: [],
  pulses: {},
  sequence: { ...DEFAULT_SEQUENCE_OPTIONS, pinned: false },
  applySeq: null,
  sequenceView: DEFAULT_SEQUENCE_VIEW,
  story: null,
  storyCount: null,
});
