/**
 * Issue 7 §7, every bad-input case through the worker's Apply path (ClusterHost.apply, then the
 * editor markers), table-driven. Each case: kubectl's exact message (as kubectl v1.33 prints
 * it), the editor line it lands on, which objects exist afterwards (an object whose result is
 * an error is never stored, not even in part; the valid documents of the same file are applied,
 * as kubectl does), no prototype pollution, bounded time. bad-input.test.ts holds the dry-run
 * side (markers on every edit); e2e/editor-tools.spec.ts and e2e/editor-more.spec.ts the
 * browser side (text never injected, the 5 MB paste keeps the page responsive).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { testHost } from './test-host';

const host = () => testHost({ nodes: 1, subscribe: false }).host;

const cm = (name: string, extra = '') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}`;
const RFC1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function aliasBomb(): string {
  let bomb = 'a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]\n';
  for (let i = 1; i < 9; i++)
    bomb += `a${i}: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(',')}]\n`;
  return cm('bomb', `data:\n  ${bomb.replace(/\n/g, '\n  ')}`);
}

interface Case {
  name: string;
  text: string;
  /** `object action` per result. */
  results: string[];
  /** The error message (exact string, or a pattern). */
  message: string | RegExp;
  /** Editor line of the first error marker. */
  line: number;
  column?: number;
  /** ConfigMaps in default afterwards. */
  stored: string[];
}

const CASES: Case[] = [
  {
    name: 'YAML syntax error: line and column',
    text: cm('x', 'data:\n  a: "unterminated\n'),
    results: [' error'],
    message: /^error: error parsing STDIN: error converting YAML to JSON: yaml: line 7: /,
    line: 7,
    stored: [],
  },
  {
    name: 'a syntax error in the second document: the first is applied, the second is nowhere',
    text: `${cm('first')}---\n${cm('[second')}`,
    results: ['configmap/first created', ' error'],
    message: "error: error parsing STDIN: error converting YAML to JSON: yaml: line 5: did not find expected ',' or ']'",
    line: 10,
    column: 1,
    stored: ['first'],
  },
  { name: 'alias bomb', text: aliasBomb(), results: [' error'], message: /excessive aliasing/, line: 1, stored: [] },
  {
    name: 'deep nesting',
    text: cm('deep', `data:\n  x: ${'['.repeat(5_000)}${']'.repeat(5_000)}\n`),
    results: [' error'],
    message: /^error: error parsing STDIN: /,
    line: 6,
    stored: [],
  },
  {
    name: 'a 5 MB paste',
    text: cm('big', `data:\n${'  key: value-value-value-value\n'.repeat(170_000)}`),
    results: [' error'],
    message: 'error: error parsing STDIN: yaml: manifest too large (5270059 characters; at most 3145728)',
    line: 1,
    stored: [],
  },
  {
    name: 'wrong type: labels as a list',
    text: cm('c', '').replace('  name: c\n', '  name: c\n  labels: [a, b]\n'),
    results: ['configmap/c error'],
    message:
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    line: 1,
    stored: [],
  },
  {
    name: 'wrong type: a map where data wants a string',
    text: cm('c', 'data:\n  n: {a: 1}\n'),
    results: ['configmap/c error'],
    message:
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ConfigMap.data of type string',
    line: 1,
    stored: [],
  },
  {
    name: 'unknown field',
    text: cm('c', 'dta:\n  a: b\n'),
    results: ['configmap/c error'],
    message:
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "dta"',
    line: 5,
    stored: [],
  },
  {
    name: 'missing apiVersion',
    text: 'kind: ConfigMap\nmetadata:\n  name: c\n',
    results: [' error'],
    message:
      'error: error validating "STDIN": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false',
    line: 1,
    stored: [],
  },
  {
    name: 'missing kind',
    text: 'apiVersion: v1\nmetadata:\n  name: c\n',
    results: [' error'],
    message:
      'error: error validating "STDIN": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false',
    line: 1,
    stored: [],
  },
  {
    // map keys are data (a real apiserver stores `data.__proto__`); a struct has no such field
    name: '__proto__ and constructor keys',
    text: cm('c', 'data:\n  __proto__: x\n  constructor: z\n__proto__: {polluted: x}\n'),
    results: ['configmap/c error'],
    message:
      'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "__proto__"',
    line: 8,
    stored: [],
  },
  {
    name: 'markup in a name: quoted as data in the message',
    text: cm('"<script>alert(1)</script>"'),
    results: ['configmap/<script>alert(1)</script> error'],
    message: `The ConfigMap "<script>alert(1)</script>" is invalid: metadata.name: Invalid value: "<script>alert(1)</script>": ${RFC1123}`,
    line: 4,
    column: 3,
    stored: [],
  },
  {
    name: 'an invalid second document: the first is applied',
    text: `${cm('first')}---\n${cm('Bad_Name')}`,
    results: ['configmap/first created', 'configmap/Bad_Name error'],
    message: `The ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${RFC1123}`,
    line: 9,
    stored: ['first'],
  },
];

describe('bad input through Apply (worker)', () => {
  it.each(CASES)('$name', (c) => {
    const h = host();
    const t0 = performance.now();
    const results = h.apply(c.text);
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(results.map((r) => `${r.object} ${r.action}`)).toEqual(c.results);
    const err = results.find((r) => r.action === 'error')!;
    if (typeof c.message === 'string') expect(err.message).toBe(c.message);
    else expect(err.message).toMatch(c.message);
    const markers = h.markers(c.text, results);
    expect(markers[0]).toMatchObject({ severity: 'error', line: c.line, ...(c.column ? { column: c.column } : {}) });
    expect(
      h
        .kubectl('get configmaps -n default -o name')
        .output.split('\n')
        .filter((l) => l && l !== 'configmap/kube-root-ca.crt'),
    ).toEqual(c.stored.map((n) => `configmap/${n}`));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'x')).toBe(false);
  });
});

describe('markup in labels, annotations and container commands is stored as plain data', () => {
  it('round-trips byte for byte through apply and kubectl get -o yaml', () => {
    const h = host();
    const evil = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: xss\n  annotations:\n    note: '${evil}'\n  labels:\n    app: xss\nspec:\n  containers:\n    - name: c\n      image: nginx\n      command: ["sh", "-c", "${evil.replace(/"/g, '\\"')}"]\n`;
    expect(h.apply(text).map((r) => `${r.object} ${r.action}`)).toEqual(['pod/xss created']);
    const out = h.kubectl('get pod xss -o jsonpath={.metadata.annotations.note}|{.spec.containers[0].command[2]}').output;
    expect(out).toBe(`${evil}|${evil}`);
  });
});

describe('duplicate documents and a CRD with its instances in one file', () => {
  it.each([
    { name: 'identical twice', text: `${cm('dup')}---\n${cm('dup')}`, want: ['configmap/dup created', 'configmap/dup unchanged'] },
    {
      name: 'same object, different data: the later one wins',
      text: `${cm('dup', 'data:\n  a: "1"\n')}---\n${cm('dup', 'data:\n  a: "2"\n')}`,
      want: ['configmap/dup created', 'configmap/dup configured'],
    },
  ])('$name', ({ text, want }) => {
    const h = host();
    expect(h.apply(text).map((r) => `${r.object} ${r.action}`)).toEqual(want);
    expect(h.apply(text).map((r) => r.action)).toEqual(
      want.length === 2 && want[1].endsWith('configured') ? ['configured', 'configured'] : ['unchanged', 'unchanged'],
    );
  });

  it('the CRD is created, its instances have no mapping yet ("ensure CRDs are installed first"); applying again creates them', () => {
    const h = host();
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w2
`;
    // before the CRD exists, the editor's dry run marks the instance's document (line 16)
    expect(
      host()
        .dryRun(crd)
        .markers.find((m) => m.message.includes('"w1"'))!.line,
    ).toBe(16);
    const first = h.apply(crd);
    expect(first.map((r) => `${r.object} ${r.action}`)).toEqual([
      'customresourcedefinition.apiextensions.k8s.io/widgets.example.com created',
      'widget.example.com/w1 error',
      'widget.example.com/w2 error',
    ]);
    expect(first[1].message).toContain(
      'resource mapping not found for name: "w1" namespace: "" from "STDIN": no matches for kind "Widget" in version "example.com/v1"\nensure CRDs are installed first',
    );
    expect(h.markers(crd, first).map((m) => m.line)).toEqual([16, 21]);
    h.tick();
    (h as unknown as { cluster: Cluster }).cluster.advance(1_000);
    expect(h.apply(crd).map((r) => `${r.object} ${r.action}`)).toEqual([
      'customresourcedefinition.apiextensions.k8s.io/widgets.example.com unchanged',
      'widget.example.com/w1 created',
      'widget.example.com/w2 created',
    ]);
  });
});
