/**
 * The UI's handle on the cluster worker: connects once, feeds the store, and offers the
 * commands the panels call. A failed command becomes the store's `notice`.
 */
import { connectCluster, type ClusterConnection } from '../worker/connect';
import { applyFailed, applyFinished, applyStarted, kubectlFinished, kubectlStarted, receiveBatch, setConnection, setNotice } from './store/actions';
import type { SchedulingDecision } from './store/types';
import type { Remote } from 'comlink';
import type { ApplyResult, ClusterApi, DiffOutput, EditorMarker, SessionLog } from '../worker/protocol';

let connection: ClusterConnection | null = null;

/**
 * Restores the persisted session into each new worker (persistence/session.ts installs it
 * before the cluster starts); after a crash it gets `restarted: true`.
 */
let restore: ((api: Remote<ClusterApi>, restarted: boolean) => Promise<void>) | null = null;
export function setSessionRestorer(fn: typeof restore): void {
  restore = fn;
}

let readyResolve: () => void = () => {};
/** Resolves once the first worker has restored its session and sent its first batch. */
export const clusterReady: Promise<void> = new Promise((r) => (readyResolve = r));

/** Starts the worker (idempotent). */
export function startCluster(): void {
  connection ??= connectCluster({
    onBatch: receiveBatch,
    onStatus: (status, detail) => {
      setConnection(status, detail);
      if (status === 'ready') readyResolve();
    },
    prepare: (api, restarted) => restore?.(api, restarted) ?? Promise.resolve(),
  });
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
  removeNode: (name: string) => run(() => api().removeNode(name)),
  setImageMissing: (image: string, missing: boolean) => run(() => api().setImageMissing(image, missing)),
  missingImages: (): Promise<string[]> => api().missingImages().catch(() => []),
  deletePod: (namespace: string, name: string) => run(() => api().deletePod(namespace, name)),
  reset: () => run(() => api().reset()),
  /** Server-side dry run of editor text (changes nothing); null when the worker is not there. */
  dryRun: (text: string): Promise<{ results: ApplyResult[]; markers: EditorMarker[] } | null> => api().dryRun(text).catch(() => null),
  /** Editor markers for the results of an apply of `text`. */
  markers: (text: string, results: ApplyResult[]): Promise<EditorMarker[]> => api().markers(text, results).catch(() => []),
  diff: (text: string): Promise<DiffOutput> => api().diff(text),
  exportState: (): Promise<SessionLog> => api().exportState(),
  importState: (log: SessionLog): Promise<void> => api().importState(log),
  /** Test only (e2e crash recovery). */
  crash: (): Promise<void> => api().__crash(),
  /** Runs a kubectl command line in the worker; the output lands in the store (kubectl bar). */
  async kubectl(line: string): Promise<void> {
    kubectlStarted();
    try {
      kubectlFinished(line, await api().kubectl(line));
    } catch (e) {
      kubectlFinished(line, { output: '', error: `error: ${errorText(e)}\n`, exitCode: 1 });
    }
  },
  schedulingDecision: (namespace: string, name: string): Promise<SchedulingDecision | null> => api().schedulingDecision(namespace, name),
  proxyRules: (node: string): Promise<string | null> => api().proxyRules(node),
};
