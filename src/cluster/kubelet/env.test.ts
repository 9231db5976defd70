import { describe, expect, it } from 'vitest';
import type { ConfigMap, Pod } from '../api/objects';
import { makeEnvironmentVariables, type EnvContainer, type ObjectGetter } from './env';

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } } as unknown as Pod;
const cm: ConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'default' },
  data: { MODE: 'prod' },
  binaryData: { BLOB: 'AAEC' },
};
const get: ObjectGetter = () => cm;

describe('makeEnvironmentVariables (kubelet_pods.go): a ConfigMap gives its data, never its binaryData', () => {
  const cases: { name: string; c: EnvContainer; want: ReturnType<typeof makeEnvironmentVariables> }[] = [
    {
      name: 'envFrom configMapRef',
      c: { name: 'c', envFrom: [{ configMapRef: { name: 'cfg' } }] },
      want: { ok: true, env: { MODE: 'prod' } },
    },
    {
      name: 'configMapKeyRef to a binaryData key',
      c: { name: 'c', env: [{ name: 'B', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'BLOB' } } }] },
      want: { ok: false, message: "couldn't find key BLOB in ConfigMap default/cfg" },
    },
    {
      name: 'configMapKeyRef to a data key',
      c: { name: 'c', env: [{ name: 'M', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'MODE' } } }] },
      want: { ok: true, env: { M: 'prod' } },
    },
  ];
  // the kubernetes Service's variables (KUBERNETES_*) are left out of the comparison
  const own = (r: ReturnType<typeof makeEnvironmentVariables>) =>
    r.ok ? { ok: true, env: Object.fromEntries(Object.entries(r.env).filter(([k]) => !k.startsWith('KUBERNETES_'))) } : r;
  for (const tc of cases)
    it(tc.name, () => expect(own(makeEnvironmentVariables(pod, tc.c, get, '10.244.1.2', '172.18.0.2'))).toEqual(tc.want));
});
