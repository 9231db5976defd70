/**
 * The request line as kube-apiserver reads it, before anything resolves it: Go's net/http
 * parses the request-target (url.ParseRequestURI: the path is percent-decoded once, never
 * cleaned — `..` and `.` stay segments), and staging/src/k8s.io/apiserver/pkg/endpoints/request/
 * requestinfo.go splits that decoded path on "/". Names taken from the path are checked as the
 * registry's key functions do (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
 * NamespaceKeyFunc / NoNamespaceKeyFunc with apimachinery's path.IsValidPathSegmentName):
 * `.` and `..` and names containing `/` or `%` answer 400 `Name parameter invalid: …`.
 *
 * WHATWG `new URL()` must never see the path: it resolves `..` and `%2e%2e`, which turned
 * `DELETE …/namespaces/victim/pods/..` into a DELETE of the namespace.
 */
import { goQuote, newBadRequest } from '../cluster/api/errors';

/** A request-target split as Go's server does: decoded path segments and the raw query. */
export interface RequestURI {
  /** The decoded path ("/api/v1/pods"), one trailing "/" removed; never normalised. */
  path: string;
  /** path split on "/" with the leading and one trailing "/" trimmed; may hold "" for "//". */
  parts: string[];
  /** The query (`URLSearchParams` of the raw query, Go's url.ParseQuery decoding). */
  query: URLSearchParams;
}

/** Thrown for a request-target Go's server refuses before any handler: plain-text 400. */
export class BadRequestLine extends Error {}

const HEX = /^[0-9a-fA-F]{2}$/;

/**
 * Decodes %XX escapes in a path as Go's url.unescape(s, encodePath) does ("+" stays "+").
 * @throws BadRequestLine for an escape that is not two hex digits (`invalid URL escape "%zz"`).
 */
export function unescapePath(raw: string): string {
  if (!raw.includes('%')) return raw;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25) {
      const hex = raw.slice(i + 1, i + 3);
      if (!HEX.test(hex)) throw new BadRequestLine(`invalid URL escape ${goQuote(raw.slice(i, i + 3))}`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else bytes.push(...Buffer.from(raw[i] + (c >= 0xd800 && c < 0xdc00 ? (raw[++i] ?? '') : ''), 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Parses `req.url` (origin-form "/p?q", or absolute-form "http://h/p?q" which Go also accepts).
 * @throws BadRequestLine when Go's url.ParseRequestURI would refuse it.
 */
export function parseRequestURI(rawUrl: string): RequestURI {
  let target = rawUrl;
  const abs = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?]*/.exec(target);
  if (abs) target = target.slice(abs[0].length) || '/';
  if (!target.startsWith('/')) throw new BadRequestLine(`parse ${goQuote(rawUrl)}: invalid URI for request`);
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const rawQuery = q < 0 ? '' : target.slice(q + 1);
  let path = unescapePath(rawPath);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const trimmed = path.replace(/^\//, '');
  const parts = trimmed === '' ? [] : trimmed.split('/');
  return { path, parts, query: new URLSearchParams(rawQuery) };
}

/** Names that may not be used as a path segment (apimachinery path.NameMayNotBe). */
export const NAME_MAY_NOT_BE = ['.', '..'];
/** Substrings a path segment name may not contain (apimachinery path.NameMayNotContain). */
export const NAME_MAY_NOT_CONTAIN = ['/', '%'];

/**
 * apimachinery's path.IsValidPathSegmentName: the reasons `name` cannot be a path segment,
 * e.g. ["may not be '..'"] or ["may not contain '/'", "may not contain '%'"]; [] when it can.
 */
export function isValidPathSegmentName(name: string): string[] {
  for (const bad of NAME_MAY_NOT_BE) if (name === bad) return [`may not be '${bad}'`];
  return NAME_MAY_NOT_CONTAIN.filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/**
 * The registry key functions' name check: 400 `Name parameter invalid: "..": may not be '..'`
 * (several reasons joined by ";"), or `Name parameter required.` for an empty name.
 * @throws StatusError 400.
 */
export function validatePathName(name: string): void {
  if (name === '') throw newBadRequest('Name parameter required.');
  const msgs = isValidPathSegmentName(name);
  if (msgs.length) throw newBadRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
}
