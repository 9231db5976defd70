/**
 * The reflector: fills a store from a {@link ListerWatcher}, as client-go's
 * staging/src/k8s.io/client-go/tools/cache/reflector.go (ListAndWatch): list (page by page,
 * limit/continue) and hand the store every object with the list's resourceVersion (Replace),
 * then watch from that resourceVersion and hand it each event; BOOKMARK events only move the
 * resourceVersion on. A watch that ends normally is watched again from the last resourceVersion
 * seen; a 410 Gone (isExpiredError, from the list, the watch call or the stream) lists again;
 * any other failure is reported to the store and retried after a back-off (1 s doubling to
 * 30 s, the reflector's backoff manager) — when the reflector has a `sleep`. Without one (the
 * engine, whose ListerWatcher answers at once) a failure is thrown to the caller of `run`, as
 * the engine's informers always did.
 *
 * Synchronous when the ListerWatcher is: `run` then lists, calls `store.replace` and starts the
 * watch before it returns, and each event reaches the store in the call that delivers it — no
 * promise, no extra turn. Engine-free (no imports but ./listwatch): the engine's SharedInformer
 * (client/informer.ts) and the UI's attach mode (ui/attach/attach-client.ts) both run it.
 */
import {
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
  /** One watch event (ADDED, MODIFIED, DELETED), in the stream's order. */
  event(ev: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T; oldObject?: T }): void;
  /** A BOOKMARK moved the resourceVersion on (nothing changed). */
  bookmark?(resourceVersion: string): void;
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
  /** The resourceVersion of an object (default: `metadata.resourceVersion`). */
  resourceVersionOf?: (obj: T) => string | undefined;
}

const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

const metaResourceVersion = (o: unknown): string | undefined => (o as Partial<ObjectWithMeta> | undefined)?.metadata?.resourceVersion;

export class Reflector<T> {
  /** The resourceVersion of the last list, event or bookmark (where a watch resumes). */
  lastSyncResourceVersion = '';
  private running = false;
  /** Bumped on each run/stop: callbacks of an earlier run see a different value and do nothing. */
  private generation = 0;
  private stopWatch: StopWatch | null = null;
  private backoffMs = INITIAL_BACKOFF_MS;
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
    this.backoffMs = INITIAL_BACKOFF_MS;
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
    const items: T[] = [];
    const page = (cont: string | undefined): void =>
      whenReady(
        () => this.listerWatcher.list(this.opts.pageSize !== undefined || cont ? { limit: this.opts.pageSize, continue: cont } : {}),
        (p: ListPage<T>) => {
          if (gen !== this.generation) return;
          for (const o of p.items) items.push(o);
          if (p.continue) {
            page(p.continue);
            return;
          }
          this.lastSyncResourceVersion = p.resourceVersion;
          this.backoffMs = INITIAL_BACKOFF_MS;
          this.store.replace(items, p.resourceVersion);
          this.watchOrPoll(gen);
        },
        (err) => this.failed(err, true, gen),
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
          this.lastSyncResourceVersion = ev.object.metadata.resourceVersion ?? this.lastSyncResourceVersion;
          this.store.bookmark?.(this.lastSyncResourceVersion);
          return;
        }
        this.lastSyncResourceVersion = this.rvOf(ev.object) ?? this.lastSyncResourceVersion;
        this.store.event(ev);
      },
      done: (err?: unknown) => {
        if (ended || gen !== this.generation) return;
        ended = true;
        this.stopWatch = null;
        if (err === undefined) {
          this.backoffMs = INITIAL_BACKOFF_MS; // a stream that ended normally: watch again from the last resourceVersion
          this.listAndWatch(false, gen);
        } else this.failed(err, false, gen);
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
      this.failed(err, false, gen);
      return;
    }
    if (ended || gen !== this.generation) stop();
    else this.stopWatch = stop;
  }

  /** A list or watch failed: 410 lists again; anything else backs off and retries (or throws, without `sleep`). */
  private failed(err: unknown, listing: boolean, gen: number): void {
    if (gen !== this.generation) return;
    if (isExpiredError(err)) {
      this.listAndWatch(true, gen); // the reflector's "relist on 410"
      return;
    }
    if (!this.opts.sleep) {
      this.running = false;
      throw err;
    }
    this.store.error?.(err instanceof Error ? err.message : String(err));
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.wait(wait, () => this.listAndWatch(listing, gen));
  }

  private wait(ms: number, then: () => void): void {
    if (!this.opts.sleep) throw new Error('reflector: a resource without watch needs a sleep to poll');
    this.opts.sleep(ms).then(then, () => {});
  }
}
