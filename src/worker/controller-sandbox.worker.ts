/**
 * The Web Worker a user controller's code runs in (controller-sandbox.ts is the other end, in
 * the cluster worker; docs/user-controllers.md#in-the-browser). Before any of the learner's
 * code runs, everything that reaches outside is removed from the worker's global scope and its
 * prototypes — the network (fetch, XMLHttpRequest, WebSocket, EventSource, WebTransport),
 * storage (indexedDB, caches), other contexts (Worker, BroadcastChannel, MessageChannel),
 * importScripts — and the server sends this script with a Content-Security-Policy that allows
 * no connection and no script from elsewhere (vite.config.ts), which also stops `import()`.
 * There is no DOM in a worker. What is left is the language and `postMessage` to the cluster
 * worker, which only answers the client requests of the reconcile in flight.
 */
import { RUNTIME_JS } from '../cluster/user-controller/runtime';

const scope = self as unknown as Record<string, unknown> & { postMessage(m: unknown): void };
const post = scope.postMessage.bind(scope);

/** Names removed from the global scope (and every prototype on its chain). */
export const REMOVED_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'EventSource',
  'WebTransport',
  'RTCPeerConnection',
  'importScripts',
  'indexedDB',
  'caches',
  'cookieStore',
  'BroadcastChannel',
  'MessageChannel',
  'Worker',
  'SharedWorker',
  'Request',
  'Response',
  'navigator',
  'location',
  'FileReaderSync',
  'Notification',
  'ServiceWorker',
  'storageFoundation',
];

for (const name of REMOVED_GLOBALS) {
  for (let o: object | null = scope; o; o = Object.getPrototypeOf(o)) {
    try {
      if (Object.prototype.hasOwnProperty.call(o, name)) delete (o as Record<string, unknown>)[name];
    } catch {
      // not configurable: shadowed below
    }
  }
  try {
    Object.defineProperty(scope, name, { value: undefined, writable: false, configurable: false });
  } catch {
    // already fixed
  }
}

const pending = new Map<number, (json: string) => void>();
let seq = 0;
let currentId = 0;
const callHost = (json: string): Promise<string> =>
  new Promise((resolve) => {
    const s = ++seq;
    pending.set(s, resolve);
    post({ type: 'call', id: currentId, seq: s, request: json });
  });
const run = (new Function(`return ${RUNTIME_JS}`)() as (h: typeof callHost) => (code: string, request: unknown) => Promise<unknown>)(
  callHost,
);

const addListener = (scope as unknown as { addEventListener(t: string, f: (e: unknown) => void): void }).addEventListener.bind(scope);
addListener('message', (e: unknown) => {
  const m = (e as { data?: { type?: string; id?: number; seq?: number; response?: string; code?: string; request?: unknown } }).data;
  if (!m) return;
  if (m.type === 'answer' && typeof m.seq === 'number') {
    const r = pending.get(m.seq);
    pending.delete(m.seq);
    r?.(String(m.response));
  } else if (m.type === 'reconcile' && typeof m.id === 'number') {
    const id = m.id;
    currentId = id;
    run(String(m.code), m.request).then(
      (value) => post({ type: 'done', id, outcome: { kind: 'result', value } }),
      (err: unknown) =>
        post({
          type: 'done',
          id,
          outcome: {
            kind: 'error',
            message: err && typeof err === 'object' && 'message' in err ? String((err as Error).message) : String(err),
          },
        }),
    );
  }
});
// locked down and listening: the cluster worker may post the first reconcile (its CPU limit starts then)
post({ type: 'ready' });
