import { describe, expect, it } from 'vitest';
import { deepEqual, type KObject } from '../api/types';
import { sameButRevisionAndTimes } from './apiserver';

/** The no-op check as it was written before (copies with resourceVersion and entry times cleared). */
const reference = (a: KObject, b: KObject): boolean => {
  const owners = (o: KObject) => (o.metadata.managedFields ?? []).map((e: object) => ({ ...e, time: undefined }));
  return deepEqual(
    { ...a, metadata: { ...a.metadata, resourceVersion: undefined, managedFields: owners(a) } },
    { ...b, metadata: { ...b.metadata, resourceVersion: undefined, managedFields: owners(b) } },
  );
};
const entry = (manager: string, time: string, f: Record<string, unknown> = { 'f:spec': { 'f:replicas': {} } }) => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: f,
});
const pod = (rv: string, mf?: object[], extra: Record<string, unknown> = {}): KObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', resourceVersion: rv, ...(mf ? { managedFields: mf } : {}), ...extra },
    spec: { nodeName: 'n1' },
  }) as KObject;

const cases: [string, KObject, KObject, boolean][] = [
  ['only resourceVersion differs', pod('1'), pod('2'), true],
  ['entry times differ', pod('1', [entry('kubectl', 't1')]), pod('2', [entry('kubectl', 't2')]), true],
  ['absent managedFields equals []', pod('1'), pod('1', []), true],
  ['managers differ', pod('1', [entry('kubectl', 't1')]), pod('1', [entry('kubelet', 't1')]), false],
  ['field sets differ', pod('1', [entry('m', 't')]), pod('1', [entry('m', 't', { 'f:spec': { 'f:nodeName': {} } })]), false],
  ['one entry more', pod('1', [entry('m', 't')]), pod('1', [entry('m', 't'), entry('n', 't')]), false],
  ['an entry without time vs with', pod('1', [{ manager: 'm' }]), pod('1', [{ manager: 'm', time: 't' }]), true],
  ['a label added', pod('1'), pod('1', undefined, { labels: { a: 'b' } }), false],
  ['a label explicitly undefined', pod('1'), pod('1', undefined, { labels: undefined }), false],
  ['spec differs', pod('1'), { ...pod('1'), spec: { nodeName: 'n2' } }, false],
  ['status added', pod('1'), { ...pod('1'), status: {} }, false],
];

describe('sameButRevisionAndTimes (update no-op check)', () => {
  it.each(cases)('%s', (_name, a, b, want) => {
    expect(sameButRevisionAndTimes(a, b)).toBe(want);
    expect(sameButRevisionAndTimes(b, a)).toBe(want);
    expect(reference(a, b)).toBe(want);
  });
});
