/**
 * The seed kustomize scenario (src/scenarios/kustomize.scenario.yaml applies the peekcart
 * prod overlay) through runScenario, plus unit checks of the pieces (hash vectors from
 * kustomize's hasher_test.go, the in-memory file system the browser uses).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from '../scenario/scenario';
import { runScenario } from '../scenario/runner';
import { build, kustomizeHash, kustomizeOutput, memoryFS, type KustomizeFS } from './index';
import { applyJson6902 } from './patches';

const SCENARIOS = fileURLToPath(new URL('../../scenarios', import.meta.url));
const disk: KustomizeFS = {
  readFile: (p) => (existsSync(p) && statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined),
  isDir: (p) => existsSync(p) && statSync(p).isDirectory(),
};

describe('kustomize scenario', () => {
  const sc = parseScenario(parse(readFileSync(`${SCENARIOS}/kustomize.scenario.yaml`, 'utf8')));
  const result = runScenario(sc, {
    readFile: (p) => readFileSync(`${SCENARIOS}/${p}`, 'utf8'),
    kustomize: (p) => build(disk, `${SCENARIOS}/${p}`).yaml,
  });

  it('applyKustomize creates the rendered objects in kustomize order', () => {
    const step = result.steps[0];
    expect(step.error).toBeUndefined();
    expect(step.results!.map((r) => `${r.object} ${r.action}`)).toEqual([
      'namespace/shop created',
      'configmap/prod-peekcart-config-bf75tdm878 created',
      'secret/prod-peekcart-db-hkc82gd68h created',
      'service/prod-peekcart created',
      'deployment.apps/prod-peekcart created',
    ]);
  });

  it('the Deployment runs 5 Pods wired to the hashed ConfigMap and Secret', () => {
    const objs = result.final.objects;
    const dep = objs.find((o) => o.kind === 'Deployment' && o.metadata.name === 'prod-peekcart')!;
    expect(dep.metadata.namespace).toBe('shop');
    const spec = dep.spec as { replicas: number; template: { spec: { containers: { image: string; envFrom: unknown[] }[] } } };
    expect(spec.replicas).toBe(5);
    expect(spec.template.spec.containers[0].image).toBe('ghcr.io/peekcart/peekcart:1.1.0');
    expect(spec.template.spec.containers[0].envFrom).toEqual([
      { configMapRef: { name: 'prod-peekcart-config-bf75tdm878' } },
      { secretRef: { name: 'prod-peekcart-db-hkc82gd68h' } },
    ]);
    const pods = objs.filter((o) => o.kind === 'Pod' && o.metadata.namespace === 'shop');
    expect(pods).toHaveLength(5);
    expect(pods.every((p) => p.metadata.labels?.env === 'prod' && p.metadata.labels?.app === 'peekcart')).toBe(true);
    const svc = objs.find((o) => o.kind === 'Service' && o.metadata.name === 'prod-peekcart')!;
    expect((svc.spec as { selector: unknown }).selector).toEqual({ app: 'peekcart' });
  });
});

describe('pieces', () => {
  it('hash vectors of kustomize hasher_test.go', () => {
    expect(kustomizeHash({ apiVersion: 'v1', kind: 'ConfigMap' })).toBe('6ct58987ht');
    expect(kustomizeHash({ apiVersion: 'v1', kind: 'ConfigMap', data: { one: '' } })).toBe('9g67k2htb6');
    expect(kustomizeHash({ apiVersion: 'v1', kind: 'ConfigMap', data: { two: 2, one: '', three: 3 } })).toBe('7757f9kkct');
    expect(kustomizeHash({ apiVersion: 'v1', kind: 'ConfigMap', data: { one: '' }, binaryData: { two: '' } })).toBe('698h7c7t9m');
    expect(kustomizeHash({ apiVersion: 'v1', kind: 'Secret', type: 'my-type' })).toBe('5gmgkf8578');
    expect(kustomizeHash({ apiVersion: 'v1', kind: 'Secret', type: 'my-type', data: { one: '' }, stringData: { two: 2 } })).toBe(
      'c4h4264gdb',
    );
  });

  it('builds from an in-memory file system', () => {
    const fs = memoryFS({
      '/app/kustomization.yaml': 'namePrefix: x-\nresources: [cm.yaml]\nconfigMapGenerator:\n- name: gen\n  literals: [a=b]\n',
      '/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
    });
    const out = kustomizeOutput(fs, '/app');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('name: x-plain\n');
    expect(out.stdout).toMatch(/name: x-gen-[a-z0-9]{10}\n/);
    expect(kustomizeOutput(fs, '/nowhere').stderr).toMatch(/^error: must build at directory/);
  });

  it('JSON 6902 operations', () => {
    const o = { a: { b: [1, 2] }, c: 'x' };
    expect(
      applyJson6902(o, [
        { op: 'add', path: '/a/b/-', value: 3 },
        { op: 'remove', path: '/c' },
        { op: 'copy', from: '/a/b/0', path: '/d' },
        { op: 'move', from: '/d', path: '/e' },
      ]),
    ).toEqual({ a: { b: [1, 2, 3] }, e: 1 });
    expect(() => applyJson6902(o, [{ op: 'remove', path: '/zz' }])).toThrow(/nonexistent/);
  });

  it('an unknown kustomization field is an error', () => {
    const out = kustomizeOutput(memoryFS({ '/k/kustomization.yaml': 'resourcez: []\n' }), '/k');
    expect(out.stderr).toBe('error: invalid Kustomization: json: unknown field "resourcez"\n');
  });
});
