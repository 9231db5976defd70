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
  private next = 1;

  /** @param network e.g. "10.96.0.0" @param prefix e.g. 12 */
  constructor(network: string, prefix: number) {
    this.base = ipToInt(network);
    this.size = 2 ** (32 - prefix);
  }

  /** Reserves a given IP (e.g. 10.96.0.10 for kube-dns). False when taken or outside the range. */
  reserve(ip: string): boolean {
    const off = ipToInt(ip) - this.base;
    if (off <= 0 || off >= this.size - 1 || this.used.has(off)) return false;
    this.used.add(off);
    return true;
  }

  /** Next free IP in order. Throws when the range is full. */
  allocateNext(): string {
    for (let i = 0; i < this.size - 2; i++) {
      const off = ((this.next - 1 + i) % (this.size - 2)) + 1;
      if (!this.used.has(off)) {
        this.used.add(off);
        this.next = off + 1;
        return intToIp(this.base + off);
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
  constructor(private readonly lo: number, private readonly hi: number, private readonly rng: Rng) {}

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
