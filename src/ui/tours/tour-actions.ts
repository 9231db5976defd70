/**
 * Starting, stepping and leaving a tour. Start: the worker parses the file, the cluster is
 * reset and plays, the steps before the first narration run. Next: the steps after the
 * current narration run on the live cluster (time steps wait at the current speed); the
 * next narration shows once the worker reports no queued steps (tour-store.ts).
 */
import { cluster } from '../cluster-client';
import { settleTour, splitTour, tourStore } from './tour-store';
import { TOURS } from './catalog';

/** The worker has the steps: from now on a batch with nothing queued ends the wait. */
function sent(): void {
  const { tour } = tourStore.getState();
  if (tour?.sending) tourStore.setState({ tour: { ...tour, sending: false } });
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
  await cluster.play();
  const { before, segments } = splitTour(parsed.scenario.steps);
  tourStore.setState({ listOpen: false, tour: { id, title: parsed.title, before, segments, index: 0, waitingFor: segments.length ? 0 : null, sending: true } });
  await cluster.runScenarioSteps(before);
  sent();
}

/** Runs the steps after the current narration; false when there are none left. */
export async function nextTourStep(): Promise<boolean> {
  const { tour, script } = tourStore.getState();
  if (!tour || tour.waitingFor !== null || (script?.pending ?? 0) > 0) return false;
  const seg = tour.segments[tour.index];
  if (!seg || tour.index >= tour.segments.length - 1 && !seg.after.length) return false;
  const next = Math.min(tour.index + 1, tour.segments.length);
  tourStore.setState({ tour: { ...tour, waitingFor: next, sending: true } });
  await cluster.play();
  await cluster.runScenarioSteps(seg.after);
  sent();
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
