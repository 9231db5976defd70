/**
 * Fuzz of issue 14 §5 (crashes where kube-apiserver answers 400/422): bodies that decode — every
 * field of the right JSON type, drawn from the kind's Go struct (apimachinery/go-types.generated.ts)
 * with a few values each (empty strings, `__proto__`, `constructor`, 0, -1, 65536, odd
 * quantities and IntOrStrings, nulls, empty lists) — created, updated, patched (merge, strategic) and deleted through the
 * apiserver for 28 built-in kinds while the controllers run. Every answer is an object or a
 * StatusError with an upstream code; nothing throws, in the request or in a controller after it;
 * no prototype changes. It found: ownerReferences without a version/kind/name/uid (the garbage
 * collector crashed), a Secret `type: constructor`, `stringData: null`, a Job selector with an
 * invalid operator. Fixed seed and few runs in the suite; `FUZZ_RUNS=N` for more.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Cluster } from '../cluster';
import { users } from '../client/clientset';
import { StatusError } from '../api/errors';
import { setOwn } from '../api/safe-object';
import type { KObject } from '../api/types';
import { goKindKey, goStructFields, type GoType } from '../apimachinery/go-types';
import { Rng } from '../sim/rng';
import { fuzzRuns } from './runs';

const STRINGS = [
  '',
  'x',
  'nginx',
  'TCP',
  'UDP',
  'In',
  'Exists',
  'a',
  'app',
  '80',
  'default',
  '__proto__',
  'constructor',
  'ClusterIP',
  'NodePort',
  'Always',
  'RollingUpdate',
  'Recreate',
  'OnDelete',
  '*/1 * * * *',
  'Prefix',
  'Exact',
  'web',
];
const KEYS = ['a', 'app', 'cpu', 'memory', '__proto__', 'constructor', 'x/y'];

/** A value of Go type `t`, drawn with `r` (null 5 % of the time; structs fill a share of their fields). */
function gen(t: GoType, depth: number, r: Rng): unknown {
  const pick = <T>(a: readonly T[]) => a[Math.floor(r.float() * a.length)];
  if (r.float() < 0.05) return null;
  switch (t.k) {
    case 'string':
      return pick(STRINGS);
    case 'bool':
      return r.float() < 0.5;
    case 'int32':
    case 'int64':
    case 'uint8':
      return pick([-1, 0, 1, 2, 80, 65536]);
    case 'bytes':
      return 'eA==';
    case 'quantity':
      return pick(['1', '100m', '1Gi', '0', '-1']);
    case 'intstr':
      return pick([80, 'http', '25%', 0, '200%', 'x']);
    case 'time':
      return '2026-01-01T00:00:00Z';
    case 'any':
      return {};
    case 'slice':
      return depth > 7 ? [] : Array.from({ length: Math.floor(r.float() * 3) }, () => gen(t.elem, depth + 1, r));
    case 'map': {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r.float() * 3); i > 0; i--) setOwn(o, pick(KEYS), gen(t.elem, depth + 1, r));
      return o;
    }
    case 'struct': {
      const fields = goStructFields(t.key);
      const o: Record<string, unknown> = {};
      if (!fields || depth > 7) return o;
      for (const [k, ft] of fields) if (r.float() < (depth < 2 ? 0.6 : 0.3)) setOwn(o, k, gen(ft, depth + 1, r));
      return o;
    }
  }
}

const KINDS: [string, string][] = [
  ['apps', 'deployments'],
  ['', 'services'],
  ['', 'pods'],
  ['batch', 'jobs'],
  ['batch', 'cronjobs'],
  ['apps', 'statefulsets'],
  ['apps', 'daemonsets'],
  ['apps', 'replicasets'],
  ['networking.k8s.io', 'ingresses'],
  ['networking.k8s.io', 'networkpolicies'],
  ['', 'resourcequotas'],
  ['', 'limitranges'],
  ['policy', 'poddisruptionbudgets'],
  ['autoscaling', 'horizontalpodautoscalers'],
  ['', 'persistentvolumeclaims'],
  ['', 'persistentvolumes'],
  ['', 'secrets'],
  ['', 'configmaps'],
  ['rbac.authorization.k8s.io', 'roles'],
  ['rbac.authorization.k8s.io', 'rolebindings'],
  ['', 'serviceaccounts'],
  ['', 'endpoints'],
  ['discovery.k8s.io', 'endpointslices'],
  ['storage.k8s.io', 'storageclasses'],
  ['', 'replicationcontrollers'],
  ['scheduling.k8s.io', 'priorityclasses'],
  ['coordination.k8s.io', 'leases'],
  ['', 'events'],
];
const UPSTREAM_CODES = new Set([400, 403, 404, 409, 422]);
/** strategicpatch's merge errors, which kube-apiserver answers as a 500 with no reason (patch-directives.test.ts). */
const MERGE_ERROR_500 =
  /^(map: map\[.*\] does not contain declared merge key: \w+|unknown patch type: .* in map: map\[.*\]|merging lists cannot yet be specified in the patch|The order in patch list:[\s\S]*)$/;
const PROTOS = [Object.prototype, Array.prototype, Function.prototype] as const;
const protoKeys = () => PROTOS.map((p) => Object.getOwnPropertyNames(p).sort().join(','));

describe('well-typed hostile bodies through the apiserver', () => {
  it('create, update and delete of 28 kinds answer objects or upstream Statuses, and the controllers keep running', () => {
    const clean = protoKeys();
    const c = new Cluster({ seed: 1, nodes: 1 });
    const u = users.kubectl();
    const status = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        expect(
          UPSTREAM_CODES.has(e.status.code) || (e.status.code === 500 && e.status.reason === '' && MERGE_ERROR_500.test(e.status.message)),
          e.status.message,
        ).toBe(true);
      }
    };
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.integer(), ([group, resource], seed) => {
        const info = c.api.registry.forResource(group, resource)!;
        const key = goKindKey(info.group, info.version, info.kind)!;
        const ns = info.namespaced ? 'default' : '';
        const body = (n: number) => {
          const o = (gen({ k: 'struct', name: key, key }, 0, new Rng(n)) ?? {}) as KObject;
          o.apiVersion = group ? `${group}/${info.version}` : 'v1';
          o.kind = info.kind;
          return o;
        };
        const obj = body(seed);
        obj.metadata = {
          ...(obj.metadata && typeof obj.metadata === 'object' ? obj.metadata : {}),
          name: undefined,
          generateName: 'fz-',
          namespace: undefined,
          resourceVersion: undefined,
        } as never;
        status(() => {
          const created = c.api.create(u, info, ns, obj).object;
          c.advance(30);
          const cur = c.api.getObject(`${info.resource}${info.group ? `.${info.group}` : ''}`, ns, created.metadata.name);
          if (!cur) return;
          status(() => void c.api.update(u, info, ns, { ...body(seed + 1), metadata: cur.metadata }));
          c.advance(30);
          const p = body(seed + 2);
          delete (p as { metadata?: unknown }).metadata;
          status(() => void c.api.patch(u, info, ns, created.metadata.name, seed % 2 ? 'merge' : 'strategic', p));
          c.advance(30);
          status(() => void c.api.delete(u, info, ns, created.metadata.name, { gracePeriodSeconds: 0 }));
          c.advance(30);
        });
        expect(protoKeys()).toEqual(clean);
      }),
      { seed: 21, numRuns: fuzzRuns(200) },
    );
  }, 60_000);
});
