/**
 * The UI's handle on the cluster worker: connects once, feeds the store, and offers the
 * commands the panels call. A failed command becomes the store's `notice`.
 */
import { connectCluster, type ClusterConnection } from '../worker/connect';
import {
  applyFailed,
  applyFinished,
  applyStarted,
  kubectlFinished,
  kubectlStarted,
  receiveBatch,
  setConnection,
  setNotice,
} from './store/actions';
import type { SchedulingDecision } from './store/types';
import type { Remote } from 'comlink';
import type { ActingAs, ApplyResult, ClusterApi, DiffOutput, EditorMarker, SessionLog } from '../worker/protocol';
import type { DnsLookupResult, TrafficRequest, TrafficResult, WorkloadLoad } from '../worker/protocol';

import { receiveTourBatch } from './tours/tour-store';
import { receiveControllersBatch } from './controllers/controller-store';
import { receiveActingAsBatch } from './kubectl/acting-as';
import { kubeStore } from './store/store';
import { stepFilterOf } from './timeline/step-filter';
import i18n from 'i18next';
import { startAttach, type AttachHandle } from './attach/attach-client';
import { engineStore, engineTarget } from './attach/engine';
import type { ParsedTour, PodContainerServes, Step } from '../worker/protocol';
import type { UserControllerSpec, UserControllerStatus } from '../cluster/user-controller/types';
import { createWatchdog, type Watchdog } from './watchdog/watchdog';
import { watchdogStore } from './watchdog/watchdog-store';
import { acknowledgeAfter } from './store/back-pressure';

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

// ---- attached to an API server instead of the worker (ui/attach, issue 9 §4) ----
/** The API base the page is attached to (null: the in-browser engine). */
const attachBase = engineStore.getState().base;
let attachment: AttachHandle | null = null;

/** What a worker-only command says while attached. */
function attachedOnly(what: string): Error {
  return new Error(i18n.t('attach.unavailable', { what, engine: engineTarget(engineStore.getState()) }));
}

function startAttached(base: string): void {
  if (attachment) return;
  document.documentElement.dataset.engine = 'attached';
  // an API server's relay carries no user actions to tell the story of: follow the newest hops
  kubeStore.setState((s) => (s.sequenceView.mode === 'action' ? { sequenceView: { ...s.sequenceView, mode: 'last' } } : {}));
  attachment = startAttach({
    base,
    onBatch: (b) => receiveBatch(b),
    onStatus: (status, detail) => {
      setConnection(status, detail);
      if (status === 'ready') readyResolve();
    },
    onInfo: (info) => engineStore.setState({ info }),
  });
}

/** Starts the worker (idempotent). */
export function startCluster(): void {
  if (attachBase) return startAttached(attachBase);
  connection ??= connectCluster({
    onBatch: (b) => {
      const folded = receiveBatch(b);
      receiveTourBatch(b);
      receiveControllersBatch(b);
      receiveActingAsBatch(b);
      return acknowledgeAfter(folded, b); // the worker sends the next batch once this one is folded (store/back-pressure.ts)
    },
    onStatus: (status, detail) => {
      setConnection(status, detail);
      if (status === 'ready') readyResolve();
    },
    prepare: (api, restarted) => restore?.(api, restarted) ?? Promise.resolve(),
  });
  // a worker that stops answering is noticed (ui/watchdog): the banner offers Pause and Reset
  watchdog ??= createWatchdog(
    () => connection!.api().ping(),
    (stuck, sinceMs) => watchdogStore.setState({ stuck, sinceMs }),
  );
}

let watchdog: Watchdog | null = null;

/** The watchdog's Reset: a new worker with an empty cluster in place of the stuck one. */
export function restartWorkerFresh(): void {
  if (!connection) return;
  connection.restartFresh();
  watchdog?.reset();
}

/** While attached, every worker call rejects with {@link attachedOnly} (never throws synchronously). */
const attachedApi = new Proxy({}, { get: (_t, name) => () => Promise.reject(attachedOnly(String(name))) }) as Remote<ClusterApi>;

function api() {
  if (attachBase) return attachedApi;
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
  /** `kubectl apply -k DIR` of the editor's tabs (path → text); the results land in the store like `apply`. */
  async applyKustomize(files: Record<string, string>, dir: string): Promise<void> {
    applyStarted();
    try {
      applyFinished(await api().applyKustomize(files, dir));
    } catch (e) {
      applyFailed(`error: ${errorText(e)}`);
    }
  },
  /** `kubectl kustomize DIR` of the editor's tabs (read-only). */
  kustomizeBuild: (files: Record<string, string>, dir: string): Promise<{ stdout: string; stderr: string; code: number }> =>
    api().kustomizeBuild(files, dir),
  play: () => run(() => api().play()),
  pause: () => run(() => api().pause()),
  setSpeed: (speed: number) => run(() => api().setSpeed(speed)),
  /** One hop of what the relay view shows (its folds and component filter), see ClusterApi.step. */
  step: () => run(() => api().step(stepFilterOf(kubeStore.getState()))),
  /** Runs simulated time instantly until the cluster is quiet, past the next deadline. */
  fastForward: () => run(() => api().fastForward()),
  killNode: (name: string) => run(() => (attachment ? attachment.setPower(name, 'Off') : api().killNode(name))),
  restoreNode: (name: string) => run(() => (attachment ? attachment.setPower(name, 'On') : api().restoreNode(name))),
  addNode: () => run(() => api().addNode()),
  removeNode: (name: string) => run(() => api().removeNode(name)),
  setImageMissing: (image: string, missing: boolean) => run(() => api().setImageMissing(image, missing)),
  missingImages: (): Promise<string[]> =>
    api()
      .missingImages()
      .catch(() => []),
  deletePod: (namespace: string, name: string) =>
    run(() => (attachment ? attachment.deletePod(namespace, name) : api().deletePod(namespace, name))),
  reset: () => run(() => api().reset()),
  /** "Acting as" (kubectl/ActingAsSwitcher.tsx): later requests impersonate `as`; null: the admin again. */
  setActingAs: (as: ActingAs | null) => run(() => api().setActingAs(as)),
  setControlPlaneReplicas: (replicas: number) => run(() => api().setControlPlaneReplicas(replicas)),
  /** Server-side dry run of editor text (changes nothing); null when the worker is not there. */
  dryRun: (text: string): Promise<{ results: ApplyResult[]; markers: EditorMarker[] } | null> =>
    api()
      .dryRun(text)
      .catch(() => null),
  /** Editor markers for the results of an apply of `text`. */
  markers: (text: string, results: ApplyResult[]): Promise<EditorMarker[]> =>
    api()
      .markers(text, results)
      .catch(() => []),
  diff: (text: string): Promise<DiffOutput> => api().diff(text),
  exportState: (): Promise<SessionLog> => api().exportState(),
  importState: (log: SessionLog): Promise<void> => api().importState(log),
  /** Starts a user controller (or restarts it after an edit); resolves to the reason when it could not start. */
  startController: (spec: UserControllerSpec): Promise<{ status?: UserControllerStatus; error?: string }> => api().startController(spec),
  stopController: (name: string): Promise<void> => api().stopController(name),
  /** Test only (e2e crash recovery). */
  crash: (): Promise<void> => api().__crash(),
  /** Test only (e2e watchdog): the worker busy-loops for `ms` wall ms. */
  hang: (ms: number): Promise<void> => api().__hang(ms),
  /** Runs a kubectl command line in the worker; the output lands in the store (kubectl bar). */
  async kubectl(line: string): Promise<void> {
    kubectlStarted();
    try {
      kubectlFinished(line, await api().kubectl(line));
    } catch (e) {
      kubectlFinished(line, { output: '', error: `error: ${errorText(e)}\n`, exitCode: 1 });
    }
  },
  /** What the kubectl bar's `get -w` session printed since the last poll (`open: false` once it ended). */
  kubectlWatchPoll: (id: number): Promise<{ output: string; open: boolean }> =>
    api()
      .kubectlWatchPoll(id)
      .catch(() => ({ output: '', open: false })),
  /** ^C/Esc in the kubectl bar: stops its `get -w` session. */
  kubectlWatchStop: (id: number): Promise<void> =>
    api()
      .kubectlWatchStop(id)
      .catch(() => {}),
  schedulingDecision: (namespace: string, name: string): Promise<SchedulingDecision | null> => api().schedulingDecision(namespace, name),
  /** `kubectl get -o yaml` printing of each value, by the engine's printer in the worker. */
  printYAML: (values: unknown[]): Promise<string[]> => api().printYAML(values),
  proxyRules: (node: string): Promise<string | null> => api().proxyRules(node),
  /** What each container of a Pod listens on, known or assumed (the Pod inspector's note). */
  podServes: (namespace: string, name: string): Promise<PodContainerServes[]> => api().podServes(namespace, name),
  // tours (ui/tours): the worker parses tour files and plays their steps on the live cluster
  parseTour: (text: string): Promise<ParsedTour> => api().parseTour(text),
  /** @returns the worker's queueing count after these steps (ScriptStatus.enqueued), or null when the call failed */
  async runScenarioSteps(steps: Step[], opts?: { pauseWhenDone?: boolean }): Promise<number | null> {
    let n: number | null = null;
    await run(async () => {
      n = await api().runScenarioSteps(steps, opts);
    });
    return n;
  },
  finishScenarioSteps: () => run(() => api().finishScenarioSteps()),
  cancelScenarioSteps: () => run(() => api().cancelScenarioSteps()),
  /** `nslookup name` from a Pod in `fromNamespace` (Network panel); rejects with the worker's error. */
  dnsLookup: (name: string, fromNamespace: string): Promise<DnsLookupResult> => api().dnsLookup(name, fromNamespace),
  /** Sends a batch of requests (traffic generator); rejects with the worker's error. */
  sendRequests: (request: TrafficRequest): Promise<TrafficResult[]> => api().sendRequests(request),
  /** Sets a workload's simulated CPU load (feeds metrics-server → HPA). */
  setLoad: (load: WorkloadLoad) => run(() => api().setLoad(load)),
  /** The loads set so far (empty when the worker is not there). */
  loads: (): Promise<WorkloadLoad[]> =>
    api()
      .loads()
      .catch(() => []),
};
