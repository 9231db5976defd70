import { describe, expect, it } from 'vitest';
import { Lru } from './lru';

/** The reference: a Map re-inserted on every use (its insertion order is the recency order). */
class MapLru<V> {
  readonly m = new Map<string, V>();
  constructor(readonly max: number) {}
  get(k: string): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: string, v: V): void {
    this.m.delete(k);
    this.m.set(k, v);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as string);
  }
}

describe('Lru', () => {
  it.each([
    ['evicts the least recently set', 2, 'set a 1, set b 2, set c 3', 'a=undefined b=2 c=3'],
    ['a get makes an entry most recently used', 2, 'set a 1, set b 2, get a, set c 3', 'a=1 b=undefined c=3'],
    ['a set of a present key replaces it and makes it most recent', 2, 'set a 1, set b 2, set a 9, set c 3', 'a=9 b=undefined c=3'],
    ['one entry', 1, 'set a 1, get a, set b 2', 'a=undefined b=2'],
    ['a get of the newest changes nothing', 3, 'set a 1, set b 2, set c 3, get c, set d 4', 'a=undefined b=2 c=3 d=4'],
  ])('%s', (_name, max, ops, want) => {
    const l = new Lru<number>(max);
    for (const op of ops.split(', ')) {
      const [verb, k, v] = op.split(' ');
      if (verb === 'set') l.set(k, Number(v));
      else l.get(k);
    }
    const keys = [...new Set(want.split(' ').map((s) => s.split('=')[0]))];
    expect(keys.map((k) => `${k}=${l.get(k)}`).join(' ')).toBe(want);
    expect(l.size).toBeLessThanOrEqual(max);
  });

  it('keeps and evicts exactly what a re-inserted Map keeps, over a long random sequence', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const a = new Lru<number>(64);
    const b = new MapLru<number>(64);
    for (let i = 0; i < 20_000; i++) {
      const k = `k${rnd(150)}`;
      if (rnd(3) === 0) expect(a.get(k)).toBe(b.get(k));
      else {
        a.set(k, i);
        b.set(k, i);
      }
      expect(a.size).toBe(b.m.size);
    }
    for (const [k, v] of b.m) expect(a.get(k)).toBe(v);
  });
});
