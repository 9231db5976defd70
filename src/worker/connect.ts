/**
 * connectCluster: starts the cluster worker, wraps it with comlink and hands every batch to
 * the sink the UI gives (its module-level store actions). Owns the worker's lifecycle: when
 * the worker crashes it is terminated and started again (a fresh cluster), up to
 * {@link MAX_RESTARTS} times in a row without a healthy batch in between; the sink's
 * `prepare` restores the persisted session into each new worker before it is subscribed.
 */
import * as Comlink from 'comlink';
import type { ClusterApi, TickBatch } from './protocol';

export type ConnectionStatus = 'starting' | 'ready' | 'restarting' | 'failed';

export interface ClusterSink {
  /**
   * Takes a batch; a returned promise holds the worker's next batch until it settles
   * (back-pressure.ts): resolve it once the batch is folded.
   */
  onBatch(batch: TickBatch): void | Promise<void>;
  onStatus(status: ConnectionStatus, detail?: string): void;
  /**
   * Runs on every new worker before it is subscribed (first start and each restart): the UI
   * restores the persisted session here. `restarted` is true after a crash.
   */
  prepare?(api: Comlink.Remote<ClusterApi>, restarted: boolean): Promise<void>;
}

export interface ClusterConnection {
  /** The current worker's API (replaced after a restart). */
  api(): Comlink.Remote<ClusterApi>;
  /**
   * Terminates the current worker (even a stuck one) and starts a new one: an empty cluster,
   * without the sink's `prepare` (the watchdog's Reset: the saved session may be what is too
   * big). Calls made to the old worker never settle.
   */
  restartFresh(): void;
  dispose(): void;
}

const MAX_RESTARTS = 3;

export function connectCluster(sink: ClusterSink): ClusterConnection {
  let worker: Worker;
  let api: Comlink.Remote<ClusterApi>;
  let failures = 0;
  let disposed = false;

  const start = (fresh = false) => {
    sink.onStatus(failures ? 'restarting' : 'starting');
    worker = new Worker(new URL('./cluster.worker.ts', import.meta.url), { type: 'module', name: 'kube-relay cluster' });
    worker.addEventListener('error', (e) => {
      e.preventDefault(); // handled here: not an uncaught error of the page
      crash(e.message || 'worker error');
    });
    api = Comlink.wrap<ClusterApi>(worker);
    let healthy = false;
    const restarted = failures > 0;
    Promise.resolve(fresh ? undefined : sink.prepare?.(api, restarted))
      .catch((e: unknown) => sink.onStatus(restarted ? 'restarting' : 'starting', `could not restore the session: ${String(e)}`))
      .then(() =>
        api.subscribe(
          Comlink.proxy((batch: TickBatch) => {
            if (!healthy) {
              healthy = true;
              failures = 0;
              sink.onStatus('ready');
            }
            return sink.onBatch(batch);
          }),
        ),
      )
      .catch((e: unknown) => crash(String(e)));
  };

  const crash = (detail: string) => {
    if (disposed) return;
    worker.terminate();
    failures++;
    if (failures > MAX_RESTARTS) {
      sink.onStatus('failed', detail);
      return;
    }
    sink.onStatus('restarting', detail);
    setTimeout(start, 250 * failures);
  };

  start();
  return {
    api: () => api,
    restartFresh() {
      if (disposed) return;
      worker.terminate();
      failures = 0;
      start(true);
    },
    dispose() {
      disposed = true;
      worker.terminate();
    },
  };
}
