/**
 * A binary min-heap ordered by `less` (container/heap in Go's standard library, as the
 * scheduling queue's heap.go and the clock's timer heap use it). `items` is exposed read-only
 * for callers that iterate without popping.
 */
export class Heap<T> {
  items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => boolean) {}
  get length(): number {
    return this.items.length;
  }
  push(x: T): void {
    const h = this.items;
    h.push(x);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }
  peek(): T | undefined {
    return this.items[0];
  }
  pop(): T | undefined {
    const h = this.items;
    if (!h.length) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      this.down(0);
    }
    return top;
  }
  remove(x: T): boolean {
    const i = this.items.indexOf(x);
    if (i < 0) return false;
    const last = this.items.pop()!;
    if (i < this.items.length) {
      this.items[i] = last;
      this.down(i);
      this.up(i);
    }
    return true;
  }
  private up(i: number): void {
    const h = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }
  private down(i: number): void {
    const h = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l], h[m])) m = l;
      if (r < h.length && this.less(h[r], h[m])) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}
