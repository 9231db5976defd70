/**
 * Lazy node heartbeats (docs/time-model.md#lazy-node-heartbeats): a closed form of "the kubelet
 * of node N renews its Lease every P ms from time T" and of "it reports its unchanged Node status
 * every 5 min from time T", so that an idle node costs nothing per heartbeat while nobody but the
 * control plane's own informers look at Leases and Nodes.
 *
 * A kubelet whose renewals are lazy registers a {@link HeartbeatTrack}; the renewals it would have
 * written are the times T, T + P, T + 2P, … up to the track's end (the kubelet powering off, or
 * going back to real renewals). The stored Lease is brought up to date — one write with the
 * latest renewal's renewTime — whenever anything reads it ({@link NodeHeartbeats.materialize},
 * called from the store's read hook that `Cluster` installs). The status reports work the same
 * way ({@link NodeHeartbeats.trackPosts}): a read of the Node first writes the latest skipped
 * report. While anyone other than kube-controller-manager and kube-scheduler watches Leases or
 * Nodes, or the UI's change stream is subscribed, the lazy path is disengaged: every track is
 * materialized and ended, and the kubelets renew and report for real again. The node-lifecycle controller computes what its Lease informer would have seen
 * from the tracks ({@link NodeHeartbeats.latestRenewalMs}).
 *
 * Our own simulation device (no upstream file); times are simulated ms since the epoch.
 */

/** One kubelet's lazy heartbeats: its Lease renewals or its unchanged status reports. */
export interface HeartbeatTrack {
  /** the first renewal of the track (written to the store), simulated ms */
  fromMs: number;
  /** the renewal interval, simulated ms */
  periodMs: number;
  /** renewals stop after this time (Infinity while the kubelet renews lazily) */
  endMs: number;
  /** the latest renewal time written to the store, simulated ms */
  writtenMs: number;
  /** writes the Lease with renewTime = `atMs`, standing for `folded` renewals (through the kubelet's own client) */
  write: (atMs: number, folded: number) => void;
}

export class NodeHeartbeats {
  private readonly tracks = new Map<string, HeartbeatTrack>();
  private readonly posts = new Map<string, HeartbeatTrack>();
  private observers = 0;
  private materializing = false;
  private readonly disengageListeners = new Set<() => void>();
  private readonly endListeners = new Set<(node: string) => void>();

  /**
   * @param enabled whether the lazy path may engage at all (`ClusterOptions.lazyHeartbeats`)
   * @param now the simulated clock, ms since the epoch
   */
  constructor(
    readonly enabled: boolean,
    private readonly now: () => number = () => 0,
  ) {}

  /** True while renewals may be lazy: enabled and no Lease observer. */
  get engaged(): boolean {
    return this.enabled && this.observers === 0;
  }

  /** Starts (or replaces) node's track: renewals every `periodMs` from `fromMs` (already written). */
  track(node: string, fromMs: number, periodMs: number, write: (atMs: number, folded: number) => void): void {
    this.tracks.set(node, { fromMs, periodMs, endMs: Infinity, writtenMs: fromMs, write });
  }

  /** Ends node's track at `atMs` (inclusive): the kubelet powered off or renews for real again. */
  end(node: string, atMs: number): void {
    const t = this.tracks.get(node);
    if (!t || t.endMs <= atMs) return;
    const wasRenewing = t.endMs === Infinity;
    t.endMs = atMs;
    if (wasRenewing) for (const l of [...this.endListeners]) l(node);
  }

  /** `fn(node)` runs when a node's lazy renewals end (its {@link isRenewing} turns false). Returns the unsubscribe. */
  onEnd(fn: (node: string) => void): () => void {
    this.endListeners.add(fn);
    return () => this.endListeners.delete(fn);
  }

  /** True while node's kubelet renews lazily (its track has not ended). */
  isRenewing(node: string): boolean {
    return this.tracks.get(node)?.endMs === Infinity;
  }

  /** The latest renewal of node's track at or before `atMs` (simulated ms), or undefined. */
  latestRenewalMs(node: string, atMs: number): number | undefined {
    return latest(this.tracks.get(node), atMs);
  }

  /**
   * Starts (or replaces) node's status-report track: unchanged reports every `periodMs` from
   * `fromMs` (the first one not yet written); `write(atMs)` writes the report of `atMs`.
   */
  trackPosts(node: string, fromMs: number, periodMs: number, write: (atMs: number, folded: number) => void): void {
    this.posts.set(node, { fromMs, periodMs, endMs: Infinity, writtenMs: -Infinity, write });
  }

  /** Ends node's report track at `atMs` (inclusive): the kubelet syncs for real from here. */
  endPosts(node: string, atMs: number): void {
    const t = this.posts.get(node);
    if (t && t.endMs > atMs) t.endMs = atMs;
  }

  /** Writes node's Lease (or every tracked Lease) up to its latest renewal so far. */
  materialize(node?: string): void {
    this.write(this.tracks, node);
  }

  /** Writes node's Node status (or every tracked one) up to its latest skipped report so far. */
  materializePosts(node?: string): void {
    this.write(this.posts, node);
  }

  private write(tracks: Map<string, HeartbeatTrack>, node: string | undefined): void {
    if (this.materializing || !tracks.size) return;
    this.materializing = true;
    try {
      const now = this.now();
      if (node !== undefined) writeTrack(tracks.get(node), now);
      else for (const t of tracks.values()) writeTrack(t, now);
    } finally {
      this.materializing = false;
    }
  }

  /**
   * Someone other than the control plane watches Leases or Nodes: materializes every Lease and Node,
   * disengages the lazy path (the kubelets' listeners end their tracks and renew for real).
   * Returns the release, which re-engages it once the last observer is gone.
   */
  addObserver(): () => void {
    if (!this.enabled) return () => {};
    this.materialize();
    this.materializePosts();
    this.observers++;
    if (this.observers === 1) for (const l of [...this.disengageListeners]) l();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.observers--;
    };
  }

  /** `fn` runs when the lazy path disengages (a kubelet going back to real renewals). Returns the unsubscribe. */
  onDisengage(fn: () => void): () => void {
    this.disengageListeners.add(fn);
    return () => this.disengageListeners.delete(fn);
  }
}

/** The latest time of a track at or before `atMs`, or undefined. */
function latest(t: HeartbeatTrack | undefined, atMs: number): number | undefined {
  if (!t) return undefined;
  const until = Math.min(atMs, t.endMs);
  if (until < t.fromMs) return undefined;
  return t.fromMs + Math.floor((until - t.fromMs) / t.periodMs) * t.periodMs;
}

function writeTrack(t: HeartbeatTrack | undefined, now: number): void {
  const r = latest(t, now);
  if (!t || r === undefined || r <= t.writtenMs) return;
  const folded = t.writtenMs === -Infinity ? 1 : Math.round((r - t.writtenMs) / t.periodMs);
  t.writtenMs = r;
  t.write(r, folded);
}
