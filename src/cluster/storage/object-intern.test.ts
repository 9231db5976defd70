import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import { MAX_INTERNED_STRING, OBJECT_INTERN_LIMIT, ObjectIntern } from './object-intern';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 30
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources: {requests: {cpu: 1m, memory: 1Mi}}
`;

type Json = Record<string, unknown>;
const cm = (name: string, data: unknown, extra: Json = {}): KObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'a' } }, data, ...extra }) as unknown as KObject;
/** [1, <hole>]: index 1 was never set */
const holey = (): unknown[] => {
  const a: unknown[] = [1];
  a.length = 2;
  return a;
};
const field = (o: KObject, k: string): unknown => (o as unknown as Json)[k];

describe('ObjectIntern', () => {
  it('the Pods of one ReplicaSet share their repeated subtrees, and read as before', () => {
    const c = new Cluster({ seed: 1 });
    c.advance(1_000);
    c.apply(DEPLOY);
    c.advance(20_000);
    const pods = c.list('pods', 'default').filter((p) => p.metadata.name.startsWith('web-'));
    expect(pods).toHaveLength(30);
    const [a, b] = pods as unknown as { metadata: Json; spec: { volumes: { name: string; projected: object }[]; tolerations: object[] } }[];
    for (const [what, x, y] of [
      ['labels', a.metadata.labels, b.metadata.labels],
      ['ownerReferences', a.metadata.ownerReferences, b.metadata.ownerReferences],
      ['the kube-api-access projected volume', a.spec.volumes[0].projected, b.spec.volumes[0].projected],
      ['tolerations', a.spec.tolerations, b.spec.tolerations],
    ] as const) {
      expect(x, what).toBe(y);
      expect(Object.isFrozen(x), what).toBe(true);
    }
    // each Pod's volume has its own name, so the volume itself is its own
    expect(a.spec.volumes[0].name).not.toBe(b.spec.volumes[0].name);
    expect(a.spec.volumes[0]).not.toBe(b.spec.volumes[0]);
    // the object and its metadata are never shared or frozen
    expect(Object.isFrozen(a)).toBe(false);
    expect(Object.isFrozen(a.metadata)).toBe(false);
    // changing a shared subtree in place throws instead of changing the other Pods
    expect(() => {
      (a.spec.tolerations[0] as Json).tolerationSeconds = 1;
    }).toThrow(TypeError);
  });

  it('what a reader sees is unchanged, byte for byte', () => {
    const objs = [
      cm('one', { k: 'v', n: 1, list: [1, 'x', null, true, { deep: [{}] }] }),
      cm('two', { k: 'v', n: 1, list: [1, 'x', null, true, { deep: [{}] }] }),
      cm('three', { n: 1, k: 'v' }),
    ];
    const before = objs.map((o) => JSON.stringify(o));
    const t = new ObjectIntern();
    for (const o of objs) t.internObject(o);
    expect(objs.map((o) => JSON.stringify(o))).toEqual(before);
    expect(field(objs[0], 'data')).toBe(field(objs[1], 'data'));
    expect(objs[0].metadata.labels).toBe(objs[2].metadata.labels);
  });

  // each case: two objects' `data`, whether they end up one object, and whether each is shared (frozen) at all
  it.each([
    { name: 'equal subtrees → one object', a: { x: [1, 'a'] }, b: { x: [1, 'a'] }, shared: true, frozen: true },
    { name: 'other key order → two objects', a: { x: 1, y: 2 }, b: { y: 2, x: 1 }, shared: false, frozen: true },
    { name: 'a number and the string of it → two objects', a: { x: 1, y: '2' }, b: { x: '1', y: 2 }, shared: false, frozen: true },
    {
      name: 'a string holding the key syntax → two objects',
      a: { x: 's1:a', y: 'b' },
      b: { x: 's1:a,1:y=s1:b' },
      shared: false,
      frozen: true,
    },
    { name: 'null and an empty object → two objects', a: { x: null }, b: { x: {} }, shared: false, frozen: true },
    { name: 'an explicit undefined is not shared', a: { x: undefined }, b: { x: undefined }, shared: false, frozen: false },
    { name: '−0 is not shared (JSON prints it as 0)', a: { x: -0 }, b: { x: -0 }, shared: false, frozen: false },
    { name: 'NaN is not shared (JSON prints it as null)', a: { x: NaN }, b: { x: NaN }, shared: false, frozen: false },
    { name: 'a Date is not a JSON object', a: { x: new Date(0) }, b: { x: new Date(0) }, shared: false, frozen: false },
    { name: 'an array with a hole is not shared', a: { x: holey() }, b: { x: holey() }, shared: false, frozen: false },
    {
      name: `a string over ${MAX_INTERNED_STRING} characters is not shared`,
      a: { x: 'a'.repeat(MAX_INTERNED_STRING + 1) },
      b: { x: 'a'.repeat(MAX_INTERNED_STRING + 1) },
      shared: false,
      frozen: false,
    },
    {
      name: 'a null-prototype object and a plain one → two objects',
      a: Object.assign(Object.create(null) as Json, { x: 1 }),
      b: { x: 1 },
      shared: false,
      frozen: true,
    },
  ])('$name', ({ a, b, shared, frozen }) => {
    const t = new ObjectIntern();
    const oa = cm('a', a);
    const ob = cm('b', b);
    t.internObject(oa);
    t.internObject(ob);
    expect(field(oa, 'data') === field(ob, 'data')).toBe(shared);
    expect(Object.isFrozen(field(oa, 'data'))).toBe(frozen);
    expect(Object.isFrozen(field(ob, 'data'))).toBe(frozen);
  });

  it("an unshareable object's children are still shared", () => {
    const t = new ObjectIntern();
    const oa = cm('a', { odd: undefined, child: { x: 1 } });
    const ob = cm('b', { odd: undefined, child: { x: 1 } });
    t.internObject(oa);
    t.internObject(ob);
    const [da, db] = [field(oa, 'data') as Json, field(ob, 'data') as Json];
    expect(da).not.toBe(db);
    expect(Object.isFrozen(da)).toBe(false);
    expect(da.child).toBe(db.child);
  });

  it('leaves managedFields to managed-fields-intern.ts', () => {
    const t = new ObjectIntern();
    const mf = () => [{ manager: 'm', operation: 'Update', fieldsV1: { 'f:data': {} } }];
    const oa = { ...cm('a', {}), metadata: { name: 'a', managedFields: mf() } } as unknown as KObject;
    const ob = { ...cm('b', {}), metadata: { name: 'b', managedFields: mf() } } as unknown as KObject;
    t.internObject(oa);
    t.internObject(ob);
    expect(oa.metadata.managedFields![0]).not.toBe(ob.metadata.managedFields![0]);
    expect(Object.isFrozen(oa.metadata.managedFields![0])).toBe(false);
  });

  it(`is bounded: the table starts over after ${OBJECT_INTERN_LIMIT} subtrees, and earlier ones stay shared`, () => {
    const t = new ObjectIntern();
    const first = cm('first', { i: -1 });
    t.internObject(first);
    // each ConfigMap adds its data and its labels is the one already there
    for (let i = 0; t.size < OBJECT_INTERN_LIMIT; i++) t.internObject(cm(`c${i}`, { i }));
    expect(t.size).toBe(OBJECT_INTERN_LIMIT);
    t.internObject(cm('next', { i: 'next' }));
    expect(t.size).toBe(1);
    // a new object holding a subtree of the earlier generation keys it again (no copy, no throw)
    const again = cm('again', field(first, 'data'));
    t.internObject(again);
    expect(field(again, 'data')).toBe(field(first, 'data'));
    const equal = cm('equal', { i: -1 });
    t.internObject(equal);
    expect(field(equal, 'data')).toBe(field(first, 'data'));
  });
});
