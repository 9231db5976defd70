/**
 * Fuzz of issue 14's guard rails over the worker API (ClusterHost, the kubectl bar) and the
 * apiserver: random and hostile patches (JSON, merge, strategic, server-side apply) whose keys
 * and pointers are `__proto__`, `constructor`, `toString`, …, label/annotate keys, literals,
 * jsonpath and custom-columns expressions. After every case:
 * - Object.prototype, Array.prototype and Function.prototype have no new own keys;
 * - no object but the request's target changed (store snapshots by resourceVersion);
 * - the host still answers (`get cm target`);
 * - an error is what kubectl prints for a Status (or its own client-side error), never a
 *   TypeError or RangeError text; through the apiserver, a StatusError with an upstream code.
 * Fixed seeds and few runs in the normal suite; `FUZZ_RUNS=N` (npm run fuzz) runs more.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Cluster } from '../cluster/cluster';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { describeRow } from '../cluster/kubectl/printers';
import { ClusterHost } from './cluster-api';
import { users } from '../cluster/client/clientset';
import { StatusError } from '../cluster/api/errors';
import { objectOf } from '../cluster/api/safe-object';
import type { KObject } from '../cluster/api/types';
import { hostileString } from '../cluster/fuzz/hostile';
import { fuzzRuns } from '../cluster/fuzz/runs';

const PROTOS = [Object.prototype, Array.prototype, Function.prototype] as const;
const protoKeys = () => PROTOS.map((p) => Object.getOwnPropertyNames(p).sort().join(','));
const CLEAN = protoKeys();

/** Keys JavaScript treats specially, and a few JSON Pointer oddities. */
const specialKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
  'length',
  '0',
  '-',
  '~1',
  'a/b',
  '',
  'data',
  'metadata',
  'labels',
  'a',
);
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype') },
  { weight: 4, arbitrary: specialKey },
  { weight: 1, arbitrary: hostileString },
);

/** A JSON value whose object keys come from `key`, built with own properties (so `__proto__` is a key). */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 8 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    tie('o'),
    fc.array(tie('v'), { maxLength: 3 }),
  ),
  o: fc.array(fc.tuple(key, tie('v')), { maxLength: 3 }).map((es) => objectOf(es as [string, unknown][])),
})).v;

const pointer = fc
  .array(key, { minLength: 1, maxLength: 4 })
  .map((segs) => '/' + segs.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/'));
const prefixed = fc
  .tuple(
    fc.constantFrom('', '', '', '/data', '/metadata', '/metadata/labels', '/metadata/annotations', '/metadata/managedFields/0/fieldsV1'),
    pointer,
  )
  .map(([a, b]) => a + b);
const jsonPatch = fc.array(
  fc.record(
    { op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'), path: prefixed, from: prefixed, value },
    { requiredKeys: ['op', 'path'] },
  ),
  { minLength: 1, maxLength: 3 },
);
/** The known attacks, run first in every property (fast-check `examples`). */
const ATTACKS: { type: 'json' | 'merge' | 'strategic'; body: unknown }[] = [
  { type: 'json', body: [{ op: 'add', path: '/__proto__/deletionTimestamp', value: '2026-01-01T00:00:00Z' }] },
  { type: 'json', body: [{ op: 'replace', path: '/__proto__/toString', value: 'x' }] },
  { type: 'json', body: [{ op: 'add', path: '/metadata/__proto__/polluted', value: 'yes' }] },
  { type: 'json', body: [{ op: 'add', path: '/data/constructor/prototype/polluted', value: 'yes' }] },
  {
    type: 'json',
    body: [
      { op: 'copy', from: '/__proto__', path: '/data/x' },
      { op: 'move', from: '/data/a', path: '/__proto__/polluted' },
    ],
  },
  { type: 'json', body: [{ op: 'remove', path: '/__proto__/hasOwnProperty' }] },
  { type: 'merge', body: JSON.parse('{"__proto__":{"polluted":"yes"},"data":{"__proto__":{"polluted":"yes"}}}') },
  { type: 'merge', body: JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}') },
  {
    type: 'strategic',
    body: JSON.parse(
      '{"metadata":{"__proto__":{"polluted":"yes"},"labels":{"__proto__":{"polluted":"yes"}}},"$setElementOrder/__proto__":[{"name":"x"}]}',
    ),
  },
  {
    type: 'strategic',
    body: JSON.parse(
      '{"spec":{"$deleteFromPrimitiveList/__proto__":["x"]},"metadata":{"$patch":"replace","__proto__":{"polluted":"yes"}}}',
    ),
  },
];

const mergeBody = fc
  .tuple(
    fc.array(fc.tuple(key, value), { maxLength: 3 }),
    fc.array(fc.tuple(key, value), { maxLength: 3 }),
    fc.array(fc.tuple(key, value), { maxLength: 2 }),
  )
  .map(([top, data, labels]) =>
    objectOf<unknown>([...top, ['data', objectOf(data)], ['metadata', objectOf<unknown>([['labels', objectOf(labels)]])]]),
  );

/** A ClusterHost on a 1-node cluster, with the engine reachable for snapshots. */
function harness() {
  let cluster!: Cluster;
  const host = new ClusterHost({
    createCluster: () => (cluster = new Cluster({ seed: 11, nodes: 1 })),
    startMs: DEFAULT_START_MS,
    describeRow,
    resourceOf: (o) => `${o.kind.toLowerCase()}s`,
    wallNow: () => 0,
    setInterval: () => 1,
    clearInterval: () => {},
  });
  host.kubectl('create configmap target --from-literal=a=b');
  host.kubectl('label cm target app=x');
  host.kubectl('create deployment web --image=nginx');
  const key = (o: KObject) => `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  const snapshot = () =>
    new Map(
      cluster
        .objects()
        .filter((o) => o.kind !== 'Event')
        .map((o) => [key(o), o.metadata.resourceVersion]),
    );
  return { host, cluster: () => cluster, snapshot };
}

/** What kubectl may print on stderr: a Status, its own client-side errors, server warnings. */
const KUBECTL_ERROR =
  /^(Error from server \([A-Za-z]+\): |The request is invalid|The [A-Za-z.]+ "[^"]*" is invalid|error: |Warning: |label "|Unable to )/;
const CRASH =
  /TypeError|RangeError|ReferenceError|Cannot read propert|Cannot create propert|is not a function|Maximum call stack|undefined is not|\[object Object\]/;

/** Runs `line`; asserts the invariants; only `allowed` (snapshot keys) may change. */
function checkLine(h: ReturnType<typeof harness>, line: string, allowed: (k: string) => boolean): void {
  const before = h.snapshot();
  const r = h.host.kubectl(line);
  expect(protoKeys(), line).toEqual(CLEAN);
  for (const l of (r.error ?? '').split('\n').filter(Boolean)) {
    expect(l, line).not.toMatch(CRASH);
    if (!/^\s|^\*|^[A-Za-z]/.test(l)) expect(l, line).toMatch(KUBECTL_ERROR);
  }
  expect(r.output, line).not.toMatch(CRASH);
  const after = h.snapshot();
  for (const [k, rv] of before) if (!allowed(k)) expect(after.get(k), `${line}: ${k}`).toBe(rv);
  for (const k of after.keys()) if (!before.has(k)) expect(allowed(k), `${line}: created ${k}`).toBe(true);
  expect(h.host.kubectl('get cm target -o name').output).toBe('configmap/target\n');
}

/** The JSON text in single quotes for the bar's shell-like tokenizer (a `'` closes, escapes and reopens). */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const isTarget = (k: string) => k === 'v1/ConfigMap/default/target';

describe('hostile keys through the kubectl bar (worker API)', () => {
  const h = harness();

  it('kubectl patch (json, merge, strategic) with hostile keys and pointers changes only the target', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          jsonPatch.map((b) => ['json', b] as const),
          mergeBody.map((b) => ['merge', b] as const),
          mergeBody.map((b) => ['strategic', b] as const),
        ),
        ([type, body]) => {
          checkLine(h, `patch cm target --type=${type} -p ${q(JSON.stringify(body))}`, isTarget);
        },
      ),
      { seed: 14, numRuns: fuzzRuns(60), examples: ATTACKS.map((a) => [[a.type, a.body] as const]) as never },
    );
  });

  it('label, annotate and create --from-literal with hostile keys', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('label', 'annotate', 'literal'),
        key,
        fc.string({ maxLength: 6 }),
        fc.boolean(),
        (cmd, k, v, overwrite) => {
          const kv = q(`${k}=${v}`);
          if (cmd === 'literal') checkLine(h, `create configmap fz --from-literal=${kv}`, (x) => x === 'v1/ConfigMap/default/fz');
          else checkLine(h, `${cmd} cm target ${kv}${overwrite ? ' --overwrite' : ''}`, isTarget);
          h.host.kubectl('delete cm fz --ignore-not-found');
        },
      ),
      { seed: 15, numRuns: fuzzRuns(60) },
    );
  });

  it('get with jsonpath, custom-columns and label selectors of hostile keys changes nothing', () => {
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 3 }), fc.constantFrom('jsonpath', 'custom-columns', 'selector'), (segs, how) => {
        const path =
          segs
            .map((s) => s.replace(/[.{}[\]\s'"=,]/g, ''))
            .filter(Boolean)
            .join('.') || 'constructor';
        const line =
          how === 'jsonpath'
            ? `get cm target -o jsonpath=${q(`{.${path}}`)}`
            : how === 'custom-columns'
              ? `get cm target -o custom-columns=${q(`X:.${path}`)}`
              : `get cm -l ${q(segs.join(','))}`;
        checkLine(h, line, () => false);
      }),
      { seed: 16, numRuns: fuzzRuns(60) },
    );
  });
});

describe('random kubectl bar lines', () => {
  const h = harness();
  const VERBS = [
    'get',
    'describe',
    'create',
    'delete',
    'label',
    'annotate',
    'patch',
    'scale',
    'set image',
    'rollout status',
    'rollout history',
    'rollout undo',
    'logs',
    'exec',
    'expose',
    'run',
    'top',
    'explain',
    'cordon',
    'uncordon',
    'drain',
    'wait',
    'api-resources',
    'config view',
    'apply',
    'replace',
    'diff',
    'taint',
    'autoscale',
    'auth can-i',
    'version',
    'cluster-info',
    'events',
  ];
  const WORDS = [
    'cm',
    'configmap',
    'target',
    'pod',
    'pods',
    'deployment',
    'deploy/web',
    'node',
    'node-1',
    'ns',
    'default',
    'kube-system',
    'svc',
    'secret',
    'generic',
    'job',
    'cronjob',
    'all',
    '-A',
    '-l',
    'app=x',
    '-o',
    'yaml',
    'json',
    'wide',
    'name',
    'jsonpath={.metadata}',
    '--replicas=2',
    '--image=nginx',
    '--type=merge',
    '-p',
    '{}',
    '--overwrite',
    '--all',
    '--dry-run=server',
    '--from-literal=a=b',
    '--',
    'sh',
    '-c',
    'echo',
    '--field-selector',
    'metadata.name=target',
    '--for=condition=Ready',
    '--timeout=1s',
    '-f',
    '-',
    'key=value:NoSchedule',
    '__proto__',
    'constructor',
    'constructor=x',
    '__proto__=x',
    'prototype-',
    '--selector',
    '--subresource=scale',
    '--subresource=status',
    '--type=json',
    q('[{"op":"add","path":"/x"}]'),
    '--to-revision=2',
    '--show-labels',
    '--sort-by=.metadata.name',
    q('--sort-by={.x}'),
    '-w',
    '-c',
    '--tail=-1',
    '--since=1s',
    'custom-columns=A:.x',
    q('go-template={{.x}}'),
    '--port=80',
    '--target-port=x',
    '--cpu-percent=50',
    '--min=1',
    '--max=0',
    'pod/x',
    'rs',
    'sts',
    'ds',
    'hpa',
    'pvc',
    'ing',
    'pdb',
    'cm/target',
    '--grace-period=-5',
    '--force',
    '--cascade=orphan',
    '--namespace=kube-system',
    '-n',
    '--context=x',
  ];
  const word = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: hostileString.map((x) => q(x)) });

  it('never crash: no engine exception text, no prototype key, the host still answers', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VERBS), fc.array(word, { maxLength: 6 }), (verb, args) => {
        const line = `${verb} ${args.join(' ')}`;
        const r = h.host.kubectl(line);
        h.host.kubectlWatchStop(r.watchId ?? -1);
        expect(protoKeys(), line).toEqual(CLEAN);
        expect(`${r.output}\n${r.error ?? ''}`, line).not.toMatch(CRASH);
        // the host answers (default may not be deleted; anything else may be, by a random line)
        expect(h.host.kubectl('get ns default -o name').output).toBe('namespace/default\n');
      }),
      { seed: 19, numRuns: fuzzRuns(150) },
    );
  });
});

describe('hostile bodies through the apiserver', () => {
  const c = new Cluster({ seed: 12, nodes: 1 });
  const u = users.kubectl();
  const cms = c.api.registry.forResource('', 'configmaps')!;
  c.api.create(u, cms, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { a: 'b' } } as KObject);
  const snapshot = () =>
    new Map(
      c
        .objects()
        .filter((o) => o.kind !== 'Event')
        .map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]),
    );
  const UPSTREAM_CODES = new Set([400, 404, 409, 413, 415, 422]);

  it('patches of every type (and server-side apply) answer an object or a Status with an upstream code', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          jsonPatch.map((b) => ['json', b] as const),
          mergeBody.map((b) => ['merge', b] as const),
          mergeBody.map((b) => ['strategic', b] as const),
          mergeBody.map(
            (b) => ['apply', objectOf<unknown>([...Object.entries(b as object), ['apiVersion', 'v1'], ['kind', 'ConfigMap']])] as const,
          ),
        ),
        fc.constantFrom(undefined, 'Strict' as const),
        ([type, body], fieldValidation) => {
          const before = snapshot();
          try {
            c.api.patch(u, cms, 'default', 'target', type, body, { fieldValidation, fieldManager: 'fuzz' });
          } catch (e) {
            if (!(e instanceof StatusError)) throw e;
            expect(UPSTREAM_CODES.has(e.status.code), e.status.message).toBe(true);
            expect(e.status).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure' });
          }
          expect(protoKeys()).toEqual(CLEAN);
          const after = snapshot();
          for (const [k, rv] of before) if (k !== 'ConfigMap/default/target') expect(after.get(k), k).toBe(rv);
          expect(after.size).toBe(before.size);
          expect(c.api.getObject('configmaps', 'default', 'target')?.metadata.name).toBe('target');
        },
      ),
      { seed: 17, numRuns: fuzzRuns(120), examples: ATTACKS.map((a) => [[a.type, a.body] as const, undefined]) as never },
    );
  });

  it('hostile create bodies answer an object or a Status with an upstream code', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('configmaps', 'services', 'pods'),
        mergeBody,
        fc.oneof(fc.constant(undefined), value),
        (resource, body, metadata) => {
          const info = c.api.registry.forResource('', resource)!;
          const obj = objectOf<unknown>([
            ...Object.entries(body as object),
            ['apiVersion', 'v1'],
            ['kind', info.kind],
            ['metadata', metadata ?? { generateName: 'fz-' }],
          ]) as KObject;
          try {
            const r = c.api.create(u, info, 'default', obj);
            c.api.delete(u, info, 'default', r.object.metadata.name, { gracePeriodSeconds: 0 });
          } catch (e) {
            if (!(e instanceof StatusError)) throw e;
            expect(UPSTREAM_CODES.has(e.status.code), e.status.message).toBe(true);
          }
          expect(protoKeys()).toEqual(CLEAN);
        },
      ),
      { seed: 18, numRuns: fuzzRuns(120) },
    );
  });
});
