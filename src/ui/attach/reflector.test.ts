import { describe, expect, it } from 'vitest';
import { runReflector } from './reflector';
import { ATTACH_RESOURCES } from './resources';

const pods = ATTACH_RESOURCES.find((r) => r.resource === 'pods')!;
const columns = [
  { name: 'Name' },
  { name: 'Ready' },
  { name: 'Status' },
  { name: 'Restarts' },
  { name: 'Age' },
  { name: 'IP', priority: 1 },
  { name: 'Node', priority: 1 },
];
const pod = (name: string, rv: string, node = 'node-1') => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name, namespace: 'default', resourceVersion: rv },
  spec: { nodeName: node },
});
const table = (rv: string, objs: ReturnType<typeof pod>[], status = 'Running') => ({
  kind: 'Table',
  metadata: { resourceVersion: rv },
  columnDefinitions: columns,
  rows: objs.map((o) => ({ cells: [o.metadata.name, '1/1', status, 0, '5s', '10.244.1.2', o.spec.nodeName], object: o })),
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const stream = (lines: unknown[]) => new Response(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { status: 200 });

/** A scripted server: each request takes the next answer; the log keeps what was asked. */
function scripted(answers: ((url: URL) => Response)[], ctl: AbortController) {
  const log: string[] = [];
  const fetch = async (u: string): Promise<Response> => {
    const url = new URL(u, 'http://x');
    log.push(`${url.searchParams.get('watch') ? 'watch' : 'list'} rv=${url.searchParams.get('resourceVersion') ?? ''}`);
    const a = answers.shift();
    if (!a) {
      ctl.abort();
      throw new Error('aborted');
    }
    return a(url);
  };
  return { fetch, log };
}

describe('runReflector', () => {
  const cases = [
    {
      name: 'ERROR 410 in the stream relists, then watches from the new list',
      answers: [
        () => json(table('10', [pod('web-a', '10')])),
        () =>
          stream([
            { type: 'MODIFIED', object: { ...table('11', [pod('web-a', '11')], 'Terminating'), columnDefinitions: null } },
            { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 11 (40)' } },
          ]),
        () => json(table('42', [pod('web-b', '41')])),
        () => stream([]),
      ],
      log: ['list rv=', 'watch rv=10', 'list rv=', 'watch rv=42', 'watch rv=42'],
      events: ['replace web-a:Running', 'MODIFIED web-a:Terminating', 'replace web-b:Running'],
    },
    {
      name: 'HTTP 410 on the watch request relists',
      answers: [() => json(table('7', [])), () => json({ kind: 'Status', code: 410 }, 410), () => json(table('9', [pod('web-c', '8')]))],
      log: ['list rv=', 'watch rv=7', 'list rv=', 'watch rv=9'],
      events: ['replace ', 'replace web-c:Running'],
    },
    {
      name: 'a stream that ends is watched again from the last resourceVersion (bookmarks count)',
      answers: [
        () => json(table('3', [])),
        () =>
          stream([
            { type: 'ADDED', object: table('4', [pod('web-d', '4')]) },
            { type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: '20' } } },
          ]),
      ],
      log: ['list rv=', 'watch rv=3', 'watch rv=20'],
      events: ['replace ', 'ADDED web-d:Running'],
    },
    {
      name: 'a failure backs off and retries the list',
      answers: [() => json({ kind: 'Status', code: 503 }, 503), () => json(table('5', [pod('web-e', '5')]))],
      log: ['list rv=', 'list rv=', 'watch rv=5'],
      events: ['error list pods: 503', 'replace web-e:Running'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const ctl = new AbortController();
      const s = scripted(c.answers, ctl);
      const events: string[] = [];
      const sleeps: number[] = [];
      await runReflector(
        {
          fetch: s.fetch,
          base: '/k8s',
          resource: pods,
          sleep: async (ms) => void sleeps.push(ms),
          sink: {
            replace: (items) => events.push(`replace ${items.map((i) => `${i.object.metadata.name}:${i.row.status}`).join(',')}`),
            event: (type, o, row) => events.push(`${type} ${o.metadata.name}:${row.status}`),
            error: (m) => events.push(`error ${m}`),
          },
        },
        ctl.signal,
      );
      expect(s.log).toEqual(c.log);
      expect(events).toEqual(c.events);
    });
  }
  it('an ERROR event ends the watch at once (later events unread), backs off 800 ms and relists', async () => {
    const ctl = new AbortController();
    const s = scripted(
      [
        () => json(table('10', [pod('web-a', '10')])),
        () =>
          stream([
            { type: 'MODIFIED', object: { ...table('11', [pod('web-a', '11')], 'Terminating'), columnDefinitions: null } },
            { type: 'ERROR', object: { kind: 'Status', code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' } },
            { type: 'ADDED', object: { ...table('12', [pod('web-z', '12')]), columnDefinitions: null } },
          ]),
        () => json(table('20', [pod('web-b', '19')])),
      ],
      ctl,
    );
    const events: string[] = [];
    const sleeps: number[] = [];
    await runReflector(
      {
        fetch: s.fetch,
        base: '/k8s',
        resource: pods,
        sleep: async (ms) => void sleeps.push(ms),
        sink: {
          replace: (items) => events.push(`replace ${items.map((i) => i.object.metadata.name).join(',')}`),
          event: (type, o) => events.push(`${type} ${o.metadata.name}`),
          error: (m) => events.push(`error ${m}`),
        },
      },
      ctl.signal,
    );
    expect(s.log).toEqual(['list rv=', 'watch rv=10', 'list rv=', 'watch rv=20']);
    expect(events).toEqual(['replace web-a', 'MODIFIED web-a', 'error watch pods: etcdserver: request timed out', 'replace web-b']);
    expect(sleeps).toEqual([800]);
  });

  it("removes each watch's abort listener when the watch ends (no listener per watch left behind)", async () => {
    const ctl = new AbortController();
    const streams = Array.from(
      { length: 20 },
      (_, i) => () => stream([{ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(i + 2) } } }]),
    );
    const s = scripted([() => json(table('1', [])), ...streams], ctl);
    let live = 0;
    let most = 0;
    const add = ctl.signal.addEventListener.bind(ctl.signal);
    const remove = ctl.signal.removeEventListener.bind(ctl.signal);
    ctl.signal.addEventListener = ((type: string, l: EventListener) => {
      live++;
      most = Math.max(most, live);
      add(type, l);
    }) as typeof ctl.signal.addEventListener;
    ctl.signal.removeEventListener = ((type: string, l: EventListener) => {
      live--;
      remove(type, l);
    }) as typeof ctl.signal.removeEventListener;
    await runReflector(
      { fetch: s.fetch, base: '', resource: pods, sleep: async () => {}, sink: { replace: () => {}, event: () => {} } },
      ctl.signal,
    );
    expect(s.log).toHaveLength(22); // the list, 20 watches that ended, the one that found no answer
    // runReflector's own listener and the current watch's: never one per finished watch
    expect(most).toBe(2);
  });

  it('a resource without watch (watch unset) is relisted every pollMs, never watched', async () => {
    const ctl = new AbortController();
    const s = scripted([() => json(table('1', [pod('web-g', '1')])), () => json(table('2', []))], ctl);
    const events: string[] = [];
    const sleeps: number[] = [];
    await runReflector(
      {
        fetch: s.fetch,
        base: '/k8s',
        resource: { ...pods, watch: undefined },
        pollMs: 700,
        sleep: async (ms) => void sleeps.push(ms),
        sink: { replace: (items) => events.push(`replace ${items.map((i) => i.object.metadata.name).join(',')}`), event: () => {} },
      },
      ctl.signal,
    );
    expect(s.log).toEqual(['list rv=', 'list rv=', 'list rv=']);
    expect(events).toEqual(['replace web-g', 'replace ']);
    expect(sleeps).toEqual([700, 700]);
  });
  it('turns a Pod Table row into the resources-table row', async () => {
    const ctl = new AbortController();
    const s = scripted([() => json(table('1', [pod('web-f', '1', 'node-2')]))], ctl);
    let row: unknown;
    await runReflector(
      {
        fetch: s.fetch,
        base: '',
        resource: pods,
        sleep: async () => {},
        sink: { replace: (items) => (row = items[0].row), event: () => {} },
      },
      ctl.signal,
    );
    expect(row).toEqual({
      kind: 'Pod',
      namespace: 'default',
      name: 'web-f',
      status: 'Running',
      ready: '1/1',
      node: 'node-2',
      columns: { READY: '1/1', STATUS: 'Running', RESTARTS: '0', AGE: '5s', IP: '10.244.1.2', NODE: 'node-2' },
    });
  });
});
