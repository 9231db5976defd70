/**
 * SharedInformer.list(namespace) answers the same objects in the same order whether the
 * namespace has a map of its own or, holding most of the cache, is listed by filtering it
 * (informer.ts bigNamespace): checked against the cache's insertion order through growth past
 * the threshold, updates, deletes and the namespace's map coming back.
 */
import { describe, expect, it } from 'vitest';
import { SharedInformer } from './informer';
import type { ResourceListerWatcher } from './listwatch';
import type { KObject } from '../api/types';

const pod = (namespace: string, name: string, rv: number, app = 'web'): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace, name, resourceVersion: String(rv), labels: { app } },
});

describe('SharedInformer lists a namespace alike with or without its own map', () => {
  it('the big namespace lists as a filter of the cache, in order, before and after it gets its map back', () => {
    const inf = new SharedInformer<KObject>({ info: { resource: 'pods', kind: 'Pod' } } as unknown as ResourceListerWatcher<KObject>);
    inf.replace([], '0');
    const model = new Map<string, KObject>(); // insertion order, as the cache
    let rv = 1;
    const put = (ns: string, name: string, app = 'web') => {
      const o = pod(ns, name, rv++, app);
      const k = `${ns}/${name}`;
      inf.event({ type: model.has(k) ? 'MODIFIED' : 'ADDED', object: o });
      model.set(k, o);
    };
    const del = (ns: string, name: string) => {
      const k = `${ns}/${name}`;
      inf.event({ type: 'DELETED', object: model.get(k)! });
      model.delete(k);
    };
    const check = () => {
      for (const ns of ['a', 'b', 'c']) {
        const want = [...model.values()].filter((o) => o.metadata.namespace === ns);
        expect(inf.list(ns)).toEqual(want);
        expect(inf.list(ns, { requirements: [{ key: 'app', op: '=', values: ['db'] }] })).toEqual(
          want.filter((o) => o.metadata.labels?.app === 'db'),
        );
      }
      expect(inf.list()).toEqual([...model.values()]);
    };
    for (let i = 0; i < 50; i++) put('b', `p${i}`);
    for (let i = 0; i < 6000; i++) put('a', `p${i}`, i % 7 ? 'web' : 'db');
    for (let i = 0; i < 20; i++) put('c', `p${i}`);
    const big = () => (inf as unknown as { bigNamespace: string | null }).bigNamespace;
    expect(big()).toBe('a');
    check();
    for (let i = 0; i < 6000; i += 3) put('a', `p${i}`, 'db'); // updates keep their place
    for (let i = 0; i < 6000; i += 2) del('a', `p${i}`);
    put('a', 'p0'); // re-added: last
    check();
    for (let i = 1; i < 6000; i += 2) if (i > 600) del('a', `p${i}`); // below a quarter: its map comes back
    for (let i = 0; i < 2000; i++) put('b', `q${i}`);
    expect(big()).toBe(null);
    check();
    for (let i = 0; i < 10; i++) put('a', `r${i}`);
    check();
  });
});
