/** The kubectl bar's last command and its output; the theme and the help overlay. */
import type { StateCreator } from 'zustand/vanilla';
import type { KubectlResult } from '../types';
import type { KubeState } from '../store';

export type Theme = 'light' | 'dark';

export interface ConsoleSlice {
  kubectlRunning: boolean;
  /** The last command run from the kubectl bar and what kubectl printed. */
  kubectlLast: { line: string; result: KubectlResult } | null;
  theme: Theme;
  helpOpen: boolean;
}

export const createConsoleSlice: StateCreator<KubeState, [], [], ConsoleSlice> = () => ({
  kubectlRunning: false,
  kubectlLast: null,
  theme: 'light',
  helpOpen: false,
});
