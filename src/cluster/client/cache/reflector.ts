/**
 * The reflector: fills a store from a {@link ListerWatcher}, as client-go's
 * staging/src/k8s.io/client-go/tools/cache/reflector.go (ListAndWatch): list (page by page,
 * limit/continue) and hand the store every object with the list's resourceVersion (Replace),
 * then watch from that resourceVersion and hand it each event; BOOKMARK events only move the
 * resourceVersion on. A watch that ends normally is watched again from the last resourceVersion
 * seen; a 410 Gone from the watch call or the stream (isExpiredError) lists again at once, another
 * ERROR event (endsWithRelist) lists again after the back-off; a 410
 * on a list page with a continue token falls back to one full list at once (the pager's
 * FullListIfExpired); any other failure — a 410 on a full list included, so an apiserver that
 * keeps answering 410 cannot make it spin — is reported to the store and retried after a
 * back-off: client-go's wait.Backoff of the reflector's backoff manager (800 ms, factor 2,
 * jitter 1.0: each wait is d + random()·d, cap 30 s; reset by a successful list or a stream that
 * ended normally) — when the reflector has a `sleep`. The jitter draws from the injected
 * `random` (none: no jitter), never Math.random. Without a `sleep` (the engine, whose
 * ListerWatcher answers at once) a failure is thrown to the caller of `run`, as the engine's
 * informers always did.
 *
 * Synchronous when the ListerWatcher is: `run` then lists, calls `store.replace` and starts the
 * watch before it returns, and each event reaches the store in the call that delivers it — no
 * promise, no extra turn. Engine-free (no imports but ./listwatch): the engine's SharedInformer
 * (client/informer.ts) and the UI's attach mode (ui/attach/attach-client.ts) both run it.
 */
import {
  endsWithRelist,
  isExpiredError,
  whenReady,
  type ListerWatcher,
  type ListPage,
  type ObjectWithMeta,
  type ReflectorWatchEvent,
  type StopWatch,
  type WatchSink,
} from './listwatch';

/** Where a reflector puts what it learns (the DeltaFIFO / indexer side of cache.Store). */
export interface ReflectorStore<T> {
  /** A (re)list: every object now present and the list's resourceVersion (Store.Replace; the store diffs against what it had). */
  replace(items: T[], resourceVersion: string): void;
  /** One watch event (ADDED, MODIFIED, DELETED), in the stream's order. A BOOKMARK only moves lastSyncResourceVersion on. */
  event(ev: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T; oldObject?: T }): void;
  /** A failure that will be retried (list or watch), as text. */
  error?(message: string): void;
}

export interface ReflectorOptions<T> {
  /** Page size of a list (limit); undefined: one page. */
  pageSize?: number;
  /** Watch with allowWatchBookmarks. */
  allowWatchBookmarks?: boolean;
  /** The watch's timeoutSeconds. */
  timeoutSeconds?: number;
  /**
   * False for a resource that cannot be watched: relist every `pollMs` instead (needs `sleep`).
   * Default true.
   */
  watch?: boolean;
  /** Relist period (ms) for a resource without watch; default 2000. */
  pollMs?: number;
  /**
   * Waits `ms` milliseconds (the back-off and the poll). The UI passes an abortable setTimeout;
   * the engine none (no timers in the engine: failures are thrown instead of retried).
   */
  sleep?: (ms: number) => PromiseLike<void>;
  /**
   * The back-off's jitter source, uniform in [0, 1) (rand.Float64 in wait.Jitter): a seeded
   * stream for a deterministic run; without it every wait is the bare duration.
   */
  random?: () => number;
  /** The resourceVersion of an object (default: `metadata.resourceVersion`). */
  resourceVersionOf?: (obj: T) => string | undefined;
}

/**
 * The reflector's back-off (reflector.go NewReflectorWithOptions: wait.NewExponentialBackoffManager(
 * 800*time.Millisecond, 30*time.Second, 2*time.Minute, 2.0, 1.0, clock)), ms.
 */
export const ReflectorBackoff = { initialMs: 800, factor: 2, jitter: 1.0, capMs: 30_000 } as const;

const metaResourceVersion = (o: unknown): string | undefined => (o as Partial<ObjectWithMeta> | undefined)?.metadata?.resourceVersion;

export class Reflector<T> {
  /** The resourceVersion of the last list, event or bookmark (where a watch resumes). */
  lastSyncResourceVersion = '';
  private running = false;
  /** Bumped on each run/stop: callbacks of an earlier run see a different value and do nothing. */
  private generation = 0;
  private stopWatch: StopWatch | null = null;
  /** wait.Backoff.Duration: the next wait before jitter, ms. */
  private backoffMs: number = ReflectorBackoff.initialMs;
  private readonly rvOf: (obj: T) => string | undefined;

  constructor(
    readonly listerWatcher: ListerWatcher<T>,
    private readonly store: ReflectorStore<T>,
    private readonly opts: ReflectorOptions<T> = {},
  ) {
    this.rvOf = opts.resourceVersionOf ?? metaResourceVersion;
  }

  /** ListAndWatch until {@link stop}. Returns at once after starting (after listing and watching, for a synchronous ListerWatcher). */
  run(): void {
    if (this.running) return;
    this.running = true;
    this.backoffMs = ReflectorBackoff.initialMs;
    this.listAndWatch(true, ++this.generation);
  }

  /** Stops the watch (and any retry or poll pending); the store keeps what it has. */
  stop(): void {
    this.running = false;
    this.generation++;
    const stop = this.stopWatch;
    this.stopWatch = null;
    stop?.();
  }

  private listAndWatch(needList: boolean, gen: number): void {
    if (gen !== this.generation) return;
    if (!needList) {
      this.watchOrPoll(gen);
      return;
    }
    let items: T[] = [];
    // full: the pager's fallback after a 410 on a continue token (FullListIfExpired): no limit, no continue
    const page = (cont: string | undefined, full = false): void =>
      whenReady(
        () =>
          this.listerWatcher.list(!full && (this.opts.pageSize !== undefined || cont) ? { limit: this.opts.pageSize, continue: cont } : {}),
        (p: ListPage<T>) => {
          if (gen !== this.generation) return;
          for (const o of p.items) items.push(o);
          if (p.continue && !full) {
            page(p.continue);
            return;
          }
          this.lastSyncResourceVersion = p.resourceVersion;
          this.backoffMs = ReflectorBackoff.initialMs;
          this.store.replace(items, p.resourceVersion);
          this.watchOrPoll(gen);
        },
        (err) => {
          if (gen !== this.generation) return;
          if (cont && !full && isExpiredError(err)) {
            items = [];
            page(undefined, true);
            return;
          }
          this.backOff(err, true, gen);
        },
      );
    page(undefined);
  }

  private watchOrPoll(gen: number): void {
    if (gen !== this.generation) return;
    if (this.opts.watch === false) {
      // polled: relist after the period (the store diffs)
      this.wait(this.opts.pollMs ?? 2000, () => this.listAndWatch(true, gen));
      return;
    }
    let ended = false;
    const sink: WatchSink<T> = {
      event: (ev: ReflectorWatchEvent<T>) => {
        if (ended || gen !== this.generation) return;
        if (ev.type === 'BOOKMARK') {
          // an empty resourceVersion keeps the last one (a watch cannot resume from "")
          this.lastSyncResourceVersion = ev.object.metadata.resourceVersion || this.lastSyncResourceVersion;
          return;
        }
        this.lastSyncResourceVersion = this.rvOf(ev.object) || this.lastSyncResourceVersion;
        this.store.event(ev);
      },
      done: (err?: unknown) => {
        if (ended || gen !== this.generation) return;
        ended = true;
        this.stopWatch = null;
        if (err === undefined) {
          this.backoffMs = ReflectorBackoff.initialMs; // a stream that ended normally: watch again from the last resourceVersion
          this.listAndWatch(false, gen);
        } else this.watchFailed(err, gen);
      },
    };
    let stop: StopWatch;
    try {
      stop = this.listerWatcher.watch(
        {
          resourceVersion: this.lastSyncResourceVersion,
          ...(this.opts.allowWatchBookmarks ? { allowWatchBookmarks: true } : {}),
          ...(this.opts.timeoutSeconds !== undefined ? { timeoutSeconds: this.opts.timeoutSeconds } : {}),
        },
        sink,
      );
    } catch (err) {
      this.watchFailed(err, gen);
      return;
    }
    if (ended || gen !== this.generation) stop();
    else this.stopWatch = stop;
  }

  /**
   * A watch failed: 410 lists again at once (the reflector's relist on an expired
   * resourceVersion); an ERROR event's Status (endsWithRelist) backs off, then lists; anything
   * else backs off, then watches again from the last resourceVersion.
   */
  private watchFailed(err: unknown, gen: number): void {
    if (gen !== this.generation) return;
    if (isExpiredError(err)) {
      this.listAndWatch(true, gen);
      return;
    }
    this.backOff(err, endsWithRelist(err), gen);
  }

  /**
   * Reports `err` and retries (a list when `listing`, else the watch from the last
   * resourceVersion) after the next back-off step; without `sleep`, throws it instead.
   */
  private backOff(err: unknown, listing: boolean, gen: number): void {
    if (gen !== this.generation) return;
    if (!this.opts.sleep) {
      this.running = false;
      throw err;
    }
    this.store.error?.(err instanceof Error ? err.message : String(err));
    this.wait(this.nextBackoff(), () => this.listAndWatch(listing, gen));
  }

  /** wait.Backoff.Step: this wait (the duration plus jitter·random()·duration), then the duration × factor up to the cap. */
  private nextBackoff(): number {
    const d = this.backoffMs;
    this.backoffMs = Math.min(d * ReflectorBackoff.factor, ReflectorBackoff.capMs);
    const r = this.opts.random ? this.opts.random() : 0;
    return Math.floor(d + r * ReflectorBackoff.jitter * d);
  }

  private wait(ms: number, then: () => void): void {
    if (!this.opts.sleep) throw new Error('reflector: a resource without watch needs a sleep to poll');
    this.opts.sleep(ms).then(then, () => {});
  }
}
