import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import { INTERN_LIMIT, ManagedFieldsIntern } from './managed-fields-intern';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`;

const entry = (i: number) => ({
  manager: 'kubectl-client-side-apply',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-01-01T00:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { [`f:k${i}`]: {} } },
});
const cm = (i: number): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}`, managedFields: [entry(i)] } });

describe('managedFields interning', () => {
  it('the Pods of one ReplicaSet share their managedFields entries, and read as before', () => {
    const c = new Cluster({ seed: 1 });
    c.advance(1_000);
    c.apply(DEPLOY);
    c.advance(20_000);
    const pods = c.list('pods', 'default').filter((p) => p.metadata.name.startsWith('web-'));
    expect(pods).toHaveLength(4);
    type Entry = { manager?: string; time?: string; fieldsV1?: object };
    const kcm = pods.map((p) => (p.metadata.managedFields as Entry[]).find((e) => e.manager === 'kube-controller-manager')!);
    // one object for all four, with ownerReferences naming the ReplicaSet
    expect(new Set(kcm).size).toBe(1);
    expect(Object.isFrozen(kcm[0].fieldsV1)).toBe(true);
    expect(JSON.stringify(kcm[0].fieldsV1)).toContain('"f:ownerReferences":{"k:{\\"uid\\":');
    // mutating a stored entry in place throws instead of changing the other Pods
    expect(() => {
      kcm[0].time = 'x';
    }).toThrow(TypeError);
    expect(pods.every((p) => (p.metadata.managedFields as Entry[]).every((e) => e.time !== 'x'))).toBe(true);
  });

  it.each([
    { name: 'same entry twice → one object', objs: [cm(1), cm(1)], shared: true, size: 1 },
    { name: 'different fields → two objects', objs: [cm(1), cm(2)], shared: false, size: 2 },
  ])('$name', ({ objs, shared, size }) => {
    const t = new ManagedFieldsIntern();
    for (const o of objs) t.internManagedFields(o);
    expect(objs[0].metadata.managedFields![0] === objs[1].metadata.managedFields![0]).toBe(shared);
    expect(t.size).toBe(size);
    // what a reader sees is unchanged
    expect(JSON.stringify(objs[0].metadata.managedFields)).toBe(JSON.stringify([entry(1)]));
  });

  it(`starts over after ${INTERN_LIMIT} distinct entries; entries already shared stay frozen`, () => {
    const t = new ManagedFieldsIntern();
    const first = cm(0);
    t.internManagedFields(first);
    for (let i = 1; i < INTERN_LIMIT; i++) t.internManagedFields(cm(i));
    expect(t.size).toBe(INTERN_LIMIT);
    t.internManagedFields(cm(INTERN_LIMIT));
    expect(t.size).toBe(1);
    expect(Object.isFrozen(first.metadata.managedFields![0])).toBe(true);
    // an object without managedFields is left alone
    const bare: KObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bare' } };
    t.internManagedFields(bare);
    expect(bare.metadata.managedFields).toBeUndefined();
  });
});
