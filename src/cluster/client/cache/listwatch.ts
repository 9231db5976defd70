/**
 * What a reflector lists and watches, as client-go's tools/cache ListerWatcher
 * (staging/src/k8s.io/client-go/tools/cache/listwatch.go): `list` returns one page of objects
 * and the list's resourceVersion, `watch` streams the changes after a resourceVersion.
 *
 * Either may answer at once or later: the engine's ListerWatcher (client/listwatch.ts) calls
 * the in-process apiserver and returns plain values, so a reflector over it lists, fills its
 * store and starts watching within one call; the UI's attach mode (ui/attach/http-listwatch.ts)
 * returns promises from fetch. Engine-free on purpose: no imports, no timers, no DOM — both the
 * engine and the UI bundle use it (src/layers.json, .oxlintrc.json).
 */

/** A value now, or a promise of it: what the engine answers at once, HTTP answers later. */
export type MaybePromise<T> = T | PromiseLike<T>;

/** The metadata a reflector reads from an object: its resourceVersion (the resume point). */
export interface ObjectWithMeta {
  metadata: { resourceVersion?: string };
}

/** metav1.ListOptions as a reflector sends them: paging (limit/continue). */
export interface ListPageOptions {
  /** Page size (limit); undefined: everything in one page. */
  limit?: number;
  /** The continue token of the previous page. */
  continue?: string;
}

/** One page of a list: the objects, the list's resourceVersion and the next page's token ("" or undefined: last page). */
export interface ListPage<T> {
  items: T[];
  resourceVersion: string;
  continue?: string;
}

/** metav1.ListOptions of a watch: resume after `resourceVersion`. */
export interface WatchFromOptions {
  resourceVersion: string;
  /** Ask for BOOKMARK events (allowWatchBookmarks). */
  allowWatchBookmarks?: boolean;
  /** The server closes the stream after this many seconds (timeoutSeconds); the reflector watches again. */
  timeoutSeconds?: number;
}

/**
 * One event of a watch (watch.Event). ERROR events are not delivered: the ListerWatcher ends the
 * watch with an error instead (`done(err)`), a 410 Gone one being an {@link isExpiredError}.
 */
export type ReflectorWatchEvent<T> =
  { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T; oldObject?: T } | { type: 'BOOKMARK'; object: ObjectWithMeta };

/** Where a watch delivers (watch.Interface's ResultChan, and its closing). */
export interface WatchSink<T> {
  event(ev: ReflectorWatchEvent<T>): void;
  /**
   * The stream ended: normally (no argument; the reflector watches again from its last
   * resourceVersion) or with an error — one with `relist: true` (an ERROR event's Status,
   * {@link endsWithRelist}) is retried with a list after the back-off, others with a watch.
   */
  done(err?: unknown): void;
}

/** Stops a watch (watch.Interface.Stop). */
export type StopWatch = () => void;

/**
 * cache.ListerWatcher. `list` may throw (or reject) a StatusError; `watch` may throw one at once
 * (the engine's 410 for a compacted resourceVersion) or report it through `sink.done`.
 */
export interface ListerWatcher<T> {
  list(opts: ListPageOptions): MaybePromise<ListPage<T>>;
  watch(opts: WatchFromOptions, sink: WatchSink<T>): StopWatch;
}

/**
 * apierrors.IsResourceExpired / IsGone: a 410 (the resourceVersion is older than the server's
 * history, "too old resource version"), after which a reflector lists again. Reads the `code`
 * of the engine's StatusError or of an HTTP failure carrying the status code.
 */
export function isExpiredError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 410;
}

/**
 * True for a watch that ended with an ERROR event other than 410 (`relist: true` on the error):
 * client-go's handleWatch returns the event's Status, the watch ends and ListAndWatch lists again
 * after the back-off.
 */
export function endsWithRelist(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { relist?: unknown }).relist === true;
}

/** Runs `ok` with the value now when it is one, or when the promise resolves (`fail` on a throw or rejection). */
export function whenReady<T>(v: () => MaybePromise<T>, ok: (value: T) => void, fail: (err: unknown) => void): void {
  let r: MaybePromise<T>;
  try {
    r = v();
  } catch (e) {
    fail(e);
    return;
  }
  if (r !== null && typeof r === 'object' && typeof (r as PromiseLike<T>).then === 'function') (r as PromiseLike<T>).then(ok, fail);
  else ok(r as T);
}
