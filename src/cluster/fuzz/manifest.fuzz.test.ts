/**
 * Fuzz of the manifest path (issue 8 §5): YAML text → parse → kinds resolved → admission →
 * store, with generated hostile manifests and raw text. For every input: `apply` returns
 * results (never throws), finishes in bounded time, pollutes no prototype, and applies nothing
 * by half — an object whose result is an error is absent or unchanged in the store, and every
 * created/configured object is stored.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringify } from 'yaml';
// Wall time bounds the fuzz inputs (the test harness, not the engine, reads it).
import { performance as wall } from 'node:perf_hooks';
import { Cluster } from '../cluster';
import type { ApplyResult } from '../kubectl/apply';
import { hostileString, nested, wrongTypeValue } from './hostile';
import { fuzzRuns } from './runs';

/** Per-input wall-time bound (generous: the CI machine is shared). */
const MAX_MS = 3_000;

let c: Cluster;
beforeAll(() => {
  c = new Cluster({ seed: 5 });
});

function snapshot(): Map<string, string | undefined> {
  return new Map(c.objects().map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]));
}

/** Applies `text` and checks the properties of the file comment; returns the results. */
function applyChecked(text: string): ApplyResult[] {
  const before = snapshot();
  const t0 = wall.now();
  let results: ApplyResult[] = [];
  expect(() => (results = c.apply(text))).not.toThrow();
  expect(wall.now() - t0).toBeLessThan(MAX_MS);
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const after = snapshot();
  for (const r of results) {
    if (!r.kind || !r.name) continue;
    const k = `${r.kind}/${r.namespace ?? ''}/${r.name}`;
    if (r.action === 'error' || r.action === 'unchanged') expect(after.get(k), `${r.action} ${k}: ${r.message}`).toBe(before.get(k));
    else expect(after.has(k), `${r.action} ${k}`).toBe(true);
  }
  c.advance(50);
  return results;
}

const kinds = fc.constantFrom(
  ['v1', 'ConfigMap'],
  ['v1', 'Secret'],
  ['v1', 'Pod'],
  ['v1', 'Service'],
  ['apps/v1', 'Deployment'],
  ['v1', 'Namespace'],
  ['batch/v1', 'Job'],
  ['v1', 'Nope'],
  ['example.com/v1', 'Widget'],
);

/** A manifest shaped like a real one, with hostile or wrong-typed values in random places. */
const hostileManifest = fc
  .record({
    kind: kinds,
    name: fc.oneof(hostileString, fc.constantFrom('ok-name', 'a', 'x'.repeat(254)), wrongTypeValue),
    labels: fc.dictionary(hostileString, fc.oneof(hostileString, wrongTypeValue), { maxKeys: 3 }),
    annotations: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
    data: fc.oneof(fc.dictionary(hostileString, wrongTypeValue, { maxKeys: 3 }), wrongTypeValue),
    spec: fc.oneof(
      wrongTypeValue,
      fc.record(
        {
          replicas: wrongTypeValue,
          selector: fc.oneof(wrongTypeValue, fc.constant({ matchLabels: { app: 'x' } })),
          template: fc.oneof(
            wrongTypeValue,
            fc.constant({ metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }),
          ),
          containers: fc.oneof(
            wrongTypeValue,
            fc.array(fc.record({ name: hostileString, image: fc.oneof(hostileString, wrongTypeValue) }), { maxLength: 2 }),
          ),
          ports: wrongTypeValue,
        },
        { requiredKeys: [] },
      ),
    ),
    protoKey: fc.boolean(),
  })
  .map((m) => {
    const obj: Record<string, unknown> = {
      apiVersion: m.kind[0],
      kind: m.kind[1],
      metadata: { name: m.name, labels: m.labels, annotations: m.annotations },
      data: m.data,
      spec: m.spec,
    };
    let text = stringify(obj);
    if (m.protoKey) text += '__proto__:\n  polluted: yes\nconstructor:\n  prototype:\n    polluted: yes\n';
    return text;
  });

describe('manifest path fuzz', () => {
  it('hostile manifests: no throw, bounded time, nothing half-applied', () => {
    fc.assert(
      fc.property(hostileManifest, (text) => void applyChecked(text)),
      { seed: 42, numRuns: fuzzRuns(250) },
    );
  }, 120_000);

  it('any JSON value as YAML, several documents', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 3 }), (docs) => {
        applyChecked(docs.map((d) => stringify(d)).join('---\n'));
      }),
      { seed: 7, numRuns: fuzzRuns(150) },
    );
  }, 120_000);

  it('raw text with YAML punctuation', () => {
    const token = fc.oneof(
      hostileString,
      fc.constantFrom(
        ':',
        '- ',
        '---\n',
        '\n',
        '  ',
        '&a',
        '*a',
        '!!binary',
        '!<tag:x>',
        '{',
        '}',
        '[',
        ']',
        '? ',
        '|',
        '>',
        '#',
        '"',
        "'",
        '%YAML 1.2\n',
        'kind: Pod\n',
        'apiVersion: v1\n',
        'metadata:\n  name: ',
      ),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (parts) => void applyChecked(parts.join(''))),
      { seed: 9, numRuns: fuzzRuns(250) },
    );
  }, 120_000);

  it.each([
    {
      name: 'alias bomb (billion laughs)',
      text: [
        'a: &a ["x","x","x","x","x","x","x","x","x"]',
        ...Array.from(
          { length: 9 },
          (_, i) =>
            `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
        ),
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: {name: bomb}',
      ].join('\n'),
    },
    {
      name: '2,000-deep nesting in data',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata: ${JSON.stringify(nested(2000))}\n`,
    },
    {
      name: '5 MB string value',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: huge}\ndata: {k: "${'x'.repeat(5 * 1024 * 1024)}"}\n`,
    },
    {
      name: '__proto__ in metadata and labels',
      text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proto\n  __proto__: {polluted: yes}\n  labels: {__proto__: x}\ndata: {__proto__: y}\n',
    },
    { name: 'number where the name goes', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 12345}\n' },
    { name: 'NUL and escape bytes', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "a\\0b\\x1b"}\n' },
  ])('$name', ({ text }) => {
    const results = applyChecked(text);
    expect(results.length).toBeGreaterThan(0);
  });

  it('an invalid object in a valid list is rejected whole, the valid one stored', () => {
    const results = applyChecked(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: good-one}\ndata: {a: b}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bad-one}\nspec: {replicas: -1, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: nginx}]}}}\n',
    );
    expect(results.map((r) => `${r.object} ${r.action}`)).toEqual(['configmap/good-one created', 'deployment.apps/bad-one error']);
    expect(c.get('deployments.apps', 'default', 'bad-one')).toBeUndefined();
  });
});
