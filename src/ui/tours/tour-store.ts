/**
 * The tours' own small store (vanilla zustand, like the main one): the running tour, the
 * worker's script progress and the `docker run` containers, both from the batches
 * (protocol.ts `script`, `standalone`). Kept apart from the main store's slices so the
 * tours feature stays in one folder.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ScriptStatus, StandaloneContainer, Step, TickBatch } from '../../worker/protocol';

/** A tour split at its narrations: `before` runs on start; `segments[i].after` runs on Next from note i. */
export interface RunningTour {
  id: string;
  title: Record<string, string>;
  before: Step[];
  segments: { note: Record<string, string>; after: Step[] }[];
  /** The narration shown. */
  index: number;
  /** Set while Next's steps run: the narration to show once they are done. */
  waitingFor: number | null;
  /** True until the worker has taken the steps (earlier batches must not end the wait). */
  sending: boolean;
  /** The worker's queueing count of Next's steps: only a batch that counts as many ends the wait
   * (batches are acknowledged one at a time, so one made before the steps can arrive after). */
  awaitEnqueued?: number;
}

export interface TourState {
  listOpen: boolean;
  tour: RunningTour | null;
  script: ScriptStatus | null;
  standalone: StandaloneContainer[];
}

export const tourStore = createStore<TourState>()(() => ({ listOpen: false, tour: null, script: null, standalone: [] }));

export function useTourStore<T>(selector: (s: TourState) => T): T {
  return useStore(tourStore, selector);
}

/** Folds one worker batch: script progress (advancing the tour when its steps are done) and docker containers. */
export function receiveTourBatch(batch: TickBatch): void {
  const patch: Partial<TourState> = {};
  if (batch.standalone) patch.standalone = batch.standalone;
  else if (batch.reset) patch.standalone = [];
  if (batch.script) patch.script = batch.script;
  if (Object.keys(patch).length) tourStore.setState(patch);
  settleTour();
}

/** Shows the next narration once the worker has no queued steps left. */
export function settleTour(): void {
  const { tour, script } = tourStore.getState();
  if (
    tour &&
    !tour.sending &&
    tour.waitingFor !== null &&
    (script?.pending ?? 0) === 0 &&
    (script?.enqueued ?? 0) >= (tour.awaitEnqueued ?? 0)
  ) {
    tourStore.setState({ tour: { ...tour, index: tour.waitingFor, waitingFor: null } });
  }
}

/** Splits scenario steps at their `note` steps. */
export function splitTour(steps: Step[]): Pick<RunningTour, 'before' | 'segments'> {
  const before: Step[] = [];
  const segments: RunningTour['segments'] = [];
  for (const s of steps) {
    if (s.kind === 'note') segments.push({ note: s.text, after: [] });
    else (segments.at(-1)?.after ?? before).push(s);
  }
  return { before, segments };
}

/** The narration in `lang`, else English, else the first one there is. */
export function noteText(note: Record<string, string>, lang: string): string {
  return note[lang] ?? note[lang.split('-')[0]] ?? note.en ?? Object.values(note)[0] ?? '';
}
