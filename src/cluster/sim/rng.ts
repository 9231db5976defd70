/**
 * Seeded pseudo-random numbers: the only source of randomness in src/cluster.
 *
 * Algorithm: sfc32 seeded through splitmix32, so seeds 1, 2, 3… give unrelated streams.
 * Same seed, same sequence, on every JavaScript engine.
 */
const HEX_DIGIT = '0123456789abcdef';
/** "00" … "ff": byte → two lowercase hex digits. */
const HEX: string[] = Array.from({ length: 256 }, (_, i) => HEX_DIGIT[i >> 4] + HEX_DIGIT[i & 15]);

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** The seed this stream started from (for {@link Rng.derive}). */
  readonly seed: number;

  /** @param seed any 32-bit integer; the scenario's `cluster.seed`. */
  constructor(seed: number) {
    this.seed = seed >>> 0;
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /**
   * A separate stream derived from this one's seed and `label` (FNV-1a): draws from it do not
   * shift this stream, so adding a use of randomness (a volume name) keeps every other name.
   */
  derive(label: string): Rng {
    let h = 0x811c9dc5 ^ this.seed;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
    return new Rng(h >>> 0);
  }

  /** Uniform 32-bit unsigned integer. */
  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  intn(n: number): number {
    return Math.floor(this.float() * n);
  }

  /**
   * `base` scaled by a uniform factor in [1 - fraction, 1 + fraction]: the jitter of kwok
   * stages and of wait.Jitter (k8s.io/apimachinery/pkg/util/wait).
   */
  jitter(base: number, fraction: number): number {
    return base * (1 - fraction + 2 * fraction * this.float());
  }

  /**
   * `n` characters from the apimachinery random-string alphabet "bcdfghjklmnpqrstvwxz2456789"
   * (k8s.io/apimachinery/pkg/util/rand.String), used for generateName suffixes and Pod names.
   */
  string(n: number): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.intn(alphabet.length)];
    return s;
  }

  /** A random RFC 4122 version-4 UUID (object uid). */
  uuid(): string {
    // four draws a, b, c, d as 8 hex digits each: a-b[0:4]-4b[5:8]-(variant)c[1:4]-c[4:8]d,
    // the variant digit being 8 | (c's top nibble & 3); built from a byte table (hot: one per object)
    const a = this.uint32();
    const b = this.uint32();
    const c = this.uint32();
    const d = this.uint32();
    // joined from groups shorter than 13 characters, so V8 holds one flat 36-byte string
    // rather than a rope of a dozen ConsString cells per uid (a uid lives as long as its object)
    return [
      HEX[a >>> 24] + HEX[(a >>> 16) & 255] + HEX[(a >>> 8) & 255] + HEX[a & 255],
      HEX[b >>> 24] + HEX[(b >>> 16) & 255],
      '4' + HEX_DIGIT[(b >>> 8) & 15] + HEX[b & 255],
      HEX_DIGIT[8 | ((c >>> 28) & 3)] + HEX_DIGIT[(c >>> 24) & 15] + HEX[(c >>> 16) & 255],
      HEX[(c >>> 8) & 255] + HEX[c & 255] + HEX[d >>> 24] + HEX[(d >>> 16) & 255] + HEX[(d >>> 8) & 255] + HEX[d & 255],
    ].join('-');
  }
}
