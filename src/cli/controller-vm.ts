/**
 * The headless sandbox of user controllers (docs/user-controllers.md#headless): each controller
 * gets a node `vm` context of its own, with nothing in it but the language's built-ins and the
 * runtime of src/cluster/user-controller/runtime.ts (no `require`, `process`, timers, `fetch`).
 * A reconcile runs with `microtaskMode: 'afterEvaluate'`, so its `await`s on the client settle
 * inside one synchronous evaluation: the sandbox answers before `reconcile` returns, within the
 * CPU limit (`timeout` covers the microtasks too). Past the limit the context is dropped and a
 * new one made, as the browser terminates and recreates its Web Worker.
 *
 * node's vm is not a security boundary (its documentation says so): headless runs the code of
 * a scenario the person running it chose. The browser's sandbox is the Web Worker of
 * src/worker/controller-sandbox.worker.ts.
 */
import vm from 'node:vm';
import { RUNTIME_JS } from '../cluster/user-controller/runtime';
import { RECONCILE_CPU_LIMIT_MS, type ReconcileSandbox, type SandboxFactory, type SandboxHost } from '../cluster/user-controller/types';

interface Bridge {
  __host?: (json: string) => string;
  __run?: unknown;
  __call?: { code: string; request: unknown };
  __out?: { ok: true; value: unknown } | { ok: false; message: string };
}

const RUN = new vm.Script(
  `__out = undefined; __run(__call.code, __call.request).then((value) => { __out = { ok: true, value }; }, (e) => { __out = { ok: false, message: e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e) }; });`,
  { filename: 'reconcile' },
);

/** A {@link SandboxFactory} of vm contexts; `limitMs` is the CPU limit of one reconcile (wall ms). */
export function vmSandboxFactory(limitMs = RECONCILE_CPU_LIMIT_MS): SandboxFactory {
  return () => new VmSandbox(limitMs);
}

class VmSandbox implements ReconcileSandbox {
  private ctx: (vm.Context & Bridge) | null = null;
  private host: SandboxHost | null = null;

  constructor(private readonly limitMs: number) {}

  private context(): vm.Context & Bridge {
    if (this.ctx) return this.ctx;
    const ctx = vm.createContext(
      {},
      { name: 'user controller', codeGeneration: { strings: true, wasm: false }, microtaskMode: 'afterEvaluate' },
    ) as vm.Context & Bridge;
    ctx.__host = (json: string) => {
      const h = this.host;
      if (!h) return JSON.stringify({ ok: false, error: { code: 500, reason: 'InternalError', message: 'the reconcile has ended' } });
      return JSON.stringify(h.call(JSON.parse(json)));
    };
    ctx.__run = vm.runInContext(`(${RUNTIME_JS})(__host)`, ctx, { timeout: this.limitMs });
    return (this.ctx = ctx);
  }

  reconcile(call: { code: string; request: unknown }, host: SandboxHost): void {
    this.host = host;
    try {
      const ctx = this.context();
      ctx.__call = { code: call.code, request: call.request };
      RUN.runInContext(ctx, { timeout: this.limitMs });
      const out = ctx.__out;
      if (!out)
        host.done({
          kind: 'error',
          message: 'reconcile did not finish: it awaits something that never settles (the sandbox has no timers or network)',
        });
      else if (out.ok) host.done({ kind: 'result', value: out.value });
      else host.done({ kind: 'error', message: out.message });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        this.ctx = null; // a fresh context for the next reconcile
        host.done({ kind: 'timeout', limitMs: this.limitMs });
      } else host.done({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    } finally {
      this.host = null;
    }
  }

  dispose(): void {
    this.ctx = null;
  }
}
