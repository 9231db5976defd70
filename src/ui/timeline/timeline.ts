/**
 * Timeline: a bounded record of what the cluster looked like at past simulated moments, for
 * the replay slider. Each frame holds a *view* (references to the store's immutable
 * collections at that moment — the store replaces collections, never mutates them, so a
 * reference is a snapshot and unchanged collections are shared between frames).
 *
 * Recording: a new frame starts when at least `minGapMs` of simulated time passed since the
 * last one; otherwise the last frame is overwritten with the newer state (so a frame shows the
 * latest state of its slice of time). Pinned frames (the first state after a reset) are never
 * overwritten or dropped.
 *
 * Bounded memory: at most `maxFrames` frames, fewer when frames are big (`entryBudget` divided
 * by the entries one frame holds). When full, every other unpinned frame of the older half is
 * dropped: old history gets coarser, recent history stays fine-grained, the whole run stays
 * reachable.
 */
export interface Frame<V> {
  /** When the frame's slice of time began (what lookups compare). */
  simMs: number;
  /** The simulated time of the state in `view` (the latest recorded in this slice). */
  stateMs: number;
  view: V;
  pinned: boolean;
}

export interface TimelineOptions {
  minGapMs: number;
  maxFrames: number;
  /** Most collection entries (objects + events) all frames together may reference. */
  entryBudget: number;
  /** Fewest frames kept however big the cluster. */
  minFrames: number;
}

export const DEFAULT_TIMELINE_OPTIONS: TimelineOptions = { minGapMs: 1_000, maxFrames: 600, entryBudget: 1_500_000, minFrames: 24 };

export class Timeline<V> {
  private frames: Frame<V>[] = [];
  private readonly opts: TimelineOptions;

  constructor(opts: Partial<TimelineOptions> = {}) {
    this.opts = { ...DEFAULT_TIMELINE_OPTIONS, ...opts };
  }

  get length(): number {
    return this.frames.length;
  }

  /** Simulated ms of the oldest frame (0 when empty). */
  get firstMs(): number {
    return this.frames[0]?.simMs ?? 0;
  }

  get lastMs(): number {
    return this.frames.at(-1)?.stateMs ?? 0;
  }

  /** Frame times, oldest first (tests, tick marks). */
  times(): number[] {
    return this.frames.map((f) => f.simMs);
  }

  clear(): void {
    this.frames = [];
  }

  /**
   * Records the state at `simMs`. `size` is how many entries the view references (for the
   * memory bound). A time earlier than the last frame (a new cluster) starts over.
   */
  record(simMs: number, view: V, opts: { pinned?: boolean; size?: number } = {}): void {
    const last = this.frames.at(-1);
    if (last && simMs < last.simMs) this.frames = [];
    const prev = this.frames.at(-1);
    const pinned = opts.pinned ?? false;
    if (prev && !prev.pinned && !pinned && simMs - prev.simMs < this.opts.minGapMs) {
      prev.stateMs = simMs;
      prev.view = view;
      return;
    }
    this.frames.push({ simMs, stateMs: simMs, view, pinned });
    const cap = Math.max(
      this.opts.minFrames,
      Math.min(this.opts.maxFrames, Math.floor(this.opts.entryBudget / Math.max(1, opts.size ?? 1))),
    );
    if (this.frames.length > cap) this.thin(cap);
  }

  /** The state at `simMs`: the latest frame at or before it (the oldest when before every frame). */
  at(simMs: number): Frame<V> | undefined {
    const f = this.frames;
    if (!f.length) return undefined;
    let lo = 0;
    let hi = f.length - 1;
    if (simMs < f[0].simMs) return f[0];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (f[mid].simMs <= simMs) lo = mid;
      else hi = mid - 1;
    }
    return f[lo];
  }

  private thin(cap: number): void {
    while (this.frames.length > cap) {
      const half = Math.floor(this.frames.length / 2);
      const kept: Frame<V>[] = [];
      let odd = false;
      let dropped = 0;
      for (let i = 0; i < this.frames.length; i++) {
        const fr = this.frames[i];
        if (i < half && !fr.pinned && i > 0) {
          odd = !odd;
          if (odd) {
            dropped++;
            continue;
          }
        }
        kept.push(fr);
      }
      this.frames = kept;
      if (!dropped) {
        // only pinned frames in the older half: drop the oldest unpinned one
        const i = this.frames.findIndex((fr) => !fr.pinned);
        if (i < 0) return;
        this.frames.splice(i, 1);
      }
    }
  }
}
