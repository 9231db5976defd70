/**
 * List-then-watch of one resource over HTTP, as client-go's Reflector
 * (staging/src/k8s.io/client-go/tools/cache/reflector.go ListAndWatch): list (paginated,
 * limit/continue) to get a resourceVersion, then watch from it with allowWatchBookmarks;
 * a stream that ends is re-watched from the last resourceVersion seen; an ERROR event or
 * HTTP status 410 (Gone, "too old resource version") relists; other failures back off
 * (1 s doubling to 30 s) and retry. Objects and their `kubectl get` rows come as Tables with
 * includeObject=Object (table-rows.ts); a server answering a plain List is handled too.
 * Resources without `watch` (resources.ts) are relisted every `pollMs` instead.
 */
import type { KObject, ResourceRow } from '../store/types';
import { collectionPath, type AttachResource, type FetchLike } from './resources';
import { minimalRow, rowFromTable, type TableColumn, type TableJSON } from './table-rows';
import { readWatchStream } from './watch-reader';

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
}

/** A Status error worth a relist. */
class GoneError extends Error {}

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

/**
 * Runs until `signal` aborts. Never rejects: every failure is reported to `sink.error` and retried.
 */
export async function runReflector(opts: ReflectorOptions, signal: AbortSignal): Promise<void> {
  const { fetch: fetchFn, base, resource: r, sink } = opts;
  const path = base + collectionPath(r);
  let columns: TableColumn[] = [];
  let rv = '';
  let backoff = 1000;
  // reads marked as an observer's are not recorded in a kube-relay apiserver's relay (src/server/rest.ts isObserver)
  const headers = { Accept: TABLE_ACCEPT, 'X-Kube-Relay-Observer': '1' };

  const list = async (): Promise<void> => {
    const items: { object: KObject; row: ResourceRow }[] = [];
    let cont = '';
    do {
      const q = new URLSearchParams({ limit: String(opts.pageSize ?? 500), includeObject: 'Object' });
      if (cont) q.set('continue', cont);
      const res = await fetchFn(`${path}?${q}`, { headers, signal });
      if (res.status === 410) throw new GoneError('410 Gone');
      if (!res.ok) throw new Error(`list ${r.resource}: ${res.status} ${res.statusText}`.trim());
      const body = (await res.json()) as TableJSON & { items?: KObject[] };
      if (body.kind === 'Table' && body.columnDefinitions) columns = body.columnDefinitions;
      items.push(...decodeItems(body, columns, r));
      cont = body.metadata?.continue ?? '';
      rv = body.metadata?.resourceVersion ?? rv;
    } while (cont);
    sink.replace(items, rv);
  };

  const watch = async (): Promise<void> => {
    const q = new URLSearchParams({
      watch: '1',
      resourceVersion: rv,
      allowWatchBookmarks: 'true',
      includeObject: 'Object',
      timeoutSeconds: String(opts.timeoutSeconds ?? 300),
    });
    const res = await fetchFn(`${path}?${q}`, { headers, signal });
    if (res.status === 410) throw new GoneError('410 Gone');
    if (!res.ok || !res.body) throw new Error(`watch ${r.resource}: ${res.status} ${res.statusText}`.trim());
    let gone: GoneError | null = null;
    let failed: Error | null = null;
    await readWatchStream(res.body, (ev) => {
      if (gone || failed) return;
      if (ev.type === 'ERROR') {
        const s = ev.object as { code?: number; message?: string };
        if (s.code === 410) gone = new GoneError(s.message ?? '410 Gone');
        else failed = new Error(`watch ${r.resource}: ${s.message ?? 'error'}`);
        return;
      }
      if (ev.type === 'BOOKMARK') {
        rv = ev.object?.metadata?.resourceVersion ?? rv;
        return;
      }
      const body = ev.object as TableJSON | KObject;
      if (body.kind === 'Table' && (body as TableJSON).columnDefinitions) columns = (body as TableJSON).columnDefinitions!;
      const decoded =
        body.kind === 'Table'
          ? decodeItems(body as TableJSON, columns, r)
          : [{ object: withKind(body as KObject, r), row: minimalRow(withKind(body as KObject, r)) }];
      for (const d of decoded) {
        rv = d.object.metadata.resourceVersion ?? rv;
        sink.event(ev.type, d.object, d.row);
      }
    });
    if (gone) throw gone;
    if (failed) throw failed;
  };

  let needList = true;
  while (!signal.aborted) {
    try {
      if (needList) {
        await list();
        needList = false;
      }
      if (r.watch) await watch();
      else {
        await opts.sleep(opts.pollMs ?? 2000, signal);
        needList = true; // polled: relist (the caller diffs)
      }
      backoff = 1000; // a stream that ended normally: watch again from rv
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof GoneError) {
        needList = true; // the reflector's "relist on 410"
        continue;
      }
      sink.error?.(e instanceof Error ? e.message : String(e));
      await opts.sleep(backoff, signal).catch(() => {});
      backoff = Math.min(backoff * 2, 30_000);
    }
  }
}
