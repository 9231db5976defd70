/**
 * Module-level actions (zustand's "practice with no store actions"): the worker bridge and
 * components call these; none needs a hook.
 */
import type { TickBatch } from '../../worker/protocol';
import type { ConnectionStatus } from '../../worker/connect';
import { kubeStore, type KubeState } from './store';
import type { ApplyResult, KubectlResult } from './types';
import { createReplay } from '../timeline/replay';
import { TRAFFIC_FLIGHT_MS, type TrafficFlight } from './slices/traffic';
import { createBatchPump } from './batch-pump';
import { mergeBatches } from './merge-batches';
import { internBatch } from './intern-batch';

/** The app's timeline: batches fold through it so past moments can be replayed. */
const replay = createReplay(kubeStore);

/**
 * Batches reach the store at most once per animation frame, spaced by their cost
 * (batch-pump.ts), merged so the store reduces them once per update (merge-batches.ts).
 */
const pump = createBatchPump((batches) => replay.receiveAll(mergeBatches(batches)));

/** Queues a worker batch; resolves once the store folded it (the worker's back-pressure waits for that). */
export function receiveBatch(batch: TickBatch): Promise<void> {
  internBatch(batch); // one copy of each repeated string of its Events and hops (intern-batch.ts)
  return pump.push(batch);
}

/** Shows the cluster as it was at `simMs` (the timeline slider). */
export function scrubTo(simMs: number): void {
  replay.scrubTo(simMs);
}

export function goLive(): void {
  replay.goLive();
}

export function kubectlStarted(): void {
  kubeStore.setState({ kubectlRunning: true });
}

export function kubectlFinished(line: string, result: KubectlResult): void {
  kubeStore.setState({ kubectlRunning: false, kubectlLast: { line, result } });
}

export function setTheme(theme: KubeState['theme']): void {
  kubeStore.setState({ theme });
}

export function setHelpOpen(helpOpen: boolean): void {
  kubeStore.setState({ helpOpen });
}

export function setConnection(connection: ConnectionStatus, detail?: string): void {
  kubeStore.setState({ connection, connectionDetail: detail ?? null });
}

export function select(key: string | null): void {
  kubeStore.setState({ selected: key });
}

export function applyStarted(): void {
  kubeStore.setState({ applying: true, notice: null });
}

export function applyFinished(results: ApplyResult[]): void {
  kubeStore.setState({ applying: false, results });
}

export function applyFailed(message: string): void {
  kubeStore.setState({
    applying: false,
    results: [{ object: '', namespace: null, action: 'error', message, warnings: [], documentIndex: 0, line: 1 }],
  });
}

export function setNotice(notice: string | null): void {
  kubeStore.setState({ notice });
}

export function setSequenceOptions(patch: Partial<KubeState['sequence']>): void {
  kubeStore.setState((s) => ({ sequence: { ...s.sequence, ...patch } }));
}

let nextFlightId = 1;

/** Appends traffic flights for the graph's animation (ids assigned here, increasing per page). */
export function pushFlights(flights: readonly Omit<TrafficFlight, 'id'>[]): void {
  if (!flights.length) return;
  const added = flights.map((f) => ({ ...f, id: nextFlightId++ }));
  kubeStore.setState((s) => ({ flights: [...s.flights, ...added] }));
}

/** Drops flights started more than {@link TRAFFIC_FLIGHT_MS} before `nowWallMs` (performance.now()). */
export function expireFlights(nowWallMs: number): void {
  const { flights } = kubeStore.getState();
  const kept = flights.filter((f) => nowWallMs - f.startedWallMs <= TRAFFIC_FLIGHT_MS);
  if (kept.length !== flights.length) kubeStore.setState({ flights: kept });
}
