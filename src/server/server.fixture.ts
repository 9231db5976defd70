/**
 * Test helpers for the HTTP server: raw requests (node:http, so the path reaches the server
 * byte for byte — WHATWG fetch would resolve `..` and `%2e%2e` before sending).
 */
import { request } from 'node:http';

/** A raw answer: status, headers, body text, and the body as JSON when it parses. */
export interface RawAnswer {
  code: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** Options of {@link rawRequest}. */
export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bearer token; omitted when undefined. */
  token?: string;
}

/**
 * Sends one request to 127.0.0.1:`port` with `path` exactly as given.
 * @returns the whole answer (resolves once the response ends).
 */
export function rawRequest(port: number, path: string, o: RawOptions = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      Host: `127.0.0.1:${port}`,
      ...(o.token !== undefined ? { Authorization: `Bearer ${o.token}` } : {}),
      ...(o.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(o.body)) } : {}),
      ...o.headers,
    };
    const req = request({ host: '127.0.0.1', port, path, method: o.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ code: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

/** A metav1.Status failure as the server writes it (reason omitted when ""). */
export function failure(code: number, reason: string, message: string, details?: unknown): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(reason ? { reason } : {}),
    ...(details ? { details } : {}),
    code,
  };
}
