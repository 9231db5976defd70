/**
 * Base64 as Go's encoding/base64 writes it, over bytes: StdEncoding (`+/`, `=` padding, what
 * Secret data, PEM bodies and kustomize's generated data use) and RawURLEncoding (`-_`, no
 * padding, what a JWT's three parts use). The engine has no Buffer or btoa (it runs in a Web
 * Worker and headless Node alike), hence one table-driven codec here.
 */
import { utf8 } from './hash';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function encode(b: ArrayLike<number>, alphabet: string, pad: boolean): string {
  const parts: string[] = [];
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    let s = alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63];
    if (i + 1 < b.length) s += alphabet[(n >> 6) & 63];
    else if (pad) s += '=';
    if (i + 2 < b.length) s += alphabet[n & 63];
    else if (pad) s += '=';
    parts.push(s);
  }
  return parts.join('');
}

/** base64.StdEncoding.EncodeToString of bytes. */
export function base64Std(b: ArrayLike<number>): string {
  return encode(b, STD, true);
}

/** base64.StdEncoding of the UTF-8 bytes of `text`. */
export function base64StdText(text: string): string {
  return encode(utf8(text), STD, true);
}

/** base64.RawURLEncoding.EncodeToString of bytes. */
export function base64RawURL(b: ArrayLike<number>): string {
  return encode(b, URL_SAFE, false);
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
