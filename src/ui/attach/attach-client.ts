/**
 * The attach client: the UI's store fed from an API server instead of the in-browser worker.
 * Discovers the resources the UI shows (resources.ts), runs one list-then-watch reflector per
 * resource (reflector.ts), folds what they report into the same TickBatch shape the worker
 * sends (one batch per 100 ms flush, one change per object key, ADDED+DELETED cancelling), and
 * adds the relay: the server's recorded one when it streams it (relay-stream.ts), otherwise
 * hops inferred from the watched changes (infer-relay.ts).
 *
 * Time: `startMs` is the creation of the oldest Namespace (the cluster's start; a kube-relay
 * apiserver's 2026-01-01T00:00:00Z) and `simMs` the newest timestamp any object carries since.
 */
import { objectKey, type ObjectChangeMsg, type TickBatch } from '../../worker/protocol';
import type { ConnectionStatus } from '../../worker/connect';
import type { KObject, RelayHop, ResourceRow } from '../store/types';
import { createRelayInference, type ObservedChange } from './infer-relay';
import { runReflector } from './reflector';
import { hasRelayStream, streamRelay } from './relay-stream';
import { ATTACH_RESOURCES, discover, itemPath, storeResource, type AttachResource, type FetchLike } from './resources';

/** What the attach client learned about the server it is attached to. */
export interface AttachInfo {
  /** "kube-relay": serves machines.sim.kube-relay.dev; "cluster": any other API server. */
  flavor: 'kube-relay' | 'cluster';
  /** The API server's URL as far as the page can tell (the proxy's target when proxied). */
  upstream: string;
  /** The watched resources. */
  resources: AttachResource[];
  /** True when the relay is the server's own recording; false: inferred. */
  relayStreamed: boolean;
}

export interface AttachOptions {
  /** API base: "/k8s" (the app's proxy) or a CORS-enabled server URL; no trailing slash. */
  base: string;
  fetch?: FetchLike;
  onBatch(b: TickBatch): void;
  onStatus(status: ConnectionStatus, detail?: string): void;
  onInfo?(info: AttachInfo): void;
  flushMs?: number;
}

/** The running attachment: commands that the API can express, and stop. */
export interface AttachHandle {
  info(): AttachInfo | null;
  /** PATCH machines/NAME spec.power (kill = Off, restore = On); throws without machines. */
  setPower(node: string, power: 'On' | 'Off'): Promise<void>;
  /** DELETE /api/v1/namespaces/NS/pods/NAME. */
  deletePod(namespace: string, name: string): Promise<void>;
  stop(): void;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    });
  });

/** Newest timestamp an object carries (ms since the epoch), or 0. */
function newestTime(o: KObject): number {
  const times: (string | undefined)[] = [o.metadata.creationTimestamp, o.metadata.deletionTimestamp, o.lastTimestamp, o.eventTime];
  for (const e of (o.metadata.managedFields ?? []) as { time?: string }[]) times.push(e.time);
  let max = 0;
  for (const t of times) {
    const v = t ? Date.parse(t) : NaN;
    if (Number.isFinite(v) && v > max) max = v;
  }
  return max;
}

/** Reads a Status error's message from a failed response. */
async function failure(res: Response): Promise<Error> {
  try {
    const s = (await res.json()) as { message?: string };
    return new Error(s.message ?? `${res.status} ${res.statusText}`);
  } catch {
    return new Error(`${res.status} ${res.statusText}`);
  }
}

/** Attaches to `opts.base`; batches start flowing at once (the first one resets the store). */
export function startAttach(opts: AttachOptions): AttachHandle {
  const fetchFn: FetchLike = opts.fetch ?? ((u, i) => fetch(u, i));
  const abort = new AbortController();
  const known = new Map<string, KObject>();
  let pending = new Map<string, ObjectChangeMsg>();
  let pendingHops: RelayHop[] = [];
  let info: AttachInfo | null = null;
  let startMs = 0;
  let latest = 0;
  let reset = true;
  const inference = createRelayInference();
  let inferring = true;
  let healthy = false;

  const push = (type: ObjectChangeMsg['type'], r: AttachResource, object: KObject, row: ResourceRow | null): void => {
    const key = objectKey(object);
    const prev = pending.get(key);
    if (type === 'DELETED') known.delete(key);
    else known.set(key, object);
    latest = Math.max(latest, newestTime(object));
    if (object.kind === 'Namespace' && (!startMs || Date.parse(object.metadata.creationTimestamp ?? '') < startMs))
      startMs = Date.parse(object.metadata.creationTimestamp ?? '') || startMs;
    if (prev?.type === 'ADDED' && type === 'DELETED') {
      pending.delete(key);
      return;
    }
    pending.set(key, {
      type: prev?.type === 'ADDED' ? 'ADDED' : type,
      resource: storeResource(r),
      key,
      object,
      row: type === 'DELETED' ? null : row,
    });
  };

  const flush = (): void => {
    if (!reset && !pending.size && !pendingHops.length) return;
    const all = [...pending.values()];
    const batch: TickBatch = {
      gen: 1,
      reset,
      simMs: startMs ? Math.max(0, latest - startMs) : 0,
      startMs: startMs || latest,
      changes: all.filter((c) => c.object.kind !== 'Event'),
      events: all.filter((c) => c.object.kind === 'Event'),
      hops: pendingHops,
      deadlines: [],
      running: true,
      speed: 1,
      profile: 'kubernetes-defaults',
      applySeq: null,
      fault: null,
    };
    reset = false;
    pending = new Map();
    pendingHops = [];
    opts.onBatch(batch);
  };
  const timer = setInterval(flush, opts.flushMs ?? 100);

  const ok = () => {
    if (!healthy) {
      healthy = true;
      opts.onStatus('ready');
    }
  };

  const start = async (): Promise<void> => {
    opts.onStatus('starting');
    let resources: AttachResource[];
    let upstream = opts.base;
    try {
      const res = await fetchFn(`${opts.base}/version`, { headers: { Accept: 'application/json' }, signal: abort.signal });
      if (!res.ok) throw await failure(res);
      upstream = res.headers.get('x-kube-relay-upstream') ?? opts.base;
      ({ resources } = await discover(fetchFn, opts.base));
    } catch (e) {
      if (!abort.signal.aborted)
        opts.onStatus('failed', `cannot reach the API server at ${opts.base}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const relayStreamed = await hasRelayStream(fetchFn, opts.base, abort.signal);
    inferring = !relayStreamed;
    // a browser keeps at most 6 connections per host (HTTP/1.1): the relay stream takes the
    // Events watch's place, and Events are polled like the other secondary kinds
    if (relayStreamed) resources = resources.map((r) => (r.resource === 'events' ? { ...r, watch: false } : r));
    info = { flavor: resources.some((r) => r.resource === 'machines') ? 'kube-relay' : 'cluster', upstream, resources, relayStreamed };
    opts.onInfo?.(info);
    if (relayStreamed) void streamRelay(fetchFn, opts.base, 0, (h) => pendingHops.push(h), sleep, abort.signal);
    for (const r of resources) {
      let synced = false;
      void runReflector(
        {
          fetch: fetchFn,
          base: opts.base,
          resource: r,
          sleep,
          // the back-off's jitter (wall-clock attach mode: a real cluster, not the seeded engine)
          random: Math.random,
          sink: {
            replace(items) {
              ok();
              // after the first list, a relist's differences are changes too (polled kinds, 410)
              const observe = (type: ObservedChange['type'], object: KObject) => {
                if (inferring && synced)
                  pendingHops.push(
                    ...inference.observe(
                      { type, resource: r.resource, object, prev: known.get(objectKey(object)) },
                      Math.max(latest, newestTime(object)),
                    ),
                  );
              };
              const seen = new Set<string>();
              for (const { object, row } of items) {
                const key = objectKey(object);
                seen.add(key);
                const prev = known.get(key);
                if (!prev) {
                  observe('ADDED', object);
                  push('ADDED', r, object, row);
                } else if (prev.metadata.resourceVersion !== object.metadata.resourceVersion) {
                  observe('MODIFIED', object);
                  push('MODIFIED', r, object, row);
                }
              }
              for (const [key, o] of known) {
                if (o.kind !== r.kind || seen.has(key)) continue;
                observe('DELETED', o);
                push('DELETED', r, o, null);
              }
              synced = true;
            },
            event(type, object, row) {
              ok();
              const prev = known.get(objectKey(object));
              if (inferring)
                pendingHops.push(...inference.observe({ type, resource: r.resource, object, prev }, Math.max(latest, newestTime(object))));
              push(type, r, object, row);
            },
            error(message) {
              opts.onStatus('restarting', message);
              healthy = false;
            },
          },
        },
        abort.signal,
      );
    }
  };
  void start();

  const machines = (): AttachResource | undefined => info?.resources.find((r) => r.resource === 'machines');
  return {
    info: () => info,
    async setPower(node, power) {
      const m = machines();
      if (!m)
        throw new Error(
          'this API server has no machines (machines.sim.kube-relay.dev): powering a node off needs the in-browser engine or a kube-relay apiserver',
        );
      const res = await fetchFn(`${opts.base}${itemPath(m, null, node)}?fieldManager=kube-relay-ui`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' },
        body: JSON.stringify({ spec: { power } }),
      });
      if (!res.ok) throw await failure(res);
    },
    async deletePod(namespace, name) {
      const pods = ATTACH_RESOURCES.find((r) => r.resource === 'pods')!;
      const res = await fetchFn(`${opts.base}${itemPath(pods, namespace, name)}`, {
        method: 'DELETE',
        headers: { Accept: 'application/json' },
      });
      if (!res.ok) throw await failure(res);
    },
    stop() {
      abort.abort();
      clearInterval(timer);
    },
  };
}
