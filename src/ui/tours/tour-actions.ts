/**
 * Starting, stepping and leaving a tour. Start: the worker parses the file, the cluster is
 * reset, the screen is the tour's own (the relay's default view and filters, no apply results
 * or kubectl output, the tour's manifest in an editor tab of its own), the steps before the
 * first narration run. Next: the clock plays and the steps after the current narration run
 * on the live cluster (time steps wait at the current speed); the worker pauses the clock the
 * moment they are done (`pauseWhenDone`), so a narration waits for the reader with the
 * cluster exactly as it describes it; it shows once the worker reports no queued steps
 * (tour-store.ts).
 */
import { cluster } from '../cluster-client';
import { kubeStore } from '../store/store';
import { DEFAULT_SEQUENCE_OPTIONS } from '../../cluster/relay/sequence/to-mermaid';
import { DEFAULT_SEQUENCE_VIEW } from '../../cluster/relay/sequence/window';
import { activateTab, newTab, setTabText, tabsStore } from '../editor/editor-bridge';
import type { Step } from '../../worker/protocol';
import { settleTour, splitTour, tourStore } from './tour-store';
import { TOURS } from './catalog';

/** The screen a tour starts from: default relay view and filters, no results, no kubectl output, its manifest in the editor. */
function resetScreenFor(id: string, steps: Step[]): void {
  kubeStore.setState({
    sequence: { ...DEFAULT_SEQUENCE_OPTIONS, pinned: false },
    sequenceView: DEFAULT_SEQUENCE_VIEW,
    results: null,
    notice: null,
    kubectlLast: null,
    selected: null,
    selectedHop: null,
  });
  const manifest = steps.find((s): s is Extract<Step, { kind: 'apply' }> => s.kind === 'apply')?.manifest;
  if (manifest === undefined) return;
  const name = `tour-${id}.yaml`;
  const tab = tabsStore.getState().tabs.find((t) => t.name === name);
  if (tab) {
    setTabText(tab.id, manifest);
    activateTab(tab.id);
  } else newTab(name, manifest);
}

/** The worker has the steps: from now on a batch with nothing queued ends the wait. */
function sent(enqueued: number | null): void {
  const { tour } = tourStore.getState();
  if (tour?.sending) tourStore.setState({ tour: { ...tour, sending: false, awaitEnqueued: enqueued ?? undefined } });
  settleTour();
}

export function openTourList(open: boolean): void {
  tourStore.setState({ listOpen: open });
}

export async function startTour(id: string): Promise<void> {
  const file = TOURS.find((t) => t.id === id);
  if (!file) return;
  const parsed = await cluster.parseTour(file.text);
  await cluster.cancelScenarioSteps();
  await cluster.reset();
  resetScreenFor(id, parsed.scenario.steps);
  await cluster.play();
  const { before, segments } = splitTour(parsed.scenario.steps);
  tourStore.setState({
    listOpen: false,
    tour: { id, title: parsed.title, before, segments, index: 0, waitingFor: segments.length ? 0 : null, sending: true },
  });
  sent(await cluster.runScenarioSteps(before, { pauseWhenDone: segments.length > 0 }));
}

/** Runs the steps after the current narration; false when there are none left. */
export async function nextTourStep(): Promise<boolean> {
  const { tour, script } = tourStore.getState();
  if (!tour || tour.waitingFor !== null || (script?.pending ?? 0) > 0) return false;
  const seg = tour.segments[tour.index];
  if (!seg || (tour.index >= tour.segments.length - 1 && !seg.after.length)) return false;
  const next = Math.min(tour.index + 1, tour.segments.length);
  tourStore.setState({ tour: { ...tour, waitingFor: next, sending: true } });
  await cluster.play();
  // the last narration's steps run to the end, then the cluster keeps playing
  sent(await cluster.runScenarioSteps(seg.after, { pauseWhenDone: next < tour.segments.length }));
  return true;
}

/** Runs the rest of the current steps at once (no waiting on the clock). */
export async function fastForwardTour(): Promise<void> {
  await cluster.finishScenarioSteps();
  settleTour();
}

export async function exitTour(): Promise<void> {
  tourStore.setState({ tour: null });
  await cluster.cancelScenarioSteps();
}
