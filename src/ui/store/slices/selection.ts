/** The object open in the inspector. */
import type { StateCreator } from 'zustand/vanilla';
import type { KubeState } from '../store';

export interface SelectionSlice {
  selected: string | null;
}

export const createSelectionSlice: StateCreator<KubeState, [], [], SelectionSlice> = () => ({ selected: null });
