/**
 * ClusterIP and NodePort allocators, as pkg/registry/core/service/ipallocator (a bitmap over
 * the service CIDR; the first address is the `kubernetes` Service's) and portallocator
 * (30000–32767) do. Deterministic: IPs are handed out in order from the low end after the
 * reserved ones; ports are picked with the seeded RNG, like upstream's random offset.
 */
import type { Rng } from '../sim/rng';

function ipToInt(ip: string): number {
  return ip.split('.').reduce((a, p) => a * 256 + Number(p), 0);
}
function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export class IPAllocator {
  private base: number;
  private size: number;
  private used = new Set<number>();
  /** Start of the dynamic band: min(max(16, size/16), 256) (ipallocator calculateRangeOffset). */
  private offset: number;

  /**
   * @param network e.g. "10.96.0.0" @param prefix e.g. 12
   * @param rng seeded RNG: dynamic IPs are picked at random from the upper band first, as
   *   pkg/registry/core/service/ipallocator does (so the low band stays free for static IPs
   *   such as kube-dns's 10.96.0.10).
   */
  constructor(
    network: string,
    prefix: number,
    private readonly rng?: Rng,
  ) {
    this.base = ipToInt(network);
    this.size = 2 ** (32 - prefix);
    this.offset = Math.min(Math.max(16, Math.floor(this.size / 16)), 256);
  }

  /** Reserves a given IP (e.g. 10.96.0.10 for kube-dns). False when taken or outside the range. */
  reserve(ip: string): boolean {
    const off = ipToInt(ip) - this.base;
    if (off <= 0 || off >= this.size - 1 || this.used.has(off)) return false;
    this.used.add(off);
    return true;
  }

  /**
   * A free IP: random in the upper band [offset, size-1), then the lower band. Without an
   * RNG, the lowest free address of the upper band. Throws when the range is full.
   */
  allocateNext(): string {
    const bands: [number, number][] = [
      [this.offset, this.size - 1],
      [1, this.offset],
    ];
    for (const [lo, hi] of bands) {
      const n = hi - lo;
      if (n <= 0) continue;
      const start = this.rng ? this.rng.intn(n) : 0;
      for (let i = 0; i < n; i++) {
        const off = lo + ((start + i) % n);
        if (!this.used.has(off)) {
          this.used.add(off);
          return intToIp(this.base + off);
        }
      }
    }
    throw new Error('range is full');
  }

  release(ip: string): void {
    this.used.delete(ipToInt(ip) - this.base);
  }

  /** True when `ip` lies inside the range. */
  contains(ip: string): boolean {
    const off = ipToInt(ip) - this.base;
    return off > 0 && off < this.size - 1;
  }
}

export class PortAllocator {
  private used = new Set<number>();
  constructor(
    private readonly lo: number,
    private readonly hi: number,
    private readonly rng: Rng,
  ) {}

  /** A free port chosen at random in [lo, hi]. Throws when all are used. */
  allocate(): number {
    const n = this.hi - this.lo + 1;
    const start = this.rng.intn(n);
    for (let i = 0; i < n; i++) {
      const p = this.lo + ((start + i) % n);
      if (!this.used.has(p)) {
        this.used.add(p);
        return p;
      }
    }
    throw new Error('range is full');
  }

  reserve(p: number): boolean {
    if (p < this.lo || p > this.hi || this.used.has(p)) return false;
    this.used.add(p);
    return true;
  }

  release(p: number): void {
    this.used.delete(p);
  }
}
