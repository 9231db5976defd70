/**
 * The user controllers as the UI shows them (docs/user-controllers.md): the worker's list of
 * statuses (`TickBatch.controllers`, sent when one changed), kept apart from the main store's
 * slices like the tours' store. The graph draws a card per controller in the control plane,
 * the relay maps its participant to that card, the editor's controller tab shows its state.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { TickBatch } from '../../worker/protocol';
import type { UserControllerStatus } from '../../cluster/user-controller/types';
import { setUserControllerParticipants } from '../graph/participants';

export interface ControllersState {
  list: UserControllerStatus[];
}

const EMPTY: UserControllerStatus[] = [];
export const controllerStore = createStore<ControllersState>()(() => ({ list: EMPTY }));

export function useControllers<T>(selector: (s: ControllersState) => T): T {
  return useStore(controllerStore, selector);
}

/** Folds one worker batch (a reset empties the list until the worker sends it). */
export function receiveControllersBatch(batch: TickBatch): void {
  const next = batch.controllers ?? (batch.reset ? EMPTY : null);
  if (!next) return;
  setUserControllerParticipants(next.filter((c) => c.state === 'running').map((c) => c.name));
  controllerStore.setState({ list: next });
}

/** The status of one controller, or undefined. */
export const selectController = (name: string) => (s: ControllersState) => s.list.find((c) => c.name === name);

/** Names of the running controllers, joined (a stable string for memoized selectors). */
export const selectRunningNames = (s: ControllersState) =>
  s.list
    .filter((c) => c.state === 'running')
    .map((c) => c.name)
    .join(',');
