/**
 * The engine's ListerWatcher over a client, as client-go's cache.NewFilteredListWatchFromClient
 * (staging/src/k8s.io/client-go/tools/cache/listwatch.go): lists and watches one resource
 * (optionally one namespace, field and label selectors) through the apiserver's request
 * pipeline with the client's identity. The in-process apiserver answers at once, so `list`
 * returns a plain page and a reflector over it (client/cache/reflector.ts) stays synchronous.
 *
 * It also carries what the engine's informers need for the relay (`trace`): the recorder and
 * the write that produced a revision — the in-process apiserver's, which a reflector over HTTP
 * has not.
 */
import type { ResourceInfo } from '../api/resources';
import type { KObject, WatchEvent } from '../api/types';
import type { ListerWatcher, ListPage, StopWatch, WatchFromOptions, WatchSink } from './cache/listwatch';
import type { Client, ResourceClient, WatchTrace } from './clientset';

/** A ListerWatcher of one engine resource: what a SharedInformer is built from. */
export interface ResourceListerWatcher<T extends KObject = KObject> extends ListerWatcher<T> {
  /** The resource listed and watched (named in the relay's watch hops). */
  readonly info: ResourceInfo;
  /** The relay's view of the events' causes; without it the informer records no hops. */
  readonly trace?: WatchTrace;
}

/** Namespace and selectors of a list/watch (the optionsModifier of NewFilteredListWatchFromClient). */
export interface ListWatchOptions {
  /** One namespace; undefined: all. */
  namespace?: string;
  fieldSelector?: string;
  labelSelector?: string;
}

/** cache.ListWatch over a {@link ResourceClient}: quiet lists (not recorded in the relay, as before) and watches. */
export class ListWatch<T extends KObject = KObject> implements ResourceListerWatcher<T> {
  readonly info: ResourceInfo;
  constructor(
    private readonly resource: ResourceClient<T>,
    readonly trace: WatchTrace | undefined,
    readonly opts: ListWatchOptions = {},
  ) {
    this.info = resource.info;
  }

  list(): ListPage<T> {
    const l = this.resource.list(this.opts.namespace, {
      fieldSelector: this.opts.fieldSelector,
      labelSelector: this.opts.labelSelector,
      quiet: true,
    });
    return { items: l.items, resourceVersion: l.metadata.resourceVersion };
  }

  watch(opts: WatchFromOptions, sink: WatchSink<T>): StopWatch {
    return this.resource.watch(
      this.opts.namespace,
      {
        resourceVersion: opts.resourceVersion,
        fieldSelector: this.opts.fieldSelector,
        labelSelector: this.opts.labelSelector,
        ...(opts.allowWatchBookmarks ? { allowWatchBookmarks: true } : {}),
      },
      // the engine's events are ADDED/MODIFIED/DELETED/BOOKMARK (never ERROR): handed on as they are, no wrapper call
      sink.event as (ev: WatchEvent<T>) => void,
    );
  }
}

/**
 * NewFilteredListWatchFromClient: a ListerWatcher of `group`/`resource` as `client`'s identity.
 * @throws Error when the apiserver has no such resource (Client.resource).
 */
export function newListWatchFromClient<T extends KObject = KObject>(
  client: Client,
  group: string,
  resource: string,
  opts: ListWatchOptions = {},
): ListWatch<T> {
  return new ListWatch<T>(client.resource<T>(group, resource), client.watchTrace, opts);
}
