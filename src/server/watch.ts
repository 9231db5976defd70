/**
 * Watch over HTTP, as staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go with the
 * watch cache: a chunked stream of JSON lines `{"type":"ADDED","object":{…}}`. Without a
 * resourceVersion (or with "0") the current objects come first as ADDED events; with one,
 * the events after it; a compacted one gives a single ERROR event carrying the 410 Status
 * `too old resource version: X (Y)` (reason Expired). BOOKMARKs when allowWatchBookmarks.
 * The stream ends after timeoutSeconds (wall time; params.ts watchTimeoutMs) or when the client
 * goes away. As Table (kubectl get -w), each object is a one-row Table.
 *
 * A client that stops reading is closed, as the watch cache's cacheWatcher is when its result
 * channel stays full (staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go add →
 * "Forcing … watcher close due to unresponsiveness"): once more than the server's
 * watchBufferBytes wait unsent, the watcher stops, the stream is ended after what was queued (a
 * client that reads again sees a clean end and re-lists or resumes from its last
 * resourceVersion, as client-go's reflector does), and the connection is dropped if it still has
 * not drained 10 s later — so memory per slow client stays bounded.
 */
import { StatusError } from '../cluster/api/errors';
import type { KObject, WatchEvent } from '../cluster/api/types';
import type { RequestCtx, Target } from './context';
import { tableDefFor, toTable, wantsTable } from './table';
import { checkWatchResourceVersion, watchTimeoutMs, type ListQuery } from './params';
import type { ServerContext } from './context';
import type { ServerResponse } from 'node:http';

/**
 * Ends a stream whose client stopped reading: `stop` detaches it from its source, the queued
 * bytes are still offered, and the socket is destroyed if they have not drained after 10 s.
 * @returns true when the stream was over its bound (and is now closing).
 */
export function closeIfSlow(server: ServerContext, res: ServerResponse, stop: () => void): boolean {
  if (res.writableLength <= server.watchBufferBytes) return false;
  server.stats.slowWatchersClosed++;
  stop();
  // the response lets go of its socket once ended, but the socket still holds what was queued
  const socket = res.socket;
  if (!res.writableEnded) res.end();
  const t = setTimeout(() => socket?.destroy(), 10_000);
  t.unref();
  socket?.once('close', () => clearTimeout(t));
  return true;
}

/**
 * Counts an open stream in the server's stats until it ends or its connection closes.
 */
export function countStream(server: ServerContext, res: ServerResponse): void {
  server.stats.openStreams++;
  let counted = true;
  const done = () => {
    if (!counted) return;
    counted = false;
    server.stats.openStreams--;
  };
  res.once('finish', done);
  res.once('close', done);
}

/**
 * One JSON line per stored object and event type, shared by every watcher that sends it (the
 * watch cache's cachingObject does the same: an event is serialized once, not once per watcher).
 */
const encoded = new Map<object, Map<string, string>>();
/** Entries kept: a fan-out happens at once, so a short memory is enough (and stays small). */
const ENCODED_KEPT = 512;
function jsonLine(ev: WatchEvent): string {
  let byType = encoded.get(ev.object);
  if (!byType) {
    encoded.set(ev.object, (byType = new Map()));
    if (encoded.size > ENCODED_KEPT) encoded.delete(encoded.keys().next().value!);
  }
  let line = byType.get(ev.type);
  if (line === undefined) byType.set(ev.type, (line = `${JSON.stringify({ type: ev.type, object: ev.object })}\n`));
  return line;
}

/** Serves GET …?watch=true. @throws StatusError 500 for a resourceVersion the versioner cannot parse (before any header). */
export function serveWatch(ctx: RequestCtx, t: Target, lq: ListQuery): void {
  const { cluster, user, query: q, req, res } = ctx;
  const api = cluster.api;
  const ns = t.info.namespaced ? t.namespace || undefined : undefined;
  const labelSelector = q.get('labelSelector') ?? undefined;
  const fieldSelector = q.get('fieldSelector') ?? undefined;
  const table = wantsTable(req.headers.accept);
  const crd = t.info.custom
    ? api.getObject('customresourcedefinitions.apiextensions.k8s.io', '', `${t.info.resource}.${t.info.group}`)
    : undefined;
  const def = table ? tableDefFor(t.info, crd) : undefined;
  let first = true;
  const encode = (ev: WatchEvent): string => {
    if (!def) return jsonLine(ev);
    let object: unknown = ev.object;
    if (def && ev.type !== 'BOOKMARK' && ev.type !== 'ERROR') {
      object = toTable(
        def,
        [ev.object as KObject],
        cluster.now(),
        { resourceVersion: ev.object.metadata.resourceVersion },
        q.get('includeObject') ?? 'Metadata',
        first,
      );
      first = false;
    }
    return `${JSON.stringify({ type: ev.type, object })}\n`;
  };
  checkWatchResourceVersion(lq.resourceVersion);
  res.writeHead(200, {
    'Content-Type': table ? 'application/json;as=Table;v=v1;g=meta.k8s.io' : 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  // watch.go flushes right after WriteHeader: clients (client-go, client-node) wait for the headers
  res.flushHeaders();
  const nameField = t.name ? `metadata.name=${t.name}` : undefined;
  const fields = [fieldSelector, nameField].filter(Boolean).join(',') || undefined;
  countStream(ctx.server, res);
  let rv = lq.resourceVersion;
  if (!rv || rv === '0') {
    const list = api.list(user, t.info, ns, { labelSelector, fieldSelector: fields, quiet: true });
    for (const o of list.items) {
      res.write(encode({ type: 'ADDED', object: o }));
      if (closeIfSlow(ctx.server, res, () => undefined)) return;
    }
    rv = list.metadata.resourceVersion ?? '';
  }
  let stop: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const end = () => {
    stop?.();
    stop = null;
    if (timer) clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  try {
    stop = api.watch(
      user,
      t.info,
      ns,
      { labelSelector, fieldSelector: fields, resourceVersion: rv, allowWatchBookmarks: lq.allowWatchBookmarks },
      (ev) => {
        if (res.writableEnded) return;
        res.write(encode(ev));
        closeIfSlow(ctx.server, res, () => {
          stop?.();
          stop = null;
        });
      },
    );
  } catch (err) {
    if (err instanceof StatusError) {
      res.write(`${JSON.stringify({ type: 'ERROR', object: err.status })}\n`);
      res.end();
      return;
    }
    throw err;
  }
  if (closeIfSlow(ctx.server, res, () => stop?.())) return;
  timer = setTimeout(end, watchTimeoutMs(lq.timeoutSeconds));
  req.on('close', end);
  res.on('close', end);
}
