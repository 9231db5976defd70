/**
 * `$retainKeys` (patchStrategy "retainKeys": DeploymentSpec.strategy, PodSpec.volumes elements),
 * both sides of strategicpatch/patch.go: the three-way patch the in-app kubectl computes equals
 * the one real kubectl v1.32 sent to the engine for the same apply (recorded with -v=8,
 * last-applied annotation elided), and the apiserver's merge clears the keys not retained, so
 * emptyDir → hostPath and RollingUpdate → Recreate apply cleanly in both directions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Cluster } from '../cluster';
import { applyPatch, createThreeWayPatch } from '../apimachinery/strategic-merge';

const dir = join(__dirname, 'testdata/fidelity');
const v1 = readFileSync(join(dir, 'web-v1.yaml'), 'utf8');
const v2 = readFileSync(join(dir, 'web-v2.yaml'), 'utf8');
const DEPLOY = { kind: 'Deployment', strategic: true };

/** What real kubectl sent (spec only). */
const REAL_V1_TO_V2 = {
  strategy: { $retainKeys: ['type'], type: 'Recreate' },
  template: {
    spec: {
      '$setElementOrder/volumes': [{ name: 'data' }],
      volumes: [{ $retainKeys: ['hostPath', 'name'], emptyDir: null, hostPath: { path: '/var/lib/web' }, name: 'data' }],
    },
  },
};
const REAL_V2_TO_V1 = {
  strategy: { $retainKeys: ['type'], type: 'RollingUpdate' },
  template: {
    spec: {
      '$setElementOrder/volumes': [{ name: 'data' }],
      volumes: [{ $retainKeys: ['emptyDir', 'name'], emptyDir: {}, hostPath: null, name: 'data' }],
    },
  },
};

describe('$retainKeys', () => {
  const c = new Cluster();
  it('in-app apply: emptyDir → hostPath and RollingUpdate → Recreate, and back', () => {
    expect(c.kubectl('apply -f -', v1).output).toBe('deployment.apps/web created\n');
    const cur1 = structuredClone(c.get('deployments.apps', 'default', 'web')!);
    expect(cur1.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    const patch = createThreeWayPatch(parse(v1), parse(v2), cur1 as never, DEPLOY);
    expect(patch.spec).toEqual(REAL_V1_TO_V2);
    const r = c.kubectl('apply -f -', v2);
    expect({ out: r.output, err: r.error }).toEqual({ out: 'deployment.apps/web configured\n', err: null });
    const cur2 = structuredClone(c.get('deployments.apps', 'default', 'web')!);
    expect(cur2.spec.strategy).toEqual({ type: 'Recreate' });
    expect(cur2.spec.template.spec.volumes).toEqual([{ name: 'data', hostPath: { path: '/var/lib/web', type: '' } }]);
    expect(createThreeWayPatch(parse(v2), parse(v1), cur2 as never, DEPLOY).spec).toEqual(REAL_V2_TO_V1);
    expect(c.kubectl('apply -f -', v1).output).toBe('deployment.apps/web configured\n');
    const cur3 = c.get('deployments.apps', 'default', 'web')!;
    expect(cur3.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    expect(cur3.spec.template.spec.volumes).toEqual([{ name: 'data', emptyDir: {} }]);
  });

  it.each([
    ['clears the keys not listed', { a: 1, b: 2, c: 3 }, { $retainKeys: ['a', 'c'], c: 4 }, { a: 1, c: 4 }],
    ['an empty list clears everything', { a: 1 }, { $retainKeys: [] }, {}],
    ['a null value may be outside the list', { a: 1, b: 2 }, { $retainKeys: ['a'], b: null }, { a: 1 }],
  ])('server merge: %s', (_n, cur, patch, want) => {
    expect(applyPatch({ spec: { strategy: cur } }, { spec: { strategy: patch } }, DEPLOY)).toEqual({ spec: { strategy: want } });
  });

  it('a key set by the patch but not listed is 400 invalid patch format of retainKeys', () => {
    expect(() =>
      applyPatch(
        { spec: { strategy: { type: 'Recreate' } } },
        { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } },
        DEPLOY,
      ),
    ).toThrow('invalid patch format of retainKeys');
    const c2 = new Cluster();
    c2.kubectl('apply -f -', v1);
    const r = c2.kubectl(`patch deployment web -p '{"spec":{"strategy":{"$retainKeys":"type"}}}'`);
    expect(r.error).toBe('Error from server (BadRequest): invalid patch format of retainKeys\n');
  });

  it('no directive when nothing changes and nothing extra is live', () => {
    const cur = { spec: { template: { spec: { volumes: [{ name: 'd', configMap: { name: 'x', defaultMode: 420 } }] } } } };
    const m = { spec: { template: { spec: { volumes: [{ name: 'd', configMap: { name: 'x' } }] } } } };
    expect(createThreeWayPatch(m, m, cur, DEPLOY)).toEqual({});
  });
});
