/** The last `kubectl apply` from the editor, and the last failed user action. */
import type { StateCreator } from 'zustand/vanilla';
import type { ApplyResult } from '../types';
import type { KubeState } from '../store';

export interface ApplySlice {
  applying: boolean;
  /** Results of the last apply, one per object (null before the first apply). */
  results: ApplyResult[] | null;
  /** An action that failed (kill a missing node, worker error…), shown until the next action. */
  notice: string | null;
}

export const createApplySlice: StateCreator<KubeState, [], [], ApplySlice> = () => ({
  applying: false,
  results: null,
  notice: null,
});
