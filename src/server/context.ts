/**
 * The types the HTTP handlers share (server.ts routes, rest.ts serves resources, watch.ts,
 * logs.ts and relay.ts stream): the server's context and counters, the resource a path names,
 * and what a request carries. Kept apart so that the handler files import them without
 * importing each other back (src/architecture.test.ts forbids import loops).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Cluster } from '../cluster/cluster';
import type { RequestUser } from '../cluster/apiserver/apiserver';
import type { ResourceInfo } from '../cluster/api/resources';

/** Counters of a running server (wall-clock events, for the load test and the tests). */
export interface ServerStats {
  /** Requests answered (any status). */
  requests: number;
  /** 429s from max-in-flight. */
  tooManyRequests: number;
  /** Watch and relay streams closed because their client did not read. */
  slowWatchersClosed: number;
  /** Watch and relay streams open now. */
  openStreams: number;
}

/** Per-server context the handlers need. */
export interface ServerContext {
  cluster: Cluster;
  hostPort: string;
  speed: number;
  stats: ServerStats;
  watchBufferBytes: number;
  maxRequestBodyBytes: number;
}

/** One resource request: what the path names. */
export interface Target {
  info: ResourceInfo;
  /** "" for cluster-scoped resources and for all-namespaces lists. */
  namespace: string;
  name?: string;
  sub?: string;
}

/** What a request carries besides the path. */
export interface RequestCtx {
  cluster: Cluster;
  /** Who the credential (and any impersonation) says is calling. */
  user: RequestUser;
  query: URLSearchParams;
  req: IncomingMessage;
  res: ServerResponse;
  /** The default field manager: the User-Agent's product (handlers/rest.go managerOrUserAgent). */
  manager: string;
  /** Limits and counters of the server. */
  server: ServerContext;
}
