import { describe, expect, it } from 'vitest';
import type { ListPage, ListPageOptions, WatchFromOptions, WatchSink } from './listwatch';
import { Reflector } from './reflector';

interface Obj {
  metadata: { name: string; resourceVersion?: string };
}
const o = (name: string, rv: string): Obj => ({ metadata: { name, resourceVersion: rv } });
const gone = Object.assign(new Error('too old resource version: 1 (5)'), { code: 410 });

/** A scripted ListerWatcher: answers `lists` in order (a function may throw), records every call. */
function fakeLW(lists: (ListPage<Obj> | Error)[], opts: { async?: boolean; watchThrows?: Error[] } = {}) {
  const calls: string[] = [];
  const sinks: WatchSink<Obj>[] = [];
  const watchThrows = [...(opts.watchThrows ?? [])];
  return {
    calls,
    sinks,
    lw: {
      list(p: ListPageOptions) {
        calls.push(`list limit=${p.limit ?? '-'} continue=${p.continue ?? '-'}`);
        const next = lists.shift();
        if (!next) throw new Error('no more lists scripted');
        if (opts.async) return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
        if (next instanceof Error) throw next;
        return next;
      },
      watch(w: WatchFromOptions, sink: WatchSink<Obj>) {
        calls.push(`watch rv=${w.resourceVersion}${w.allowWatchBookmarks ? ' bookmarks' : ''}`);
        const t = watchThrows.shift();
        if (t) throw t;
        sinks.push(sink);
        return () => calls.push('stop');
      },
    },
  };
}

function recordingStore() {
  const log: string[] = [];
  return {
    log,
    store: {
      replace: (items: Obj[], rv: string) => log.push(`replace [${items.map((i) => i.metadata.name).join(',')}] rv=${rv}`),
      event: (ev: { type: string; object: Obj }) => log.push(`${ev.type} ${ev.object.metadata.name}`),
      error: (m: string) => log.push(`error ${m}`),
    },
  };
}

/** Lets pending promise callbacks run (microtasks only: no timers in src/cluster). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('Reflector over a synchronous ListerWatcher (the engine)', () => {
  it('lists, replaces and watches from the list resourceVersion before run returns; events reach the store in order', () => {
    const { lw, calls, sinks } = fakeLW([{ items: [o('a', '3'), o('b', '4')], resourceVersion: '7' }]);
    const { store, log } = recordingStore();
    const r = new Reflector(lw, store);
    r.run();
    expect(calls).toEqual(['list limit=- continue=-', 'watch rv=7']);
    expect(log).toEqual(['replace [a,b] rv=7']);
    sinks[0].event({ type: 'MODIFIED', object: o('a', '8') });
    sinks[0].event({ type: 'DELETED', object: o('b', '9') });
    expect(log.slice(1)).toEqual(['MODIFIED a', 'DELETED b']);
    expect(r.lastSyncResourceVersion).toBe('9');
  });

  it('relists when the watch call answers 410 Gone', () => {
    const { lw, calls } = fakeLW(
      [
        { items: [o('a', '3')], resourceVersion: '3' },
        { items: [o('a', '5')], resourceVersion: '6' },
      ],
      { watchThrows: [gone] },
    );
    const { store, log } = recordingStore();
    new Reflector(lw, store).run();
    expect(calls).toEqual(['list limit=- continue=-', 'watch rv=3', 'list limit=- continue=-', 'watch rv=6']);
    expect(log).toEqual(['replace [a] rv=3', 'replace [a] rv=6']);
  });

  it('throws any other failure to the caller of run (no sleep: the engine retries nothing)', () => {
    const forbidden = Object.assign(new Error('pods is forbidden'), { code: 403 });
    const { lw } = fakeLW([forbidden]);
    const { store, log } = recordingStore();
    expect(() => new Reflector(lw, store).run()).toThrow('pods is forbidden');
    expect(log).toEqual([]);
  });

  it('throws a 410 from a full list to the caller of run instead of relisting forever', () => {
    const { lw, calls } = fakeLW([gone, gone]);
    const { store } = recordingStore();
    expect(() => new Reflector(lw, store).run()).toThrow('too old resource version');
    expect(calls).toEqual(['list limit=- continue=-']);
  });

  it('ignores events of a stopped watch and starts over (a relist) on the next run', () => {
    const { lw, calls, sinks } = fakeLW([
      { items: [o('a', '1')], resourceVersion: '1' },
      { items: [], resourceVersion: '4' },
    ]);
    const { store, log } = recordingStore();
    const r = new Reflector(lw, store);
    r.run();
    r.stop();
    sinks[0].event({ type: 'ADDED', object: o('late', '2') });
    r.run();
    expect(calls).toEqual(['list limit=- continue=-', 'watch rv=1', 'stop', 'list limit=- continue=-', 'watch rv=4']);
    expect(log).toEqual(['replace [a] rv=1', 'replace [] rv=4']);
  });
});

describe('Reflector over an asynchronous ListerWatcher (HTTP)', () => {
  const cases: {
    name: string;
    lists: (ListPage<Obj> | Error)[];
    pageSize?: number;
    /** What the first watch stream does. */
    stream(sink: WatchSink<Obj>): void;
    calls: string[];
    log: string[];
    sleeps: number[];
    random?: () => number;
  }[] = [
    {
      name: 'pages a list (limit/continue) into one replace and watches from the last page resourceVersion',
      pageSize: 2,
      lists: [
        { items: [o('a', '1'), o('b', '2')], resourceVersion: '5', continue: 'c1' },
        { items: [o('c', '3')], resourceVersion: '5' },
      ],
      stream: () => {},
      calls: ['list limit=2 continue=-', 'list limit=2 continue=c1', 'watch rv=5 bookmarks'],
      log: ['replace [a,b,c] rv=5'],
      sleeps: [],
    },
    {
      name: 'a stream ended normally is watched again from the last event; a BOOKMARK moves the resourceVersion on',
      lists: [{ items: [], resourceVersion: '5' }],
      stream: (s) => {
        s.event({ type: 'ADDED', object: o('a', '6') });
        s.event({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } });
        s.done();
      },
      calls: ['list limit=- continue=-', 'watch rv=5 bookmarks', 'watch rv=9 bookmarks'],
      log: ['replace [] rv=5', 'ADDED a'],
      sleeps: [],
    },
    {
      name: 'a stream ended by a 410 ERROR relists',
      lists: [
        { items: [o('a', '1')], resourceVersion: '5' },
        { items: [], resourceVersion: '12' },
      ],
      stream: (s) => s.done(gone),
      calls: ['list limit=- continue=-', 'watch rv=5 bookmarks', 'list limit=- continue=-', 'watch rv=12 bookmarks'],
      log: ['replace [a] rv=5', 'replace [] rv=12'],
      sleeps: [],
    },
    {
      name: 'a failed list is reported and retried after 800 ms, then 1.6 s (wait.Backoff without jitter), then succeeds',
      lists: [
        new Error('list pods: 503 Service Unavailable'),
        new Error('list pods: 503 Service Unavailable'),
        { items: [], resourceVersion: '3' },
      ],
      stream: () => {},
      calls: ['list limit=- continue=-', 'list limit=- continue=-', 'list limit=- continue=-', 'watch rv=3 bookmarks'],
      log: ['error list pods: 503 Service Unavailable', 'error list pods: 503 Service Unavailable', 'replace [] rv=3'],
      sleeps: [800, 1600],
    },
    {
      name: 'a failed watch stream is retried from the same resourceVersion after the back-off, without a relist',
      lists: [{ items: [], resourceVersion: '5' }],
      stream: (s) => {
        s.event({ type: 'ADDED', object: o('a', '7') });
        s.done(new Error('network error'));
      },
      calls: ['list limit=- continue=-', 'watch rv=5 bookmarks', 'watch rv=7 bookmarks'],
      log: ['replace [] rv=5', 'ADDED a', 'error network error'],
      sleeps: [800],
    },
    {
      name: 'a 410 on a full list backs off like any failure (no spin), with jitter from the injected random',
      lists: [gone, gone, gone, { items: [], resourceVersion: '3' }],
      random: () => 0.5,
      stream: () => {},
      calls: [
        'list limit=- continue=-',
        'list limit=- continue=-',
        'list limit=- continue=-',
        'list limit=- continue=-',
        'watch rv=3 bookmarks',
      ],
      log: [
        'error too old resource version: 1 (5)',
        'error too old resource version: 1 (5)',
        'error too old resource version: 1 (5)',
        'replace [] rv=3',
      ],
      // 800 + 0.5·800, 1600 + 0.5·1600, 3200 + 0.5·3200
      sleeps: [1200, 2400, 4800],
    },
    {
      name: 'a 410 on a continue page falls back to one full list at once (FullListIfExpired)',
      pageSize: 2,
      lists: [
        { items: [o('a', '1'), o('b', '2')], resourceVersion: '5', continue: 'c1' },
        gone,
        { items: [o('a', '1'), o('c', '6')], resourceVersion: '7' },
      ],
      stream: () => {},
      calls: ['list limit=2 continue=-', 'list limit=2 continue=c1', 'list limit=- continue=-', 'watch rv=7 bookmarks'],
      log: ['replace [a,c] rv=7'],
      sleeps: [],
    },
    {
      name: 'a BOOKMARK with an empty resourceVersion keeps the last one',
      lists: [{ items: [], resourceVersion: '5' }],
      stream: (s) => {
        s.event({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '' } } });
        s.done();
      },
      calls: ['list limit=- continue=-', 'watch rv=5 bookmarks', 'watch rv=5 bookmarks'],
      log: ['replace [] rv=5'],
      sleeps: [],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { lw, calls, sinks } = fakeLW(c.lists, { async: true });
      const { store, log } = recordingStore();
      const sleeps: number[] = [];
      const r = new Reflector(lw, store, {
        pageSize: c.pageSize,
        allowWatchBookmarks: true,
        random: c.random,
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
      });
      r.run();
      for (let i = 0; i < 10; i++) await flush();
      if (sinks[0]) c.stream(sinks[0]);
      for (let i = 0; i < 10; i++) await flush();
      r.stop();
      expect(calls.filter((x) => x !== 'stop')).toEqual(c.calls);
      expect(log).toEqual(c.log);
      expect(sleeps).toEqual(c.sleeps);
    });
  }

  it('relists every pollMs for a resource without watch', async () => {
    const { lw, calls } = fakeLW(
      [
        { items: [o('a', '1')], resourceVersion: '1' },
        { items: [], resourceVersion: '2' },
      ],
      { async: true },
    );
    const { store, log } = recordingStore();
    const sleeps: number[] = [];
    let wake: () => void = () => {};
    const r = new Reflector(lw, store, {
      watch: false,
      pollMs: 500,
      sleep: (ms) => {
        sleeps.push(ms);
        return new Promise<void>((res) => (wake = res));
      },
    });
    r.run();
    await flush();
    wake();
    await flush();
    await flush();
    r.stop();
    wake();
    await flush();
    expect(calls).toEqual(['list limit=- continue=-', 'list limit=- continue=-']);
    expect(log).toEqual(['replace [a] rv=1', 'replace [] rv=2']);
    expect(sleeps).toEqual([500, 500]);
  });
});
