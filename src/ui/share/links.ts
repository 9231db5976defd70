/**
 * Share links (docs/ui-hooks.md#share-links): `/#manifest=<base64url YAML>` and
 * `/?scenario=<url-encoded path or base64url YAML>`, applied only with `&apply=1`.
 * Pure: no DOM beyond the strings given.
 */

/** UTF-8 text → base64url without padding. */
export function encodeBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) → UTF-8 text; null when it is not valid base64url or UTF-8. */
export function decodeBase64Url(s: string): string | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(s)) return null;
  try {
    const bin = atob(
      s
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .replace(/=+$/, '')
        .padEnd(Math.ceil(s.replace(/=+$/, '').length / 4) * 4, '='),
    );
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export type SharedContent =
  | { kind: 'text'; text: string; name: string; apply: boolean }
  | { kind: 'path'; path: string; name: string; apply: boolean; /** the resolved same-origin address to fetch */ url: string }
  | { kind: 'invalid'; reason: string };

function fileName(path: string): string {
  return path.split('/').pop() || 'shared.yaml';
}

/**
 * The address a `?scenario=` path stands for, or null when it leaves `base`'s origin. Resolved
 * as the browser's fetch would resolve it (`new URL(value, base)`: a leading backslash, `/\`, tabs
 * and newlines inside are read as the URL parser reads them, so `\/evil.example` is
 * protocol-relative), then the origins compared; only http(s) on the same origin is allowed.
 */
export function resolveScenarioUrl(value: string, base: string): URL | null {
  let u: URL;
  let b: URL;
  try {
    b = new URL(base);
    u = new URL(value, b);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.origin !== b.origin || u.username || u.password) return null;
  return u;
}

/** The origin a share link is checked against when the caller gives none (tests). */
const DEFAULT_BASE = 'http://localhost/';

/**
 * What a page address asks to open, or null when it is an ordinary address. A scenario value
 * that looks like a path (has a `/` or a `.yaml`/`.yml`/`.json` ending) is a path on `base`'s
 * origin (resolved by {@link resolveScenarioUrl}; another origin is `invalid`); otherwise it
 * must decode as base64url YAML. `base` is the page's address (`location.href`).
 */
export function parseShareLink(search: string, hash: string, base: string = DEFAULT_BASE): SharedContent | null {
  const q = new URLSearchParams(search.replace(/^\?/, ''));
  const h = new URLSearchParams(hash.replace(/^#/, ''));
  const apply = q.get('apply') === '1' || h.get('apply') === '1';
  const manifest = h.get('manifest') ?? q.get('manifest');
  if (manifest !== null) {
    const text = decodeBase64Url(manifest.trim());
    return text === null
      ? { kind: 'invalid', reason: 'the #manifest= link is not valid base64url' }
      : { kind: 'text', text, name: 'shared.yaml', apply };
  }
  const scenario = q.get('scenario');
  if (scenario === null) return null;
  const s = scenario.trim();
  if (/[/\\.]/.test(s) && /(^|[/\\])[^/\\]*\.(ya?ml|json)$/i.test(s)) {
    const url = s.includes('..') ? null : resolveScenarioUrl(s, base);
    if (!url) return { kind: 'invalid', reason: `scenario path not allowed: ${JSON.stringify(s).slice(1, -1)}` };
    const path = url.pathname.replace(/^\/+/, '');
    return { kind: 'path', path, name: fileName(path), apply, url: url.href };
  }
  const text = decodeBase64Url(s);
  return text === null
    ? { kind: 'invalid', reason: 'the ?scenario= link is neither a path nor base64url YAML' }
    : { kind: 'text', text, name: 'scenario.yaml', apply };
}

/** The share link for a manifest: `<origin><path>#manifest=<base64url>`. */
export function shareLink(base: string, text: string): string {
  const u = new URL(base);
  return `${u.origin}${u.pathname}#manifest=${encodeBase64Url(text)}`;
}

/**
 * Why a fetched `?scenario=` path is not a scenario, or null when it is: a failed status reads
 * `not found` (404) or `<status> <text>`; a 200 answer that is an HTML page (the preview and dev
 * servers answer every unknown path with index.html) reads `not found` too.
 * @param status HTTP status code; @param statusText its reason phrase ('' over HTTP/2)
 * @param contentType the Content-Type header ('' when absent); @param body the response text
 */
export function scenarioFetchProblem(status: number, statusText: string, contentType: string, body: string): string | null {
  if (status === 404) return 'not found';
  if (status < 200 || status > 299) return `${status} ${statusText}`.trim();
  if (/\btext\/html\b/i.test(contentType) || /^\s*<(!doctype\s|html[\s>])/i.test(body)) return 'not found';
  return null;
}
