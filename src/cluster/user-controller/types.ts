/**
 * The messages between a user controller's engine side (controller.ts) and the sandbox that
 * runs the learner's `reconcile(request, client)` (docs/user-controllers.md). Everything here is
 * plain JSON (structured-clone safe): the sandbox sees the engine only through these requests,
 * never an object of the engine.
 *
 * The engine side owns the informers and the work queue and decides when to reconcile; the
 * sandbox answers one {@link ReconcileCall} at a time, calling back {@link SandboxHost.call}
 * for every client request, and ends with {@link SandboxHost.done}. A sandbox may answer
 * synchronously (headless: node's `vm`, src/cli/controller-vm.ts) or later (the browser's Web
 * Worker, src/worker/controller-sandbox.ts); while the answer is outstanding the engine holds the
 * simulated clock (sim/clock.ts `hold`).
 */
import type { KObject } from '../api/types';

/** What the learner started: a name, the source and what it watches. */
export interface UserControllerSpec {
  /** DNS-1123 label; the relay participant, the Event source and the ServiceAccount name. */
  name: string;
  /** The source as written (TypeScript or JavaScript), shown again after a reload. */
  source: string;
  /**
   * The JavaScript the sandbox runs: `source` with its types stripped (the editor compiles a
   * TypeScript tab; headless, src/cli/controller-vm.ts does). Defaults to `source`.
   */
  code?: string;
  /** The kind reconciled, as kubectl names a resource (`websites.demo.kube-relay.dev`, `deployments.apps`); default: the `+kube-relay:for=` marker. */
  for?: string;
  /** Kinds it owns (changes to them enqueue their controller owner); default: the `+kube-relay:owns=` markers. */
  owns?: string[];
}

/** The request controller-runtime hands to Reconcile, plus the simulated time. */
export interface ReconcileRequest {
  namespace: string;
  name: string;
  /** Simulated now, RFC 3339 (metav1.Time precision). */
  now: string;
}

/** One reconcile the engine asks the sandbox to run. */
export interface ReconcileCall {
  /** Increases with every call of one controller; answers carry it back. */
  id: number;
  controller: string;
  code: string;
  request: ReconcileRequest;
}

/** A reference to one object, as the client's `get` and `delete` take it. */
export interface ObjectKey {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** A client request from the sandbox (the learner's `client.get(...)`, `client.create(...)`…). */
export type ClientRequest =
  | { op: 'get'; key: ObjectKey }
  | { op: 'list'; apiVersion: string; kind: string; namespace?: string; labelSelector?: string }
  | { op: 'create'; object: KObject }
  | { op: 'update'; object: KObject }
  | { op: 'updateStatus'; object: KObject }
  | { op: 'patch'; key: ObjectKey; patchType: 'merge' | 'json' | 'strategic'; patch: unknown }
  | { op: 'delete'; key: ObjectKey; propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' }
  | { op: 'event'; object: ObjectKey & { uid?: string }; type: 'Normal' | 'Warning'; reason: string; message: string };

/** A failed request: the apiserver's Status, as the learner's `catch (err)` sees it. */
export interface ClientError {
  code: number;
  reason: string;
  message: string;
}

/** The answer to a {@link ClientRequest}. */
export type ClientResponse = { ok: true; value: unknown } | { ok: false; error: ClientError };

/**
 * How a reconcile ended: `result` carries what `reconcile` returned (JSON; controller.ts reads
 * `requeue` and `requeueAfter` from it), `error` what it threw, `timeout` the limit it ran past.
 */
export type ReconcileOutcome =
  { kind: 'result'; value: unknown } | { kind: 'error'; message: string } | { kind: 'timeout'; limitMs: number };

/** The engine's side of one reconcile, handed to the sandbox. */
export interface SandboxHost {
  /** Runs a client request against the apiserver now (simulated time is held). */
  call(req: ClientRequest): ClientResponse;
  /** Ends the reconcile; later calls of this host are ignored. */
  done(outcome: ReconcileOutcome): void;
}

/** Runs the learner's code: headless in node's vm, in the browser in a Web Worker. */
export interface ReconcileSandbox {
  /** Runs one reconcile; may call `host.done` before returning (a synchronous sandbox) or later. */
  reconcile(call: ReconcileCall, host: SandboxHost): void;
  /** Frees the sandbox (the controller stopped). */
  dispose(): void;
}

/** Builds a sandbox for a controller (each controller gets its own). */
export type SandboxFactory = (controller: string) => ReconcileSandbox;

/** The wall-time limit of one reconcile, ms: past it the sandbox is ended and recreated. */
export const RECONCILE_CPU_LIMIT_MS = 1000;

/** What the UI shows of a running controller (the component card and its inspector). */
export interface UserControllerStatus {
  name: string;
  /** Resolved `for` kind, as kubectl names it (`websites.demo.kube-relay.dev`). */
  for: string;
  owns: string[];
  state: 'running' | 'stopped' | 'failed';
  /** Keys waiting in the work queue (not counting the one in progress). */
  queueDepth: number;
  /** The key being reconciled, or null. */
  inFlight: string | null;
  reconciles: number;
  errors: number;
  /** The last error: simulated ms since the epoch, the key and the message; null after a success. */
  lastError: { at: number; key: string; message: string } | null;
  /** Why it could not start (unknown kind, no reconcile marker), when `state` is failed. */
  startError?: string;
  source: string;
}
