/**
 * Base64 as Go's encoding/base64 writes it, over bytes: StdEncoding (`+/`, `=` padding, what
 * Secret data, PEM bodies and kustomize's generated data use) and RawURLEncoding (`-_`, no
 * padding, what a JWT's three parts use). The engine has no Buffer or btoa (it runs in a Web
 * Worker and headless Node alike), hence one table-driven codec here.
 */
import { utf8 } from './hash';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const STD_CODES = Uint8Array.from(STD, (c) => c.charCodeAt(0));
const URL_CODES = Uint8Array.from(URL_SAFE, (c) => c.charCodeAt(0));
const PAD = 0x3d; // '='

/** Characters per String.fromCharCode call (well under engines' argument limits). */
const CHUNK = 8192;

/** The base64 text of `b` in `alphabet` (character codes), with `=` padding or without. */
function encode(b: ArrayLike<number>, alphabet: Uint8Array, pad: boolean): string {
  const n = b.length;
  const full = n - (n % 3);
  const rest = n - full;
  const outLen = (full / 3) * 4 + (rest === 0 ? 0 : pad ? 4 : rest + 1);
  const out = new Uint16Array(outLen);
  let j = 0;
  for (let i = 0; i < full; i += 3) {
    const v = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    out[j++] = alphabet[(v >> 18) & 63];
    out[j++] = alphabet[(v >> 12) & 63];
    out[j++] = alphabet[(v >> 6) & 63];
    out[j++] = alphabet[v & 63];
  }
  if (rest) {
    const v = (b[full] << 16) | (rest === 2 ? b[full + 1] << 8 : 0);
    out[j++] = alphabet[(v >> 18) & 63];
    out[j++] = alphabet[(v >> 12) & 63];
    if (rest === 2) out[j++] = alphabet[(v >> 6) & 63];
    else if (pad) out[j++] = PAD;
    if (pad) out[j++] = PAD;
  }
  let s = '';
  for (let i = 0; i < outLen; i += CHUNK)
    s += String.fromCharCode.apply(null, out.subarray(i, Math.min(outLen, i + CHUNK)) as unknown as number[]);
  return s;
}

/** base64.StdEncoding.EncodeToString of bytes. */
export function base64Std(b: ArrayLike<number>): string {
  return encode(b, STD_CODES, true);
}

/** base64.StdEncoding of the UTF-8 bytes of `text`. */
export function base64StdText(text: string): string {
  return encode(utf8(text), STD_CODES, true);
}

/** base64.RawURLEncoding.EncodeToString of bytes. */
export function base64RawURL(b: ArrayLike<number>): string {
  return encode(b, URL_CODES, false);
}

/** base64.RawURLEncoding decode to bytes; null when `s` is not raw base64url. */
export function base64RawURLDecode(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (const ch of s) {
    acc = ((acc << 6) | URL_SAFE.indexOf(ch)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 255;
    }
  }
  return out;
}
