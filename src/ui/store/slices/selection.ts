/** The object open in the inspector, and the relay hop picked in the sequence diagram. */
import type { StateCreator } from 'zustand/vanilla';
import type { KubeState } from '../store';

export interface SelectionSlice {
  /** store key ("Kind/namespace/name") of the object open in the inspector */
  selected: string | null;
  /**
   * seq of the relay hop selected in the sequence diagram; the graph highlights its two
   * participants and the link between them, and the inspector opens the hop's object.
   */
  selectedHop: number | null;
}

export const createSelectionSlice: StateCreator<KubeState, [], [], SelectionSlice> = () => ({ selected: null, selectedHop: null });
