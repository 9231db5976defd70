/**
 * Issue 14 §1, §5, §6 through the apiserver (what the HTTP API and the worker share): every
 * case answers the status code, reason and message kube-apiserver v1.33 gives, never a thrown
 * TypeError; `__proto__`, `constructor` and `prototype` are ordinary keys; no prototype changes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { users } from '../client/clientset';
import { StatusError } from '../api/errors';
import type { KObject } from '../api/types';
import { patchScaleDocument } from './scale';
import { nested } from '../fuzz/hostile';

const u = users.kubectl();
const PROTOS = [Object.prototype, Array.prototype, Function.prototype] as const;
const protoKeys = () => PROTOS.map((p) => Object.getOwnPropertyNames(p).sort().join(','));
const clean = protoKeys();
afterEach(() => expect(protoKeys()).toEqual(clean));

function fresh() {
  const c = new Cluster({ seed: 3, nodes: 1 });
  const info = (g: string, r: string) => c.api.registry.forResource(g, r)!;
  const cm = (name: string, data: Record<string, string> = { a: 'b' }) =>
    c.api.create(u, info('', 'configmaps'), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data } as KObject).object;
  const get = (r: string, ns: string, name: string) => c.api.getObject(r, ns, name)!;
  return { c, info, cm, get };
}

/** The StatusError `fn` throws, as `code reason: message` (or "ok"). */
function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (e) {
    if (e instanceof StatusError) return `${e.status.code} ${e.status.reason}: ${e.status.message}`;
    throw e; // a TypeError / RangeError is the bug this file pins
  }
}

describe('prototype pollution through patches (issue 14 §1)', () => {
  const cases: {
    name: string;
    type: 'json' | 'merge' | 'strategic';
    body: unknown;
    fieldValidation?: 'Strict';
    want: string;
    check?: (o: KObject) => void;
    warnings?: string[];
  }[] = [
    {
      name: 'JSON patch add /__proto__/deletionTimestamp: the parent is missing (422)',
      type: 'json',
      body: [{ op: 'add', path: '/__proto__/deletionTimestamp', value: '2026-01-01T00:00:00Z' }],
      want: '422 Invalid: the server rejected our request due to an error in our request',
    },
    {
      name: 'JSON patch add /metadata/constructor/x: constructor is not an inherited member',
      type: 'json',
      body: [{ op: 'add', path: '/metadata/constructor/x', value: 'y' }],
      want: '422 Invalid: the server rejected our request due to an error in our request',
    },
    {
      name: 'JSON patch replace /data/toString: a key the object does not have',
      type: 'json',
      body: [{ op: 'replace', path: '/data/toString', value: 'y' }],
      want: '422 Invalid: the server rejected our request due to an error in our request',
    },
    {
      name: 'JSON patch remove /data/hasOwnProperty',
      type: 'json',
      body: [{ op: 'remove', path: '/data/hasOwnProperty' }],
      want: '422 Invalid: the server rejected our request due to an error in our request',
    },
    {
      name: 'JSON patch add /data/__proto__: an ordinary data key',
      type: 'json',
      body: [{ op: 'add', path: '/data/__proto__', value: 'z' }],
      want: 'ok',
      check: (o) => {
        expect(Object.getOwnPropertyDescriptor(o.data, '__proto__')?.value).toBe('z');
        expect(Object.getPrototypeOf(o.data)).toBe(Object.prototype);
      },
    },
    {
      name: 'JSON patch add /__proto__ at the top: an unknown field, dropped with a warning',
      type: 'json',
      body: [{ op: 'add', path: '/__proto__', value: { deletionTimestamp: '2026-01-01T00:00:00Z' } }],
      want: 'ok',
      warnings: ['unknown field "__proto__"'],
      check: (o) => {
        expect(Object.hasOwn(o, '__proto__')).toBe(false);
        expect(o.metadata.deletionTimestamp).toBeUndefined();
      },
    },
    {
      name: 'JSON patch add /__proto__ with fieldValidation=Strict: 422 strict decoding error',
      type: 'json',
      body: [{ op: 'add', path: '/__proto__', value: { x: 1 } }],
      fieldValidation: 'Strict',
      want: '422 Invalid:  "" is invalid: patch: Invalid value: "{\\"__proto__\\":{\\"x\\":1},\\"apiVersion\\":\\"v1\\",\\"data\\":{\\"a\\":\\"b\\"},\\"kind\\":\\"ConfigMap\\",\\"metadata\\":{',
    },
    {
      name: 'merge patch with __proto__ and constructor keys in data and at the top',
      type: 'merge',
      body: JSON.parse('{"__proto__":{"polluted":"yes"},"data":{"__proto__":"m","constructor":"c","prototype":"p"}}'),
      want: 'ok',
      warnings: ['unknown field "__proto__"'],
      check: (o) =>
        expect(Object.entries(o.data)).toEqual([
          ['a', 'b'],
          ['__proto__', 'm'],
          ['constructor', 'c'],
          ['prototype', 'p'],
        ]),
    },
    {
      name: 'merge patch deleting an inherited name (constructor: null) changes nothing',
      type: 'merge',
      body: { data: { constructor: null } },
      want: 'ok',
      check: (o) => expect(o.data).toEqual({ a: 'b' }),
    },
    {
      name: 'strategic merge patch: labels constructor and __proto__-keyed metadata',
      type: 'strategic',
      body: JSON.parse('{"metadata":{"labels":{"constructor":"x"},"__proto__":{"polluted":"yes"}}}'),
      want: 'ok',
      warnings: ['unknown field "metadata.__proto__"'],
      check: (o) => {
        expect(o.metadata.labels).toEqual({ constructor: 'x' });
        expect(Object.hasOwn(o.metadata, '__proto__')).toBe(false);
      },
    },
    {
      name: 'JSON patch replacing metadata with a string: 422, the patched document does not decode',
      type: 'json',
      body: [{ op: 'replace', path: '/metadata', value: 'x' }],
      want: '422 Invalid:  "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"v1\\",\\"data\\":{\\"a\\":\\"b\\"},\\"kind\\":\\"ConfigMap\\",\\"metadata\\":\\"x\\"}": json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
    },
  ];
  it.each(cases)('$name', ({ type, body, fieldValidation, want, check, warnings }) => {
    const { c, info, cm, get } = fresh();
    cm('x');
    const before = c.objects().length;
    let w: string[] = [];
    const got = outcome(() => (w = c.api.patch(u, info('', 'configmaps'), 'default', 'x', type, body, { fieldValidation }).warnings));
    if (want.endsWith('{')) expect(got.startsWith(want), got).toBe(true);
    else expect(got).toBe(want);
    if (warnings) expect(w).toEqual(warnings);
    if (check) check(get('configmaps', 'default', 'x'));
    // nothing else changed: no object became Terminating, creates still work
    expect(c.objects().filter((o) => o.metadata.deletionTimestamp)).toEqual([]);
    expect(c.objects().length).toBe(before);
    expect(outcome(() => cm('after'))).toBe('ok');
  });

  it("server-side apply of __proto__ / constructor data keys: own keys stored, later objects' managedFields untouched", () => {
    const { c, info, get, cm } = fresh();
    const cfg = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ssa"},"data":{"__proto__":"x","constructor":"y"}}');
    expect(outcome(() => c.api.patch(u, info('', 'configmaps'), 'default', 'ssa', 'apply', cfg, { fieldManager: 'm' }))).toBe('ok');
    const o = get('configmaps', 'default', 'ssa');
    expect(Object.entries(o.data)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
    expect(JSON.stringify(o.metadata.managedFields?.[0].fieldsV1)).toBe('{"f:data":{"f:__proto__":{},"f:constructor":{}}}');
    const later = cm('later');
    expect(JSON.stringify(later.metadata.managedFields?.map((e) => e.fieldsV1))).toBe('[{"f:data":{"f:a":{}}}]');
  });

  it('managedFields sent by a client with a __proto__ field set are ordinary data', () => {
    const { c, info, cm, get } = fresh();
    cm('mf');
    const sent = JSON.parse(
      '[{"manager":"evil","operation":"Update","apiVersion":"v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"__proto__":{"f:polluted":{}},"f:data":{"f:a":{}}}}]',
    );
    const cur = get('configmaps', 'default', 'mf');
    expect(
      outcome(() =>
        c.api.update(u, info('', 'configmaps'), 'default', {
          ...cur,
          metadata: { ...cur.metadata, managedFields: sent },
          data: { a: 'c' },
        }),
      ),
    ).toBe('ok');
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('f:polluted');
    expect(JSON.stringify(cm('later').metadata.managedFields)).not.toContain('polluted');
  });
});

describe('bodies kube-apiserver answers 400/422 for (issue 14 §5)', () => {
  const cases: { name: string; resource: [string, string]; body: unknown; want: string }[] = [
    {
      name: 'metadata given as a string',
      resource: ['', 'configmaps'],
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: 'x' },
      want: '400 BadRequest: ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
    },
    {
      name: 'metadata given as a list',
      resource: ['apps', 'deployments'],
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: ['x'] },
      want: '400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal array into Go struct field Deployment.metadata of type v1.ObjectMeta',
    },
    {
      name: 'Service ports: [null] is one zero-valued port',
      resource: ['', 'services'],
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [null] } },
      want: '422 Invalid: Service "s" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    },
    {
      name: 'container ports: [null] is one zero-valued port',
      resource: ['', 'pods'],
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', image: 'nginx', ports: [null] }] },
      },
      want: '422 Invalid: Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Required value',
    },
    {
      name: 'ownerReferences without version, kind, name and uid (the garbage collector crashed on it)',
      resource: ['', 'configmaps'],
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o', ownerReferences: [{}] } },
      want: '422 Invalid: ConfigMap "o" is invalid: [metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty, metadata.ownerReferences.kind: Invalid value: "": kind must not be empty, metadata.ownerReferences.name: Invalid value: "": name must not be empty, metadata.ownerReferences.uid: Invalid value: "": uid must not be empty]',
    },
    {
      name: 'a Job selector with an invalid operator is a field error, not a thrown conversion error',
      resource: ['batch', 'jobs'],
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j' },
        spec: {
          manualSelector: true,
          selector: { matchExpressions: [{ key: 'app', operator: 'a' }] },
          template: { metadata: { labels: { app: 'x' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'nginx' }] } },
        },
      },
      want: '422 Invalid: Job.batch "j" is invalid: spec.selector.matchExpressions[0].operator: Invalid value: "a": not a valid selector operator',
    },
    {
      name: 'a Secret of type constructor (an ordinary type name) is stored',
      resource: ['', 'secrets'],
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'constructor' },
      want: 'ok',
    },
    {
      name: 'a Secret with stringData: null is stored (a nil map)',
      resource: ['', 'secrets'],
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: null },
      want: 'ok',
    },
    {
      name: "a 100,000-deep value: Go's decoder stops at depth 10,000",
      resource: ['', 'configmaps'],
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep' }, data: { x: nested(100_000) } },
      want: '400 BadRequest: the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: exceeded max depth ({"apiVersion":"v1","kind":"Con ...)',
    },
  ];
  it.each(cases)('$name', ({ resource, body, want }) => {
    const { c, info } = fresh();
    const before = c.objects().length;
    expect(outcome(() => c.api.create(u, info(...resource), 'default', body as KObject))).toBe(want);
    expect(c.objects().length).toBe(want === 'ok' ? before + 1 : before);
    c.advance(5_000); // the controllers see it and keep running
  });

  it('a 100,000-deep custom resource is 400, and so is the same body on update', () => {
    const { c, info } = fresh();
    c.apply(
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: widgets, singular: widget, kind: Widget}\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]\n',
    );
    c.advance(100);
    const w = c.api.registry.forKind('example.com/v1', 'Widget')!;
    const body = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: nested(100_000) } as KObject;
    const want =
      '400 BadRequest: the object provided is unrecognized (must be of type Widget): couldn\'t get version/kind; json parse error: exceeded max depth ({"apiVersion":"example.com/v1" ...)';
    expect(outcome(() => c.api.create(u, w, 'default', body))).toBe(want);
    c.api.create(u, w, 'default', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { a: 1 } } as KObject);
    expect(outcome(() => c.api.update(u, w, 'default', body))).toBe(want);
    expect(outcome(() => c.api.patch(u, w, 'default', 'w', 'merge', { spec: nested(100_000) }))).toBe(
      '400 BadRequest: error decoding patch: exceeded max depth',
    );
    void info;
  });

  const selectors: [string, string][] = [
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['a,,b', "found ',', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a>b', "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, the value must be an integer"],
    [
      'a@b=c',
      "unable to parse requirement: <nil>: Invalid value: \"a@b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
    [
      'a=b@',
      "unable to parse requirement: [a]: Invalid value: \"b@\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a==', 'ok'],
    ['x in (a,,b),!y,z notin ()', 'ok'],
  ];
  it.each(selectors)('labelSelector %j: list and watch answer %j (400 BadRequest unless ok)', (sel, want) => {
    const { c, info } = fresh();
    const expected = want === 'ok' ? 'ok' : `400 BadRequest: ${want}`;
    expect(outcome(() => c.api.list(u, info('', 'pods'), 'default', { labelSelector: sel }))).toBe(expected);
    expect(outcome(() => c.api.watch(u, info('', 'pods'), 'default', { labelSelector: sel }, () => {})())).toBe(expected);
  });

  it.each([
    [
      'replace a missing path',
      [{ op: 'replace', path: '/spec/nope/x', value: 1 }],
      '422 Invalid: the server rejected our request due to an error in our request',
    ],
    [
      'remove a missing key',
      [{ op: 'remove', path: '/status/nope' }],
      '422 Invalid: the server rejected our request due to an error in our request',
    ],
    [
      'test that fails',
      [{ op: 'test', path: '/spec/replicas', value: 7 }],
      '422 Invalid: the server rejected our request due to an error in our request',
    ],
    ['not a list of operations', { op: 'add' }, '400 BadRequest: json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['a valid patch', [{ op: 'replace', path: '/spec/replicas', value: 4 }], 'ok'],
  ])('JSON patch of the scale subresource: %s', (_name, body, want) => {
    const { c, get } = fresh();
    c.kubectl('create deployment web --image=nginx');
    expect(outcome(() => patchScaleDocument({ kind: 'Deployment' }, get('deployments.apps', 'default', 'web'), 'json', body))).toBe(want);
  });
});

describe('immortal namespaces (issue 14 §6)', () => {
  it.each([
    ['default', '403 Forbidden: namespaces "default" is forbidden: this namespace may not be deleted'],
    ['kube-system', '403 Forbidden: namespaces "kube-system" is forbidden: this namespace may not be deleted'],
    ['kube-public', '403 Forbidden: namespaces "kube-public" is forbidden: this namespace may not be deleted'],
    // not immortal upstream (NamespaceLifecycle's Register lists default, kube-system, kube-public)
    ['kube-node-lease', 'ok'],
  ])('DELETE namespaces/%s → %s', (name, want) => {
    const { c, info, get } = fresh();
    expect(outcome(() => c.api.delete(u, info('', 'namespaces'), '', name))).toBe(want);
    expect(outcome(() => c.api.delete(u, info('', 'namespaces'), '', name, { dryRun: true }))).toBe(want);
    if (want !== 'ok') expect(get('namespaces', '', name).metadata.deletionTimestamp).toBeUndefined();
  });
});
