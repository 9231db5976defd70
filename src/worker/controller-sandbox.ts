/**
 * The browser's sandbox of user controllers (docs/user-controllers.md#in-the-browser): each
 * controller gets a Web Worker of its own (controller-sandbox.worker.ts), started by the
 * cluster worker. The engine reaches it only by messages:
 *
 *   cluster worker → sandbox: `{type: 'reconcile', id, code, request}`, `{type: 'answer', id, seq, response}`
 *   sandbox → cluster worker: `{type: 'ready'}` once (its globals are locked down),
 *                             `{type: 'call', id, seq, request}` (a client request, JSON text),
 *                             `{type: 'done', id, outcome}`
 *
 * The CPU limit counts from the moment the reconcile is posted to a ready worker: a new
 * worker's start (loading its script, which a busy machine may take seconds for) is not the
 * learner's code.
 *
 * Messages of another reconcile than the current one, or of a shape it does not know, are
 * dropped: a forged message can do no more than the client can. Past the CPU limit (wall ms
 * from the reconcile's start) the worker is terminated and the next reconcile gets a new one.
 */
import {
  RECONCILE_CPU_LIMIT_MS,
  type ClientRequest,
  type ReconcileCall,
  type ReconcileOutcome,
  type ReconcileSandbox,
  type SandboxFactory,
  type SandboxHost,
} from '../cluster/user-controller/types';

/** What the sandbox needs of a Worker (tests pass a fake). */
export interface SandboxPort {
  postMessage(msg: unknown): void;
  onmessage: ((e: { data: unknown }) => void) | null;
  onerror?: ((e: unknown) => void) | null;
  terminate(): void;
}

/** Wall-clock timers (the worker's setTimeout; tests inject their own). */
export interface SandboxTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A {@link SandboxFactory} of Web Workers made by `create` (a new one after each timeout). */
export function workerSandboxFactory(
  create: (name: string) => SandboxPort,
  timers: SandboxTimers,
  limitMs = RECONCILE_CPU_LIMIT_MS,
): SandboxFactory {
  return (name) => new WorkerSandbox(() => create(name), timers, limitMs);
}

function isOutcome(o: unknown): o is ReconcileOutcome {
  if (!o || typeof o !== 'object') return false;
  const k = (o as { kind?: unknown }).kind;
  return (k === 'result' && 'value' in o) || (k === 'error' && typeof (o as { message?: unknown }).message === 'string');
}

export class WorkerSandbox implements ReconcileSandbox {
  private port: SandboxPort | null = null;
  private ready = false;
  private current: { id: number; host: SandboxHost; timer: unknown; call: ReconcileCall } | null = null;

  constructor(
    private readonly create: () => SandboxPort,
    private readonly timers: SandboxTimers,
    private readonly limitMs: number,
  ) {}

  private ensure(): SandboxPort {
    if (this.port) return this.port;
    const port = this.create();
    this.ready = false;
    port.onmessage = (e) => this.onMessage(port, e.data);
    // a worker that fails to load or dies: the reconcile in flight is an error, a new worker next time
    port.onerror = () => {
      if (this.port !== port) return;
      this.port = null;
      port.terminate();
      this.end({ kind: 'error', message: 'the sandbox worker failed' });
    };
    return (this.port = port);
  }

  reconcile(call: ReconcileCall, host: SandboxHost): void {
    const port = this.ensure();
    this.current = { id: call.id, host, timer: null, call };
    if (this.ready) this.post(port);
  }

  /** Posts the current reconcile and starts its CPU limit. */
  private post(port: SandboxPort): void {
    const cur = this.current;
    if (!cur || cur.timer !== null) return;
    cur.timer = this.timers.setTimeout(() => this.timeout(cur.id), this.limitMs);
    port.postMessage({ type: 'reconcile', id: cur.id, code: cur.call.code, request: cur.call.request });
  }

  private onMessage(port: SandboxPort, data: unknown): void {
    if (port !== this.port || !data || typeof data !== 'object') return;
    const m = data as { type?: unknown; id?: unknown; seq?: unknown; request?: unknown; outcome?: unknown };
    if (m.type === 'ready' && !this.ready) {
      this.ready = true;
      this.post(port);
      return;
    }
    const cur = this.current;
    if (!cur || cur.timer === null) return;
    if (m.id !== cur.id) return;
    if (m.type === 'call' && typeof m.seq === 'number' && typeof m.request === 'string') {
      let req: ClientRequest;
      try {
        req = JSON.parse(m.request) as ClientRequest;
      } catch {
        return;
      }
      const response = JSON.stringify(cur.host.call(req));
      port.postMessage({ type: 'answer', id: cur.id, seq: m.seq, response });
    } else if (m.type === 'done' && isOutcome(m.outcome)) {
      this.end(m.outcome);
    }
  }

  private end(outcome: ReconcileOutcome): void {
    const cur = this.current;
    if (!cur) return;
    this.current = null;
    if (cur.timer !== null) this.timers.clearTimeout(cur.timer);
    cur.host.done(outcome);
  }

  private timeout(id: number): void {
    if (this.current?.id !== id) return;
    this.port?.terminate();
    this.port = null;
    this.end({ kind: 'timeout', limitMs: this.limitMs });
  }

  dispose(): void {
    const cur = this.current;
    this.current = null;
    if (cur && cur.timer !== null) this.timers.clearTimeout(cur.timer);
    this.port?.terminate();
    this.port = null;
  }
}
