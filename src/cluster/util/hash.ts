/**
 * SHA-256 (FIPS 180-4) and RFC 4648 base32, in pure TypeScript: what kube-proxy's chain names
 * are made of. pkg/proxy/iptables/proxier.go portProtoHash / servicePortEndpointChainName do
 * `base32.StdEncoding.EncodeToString(sha256.Sum256([]byte(s)))[:16]`; {@link chainHash} is that.
 *
 * The compression function reads big-endian words straight from the message bytes into one
 * module-level schedule (`W`) and keeps the state in locals; only the last one or two padded
 * blocks are copied (into `TAIL`). A string is encoded into a reused scratch buffer
 * ({@link utf8Into}) rather than a fresh array, so hashing allocates only the 32-byte digest.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The message schedule, reused by every block. */
const W = new Int32Array(64);
/** The hash state H0..H7 between blocks (int32 bit patterns). */
const H = new Int32Array(8);
/** The padded last block or two of a message. */
const TAIL = new Uint8Array(128);
/** Scratch for the UTF-8 bytes of a hashed string; grows on demand. */
let scratch = new Uint8Array(4096);

/**
 * The UTF-8 byte count of `s`, as {@link utf8} encodes it (a lone surrogate as 3 bytes, the
 * way `for … of` + codePointAt hands it over).
 */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 2 UTF-16 units → 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

/**
 * Writes the UTF-8 bytes of `s` into `out` from `at` (`out` must have room: {@link utf8Length}).
 * Unpaired surrogates are encoded as 3-byte sequences (WTF-8), as the previous code-point loop did.
 * @returns the offset after the last byte written
 */
function utf8Into(s: string, out: Uint8Array, at: number): number {
  let j = at;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[j++] = c;
      continue;
    }
    if (c < 0x800) {
      out[j++] = 0xc0 | (c >> 6);
      out[j++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if ((d & 0xfc00) === 0xdc00) {
        i++;
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[j++] = 0xf0 | (c >> 18);
        out[j++] = 0x80 | ((c >> 12) & 63);
        out[j++] = 0x80 | ((c >> 6) & 63);
        out[j++] = 0x80 | (c & 63);
        continue;
      }
    }
    out[j++] = 0xe0 | (c >> 12);
    out[j++] = 0x80 | ((c >> 6) & 63);
    out[j++] = 0x80 | (c & 63);
  }
  return j;
}

/** UTF-8 bytes of a string (Go's []byte(s)), a fresh array of exactly that length. */
export function utf8(s: string): Uint8Array {
  const out = new Uint8Array(utf8Length(s));
  utf8Into(s, out, 0);
  return out;
}

/** Runs the compression function over the 64-byte blocks of `m` from `off` to `end` (a multiple of 64 apart), updating H. */
function blocks(m: Uint8Array, off: number, end: number): void {
  const w = W;
  const k = K;
  let h0 = H[0],
    h1 = H[1],
    h2 = H[2],
    h3 = H[3],
    h4 = H[4],
    h5 = H[5],
    h6 = H[6],
    h7 = H[7];
  for (; off < end; off += 64) {
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7;
    for (let i = 0; i < 64; i++) {
      let wi: number;
      if (i < 16) {
        const j = off + (i << 2);
        wi = (m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3];
      } else {
        const x = w[(i - 15) & 15];
        const y = w[(i - 2) & 15];
        const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        wi = (w[i & 15] + s0 + w[(i - 7) & 15] + s1) | 0;
      }
      w[i & 15] = wi;
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + k[i] + wi) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + S0 + maj) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  H[0] = h0;
  H[1] = h1;
  H[2] = h2;
  H[3] = h3;
  H[4] = h4;
  H[5] = h5;
  H[6] = h6;
  H[7] = h7;
}

/** SHA-256 of `m[0..len)` into `out` at `at` (32 bytes, big-endian words). */
function digestInto(m: Uint8Array, len: number, out: Uint8Array, at: number): void {
  H[0] = 0x6a09e667;
  H[1] = 0xbb67ae85 | 0;
  H[2] = 0x3c6ef372;
  H[3] = 0xa54ff53a | 0;
  H[4] = 0x510e527f;
  H[5] = 0x9b05688c | 0;
  H[6] = 0x1f83d9ab;
  H[7] = 0x5be0cd19;
  const full = len & ~63;
  blocks(m, 0, full);
  // the padding: 0x80, zeros, the bit length as a 64-bit big-endian integer
  const rest = len - full;
  const tailLen = rest + 9 <= 64 ? 64 : 128;
  TAIL.fill(0, 0, tailLen);
  for (let i = 0; i < rest; i++) TAIL[i] = m[full + i];
  TAIL[rest] = 0x80;
  const hi = Math.floor(len / 0x20000000); // (len * 8) / 2^32
  const lo = (len << 3) >>> 0;
  TAIL[tailLen - 8] = hi >>> 24;
  TAIL[tailLen - 7] = (hi >>> 16) & 255;
  TAIL[tailLen - 6] = (hi >>> 8) & 255;
  TAIL[tailLen - 5] = hi & 255;
  TAIL[tailLen - 4] = lo >>> 24;
  TAIL[tailLen - 3] = (lo >>> 16) & 255;
  TAIL[tailLen - 2] = (lo >>> 8) & 255;
  TAIL[tailLen - 1] = lo & 255;
  blocks(TAIL, 0, tailLen);
  for (let i = 0; i < 8; i++) {
    const v = H[i];
    out[at + i * 4] = v >>> 24;
    out[at + i * 4 + 1] = (v >>> 16) & 255;
    out[at + i * 4 + 2] = (v >>> 8) & 255;
    out[at + i * 4 + 3] = v & 255;
  }
}

/** A scratch buffer of at least `n` bytes (its contents are not kept between calls). */
function scratchOf(n: number): Uint8Array {
  if (scratch.length < n) scratch = new Uint8Array(Math.max(n, scratch.length * 2));
  return scratch;
}

/** SHA-256 digest (32 bytes) of `data` (a string is hashed as UTF-8), as Go's crypto/sha256.Sum256. */
export function sha256(data: Uint8Array | string): Uint8Array {
  const out = new Uint8Array(32);
  if (typeof data === 'string') {
    const buf = scratchOf(data.length * 3);
    digestInto(buf, utf8Into(data, buf, 0), out, 0);
  } else digestInto(data, data.length, out, 0);
  return out;
}

/**
 * SHA-256 of `prefixes[i] + suffix` for each prefix (as UTF-8), the 32-byte digests
 * concatenated in order: the same bytes as `sha256(prefixes[i] + suffix)` each, but `suffix` is
 * encoded once and each prefix written in front of it in one buffer, rather than one string
 * and one byte array per prefix. A prefix must not end in a high surrogate (the join would
 * otherwise pair it with the suffix's first unit).
 */
export function sha256Each(prefixes: readonly string[], suffix: string): Uint8Array {
  const out = new Uint8Array(32 * prefixes.length);
  const sufBytes = utf8(suffix);
  let pmax = 0;
  for (const p of prefixes) pmax = Math.max(pmax, utf8Length(p));
  const buf = scratchOf(pmax + sufBytes.length);
  let placedAt = -1;
  for (let i = 0; i < prefixes.length; i++) {
    const plen = utf8Into(prefixes[i], buf, 0);
    if (placedAt !== plen) {
      buf.set(sufBytes, plen);
      placedAt = plen;
    }
    digestInto(buf, plen + sufBytes.length, out, i * 32);
  }
  return out;
}

/** Lower-case hex of bytes. */
export function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 with padding, as Go's encoding/base32.StdEncoding.EncodeToString. */
export function base32(b: Uint8Array): string {
  let out = '';
  let bits = 0;
  let val = 0;
  for (const x of b) {
    val = (val << 8) | x;
    bits += 8;
    while (bits >= 5) {
      out += B32[(val >>> (bits - 5)) & 31];
      bits -= 5;
    }
    val &= (1 << bits) - 1;
  }
  if (bits > 0) out += B32[(val << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}

/** The 16-character hash in kube-proxy chain names: base32(sha256(s))[:16]. */
export function chainHash(s: string): string {
  return base32(sha256(s)).slice(0, 16);
}
