/**
 * Nothing that came from a link is applied without asking: {@link askToApply} shows the
 * objects a link's manifest would apply (ShareConfirm.tsx) and resolves with the person's
 * answer. Vanilla zustand store, one question at a time.
 */
import { createStore } from 'zustand/vanilla';

/** The question on screen: where the manifest came from and the objects it would apply. */
export interface ApplyQuestion {
  /** "manifest in the link" or the scenario's same-origin address. */
  source: string;
  /** kubectl's names ("deployment.apps/peekcart"), with the namespace, from a dry run. */
  objects: { object: string; namespace: string | null; error?: string }[];
}

interface ConfirmState {
  question: ApplyQuestion | null;
  answer: ((apply: boolean) => void) | null;
}

export const confirmStore = createStore<ConfirmState>(() => ({ question: null, answer: null }));

/** Shows `question`; resolves true when the person chose Apply, false otherwise. */
export function askToApply(question: ApplyQuestion): Promise<boolean> {
  confirmStore.getState().answer?.(false);
  return new Promise((resolve) => {
    confirmStore.setState({
      question,
      answer: (apply) => {
        confirmStore.setState({ question: null, answer: null });
        resolve(apply);
      },
    });
  });
}

/** The person's answer to the question on screen (no-op without one). */
export function answerApply(apply: boolean): void {
  confirmStore.getState().answer?.(apply);
}
