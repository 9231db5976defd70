/**
 * kube-relay's own endpoints beside the Kubernetes API, for the browser's attach mode
 * (src/ui/attach): the recorded relay, which no real cluster exposes, and what engine this is.
 *
 * - `GET /kube-relay/v1/info` → `{"engine":"kube-relay","version":"v1.33.1","simMs":N,"speed":S,"lastSeq":Q,"server":{…}}`
 *   (`version` = the Kubernetes version served, `simMs` = simulated now in ms since the epoch,
 *   `speed` = simulated ms per wall ms, `lastSeq` = seq of the last relay hop, `server` = the
 *   HTTP server's counters: requests, tooManyRequests, slowWatchersClosed, openStreams, and the
 *   process's heapUsedMB).
 * - `GET /kube-relay/v1/relay?sinceSeq=N[&watch=1][&heartbeats=0]` → newline-delimited JSON,
 *   one {@link RelayHop} per line (the shape the worker sends in its batches), every kept hop
 *   with `seq > N` oldest first (hops older than the recorder's capacity are gone). Without
 *   `watch` the response ends there; with `watch=1` (or `true`) it stays open (chunked) and
 *   streams each new hop as it is recorded, until the client goes away or the server stops.
 *   `heartbeats=0` leaves out Lease / node-status hops (category `heartbeat`).
 *   Content-Type `application/x-ndjson`.
 * The filters of server.ts apply (token, Host check, CORS). A watching client that stops reading
 * is closed as a slow watcher is (watch.ts closeIfSlow).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Cluster } from '../cluster/cluster';
import type { RelayHop } from '../cluster/relay/relay-event';
import { newBadRequest } from '../cluster/api/errors';
import { VERSION_INFO } from './discovery';
import { methodNotAllowed, notFoundPath, sendJSON } from './http-util';
import type { ServerContext } from './context';
import { closeIfSlow, countStream } from './watch';
import { goQueryBool } from './params';

/** The answer of GET /kube-relay/v1/info. */
export interface EngineInfo {
  engine: 'kube-relay';
  /** Kubernetes version served, e.g. "v1.33.1". */
  version: string;
  /** Simulated now, ms since the Unix epoch. */
  simMs: number;
  /** Simulated ms per wall ms. */
  speed: number;
  /** seq of the last recorded relay hop (0 when none). */
  lastSeq: number;
  /** The HTTP server's counters (wall-clock events since it started; server.ts ServerStats). */
  server?: { requests: number; tooManyRequests: number; slowWatchersClosed: number; openStreams: number; heapUsedMB: number };
}

/** Path prefix of these endpoints. */
export const RELAY_PREFIX = '/kube-relay/v1';

/** A hop's NDJSON line, serialized once for all the streams that send it. */
const lines = new Map<RelayHop, string>();
/** Lines kept (the newest hops: those streamed to every watcher at once). */
const LINES_KEPT = 2048;
function hopLine(h: RelayHop): string {
  let l = lines.get(h);
  if (l === undefined) {
    lines.set(h, (l = `${JSON.stringify(h)}\n`));
    if (lines.size > LINES_KEPT) lines.delete(lines.keys().next().value!);
  }
  return l;
}

/** Serves /kube-relay/v1/…; `path` has no trailing slash. */
export function serveRelay(server: ServerContext, path: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): void {
  const cluster: Cluster = server.cluster;
  const speed = server.speed;
  if (req.method !== 'GET') throw methodNotAllowed();
  if (path === `${RELAY_PREFIX}/info`) {
    const info: EngineInfo = {
      engine: 'kube-relay',
      version: VERSION_INFO.gitVersion,
      simMs: cluster.now(),
      speed,
      lastSeq: cluster.relay.lastSeq,
      server: { ...server.stats, heapUsedMB: Math.round(process.memoryUsage().heapUsed / 1048576) },
    };
    return sendJSON(res, 200, info);
  }
  if (path !== `${RELAY_PREFIX}/relay`) throw notFoundPath();
  const sinceText = query.get('sinceSeq') ?? '0';
  const since = Number(sinceText);
  if (!Number.isInteger(since) || since < 0) throw newBadRequest(`invalid sinceSeq: ${sinceText}`);
  const watch = goQueryBool(query, 'watch') ?? false;
  const heartbeats = query.get('heartbeats') !== '0' && query.get('heartbeats') !== 'false';
  const keep = (h: RelayHop) => heartbeats || h.category !== 'heartbeat';
  res.writeHead(200, {
    'Content-Type': 'application/x-ndjson',
    'Cache-Control': 'no-cache, private',
    ...(watch ? { 'Transfer-Encoding': 'chunked' } : {}),
  });
  res.flushHeaders();
  const backlog = cluster.relay.since(since).filter(keep);
  if (!watch) {
    if (backlog.length) res.write(backlog.map(hopLine).join(''));
    res.end();
    return;
  }
  countStream(server, res);
  // the backlog goes out hop by hop, so a client that does not read it is closed at the bound
  for (const h of backlog) {
    res.write(hopLine(h));
    if (closeIfSlow(server, res, () => undefined)) return;
  }
  let last = cluster.relay.lastSeq;
  const stop = cluster.relay.listen((h) => {
    if (h.seq <= last || res.writableEnded) return;
    last = h.seq;
    if (!keep(h)) return;
    res.write(hopLine(h));
    closeIfSlow(server, res, stop);
  });
  const end = () => {
    stop();
    if (!res.writableEnded) res.end();
  };
  req.on('close', end);
  res.on('close', end);
}
