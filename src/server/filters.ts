/**
 * The HTTP filters in front of the API handlers, in kube-apiserver's order
 * (staging/src/k8s.io/apiserver/pkg/server/config.go DefaultBuildHandlerChain):
 *
 * - Host check (kube-relay's own, first): the Host header must name the address the server
 *   listens on — its IP (or `localhost` when that is loopback; any IP literal or `localhost`
 *   when it listens on all addresses) and its port — so a DNS-rebinding page (`Host:
 *   evil.example:6443`) is refused with 403 before anything runs;
 * - CORS (pkg/server/filters/cors.go WithCORS): only for origins matching
 *   `--cors-allowed-origins` (regular expressions, lower-cased, as upstream); no origin is
 *   allowed by default; an allowed origin gets the upstream Access-Control-* headers and a
 *   preflight OPTIONS its 204; other origins pass through without them;
 * - authentication and impersonation (auth.ts);
 * - max-in-flight (pkg/server/filters/maxinflight.go WithMaxInFlightLimit): at most
 *   --max-requests-inflight (400) read-only and --max-mutating-requests-inflight (200) mutating
 *   requests at once; long-running requests (watch, pods/log, relay streams) are not counted;
 *   over the limit: 429 `Too many requests, please try again later.` as text/plain with
 *   `Retry-After: 1`, exactly what upstream's tooManyRequests writes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { statusError } from './http-util';
import type { StatusError } from '../cluster/api/errors';

/** kube-apiserver's --max-requests-inflight default. */
export const MAX_REQUESTS_INFLIGHT = 400;
/** kube-apiserver's --max-mutating-requests-inflight default. */
export const MAX_MUTATING_REQUESTS_INFLIGHT = 200;

const LOOPBACK = (h: string) => h === 'localhost' || h === '::1' || h.startsWith('127.');

/** Splits a Host header value into host and port ("[::1]:6443" → ["::1", "6443"]). */
export function splitHostHeader(value: string): [string, string] {
  const v = value.trim().toLowerCase();
  const m = /^\[([^\]]+)\](?::(\d*))?$/.exec(v) ?? /^([^:]*)(?::(\d*))?$/.exec(v);
  return m ? [m[1], m[2] ?? ''] : [v, ''];
}

/**
 * Whether a Host header names this server (bound to `bindHost`, listening on `port`).
 * An absent Host header (HTTP/1.0) does not.
 */
export function hostAllowed(hostHeader: string | undefined, bindHost: string, port: number): boolean {
  if (!hostHeader) return false;
  const [h, p] = splitHostHeader(hostHeader);
  if (p !== String(port)) return false;
  const bind = bindHost.toLowerCase();
  if (bind === '0.0.0.0' || bind === '::' || bind === '') return h === 'localhost' || isIP(h) !== 0;
  if (h === bind) return true;
  return LOOPBACK(bind) && (h === 'localhost' || h === '127.0.0.1' || h === '::1');
}

/** 403 for a Host header that names another server. */
export function newMisdirected(hostHeader: string | undefined, bindHost: string, port: number): StatusError {
  const shown = bindHost.includes(':') ? `[${bindHost}]:${port}` : `${bindHost}:${port}`;
  return statusError(
    403,
    'Forbidden',
    `forbidden: the Host header ${JSON.stringify(hostHeader ?? '')} does not name this server (${shown}); refused to protect against DNS rebinding`,
  );
}

/** WithCORS's allowed methods, headers (plus the app's X-Kube-Relay-Observer) and exposed headers. */
const CORS_HEADERS = {
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
  'Access-Control-Allow-Headers':
    'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since, X-Kube-Relay-Observer',
  'Access-Control-Expose-Headers': 'Date, Warning',
  'Access-Control-Allow-Credentials': 'true',
};

/**
 * Compiles --cors-allowed-origins patterns (upstream lower-cases each and matches it anywhere
 * in the Origin, so anchor them: `^https?://127\.0\.0\.1:4173$`).
 * @throws Error naming a pattern that is not a regular expression.
 */
export function compileAllowedOrigins(patterns: string[]): RegExp[] {
  return patterns.map((p) => {
    try {
      return new RegExp(p.toLowerCase());
    } catch {
      throw new Error(`--cors-allowed-origins: ${JSON.stringify(p)} is not a valid regular expression`);
    }
  });
}

/**
 * WithCORS: sets the Access-Control-* headers for an allowed Origin.
 * @returns true when the request was a preflight now answered (204).
 */
export function withCORS(req: IncomingMessage, res: ServerResponse, allowed: RegExp[]): boolean {
  const origin = req.headers.origin;
  if (!origin || !allowed.length || !allowed.some((re) => re.test(origin))) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
  if (req.method === 'OPTIONS') {
    res.writeHead(204);
    res.end();
    return true;
  }
  return false;
}

/** Counts requests in flight against the two limits. */
export class MaxInFlight {
  private readonly = 0;
  private mutating = 0;
  /** 429s answered so far. */
  rejected = 0;
  constructor(
    readonly maxReadOnly = MAX_REQUESTS_INFLIGHT,
    readonly maxMutating = MAX_MUTATING_REQUESTS_INFLIGHT,
  ) {}

  /**
   * Takes a slot for a request until its response closes.
   * @returns false (and has answered 429) when the limit is reached.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const isMutating = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS';
    const limit = isMutating ? this.maxMutating : this.maxReadOnly;
    const cur = isMutating ? this.mutating : this.readonly;
    if (limit > 0 && cur >= limit) {
      this.rejected++;
      res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('Too many requests, please try again later.\n');
      return false;
    }
    if (isMutating) this.mutating++;
    else this.readonly++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (isMutating) this.mutating--;
      else this.readonly--;
    };
    res.on('finish', release);
    res.on('close', release);
    return true;
  }

  /** Requests holding a slot now. */
  get inFlight(): number {
    return this.readonly + this.mutating;
  }
}
