/**
 * List-then-watch of one resource over HTTP, as client-go's Reflector
 * (staging/src/k8s.io/client-go/tools/cache/reflector.go ListAndWatch) — the engine's own
 * Reflector (cluster/client/cache/reflector.ts) over an HTTP ListerWatcher: list (paginated,
 * limit/continue) to get a resourceVersion, then watch from it with allowWatchBookmarks;
 * a stream that ends is re-watched from the last resourceVersion seen; an ERROR event ends the
 * watch at once (nothing after it is read): a 410 (Gone, "too old resource version"), as the
 * event or as the HTTP status, relists, any other ERROR backs off and relists, as client-go's
 * handleWatch returns the event's Status error; other failures back off (the reflector's
 * wait.Backoff, client/cache/reflector.ts) and retry. Objects and their `kubectl get` rows come as Tables with
 * includeObject=Object (table-rows.ts); a server answering a plain List is handled too.
 * Resources without `watch` (resources.ts) are relisted every `pollMs` instead.
 */
import type { KObject, ResourceRow } from '../store/types';
import { collectionPath, type AttachResource, type FetchLike } from './resources';
import { minimalRow, rowFromTable, type TableColumn, type TableJSON } from './table-rows';
import { readWatchStream } from './watch-reader';
import type { ListerWatcher } from '../../cluster/client/cache/listwatch';
import { Reflector } from '../../cluster/client/cache/reflector';

/** The list page size (limit) when none is given (client-go's pager default, 500). */
export const DefaultPageSize = 500;

/** Accept header for kubectl's server-side printing, with a JSON fallback. */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** What the reflector reports. */
export interface ReflectorSink {
  /** A (re)list: every object now present (the caller diffs against what it had). */
  replace(items: { object: KObject; row: ResourceRow }[], resourceVersion: string): void;
  /** One watch event. */
  event(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KObject, row: ResourceRow): void;
  /** A failure that will be retried (shown as the connection detail). */
  error?(message: string): void;
}

export interface ReflectorOptions {
  fetch: FetchLike;
  /** API base, e.g. "/k8s" (the app's proxy) or "http://127.0.0.1:6443"; no trailing slash. */
  base: string;
  resource: AttachResource;
  sink: ReflectorSink;
  /** Waits `ms` (abortable); setTimeout in the app, instant in tests. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Watch timeoutSeconds (the server closes the stream after it; re-watched at once). */
  timeoutSeconds?: number;
  pageSize?: number;
  /** Relist period for a resource without `watch` (default 2000 ms). */
  pollMs?: number;
  /** The back-off's jitter source in [0, 1) (the app: Math.random; tests: none, no jitter). */
  random?: () => number;
}

function withKind(o: KObject, r: AttachResource): KObject {
  if (o.kind && o.apiVersion) return o;
  return { ...o, kind: r.kind, apiVersion: r.group ? `${r.group}/${r.version}` : r.version };
}

/** Objects and rows of a list page or of a one-row watch Table. */
function decodeItems(
  body: TableJSON | { kind?: string; items?: KObject[] },
  columns: TableColumn[],
  r: AttachResource,
): { object: KObject; row: ResourceRow }[] {
  if (body.kind === 'Table') {
    const t = body as TableJSON;
    return (t.rows ?? [])
      .filter((row) => row.object)
      .map((row) => {
        const object = withKind(row.object!, r);
        return { object, row: columns.length ? rowFromTable(object, columns, row.cells) : minimalRow(object) };
      });
  }
  return ((body as { items?: KObject[] }).items ?? []).map((o) => {
    const object = withKind(o, r);
    return { object, row: minimalRow(object) };
  });
}

/** One listed or watched object with its `kubectl get` row. */
type Item = { object: KObject; row: ResourceRow };

/**
 * A failure carrying the API status code (isExpiredError reads `code` 410). `relist`: the watch
 * ended with an ERROR event (apierrors.FromObject in client-go's handleWatch), after which the
 * reflector lists again once the back-off has passed.
 */
class StatusFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly relist = false,
  ) {
    super(message);
  }
}

/**
 * The HTTP ListerWatcher of one resource (client/cache/listwatch.ts): `list` GETs one page
 * (limit/continue) as a Table with objects, `watch` GETs `?watch=1` and streams the events
 * (watch-reader.ts). A 410, as a status or an ERROR event, ends with a 410 failure (the
 * reflector relists); the Tables' columns of the last list decode later one-row watch Tables.
 */
export function httpListWatch(fetchFn: FetchLike, base: string, r: AttachResource, signal: AbortSignal): ListerWatcher<Item> {
  const path = base + collectionPath(r);
  let columns: TableColumn[] = [];
  // reads marked as an observer's are not recorded in a kube-relay apiserver's relay (src/server/rest.ts isObserver)
  const headers = { Accept: TABLE_ACCEPT, 'X-Kube-Relay-Observer': '1' };
  return {
    async list(p) {
      const q = new URLSearchParams({ limit: String(p.limit ?? DefaultPageSize), includeObject: 'Object' });
      if (p.continue) q.set('continue', p.continue);
      const res = await fetchFn(`${path}?${q}`, { headers, signal });
      if (res.status === 410) throw new StatusFailure('410 Gone', 410);
      if (!res.ok) throw new Error(`list ${r.resource}: ${res.status} ${res.statusText}`.trim());
      const body = (await res.json()) as TableJSON & { items?: KObject[] };
      if (body.kind === 'Table' && body.columnDefinitions) columns = body.columnDefinitions;
      return {
        items: decodeItems(body, columns, r),
        resourceVersion: body.metadata?.resourceVersion ?? '',
        continue: body.metadata?.continue ?? '',
      };
    },
    watch(w, sink) {
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      signal.addEventListener('abort', onAbort);
      const q = new URLSearchParams({
        watch: '1',
        resourceVersion: w.resourceVersion,
        allowWatchBookmarks: String(!!w.allowWatchBookmarks),
        includeObject: 'Object',
        timeoutSeconds: String(w.timeoutSeconds ?? 300),
      });
      const run = async (): Promise<void> => {
        const res = await fetchFn(`${path}?${q}`, { headers, signal: stop.signal });
        if (res.status === 410) throw new StatusFailure('410 Gone', 410);
        if (!res.ok || !res.body) throw new Error(`watch ${r.resource}: ${res.status} ${res.statusText}`.trim());
        let ended: Error | null = null;
        await readWatchStream(res.body, (ev) => {
          if (ev.type === 'ERROR') {
            // the watch is over: stop reading (readWatchStream cancels the body) and hand the Status to the reflector
            const s = ev.object as { code?: number; message?: string };
            ended =
              s.code === 410
                ? new StatusFailure(s.message ?? '410 Gone', 410)
                : new StatusFailure(`watch ${r.resource}: ${s.message ?? 'error'}`, typeof s.code === 'number' ? s.code : 500, true);
            return false;
          }
          if (ev.type === 'BOOKMARK') {
            sink.event({ type: 'BOOKMARK', object: { metadata: { resourceVersion: ev.object?.metadata?.resourceVersion } } });
            return;
          }
          const body = ev.object as TableJSON | KObject;
          if (body.kind === 'Table' && (body as TableJSON).columnDefinitions) columns = (body as TableJSON).columnDefinitions!;
          const decoded =
            body.kind === 'Table'
              ? decodeItems(body as TableJSON, columns, r)
              : [{ object: withKind(body as KObject, r), row: minimalRow(withKind(body as KObject, r)) }];
          for (const d of decoded) sink.event({ type: ev.type, object: d });
        });
        if (ended) throw ended;
      };
      // the listener lives as long as this watch: removed when it ends, whichever way
      run()
        .finally(() => signal.removeEventListener('abort', onAbort))
        .then(
          () => sink.done(),
          (e: unknown) => sink.done(e),
        );
      return () => {
        signal.removeEventListener('abort', onAbort);
        stop.abort();
      };
    },
  };
}

/**
 * Runs until `signal` aborts: the engine's Reflector (client/cache/reflector.ts) over
 * {@link httpListWatch}. Never rejects: every failure is reported to `sink.error` and retried.
 */
export async function runReflector(opts: ReflectorOptions, signal: AbortSignal): Promise<void> {
  const { resource: r, sink } = opts;
  const reflector = new Reflector<Item>(
    httpListWatch(opts.fetch, opts.base, r, signal),
    {
      replace: (items, rv) => sink.replace(items, rv),
      event: (ev) => sink.event(ev.type, ev.object.object, ev.object.row),
      error: (m) => sink.error?.(m),
    },
    {
      pageSize: opts.pageSize ?? DefaultPageSize,
      allowWatchBookmarks: true,
      timeoutSeconds: opts.timeoutSeconds ?? 300,
      watch: !!r.watch, // unset: polled, as resources.ts says
      pollMs: opts.pollMs ?? 2000,
      sleep: (ms) => opts.sleep(ms, signal),
      random: opts.random,
      resourceVersionOf: (i) => i.object.metadata.resourceVersion,
    },
  );
  if (signal.aborted) return;
  await new Promise<void>((resolve) => {
    signal.addEventListener('abort', () => {
      reflector.stop();
      resolve();
    });
    reflector.run();
  });
}
