/**
 * Small HTTP helpers of the server: JSON and Status responses, `Warning` headers
 * (RFC 7234 299 warnings, as the apiserver's warning recorder writes them), body reading.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify as toYAML } from 'yaml';
import { StatusError, type Status } from '../cluster/api/errors';

const yamlResponses = new WeakSet<ServerResponse>();

/** Marks a response as negotiated to application/yaml (negotiation.ts): sendJSON writes YAML. */
export function answerInYAML(res: ServerResponse): void {
  yamlResponses.add(res);
}

/** Writes a JSON body (YAML when the response was negotiated to it and the type is plain JSON). */
export function sendJSON(
  res: ServerResponse,
  code: number,
  body: unknown,
  contentType = 'application/json',
  warnings: string[] = [],
): void {
  let text: string;
  if (contentType === 'application/json' && yamlResponses.has(res)) {
    text = toYAML(body, { aliasDuplicateObjects: false });
    contentType = 'application/yaml';
  } else text = JSON.stringify(body);
  const headers: Record<string, string | string[]> = {
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-cache, private',
  };
  // warnings set earlier on the response (a deprecated API's, rest.ts) come first, each once
  const prior = res.getHeader('Warning');
  const all = [
    ...new Set([
      ...(prior === undefined ? [] : Array.isArray(prior) ? prior : [String(prior)]),
      ...warnings.map((w) => `299 - ${JSON.stringify(w)}`),
    ]),
  ];
  if (all.length) headers.Warning = all;
  res.writeHead(code, headers);
  res.end(text);
}

/** A metav1.Status failure as kube-apiserver answers it. */
export function sendStatus(res: ServerResponse, s: Status): void {
  sendJSON(res, s.code, s);
}

/**
 * A Failure Status with any metav1.StatusReason, including those the engine never raises
 * (Unauthorized, RequestEntityTooLarge, TooManyRequests) and "" (StatusReasonUnknown, which the
 * wire form omits: ErrorToAPIStatus for an error that is not an APIStatus).
 */
export function statusError(code: number, reason: string, message: string): StatusError {
  const s = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), code };
  return new StatusError(s as Status);
}

/** 404 for a path nothing serves (the apiserver's NotFound handler). */
export function notFoundPath(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}

/** 405 for a verb a path does not serve. */
export function methodNotAllowed(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server does not allow this method on the requested resource',
    reason: 'MethodNotAllowed',
    details: {},
    code: 405,
  });
}

/** 500 for an unexpected exception (kube-apiserver's panic recovery answers the same way). */
export function internalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err);
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${msg}`,
    reason: 'InternalError',
    details: { causes: [{ reason: '', message: msg }] },
    code: 500,
  });
}

/** Reads the whole request body as bytes. */
export function readBodyBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Reads the whole request body as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBodyBytes(req)).toString('utf8');
}
