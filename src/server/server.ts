/**
 * The engine served over the Kubernetes HTTP API (docs/architecture.md#the-http-server): a Node `http` server in
 * front of a Cluster, which runs on its simulated clock advanced by wall time × speed.
 * Routes: /version, /healthz|/livez|/readyz, discovery (/api, /apis, aggregated v2),
 * /openapi/v2 and /openapi/v3, the resource endpoints (rest.ts), and kube-relay's own
 * /kube-relay/v1/info and /kube-relay/v1/relay (the recorded relay as NDJSON, relay.ts). Every error is a
 * metav1.Status with the upstream code, reason and message.
 *
 * CORS: requests with an Origin from 127.0.0.1/localhost get Access-Control-Allow-* headers
 * (and OPTIONS preflights an answer), so a browser app on another local port can attach.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cluster } from '../cluster/cluster';
import { users } from '../cluster/client/clientset';
import { StatusError } from '../cluster/api/errors';
import { AGGREGATED_V2, VERSION_INFO, aggregatedDiscovery, apiGroupList, apiResourceList, apiVersions, groupVersions } from './discovery';
import { internalError, notFoundPath, sendJSON, sendStatus } from './http-util';
import { resolveTarget, serveResource } from './rest';
import { openAPIV2, openAPIV3Doc, openAPIV3Index } from './openapi';
import { RELAY_PREFIX, serveRelay } from './relay';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
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
}

/** A running server. */
export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Stops the clock and the server (open watches are closed). */
  close(): Promise<void>;
}

/** The relay participant of a client: kubectl, or the product name of its User-Agent. */
function participantOf(req: IncomingMessage): string {
  const ua = req.headers['user-agent'] ?? '';
  const product = ua.split('/')[0].trim();
  return product || 'kubectl';
}

function cors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (!origin || !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Authorization, X-Kube-Relay-Observer');
  res.setHeader('Access-Control-Expose-Headers', 'Warning, Date');
  return true;
}

async function route(cluster: Cluster, host: string, speed: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const accept = req.headers.accept ?? '';
  if (cors(req, res) && req.method === 'OPTIONS') {
    res.writeHead(204);
    res.end();
    return;
  }
  if (path === '/version') return sendJSON(res, 200, VERSION_INFO);
  if (path === '/healthz' || path === '/livez' || path === '/readyz') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
    return;
  }
  if (path.startsWith(`${RELAY_PREFIX}/`)) return serveRelay(cluster, speed, path, url.searchParams, req, res);
  if (path === '/openapi/v2') return openAPIV2(cluster, req, res);
  if (path === '/openapi/v3') return sendJSON(res, 200, openAPIV3Index(cluster));
  if (path.startsWith('/openapi/v3/')) {
    const doc = openAPIV3Doc(cluster, path.slice('/openapi/v3/'.length));
    if (!doc) throw notFoundPath();
    return sendJSON(res, 200, doc);
  }
  const parts = path.split('/').filter(Boolean);
  const reg = cluster.api.registry;
  if (parts[0] === 'api' || parts[0] === 'apis') {
    const core = parts[0] === 'api';
    if (parts.length === 1) {
      if (accept.includes('as=APIGroupDiscoveryList')) return sendJSON(res, 200, aggregatedDiscovery(reg, core), AGGREGATED_V2);
      return sendJSON(res, 200, core ? apiVersions(host) : apiGroupList(reg));
    }
    const group = core ? '' : parts[1];
    if (!core && parts.length === 2) {
      const g = groupVersions(reg).find((x) => x.group === group);
      if (!g) throw notFoundPath();
      const versions = g.versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
      return sendJSON(res, 200, { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] });
    }
    const version = core ? parts[1] : parts[2];
    const rest = parts.slice(core ? 2 : 3);
    if (!rest.length) {
      const list = apiResourceList(reg, group, version);
      if (!list) throw notFoundPath();
      return sendJSON(res, 200, list);
    }
    const t = resolveTarget(cluster, group, version, rest);
    if (!t) throw notFoundPath();
    const user = users.kubectl(participantOf(req));
    return serveResource({ cluster, user, query: url.searchParams, req, res }, t);
  }
  throw notFoundPath();
}

/**
 * Starts serving `cluster`. The simulated clock follows wall time × speed from now on.
 * @returns the URL (http://127.0.0.1:PORT) and a close function.
 */
export async function startServer(cluster: Cluster, opts: ServerOptions = {}): Promise<RunningServer> {
  const hostname = opts.host ?? '127.0.0.1';
  const speed = opts.speed ?? 1;
  let hostPort = '';
  const server = createServer((req, res) => {
    route(cluster, hostPort, speed, req, res).catch((err: unknown) => {
      const s = err instanceof StatusError ? err.status : internalError(err).status;
      if (!(err instanceof StatusError)) console.error(err);
      if (res.headersSent) res.end();
      else sendStatus(res, s);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 6443, hostname, resolve));
  const port = (server.address() as AddressInfo).port;
  hostPort = `${hostname}:${port}`;
  const wallStart = opts.wallStartMs ?? Date.now();
  const simStart = cluster.now();
  const tick = setInterval(() => {
    const target = simStart + (Date.now() - wallStart) * speed;
    if (target > cluster.now()) cluster.clock.runUntil(target);
  }, opts.tickMs ?? 10);
  return {
    url: `http://${hostPort}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(tick);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
