/**
 * A Pod list with the field selector spec.nodeName=NODE reads the apiserver's node index: it
 * must equal the full list filtered by that field, in the same order, through binds, moves
 * and deletes, also with a namespace and with a second requirement.
 */
import { describe, expect, it } from 'vitest';
import type { KObject } from '../api/types';
import { users } from '../client/clientset';
import { Rng } from '../sim/rng';
import { newEnv } from '../kubelet/kubelet.fixture';

describe('list pods with spec.nodeName=', () => {
  it('equals the filtered full list over 400 random creates, node changes and deletes', () => {
    const env = newEnv({ nodes: [] });
    const info = env.api.registry.forResource('', 'pods')!;
    const user = users.kubectl();
    const rng = new Rng(9);
    const pods = env.admin.resource('', 'pods');
    const nodeOf = ['', 'n1', 'n2', 'n3'];
    for (let i = 0; i < 400; i++) {
      const ns = ['default', 'kube-system'][rng.intn(2)];
      const name = `p-${rng.intn(40)}`;
      const cur = env.api.store.get('pods', `${ns}/${name}`)?.obj;
      const op = rng.intn(3);
      const nodeName = nodeOf[rng.intn(4)];
      if (!cur)
        pods.create(ns, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: ns, labels: { i: String(i % 2) } },
          spec: { containers: [{ name: 'c', image: 'x' }], ...(nodeName ? { nodeName } : {}) },
        } as KObject);
      else if (op === 0) env.api.store.delete('pods', `${ns}/${name}`);
      else env.api.store.update('pods', `${ns}/${name}`, { ...cur, spec: { ...cur.spec, nodeName: nodeName || undefined } });
      for (const node of ['n1', 'n2', 'n3', 'n4']) {
        for (const [namespace, extra] of [
          [undefined, ''],
          ['default', ''],
          [undefined, ',metadata.namespace=kube-system'],
        ] as const) {
          const got = env.api
            .list(user, info, namespace, { fieldSelector: `spec.nodeName=${node}${extra}`, quiet: true })
            .items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
          const want = env.api
            .list(user, info, namespace, { quiet: true })
            .items.filter((p) => p.spec.nodeName === node && (!extra || p.metadata.namespace === 'kube-system'))
            .map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
          expect(got).toEqual(want);
        }
      }
    }
  });
});
