// The last-entry check of ManagedFieldsIntern (storage/managed-fields-intern.ts): an entry is
// replaced by the last shared one only when it serializes the same.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../api/types';
import { ManagedFieldsIntern, sameFields } from './managed-fields-intern';
import { Rng } from '../sim/rng';

const FIELDS = Object.freeze({ 'f:message': Object.freeze({}) });
const base = () => ({
  manager: 'kube-scheduler',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2026-01-01T00:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: FIELDS as object,
});
const ev = (e: object): KObject => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'x', managedFields: [e as never] } });

describe('sameFields', () => {
  const a = Object.freeze(base());
  const ka = Object.keys(a);
  it('is true for an entry of the same keys, order and values', () => {
    expect(sameFields(a, ka, base())).toBe(true);
  });
  it('is false for another value, key order, extra or missing key, inherited key or prototype', () => {
    expect(sameFields(a, ka, { ...base(), time: '2026-01-01T00:00:01Z' })).toBe(false);
    expect(sameFields(a, ka, { ...base(), fieldsV1: { 'f:message': {} } })).toBe(false); // equal JSON, not shown equal
    const { manager, ...rest } = base();
    expect(sameFields(a, ka, { ...rest, manager })).toBe(false);
    expect(sameFields(a, ka, rest)).toBe(false);
    expect(sameFields(a, ka, { ...base(), subresource: 'status' })).toBe(false);
    expect(sameFields(a, ka, { ...base(), x: undefined })).toBe(false);
    const inherited = Object.assign(Object.create({ subresource: 'status' }) as object, base());
    expect(sameFields(a, ka, inherited)).toBe(false);
    expect(sameFields(a, ka, Object.assign(Object.create(null) as object, base()))).toBe(false);
  });
});

describe('ManagedFieldsIntern with the last-entry check', () => {
  it('shares exactly the entries whose JSON is equal, over 5,000 random entries', () => {
    const rng = new Rng(3);
    const t = new ManagedFieldsIntern();
    const shared = new Map<string, object>();
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.float() * xs.length)];
    const trees = [FIELDS, Object.freeze({ 'f:count': Object.freeze({}) }), { 'f:message': {} }];
    for (let i = 0; i < 5_000; i++) {
      const e: Record<string, unknown> = base();
      e.manager = pick(['kube-scheduler', 'kubelet', 'kube-controller-manager']);
      e.time = pick(['2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z']);
      // a fresh copy of an unfrozen tree now and then: equal JSON by another object
      const f = pick(trees);
      e.fieldsV1 = Object.isFrozen(f) ? f : structuredClone(f);
      if (rng.float() < 0.1) e.subresource = 'status';
      if (rng.float() < 0.05) {
        // the same fields in another order: another JSON
        const { manager, ...rest } = e;
        Object.keys(e).forEach((k) => delete e[k]);
        Object.assign(e, rest, { manager });
      }
      const json = JSON.stringify(e);
      const o = ev(e);
      t.internManagedFields(o);
      const got = o.metadata.managedFields![0] as object;
      expect(JSON.stringify(got)).toBe(json);
      expect(Object.isFrozen(got)).toBe(true);
      const first = shared.get(json);
      if (first) expect(got).toBe(first);
      else shared.set(json, got);
    }
    expect(shared.size).toBeGreaterThan(10);
  });
});
