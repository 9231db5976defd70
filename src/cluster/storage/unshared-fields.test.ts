// The fields the store's object intern leaves unshared (storage/mvcc.ts UNSHARED): an Event's
// involvedObject and related are stored as written (frozen, not shared), its other subtrees are shared as before.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../api/types';
import { Cluster } from '../cluster';
import { MVCCStore } from './mvcc';

type Json = Record<string, unknown>;
const event = (i: number, extra: Json = {}): KObject =>
  ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `web-${i}.1`, namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u-1', apiVersion: 'v1', resourceVersion: '7' },
    reason: 'Pulled',
    message: 'Container image "nginx:1.27" already present on machine',
    source: { component: 'kubelet', host: 'node-1' },
    count: 1,
    type: 'Normal',
    ...extra,
  }) as unknown as KObject;

describe('unshared Event fields', () => {
  it('keeps an Event’s involvedObject and related as written (frozen), and shares its source', () => {
    const s = new MVCCStore();
    const a = event(1, { related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' } });
    const b = event(2, { related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' } });
    const ja = JSON.stringify(a);
    const ia = (a as unknown as Json).involvedObject;
    s.create('events', 'default/web-1.1', a);
    s.create('events', 'default/web-2.1', b);
    const [x, y] = [a, b] as unknown as Json[];
    expect(x.involvedObject).toBe(ia);
    expect(Object.isFrozen(x.involvedObject)).toBe(true);
    expect(x.involvedObject).not.toBe(y.involvedObject);
    expect(x.related).not.toBe(y.related);
    expect(x.source).toBe(y.source);
    expect(Object.isFrozen(x.source)).toBe(true);
    expect(JSON.stringify(a)).toBe(ja.replace('"namespace":"default"}', '"namespace":"default","resourceVersion":"1"}'));
  });

  it('still shares the same fields of other kinds (a ConfigMap’s field named involvedObject)', () => {
    const s = new MVCCStore();
    const cm = (n: string) =>
      ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n }, involvedObject: { a: 'b' } }) as unknown as KObject;
    const [a, b] = [cm('a'), cm('b')];
    s.create('configmaps', 'default/a', a);
    s.create('configmaps', 'default/b', b);
    expect((a as unknown as Json).involvedObject).toBe((b as unknown as Json).involvedObject);
  });

  it('an Event of a running cluster reads the same as its JSON round trip', () => {
    const c = new Cluster({ seed: 1, nodes: [{ name: 'node-1' }] });
    c.apply('apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: nginx:1.27}]\n');
    c.advance(20_000);
    const evs = c.list('events', 'default');
    expect(evs.length).toBeGreaterThan(3);
    for (const e of evs) expect(JSON.parse(JSON.stringify(e))).toEqual(e);
  });
});
