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
      const seqs = folded.flatMap((e) => [
        e.seq,
        ...(['detail', 'watchedBy', 'alsoTo'] as const).flatMap((k) => ((e[k] as { seq: number }[] | undefined) ?? []).map((s) => s.seq)),
      ]);
      expect(seqs.sort((a, b) => a - b)).toEqual(relay.map((h) => h.seq));
    },
    120_000,
  );
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

  it('folds a request and its steps into one entry; a repeated summary is left out', () => {
    const second = { ...req, seq: 20, summary: 'create ConfigMap default/c again' };
    const relay = [req, ...steps(11, '5'), second, ...steps(21, '6')].map(ordered);
    const folded = foldRelay(relay);
    expect(folded).toEqual([
      {
        ...relay[0],
        detail: [
          { seq: 11, step: 'admission', summary: 'authn admin · authz allow create configmaps · admission' },
          { seq: 12, step: 'storage', resourceVersion: '5', summary: 'put /registry/configmaps/default/c (rev 5)' },
          { seq: 13, step: 'response', summary: ' 201 Created ConfigMap default/c' },
        ],
      },
      {
        ...relay[4],
        detail: [
          { seq: 21, step: 'admission' },
          { seq: 22, step: 'storage', resourceVersion: '6' },
          { seq: 23, step: 'response' },
        ],
      },
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
      ordered(req),
      ...steps(11, '5').map(ordered),
      w(14, 'garbage-collector-controller', 'ADDED', later),
      w(15, 'kube-scheduler', 'ADDED', later),
    ];
    const folded = foldRelay(relay);
    expect(folded).toHaveLength(1);
    expect(folded[0].watchedBy).toEqual([
      { seq: 14, to: 'garbage-collector-controller', verb: 'ADDED', time: later, summary: 'watch ADDED ConfigMap default/c' },
      { seq: 15, to: 'kube-scheduler' },
    ]);
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
    const relay = [ordered(req), odd, ...rest];
    const folded = foldRelay(relay);
    expect(folded[1]).toBe(odd);
    expect(JSON.stringify(expandRelay(JSON.parse(JSON.stringify(folded))))).toBe(JSON.stringify(relay));
  });
});
