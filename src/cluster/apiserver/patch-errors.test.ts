/**
 * A patch whose result does not fit the kind's Go types fails as kube-apiserver fails it
 * (handlers/patch.go): 422 Invalid, no kind and no name, one `patch` cause whose value is the
 * patch as Go's %+v prints it (strategic merge) or the patched document (merge / JSON patch);
 * kubectl prints `The request is invalid: patch: Invalid value: …`. Texts checked against the
 * runtime converter (apimachinery runtime/converter.go) and real kubectl's rendering.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { users } from '../client/clientset';
import { StatusError, kubectlErrorMessage } from '../api/errors';
import { fromUnstructuredError, goPrintV } from './patch-errors';

const c = new Cluster();
c.kubectl('create configmap c1 --from-literal=a=b');
const info = c.api.registry.forKind('v1', 'ConfigMap')!;

function patchErr(type: 'strategic' | 'merge' | 'json', body: unknown): StatusError {
  try {
    c.api.patch(users.kubectl(), info, 'default', 'c1', type, body);
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('patch succeeded');
}

describe('strategic merge patch type errors', () => {
  it.each([
    ['a string for a map', { metadata: { labels: 'hello' } }, '"map[metadata:map[labels:hello]]": cannot restore map from string'],
    ['an integer for a string', { data: { a: 3 } }, '"map[data:map[a:3]]": cannot convert int64 to string'],
    ['a string for map data', { data: 'x' }, '"map[data:x]": cannot restore map from string'],
    ['a bool for a string', { data: { a: true } }, '"map[data:map[a:true]]": unrecognized type: string'],
    ['a float for a string', { metadata: { labels: { a: 1.5 } } }, '"map[metadata:map[labels:map[a:1.5]]]": unrecognized type: string'],
    ['a list for a struct', { metadata: [1, 'x'] }, '"map[metadata:[1 x]]": cannot restore struct from: slice'],
  ])('%s', (_n, body, tail) => {
    const e = patchErr('strategic', body);
    expect({ code: e.code, reason: e.status.reason, message: e.message, details: e.status.details }).toEqual({
      code: 422,
      reason: 'Invalid',
      message: ` "" is invalid: patch: Invalid value: ${tail}`,
      details: { causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${tail}`, field: 'patch' }] },
    });
    expect(kubectlErrorMessage(e)).toBe(`The request is invalid: patch: Invalid value: ${tail}`);
  });

  it('a merge patch reports the json decoder error with the patched document', () => {
    const e = patchErr('merge', { data: { a: 3 } });
    expect(e.code).toBe(422);
    expect(e.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"data\\":\{\\"a\\":3\},\\"kind\\":\\"ConfigMap\\",.*": json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/,
    );
  });

  it.each([
    ['Deployment replicas as a string', 'apps', 'v1', 'Deployment', { spec: { replicas: 'three' } }, 'unrecognized type: int32'],
    ['Deployment replicas as a float', 'apps', 'v1', 'Deployment', { spec: { replicas: 1.5 } }, 'cannot convert float64 to int32'],
    [
      'containers as a map',
      'apps',
      'v1',
      'Deployment',
      { spec: { template: { spec: { containers: { name: 'x' } } } } },
      'cannot restore slice from map',
    ],
    [
      'a bad quantity',
      '',
      'v1',
      'Pod',
      { spec: { containers: [{ name: 'a', resources: { limits: { cpu: 'lots' } } }] } },
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
    [
      'an IntOrString as a bool',
      'apps',
      'v1',
      'Deployment',
      { spec: { strategy: { rollingUpdate: { maxSurge: true } } } },
      'json: cannot unmarshal bool into Go value of type int32',
    ],
    ['a fitting object', 'apps', 'v1', 'Deployment', { spec: { replicas: 3 } }, undefined],
  ])('converter: %s', (_n, g, v, k, obj, want) => {
    expect(fromUnstructuredError({ group: g, version: v, kind: k }, obj)).toBe(want);
  });

  it.each([
    [{ a: [1, 2.5, null, true, 'x'] }, 'map[a:[1 2.5 <nil> true x]]'],
    [{ b: {}, a: [] }, 'map[a:[] b:map[]]'],
  ])('goPrintV(%j)', (v, want) => expect(goPrintV(v)).toBe(want));

  it('the in-app kubectl prints it as real kubectl does', () => {
    expect(c.kubectl(`patch configmap c1 -p '{"metadata":{"labels":"hello"}}'`).error).toBe(
      'The request is invalid: patch: Invalid value: "map[metadata:map[labels:hello]]": cannot restore map from string\n',
    );
  });
});
