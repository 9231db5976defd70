/**
 * The UI's handle on the cluster worker: connects once, feeds the store, and offers the
 * commands the panels call. A failed command becomes the store's `notice`.
 */
import { connectCluster, type ClusterConnection } from '../worker/connect';
import { applyFailed, applyFinished, applyStarted, receiveBatch, setConnection, setNotice } from './store/actions';

let connection: ClusterConnection | null = null;

/** Starts the worker (idempotent). */
export function startCluster(): void {
  connection ??= connectCluster({ onBatch: receiveBatch, onStatus: setConnection });
}

function api() {
  startCluster();
  return connection!.api();
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function run(fn: () => Promise<unknown>): Promise<void> {
  setNotice(null);
  try {
    await fn();
  } catch (e) {
    setNotice(errorText(e));
  }
}

export const cluster = {
  async apply(text: string): Promise<void> {
    applyStarted();
    try {
      applyFinished(await api().apply(text));
    } catch (e) {
      applyFailed(`error: ${errorText(e)}`);
    }
  },
  play: () => run(() => api().play()),
  pause: () => run(() => api().pause()),
  setSpeed: (speed: number) => run(() => api().setSpeed(speed)),
  step: () => run(() => api().step()),
  killNode: (name: string) => run(() => api().killNode(name)),
  restoreNode: (name: string) => run(() => api().restoreNode(name)),
  addNode: () => run(() => api().addNode()),
  deletePod: (namespace: string, name: string) => run(() => api().deletePod(namespace, name)),
  reset: () => run(() => api().reset()),
};
