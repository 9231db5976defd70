/**
 * Watch over HTTP, as staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go with the
 * watch cache: a chunked stream of JSON lines `{"type":"ADDED","object":{…}}`. Without a
 * resourceVersion (or with "0") the current objects come first as ADDED events; with one,
 * the events after it; a compacted one gives a single ERROR event carrying the 410 Status
 * `too old resource version: X (Y)` (reason Expired). BOOKMARKs when allowWatchBookmarks.
 * The stream ends after timeoutSeconds (wall time) or when the client goes away.
 * As Table (kubectl get -w), each object is a one-row Table.
 */
import { StatusError } from '../cluster/api/errors';
import type { KObject, WatchEvent } from '../cluster/api/types';
import type { RequestCtx, Target } from './rest';
import { tableDefFor, toTable, wantsTable } from './table';

/** Serves GET …?watch=true. */
export function serveWatch(ctx: RequestCtx, t: Target): void {
  const { cluster, user, query: q, req, res } = ctx;
  const api = cluster.api;
  const ns = t.info.namespaced ? t.namespace || undefined : undefined;
  const labelSelector = q.get('labelSelector') ?? undefined;
  const fieldSelector = q.get('fieldSelector') ?? undefined;
  const table = wantsTable(req.headers.accept);
  const crd = t.info.custom ? api.getObject('customresourcedefinitions.apiextensions.k8s.io', '', `${t.info.resource}.${t.info.group}`) : undefined;
  const def = table ? tableDefFor(t.info, crd) : undefined;
  let first = true;
  const encode = (ev: WatchEvent): string => {
    let object: unknown = ev.object;
    if (def && ev.type !== 'BOOKMARK' && ev.type !== 'ERROR') {
      object = toTable(def, [ev.object as KObject], cluster.now(), { resourceVersion: ev.object.metadata.resourceVersion }, q.get('includeObject') ?? 'Metadata', first);
      first = false;
    }
    return `${JSON.stringify({ type: ev.type, object })}\n`;
  };
  res.writeHead(200, { 'Content-Type': table ? 'application/json;as=Table;v=v1;g=meta.k8s.io' : 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  // watch.go flushes right after WriteHeader: clients (client-go, client-node) wait for the headers
  res.flushHeaders();
  const nameField = t.name ? `metadata.name=${t.name}` : undefined;
  const fields = [fieldSelector, nameField].filter(Boolean).join(',') || undefined;
  let rv = q.get('resourceVersion') ?? '';
  if (!rv || rv === '0') {
    const list = api.list(user, t.info, ns, { labelSelector, fieldSelector: fields, quiet: true });
    for (const o of list.items) res.write(encode({ type: 'ADDED', object: o }));
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
    stop = api.watch(user, t.info, ns, { labelSelector, fieldSelector: fields, resourceVersion: rv, allowWatchBookmarks: q.get('allowWatchBookmarks') === 'true' }, (ev) => {
      if (!res.writableEnded) res.write(encode(ev));
    });
  } catch (err) {
    if (err instanceof StatusError) {
      res.write(`${JSON.stringify({ type: 'ERROR', object: err.status })}\n`);
      res.end();
      return;
    }
    throw err;
  }
  const timeout = Number(q.get('timeoutSeconds') ?? 1800);
  timer = setTimeout(end, Math.max(1, timeout) * 1000);
  req.on('close', end);
  res.on('close', end);
}
