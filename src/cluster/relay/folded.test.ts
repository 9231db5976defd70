/**
 * The folded relay (folded.ts, docs/scenario-format.md#folded-relay) expands back to exactly the
 * default relay: on real scenarios (the seed's apply → kill a node → heal, a rolling update and a
 * rollback, an HA control plane failing over), from the objects the runner returns and from the
 * JSON text, with the same key order (the texts are equal). And it folds what it says it folds.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from '../scenario/scenario';
import { runScenario, type RelayHopOut } from '../scenario/runner';
import { expandRelay, foldRelay, type JsonHop } from './folded';

const here = dirname(fileURLToPath(import.meta.url));
const scenarios = resolve(here, '../../scenarios');

function relayOf(file: string): RelayHopOut[] {
  const path = resolve(scenarios, file);
  const sc = parseScenario(parse(readFileSync(path, 'utf8')));
  return runScenario(sc, { readFile: (p) => readFileSync(resolve(dirname(path), p), 'utf8') }).relay;
}

const hop = (seq: number, h: Record<string, unknown>): JsonHop => ({ ...h, seq });

describe('foldRelay / expandRelay on real scenarios', () => {
  it.each([['seed-relay.scenario.yaml'], ['tours/4-rolling-update.tour.yaml'], ['ha-failover.scenario.yaml']])(
    '%s: expands to the default relay, byte for byte',
    (file) => {
      const relay = relayOf(file);
      const text = JSON.stringify(relay);
      const folded = foldRelay(relay);
      const foldedText = JSON.stringify(folded);
      // the hops themselves are not changed
      expect(JSON.stringify(relay) === text).toBe(true);
      const back = expandRelay(JSON.parse(foldedText) as JsonHop[]);
      expect(back).toEqual(JSON.parse(text));
      expect(JSON.stringify(back) === text).toBe(true);
      expect(JSON.stringify(expandRelay(folded)) === text).toBe(true);
      // it folds: fewer than half the entries, under half the bytes
      expect(folded.length).toBeLessThan(relay.length / 2);
      expect(foldedText.length).toBeLessThan(text.length / 2);
      // every hop appears once: as an entry, a step, a watch delivery or a receiver
      const count = (list: unknown) =>
        ((list as unknown[] | undefined) ?? []).reduce((n: number, p) => n + (typeof p === 'number' ? p : 1), 0);
      const parts = folded.reduce((n, e) => n + 1 + count(e.detail) + count(e.watchedBy) + count(e.alsoTo), 0);
      expect(parts).toBe(relay.length);
    },
    120_000,
  );
});

describe('the folded size', () => {
  it('seed-relay.scenario.yaml: 975 entries, 105,988 bytes (the default relay: 4,117 hops)', () => {
    const relay = relayOf('seed-relay.scenario.yaml');
    const folded = foldRelay(relay);
    expect(relay).toHaveLength(4117);
    expect(folded).toHaveLength(975);
    expect(JSON.stringify(folded).length).toBe(105_988);
  }, 120_000);
});

describe('the folds', () => {
  const t = '2026-01-01T00:00:00.000Z';
  const req = hop(10, {
    from: 'kubectl',
    to: 'kube-apiserver',
    kind: 'request',
    verb: 'create',
    resource: 'configmaps',
    namespace: 'default',
    name: 'c',
    summary: 'create ConfigMap default/c',
    time: t,
    cause: null,
  });
  // the recorder's order for a request: seq, time and cause after the literal's keys
  const request = (h: JsonHop): JsonHop => {
    const { seq, time, cause, ...rest } = h;
    return { ...rest, seq, time, cause } as JsonHop;
  };
  const steps = (n: number, rv: string): JsonHop[] => [
    hop(n, {
      from: 'kube-apiserver',
      to: 'kube-apiserver',
      kind: 'note',
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      name: 'c',
      summary: 'authn admin · authz allow create configmaps · admission',
      cause: n - 1,
      category: 'admission',
      time: t,
    }),
    hop(n + 1, {
      from: 'kube-apiserver',
      to: 'etcd',
      kind: 'request',
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      name: 'c',
      summary: `put /registry/configmaps/default/c (rev ${rv})`,
      cause: n - 1,
      resourceVersion: rv,
      category: 'storage',
      time: t,
    }),
    hop(n + 2, {
      from: 'kube-apiserver',
      to: 'kubectl',
      kind: 'response',
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      name: 'c',
      summary: ' 201 Created ConfigMap default/c',
      cause: n - 1,
      resourceVersion: rv,
      time: t,
    }),
  ];
  // the recorder's key order: seq and time after the literal's keys
  const ordered = (h: JsonHop): JsonHop => {
    const { seq, time, reconcile, ...rest } = h;
    return { ...rest, seq, time, ...(reconcile === undefined ? {} : { reconcile }) } as JsonHop;
  };

  it('folds a request and its steps into one entry; a repeated summary, a next seq, step and resourceVersion are left out', () => {
    const second = { ...req, seq: 20, summary: 'create ConfigMap default/c again' };
    const relay = [request(req), ...steps(11, '5').map(ordered), request(second), ...steps(21, '6').map(ordered)];
    const folded = foldRelay(relay);
    const { kind: _kind, ...head } = relay[0];
    expect(folded).toEqual([
      {
        ...head,
        detail: [
          { summary: 'authn admin · authz allow create configmaps · admission' },
          { resourceVersion: '5', summary: 'put /registry/configmaps/default/c (rev 5)' },
          { summary: ' 201 Created ConfigMap default/c' },
        ],
      },
      // the previous entry's from, to, verb, resource, namespace, name, time and cause
      { summary: 'create ConfigMap default/c again', seq: 20, detail: [3] },
    ]);
    expect(JSON.stringify(expandRelay(JSON.parse(JSON.stringify(folded))))).toBe(JSON.stringify(relay));
  });

  it('folds the watch deliveries of a write into its request entry', () => {
    const w = (seq: number, to: string, verb: string, time: string): JsonHop =>
      ordered(
        hop(seq, {
          from: 'kube-apiserver',
          to,
          kind: 'watch',
          verb,
          resource: 'configmaps',
          namespace: 'default',
          name: 'c',
          resourceVersion: '5',
          summary: `watch ${verb} ConfigMap default/c`,
          cause: 10,
          time,
        }),
      );
    const later = '2026-01-01T00:00:00.001Z';
    const relay = [
      request(req),
      ...steps(11, '5').map(ordered),
      w(14, 'garbage-collector-controller', 'ADDED', later),
      w(15, 'kube-scheduler', 'ADDED', later),
    ];
    const folded = foldRelay(relay);
    expect(folded).toHaveLength(1);
    expect(folded[0].watchedBy).toEqual([
      { to: 'garbage-collector-controller', dt: 1, verb: 'ADDED', summary: 'watch ADDED ConfigMap default/c' },
      { to: 'kube-scheduler' },
    ]);
    expect(JSON.stringify(expandRelay(JSON.parse(JSON.stringify(folded))))).toBe(JSON.stringify(relay));
  });

  it('defaults a delivery to the receiver at its place in the last watchedBy of the same verb and resource', () => {
    const w = (seq: number, to: string, cause: number, rv: string): JsonHop =>
      ordered(
        hop(seq, {
          from: 'kube-apiserver',
          to,
          kind: 'watch',
          verb: 'ADDED',
          resource: 'configmaps',
          namespace: 'default',
          name: 'c',
          resourceVersion: rv,
          summary: 'watch ADDED ConfigMap default/c',
          cause,
          time: t,
        }),
      );
    const relay = [
      request(req),
      ...steps(11, '5').map(ordered),
      w(14, 'a', 10, '5'),
      w(15, 'b', 10, '5'),
      request({ ...req, seq: 16 }),
      ...steps(17, '6').map(ordered),
      w(20, 'a', 16, '6'),
      w(21, 'c', 16, '6'),
    ];
    const folded = foldRelay(relay);
    expect(folded).toHaveLength(2);
    expect(folded[1]).toEqual({ detail: [3], watchedBy: [{ verb: 'ADDED' }, { to: 'c' }] });
    expect(JSON.stringify(expandRelay(JSON.parse(JSON.stringify(folded))))).toBe(JSON.stringify(relay));
  });

  it('writes a time as dt (ms after the previous entry) and a missing namespace as false', () => {
    const later = '2026-01-01T00:00:02.500Z';
    const { namespace: _ns, ...noNs }: Record<string, unknown> = { ...req, seq: 14, time: later, name: 'n', resource: 'nodes' };
    const noNsSteps = steps(15, '6').map((h) => {
      const { namespace: _n, ...rest }: Record<string, unknown> = { ...h, time: later, cause: 14, name: 'n', resource: 'nodes' };
      return ordered(rest as JsonHop);
    });
    const relay = [request(req), ...steps(11, '5').map(ordered), request(noNs as JsonHop), ...noNsSteps];
    const folded = foldRelay(relay);
    expect(folded).toHaveLength(2);
    const { detail: _d, ...head } = folded[1];
    expect(head).toEqual({ resource: 'nodes', namespace: false, name: 'n', summary: req.summary, dt: 2500 });
    expect(JSON.stringify(expandRelay(JSON.parse(JSON.stringify(folded))))).toBe(JSON.stringify(relay));
  });

  it('leaves a request with a field no entry has, or its keys in another order, a plain hop (and its steps)', () => {
    const odd = { ...request(req), note: 'x' } as JsonHop;
    const { summary, ...noSummary } = request(req);
    const reordered = { ...noSummary, seq: 20, summary } as JsonHop;
    const relay = [odd, ...steps(11, '5').map(ordered), reordered, ...steps(21, '6').map((h) => ordered({ ...h, cause: 20 }))];
    const folded = foldRelay(relay);
    expect(folded).toHaveLength(relay.length);
    folded.forEach((e, i) => expect(e).toBe(relay[i]));
    expect(JSON.stringify(expandRelay(JSON.parse(JSON.stringify(folded))))).toBe(JSON.stringify(relay));
  });

  it('folds one watch event delivered to several receivers at one moment; another moment is another entry', () => {
    const w = (seq: number, to: string, verb: string, time = t): JsonHop =>
      ordered(
        hop(seq, {
          from: 'kube-apiserver',
          to,
          kind: 'watch',
          verb,
          resource: 'pods',
          namespace: 'default',
          name: 'p',
          resourceVersion: '7',
          summary: `watch ${verb} Pod default/p`,
          cause: 3,
          time,
        }),
      );
    const relay = [
      w(4, 'replicaset-controller', 'MODIFIED'),
      w(5, 'kube-scheduler', 'ADDED'),
      w(6, 'kubelet/node-1', 'ADDED', '2026-01-01T00:00:00.001Z'),
    ];
    const folded = foldRelay(relay);
    expect(folded).toEqual([{ ...relay[0], alsoTo: [{ to: 'kube-scheduler', seq: 5, verb: 'ADDED' }] }, relay[2]]);
    expect(JSON.stringify(expandRelay(folded))).toBe(JSON.stringify(relay));
  });

  it('leaves a hop that no default describes as it is (another key order)', () => {
    const [note, ...rest] = steps(11, '5').map(ordered);
    const { summary, ...noSummary } = note;
    const odd = { ...noSummary, summary } as JsonHop; // summary after seq and time
    const relay = [request(req), odd, ...rest];
    const folded = foldRelay(relay);
    expect(folded).toHaveLength(2);
    expect(folded[1]).toBe(odd);
    expect(JSON.stringify(expandRelay(JSON.parse(JSON.stringify(folded))))).toBe(JSON.stringify(relay));
  });
});
