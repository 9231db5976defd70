/**
 * The browser sandbox's cluster-worker end (controller-sandbox.ts) against a fake worker port:
 * the message protocol, the CPU limit (terminate, then a new worker), and that messages of
 * another reconcile or of an unknown shape do nothing.
 */
import { describe, expect, it } from 'vitest';
import { WorkerSandbox, type SandboxPort } from './controller-sandbox';
import type { ClientRequest, ReconcileOutcome } from '../cluster/user-controller/types';

class FakePort implements SandboxPort {
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  sent: unknown[] = [];
  terminated = false;
  postMessage(msg: unknown): void {
    this.sent.push(msg);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: unknown): void {
    this.onmessage?.({ data });
  }
}

function setup() {
  const ports: FakePort[] = [];
  /** Ports to answer `ready` for (at the test's reconcile call, before anything else). */
  const queueReady: FakePort[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const sb = new WorkerSandbox(
    () => {
      const p = new FakePort();
      ports.push(p);
      queueReady.push(p);
      return p;
    },
    {
      setTimeout: (fn, ms) => (timers.push({ fn, ms, cleared: false }), timers.length - 1),
      clearTimeout: (h) => void (timers[h as number].cleared = true),
    },
    1000,
  );
  const calls: ClientRequest[] = [];
  const outcomes: ReconcileOutcome[] = [];
  const host = {
    call: (r: ClientRequest) => (calls.push(r), { ok: true as const, value: { got: r.op } }),
    done: (o: ReconcileOutcome) => void outcomes.push(o),
  };
  const reconcile = (id: number) => {
    sb.reconcile(call(id), host);
    for (const p of queueReady.splice(0)) p.reply({ type: 'ready' });
  };
  const call = (id: number) => ({
    id,
    controller: 'c',
    code: 'export function reconcile() {}',
    request: { namespace: 'default', name: 'blog', now: '2026-01-01T00:00:30Z' },
  });
  return { sb, ports, timers, calls, outcomes, host, call, reconcile };
}

describe('WorkerSandbox', () => {
  it('waits for a new worker to be ready before posting the reconcile and starting its CPU limit', () => {
    const t = setup();
    t.sb.reconcile(t.call(1), t.host);
    expect(t.ports[0].sent).toEqual([]);
    expect(t.timers).toEqual([]);
    t.ports[0].reply({ type: 'done', id: 1, outcome: { kind: 'result', value: null } }); // before ready: dropped
    expect(t.outcomes).toEqual([]);
    t.ports[0].reply({ type: 'ready' });
    expect(t.ports[0].sent).toMatchObject([{ type: 'reconcile', id: 1 }]);
    expect(t.timers).toMatchObject([{ ms: 1000, cleared: false }]);
  });

  it('posts the reconcile, answers client calls of that reconcile, ends with its outcome', () => {
    const t = setup();
    t.reconcile(1);
    expect(t.ports[0].sent).toEqual([
      {
        type: 'reconcile',
        id: 1,
        code: 'export function reconcile() {}',
        request: { namespace: 'default', name: 'blog', now: '2026-01-01T00:00:30Z' },
      },
    ]);
    t.ports[0].reply({
      type: 'call',
      id: 1,
      seq: 7,
      request: JSON.stringify({ op: 'get', key: { apiVersion: 'v1', kind: 'Service', name: 'web' } }),
    });
    expect(t.calls).toEqual([{ op: 'get', key: { apiVersion: 'v1', kind: 'Service', name: 'web' } }]);
    expect(t.ports[0].sent[1]).toEqual({ type: 'answer', id: 1, seq: 7, response: JSON.stringify({ ok: true, value: { got: 'get' } }) });
    t.ports[0].reply({ type: 'done', id: 1, outcome: { kind: 'result', value: { requeueAfter: 5 } } });
    expect(t.outcomes).toEqual([{ kind: 'result', value: { requeueAfter: 5 } }]);
    expect(t.timers[0]).toMatchObject({ ms: 1000, cleared: true });
  });

  it.each([
    { name: "another reconcile's call", data: { type: 'call', id: 2, seq: 1, request: '{"op":"delete"}' } },
    { name: 'a call that is not JSON', data: { type: 'call', id: 1, seq: 1, request: '{' } },
    { name: 'a call with an object request', data: { type: 'call', id: 1, seq: 1, request: { op: 'delete' } } },
    { name: 'an unknown type', data: { type: 'engine', id: 1 } },
    { name: 'an outcome of an unknown kind', data: { type: 'done', id: 1, outcome: { kind: 'timeout', limitMs: 0 } } },
    { name: "another reconcile's outcome", data: { type: 'done', id: 9, outcome: { kind: 'result', value: null } } },
    { name: 'not an object', data: 'done' },
  ])('drops $name', ({ data }) => {
    const t = setup();
    t.reconcile(1);
    t.ports[0].reply(data);
    expect(t.calls).toEqual([]);
    expect(t.outcomes).toEqual([]);
    expect(t.ports[0].sent).toHaveLength(1);
  });

  it('past the CPU limit terminates the worker, reports a timeout, and the next reconcile gets a new worker', () => {
    const t = setup();
    t.reconcile(1);
    t.timers[0].fn();
    expect(t.ports[0].terminated).toBe(true);
    expect(t.outcomes).toEqual([{ kind: 'timeout', limitMs: 1000 }]);
    // a late answer of the terminated worker does nothing
    t.ports[0].reply({ type: 'done', id: 1, outcome: { kind: 'result', value: null } });
    expect(t.outcomes).toHaveLength(1);
    t.reconcile(2);
    expect(t.ports).toHaveLength(2);
    expect(t.ports[1].sent[0]).toMatchObject({ type: 'reconcile', id: 2 });
  });

  it('a worker that fails ends the reconcile with an error and is replaced', () => {
    const t = setup();
    t.reconcile(1);
    t.ports[0].onerror?.(new Event('error'));
    expect(t.outcomes).toEqual([{ kind: 'error', message: 'the sandbox worker failed' }]);
    t.reconcile(2);
    expect(t.ports).toHaveLength(2);
  });
});
