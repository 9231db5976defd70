/**
 * The engine served over the Kubernetes HTTP API (docs/architecture.md#the-http-server): a Node server in front of a
 * Cluster, which runs on its simulated clock advanced by wall time × speed.
 * Routes: /version, /healthz|/livez|/readyz, discovery (/api, /apis, aggregated v2),
 * /openapi/v2 and /openapi/v3, the resource endpoints (rest.ts), and kube-relay's own
 * /kube-relay/v1/info and /kube-relay/v1/relay (the recorded relay as NDJSON, relay.ts). Every error is a
 * metav1.Status with the upstream code, reason and message.
 *
 * One port speaks TLS (a per-start self-signed certificate, tls.ts: what the kubeconfig names,
 * since kubectl sends credentials only over TLS) and plain HTTP (for local tools and tests; the
 * same token is required). Every request passes, in order: the request-line parse
 * (request-info.ts: no path normalisation), the Host check, CORS, authentication,
 * impersonation, max-in-flight (filters.ts, auth.ts), then the handlers with their content
 * negotiation (negotiation.ts), body limit (body.ts) and query validation (params.ts).
 * Node's server timeouts follow kube-apiserver's http.Server: 32 s to send the headers, 90 s idle
 * keep-alive; a whole request must arrive within 60 s; headers are at most 16 KiB (Node's default,
 * smaller than Go's 1 MiB). A non-long-running response still unsent after 60 s is dropped.
 */
import { createServer as createHTTPServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHTTPSServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { Cluster } from '../cluster/cluster';
import { StatusError, newMethodNotAllowed } from '../cluster/api/errors';
import { AGGREGATED_V2, VERSION_INFO, aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions } from './discovery';
import { answerInYAML, internalError, notFoundPath, sendJSON, sendStatus } from './http-util';
import { resolveTarget, serveResource } from './rest';
import type { ServerContext, ServerStats } from './context';

/** The handlers' shared types, re-exported from context.ts where they are defined. */
export type { ServerContext, ServerStats } from './context';
import { openAPIV2, openAPIV3Doc, openAPIV3Index } from './openapi';
import { RELAY_PREFIX, serveRelay } from './relay';
import { BadRequestLine, parseRequestURI, validatePathName, type RequestURI } from './request-info';
import { ImpersonationError, authenticate, impersonate, newBearerToken } from './auth';
import { REVIEW_RESOURCES } from '../cluster/apiserver/auth/reviews';
import { MaxInFlight, compileAllowedOrigins, hostAllowed, newMisdirected, withCORS } from './filters';
import { negotiateInput, negotiateOutput } from './negotiation';
import { goQueryBool } from './params';
import { selfSignedCert, type ServingCert } from './tls';
import { MAX_REQUEST_BODY_BYTES, decodeUntypedBody, readLimitedBody } from './body';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one. Default 6443. */
  port?: number;
  /** Address to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Simulated ms per wall ms (1 = real time). */
  speed?: number;
  /** Wall ms between clock advances. */
  tickMs?: number;
  /**
   * Wall-clock ms at which the cluster's current simulated time was taken (default: when the
   * server starts listening); the clock follows `now() + (wall − wallStartMs) × speed`, so time
   * spent building the cluster after anchoring its epoch (src/server/epoch.ts) is caught up.
   */
  wallStartMs?: number;
  /** The bearer token every request but the anonymous health/version paths must carry; default: a fresh random one. */
  token?: string;
  /** The serving certificate; default: a fresh self-signed one (tls.ts). */
  cert?: ServingCert;
  /** --cors-allowed-origins: regular expressions; none (no CORS) by default. */
  corsAllowedOrigins?: string[];
  /** --max-requests-inflight (default 400; 0 = no limit). */
  maxRequestsInflight?: number;
  /** --max-mutating-requests-inflight (default 200; 0 = no limit). */
  maxMutatingRequestsInflight?: number;
  /** Bytes a watch or relay stream may have queued for a client that does not read before it is closed; default 256 KiB. */
  watchBufferBytes?: number;
  /** Request body limit, bytes; default 3 MiB. */
  maxRequestBodyBytes?: number;
  /** Wall ms the clock loop may run per tick before it yields to requests; default 25. */
  tickBudgetMs?: number;
}

/** A running server. */
export interface RunningServer {
  /** http://HOST:PORT (plain HTTP on the same port; the token is still required). */
  url: string;
  /** https://HOST:PORT, what the kubeconfig names. */
  httpsUrl: string;
  port: number;
  /** The bearer token (Authorization: Bearer …). */
  token: string;
  /** PEM of the serving certificate (the kubeconfig's certificate-authority-data). */
  caPem: string;
  server: Server;
  stats: ServerStats;
  /** Stops the clock and the server (open watches are closed). */
  close(): Promise<void>;
}

/** The field manager a write without fieldManager records (handlers/rest.go managerOrUserAgent: the User-Agent before "/"). */
export function managerFromUserAgent(req: IncomingMessage): string {
  return (req.headers['user-agent'] ?? '').split('/')[0];
}

/** Whether a request is long-running (server.go's LongRunningFunc: watch, pods/log; and relay streams). */
function isLongRunning(uri: RequestURI): boolean {
  if (uri.path.startsWith(`${RELAY_PREFIX}/`)) return goQueryBool(uri.query, 'watch') ?? false;
  if (uri.parts[0] !== 'api' && uri.parts[0] !== 'apis') return false;
  return (goQueryBool(uri.query, 'watch') ?? false) || uri.parts[uri.parts.length - 1] === 'log';
}

/**
 * A review's body, within the server's body limit, decoded as its Content-Type says: JSON (also
 * when absent), YAML, or Kubernetes protobuf, which `kubectl auth can-i` / `auth whoami` send
 * (create.go createHandler: negotiation.NegotiateInputSerializer, then the serializer's Decode).
 * @throws StatusError 400 (undecodable), 413, 415 (another media type).
 */
async function readReviewBody(req: IncomingMessage, limit: number): Promise<import('../cluster/api/types').KObject> {
  const body = decodeUntypedBody(await readLimitedBody(req, limit), negotiateInput(req.headers['content-type']));
  return (body ?? {}) as import('../cluster/api/types').KObject;
}

async function route(
  ctx: ServerContext,
  uri: RequestURI,
  user: import('../cluster/apiserver/apiserver').RequestUser,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { cluster } = ctx;
  const { path, parts, query } = uri;
  const accept = req.headers.accept ?? '';
  if (path === '/version') return sendJSON(res, 200, VERSION_INFO);
  if (path === '/healthz' || path === '/livez' || path === '/readyz') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end('ok');
    return;
  }
  if (path.startsWith(`${RELAY_PREFIX}/`)) return serveRelay(ctx, path, query, req, res);
  if (path === '/openapi/v2') return openAPIV2(cluster, req, res);
  if (path === '/openapi/v3') return sendJSON(res, 200, openAPIV3Index(cluster));
  if (path.startsWith('/openapi/v3/')) {
    const doc = openAPIV3Doc(cluster, path.slice('/openapi/v3/'.length));
    if (!doc) throw notFoundPath();
    return sendJSON(res, 200, doc);
  }
  const reg = cluster.api.registry;
  if (parts[0] === 'api' || parts[0] === 'apis') {
    if (parts.includes('')) throw notFoundPath();
    if (negotiateOutput(accept) === 'yaml') answerInYAML(res);
    const core = parts[0] === 'api';
    if (parts.length === 1) {
      if (accept.includes('as=APIGroupDiscoveryList')) return sendJSON(res, 200, aggregatedDiscovery(reg, core), AGGREGATED_V2);
      return sendJSON(res, 200, core ? apiVersions(ctx.hostPort) : apiGroupList(reg));
    }
    const group = core ? '' : parts[1];
    if (!core && parts.length === 2) {
      const g = apiGroup(reg, group);
      if (!g) throw notFoundPath();
      return sendJSON(res, 200, g);
    }
    const version = core ? parts[1] : parts[2];
    const rest = parts.slice(core ? 2 : 3);
    if (!rest.length) {
      const list = apiResourceList(reg, group, version);
      if (!list) throw notFoundPath();
      return sendJSON(res, 200, list);
    }
    // the review APIs (auth/reviews.ts): POST only, answered and never stored
    const reviewRes = rest.length === 1 ? rest[0] : rest.length === 3 && rest[0] === 'namespaces' ? rest[2] : '';
    const reviewKey = `${reviewRes}.${group}`;
    if (version === 'v1' && REVIEW_RESOURCES.has(reviewKey)) {
      if (req.method !== 'POST') throw newMethodNotAllowed('the server does not allow this method on the requested resource');
      const body = await readReviewBody(req, ctx.maxRequestBodyBytes);
      return sendJSON(res, 201, cluster.api.review(user, reviewKey, rest.length === 3 ? rest[1] : '', body));
    }
    const t = resolveTarget(cluster, group, version, rest);
    if (!t) throw notFoundPath();
    // the registry key functions' name check, for every verb and scope (store.go NamespaceKeyFunc)
    if (t.name !== undefined) validatePathName(t.name);
    return serveResource({ cluster, user, query, req, res, manager: managerFromUserAgent(req), server: ctx }, t);
  }
  throw notFoundPath();
}

/**
 * A stream that yields `first` and then what `socket` reads, writing through to it (with its
 * back-pressure): what TLS is layered on, since bytes already read cannot be handed back to the
 * socket's native handle that a TLSSocket over a net.Socket would read from.
 */
function prepended(socket: Socket, first: Buffer): Duplex {
  let started = false;
  const d = new Duplex({
    read() {
      if (!started) {
        started = true;
        this.push(first);
      }
      socket.resume();
    },
    write(chunk: Buffer, _enc, cb) {
      socket.write(chunk, cb);
    },
    final(cb) {
      socket.end();
      cb();
    },
    destroy(err, cb) {
      socket.destroy(err ?? undefined);
      cb(err);
    },
  });
  socket.on('data', (c: Buffer) => {
    if (!d.push(c)) socket.pause();
  });
  socket.on('end', () => d.push(null));
  socket.on('error', (e) => d.destroy(e));
  socket.on('close', () => d.destroy());
  return d;
}

/** responsewriters.InternalError's plain-text body (HTML-escaped as its sanitizer does). */
function internalErrorText(req: IncomingMessage, err: Error): string {
  const s = `Internal Server Error: ${JSON.stringify(req.url ?? '')}: ${err.message}`;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Starts serving `cluster`. The simulated clock follows wall time × speed from now on.
 * @returns the URLs, token, certificate and a close function.
 */
export async function startServer(cluster: Cluster, opts: ServerOptions = {}): Promise<RunningServer> {
  const hostname = opts.host ?? '127.0.0.1';
  const speed = opts.speed ?? 1;
  const token = opts.token ?? newBearerToken();
  const cert = opts.cert ?? selfSignedCert(hostname, Date.now());
  const origins = compileAllowedOrigins(opts.corsAllowedOrigins ?? []);
  const inflight = new MaxInFlight(opts.maxRequestsInflight ?? 400, opts.maxMutatingRequestsInflight ?? 200);
  const stats: ServerStats = { requests: 0, tooManyRequests: 0, slowWatchersClosed: 0, openStreams: 0 };
  let port = 0;
  const ctx: ServerContext = {
    cluster,
    hostPort: '',
    speed,
    stats,
    watchBufferBytes: opts.watchBufferBytes ?? 256 * 1024,
    maxRequestBodyBytes: opts.maxRequestBodyBytes ?? MAX_REQUEST_BODY_BYTES,
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    res.on('finish', () => stats.requests++);
    const fail = (err: unknown) => {
      if (err instanceof BadRequestLine) {
        res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
        res.end('400 Bad Request');
        return;
      }
      if (err instanceof ImpersonationError) {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
        res.end(`${internalErrorText(req, err)}\n`);
        return;
      }
      const s = err instanceof StatusError ? err.status : internalError(err).status;
      if (!(err instanceof StatusError)) console.error(err);
      if (res.headersSent) {
        res.end();
        return;
      }
      if (s.code === 413) {
        res.setHeader('Connection', 'close');
        sendStatus(res, s);
        return;
      }
      // a body refused before it was read is drained first, so the answer is not cut off by it
      if (req.complete) sendStatus(res, s);
      else {
        req.resume();
        req.once('end', () => sendStatus(res, s));
      }
    };
    try {
      const uri = parseRequestURI(req.url ?? '/');
      if (!hostAllowed(req.headers.host, hostname, port)) throw newMisdirected(req.headers.host, hostname, port);
      if (withCORS(req, res, origins)) return;
      const auth = authenticate(req, uri.path, token, cluster.api);
      const user = auth.kind === 'user' ? impersonate(req, auth.user, cluster.api.authorizer) : undefined;
      const longRunning = isLongRunning(uri);
      if (!longRunning && !inflight.admit(req, res)) {
        stats.tooManyRequests = inflight.rejected;
        return;
      }
      if (!longRunning) {
        // WithTimeoutForNonLongRunningRequests' bound, for a response a client will not take
        const t = setTimeout(() => {
          if (!res.writableFinished) res.destroy();
        }, 60_000);
        res.on('close', () => clearTimeout(t));
      }
      route(ctx, uri, user ?? { name: 'system:anonymous', participant: 'kubectl', groups: ['system:unauthenticated'] }, req, res).catch(
        fail,
      );
    } catch (err) {
      fail(err);
    }
  };

  const timeouts = { headersTimeout: 32_000, requestTimeout: 60_000, keepAliveTimeout: 90_000, connectionsCheckingInterval: 1000 };
  const plain = createHTTPServer(timeouts, handle);
  const secure = createHTTPSServer({ ...timeouts, key: cert.keyPem, cert: cert.certPem }, handle);
  // a request Node cannot parse gets Go's plain `400 Bad Request`; bytes after an answer that
  // closed the connection are dropped
  const clientError = (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'HPE_CLOSED_CONNECTION' || err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
  };
  plain.on('clientError', clientError);
  secure.on('clientError', clientError);
  const sockets = new Set<Socket>();
  // one port, two protocols: a TLS ClientHello starts with 0x16 (a handshake record)
  const listener = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      if (first[0] === 0x16) {
        secure.emit('connection', prepended(socket, first));
        return;
      }
      socket.unshift(first);
      plain.emit('connection', socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(opts.port ?? 6443, hostname, () => resolve());
  });
  // Node starts the header/request timeout checks of a server when it "listens"
  plain.emit('listening');
  secure.emit('listening');
  port = (listener.address() as AddressInfo).port;
  const shownHost = hostname.includes(':') ? `[${hostname}]` : hostname;
  ctx.hostPort = `${shownHost}:${port}`;
  const wallStart = opts.wallStartMs ?? Date.now();
  const simStart = cluster.now();
  const budget = opts.tickBudgetMs ?? 25;
  const tick = setInterval(() => {
    const target = simStart + (Date.now() - wallStart) * speed;
    if (target <= cluster.now()) return;
    // the clock yields after `budget` wall ms, so requests and signals are served while it catches up
    const t0 = Date.now();
    cluster.clock.runUntil(target, () => Date.now() - t0 >= budget);
  }, opts.tickMs ?? 10);
  return {
    url: `http://${ctx.hostPort}`,
    httpsUrl: `https://${ctx.hostPort}`,
    port,
    token,
    caPem: cert.certPem,
    server: plain,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(tick);
        plain.closeAllConnections();
        secure.closeAllConnections();
        for (const s of sockets) s.destroy();
        plain.close();
        secure.close();
        listener.close(() => resolve());
      }),
  };
}
