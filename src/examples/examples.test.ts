/**
 * The gallery's examples: every one loads with its files; the real ones are exactly the files
 * of src/examples/real with their SOURCES.md row; the peekcart app runs on the engine (3 peekcart
 * Pods and mysql-0 Running, the PVC Bound, the HPA at 3); the kustomize example builds.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Cluster } from '../cluster/cluster';
import type { KObject } from '../cluster/api/types';
import { kustomizationDirs, kustomizeBuild } from '../worker/kustomize';
import { EXAMPLES, exampleById } from './examples';

const REAL = fileURLToPath(new URL('./real', import.meta.url));

describe('examples', () => {
  it('lists peekcart, peekcart-kustomize, then every real manifest once', () => {
    const real = readdirSync(REAL).filter((f) => f.endsWith('.yaml')).sort();
    expect(EXAMPLES.slice(0, 2).map((e) => e.id)).toEqual(['peekcart', 'peekcart-kustomize']);
    expect(EXAMPLES.filter((e) => e.group === 'real').map((e) => e.title).sort()).toEqual(real);
    expect(new Set(EXAMPLES.map((e) => e.id)).size).toBe(EXAMPLES.length);
  });

  it.each(EXAMPLES.filter((e) => e.group === 'real').map((e) => [e.id, e] as const))('%s loads verbatim, with its source', async (_id, ex) => {
    const files = await ex.load();
    expect(files).toEqual([{ path: ex.title, text: readFileSync(`${REAL}/${ex.title}`, 'utf8') }]);
    expect(ex.main).toBe(ex.title);
    expect(ex.source!.url).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(ex.source!.license).toBe('Apache-2.0');
    expect(ex.summary.length).toBeGreaterThan(20);
  });

  it('the kustomize example opens base and both overlays, kustomization.yaml first in each folder', async () => {
    const ex = exampleById('peekcart-kustomize')!;
    const files = await ex.load();
    expect(files.map((f) => f.path)).toEqual([
      'base/kustomization.yaml',
      'base/deployment.yaml',
      'base/service.yaml',
      'overlays/dev/kustomization.yaml',
      'overlays/prod/kustomization.yaml',
      'overlays/prod/namespace.yaml',
      'overlays/prod/resources.yaml',
    ]);
    expect(kustomizationDirs(files.map((f) => f.path))).toEqual([...ex.kustomizeDirs!].sort());
    const tabs = Object.fromEntries(files.map((f) => [f.path, f.text]));
    for (const dir of ex.kustomizeDirs!) expect(kustomizeBuild(tabs, dir)).toMatchObject({ stderr: '', code: 0 });
    expect(files.some((f) => f.path === ex.main)).toBe(true);
  });

  it('the peekcart app runs: 3 peekcart Pods and mysql-0 Running, its PVC Bound, the HPA keeps 3', async () => {
    const [file] = await exampleById('peekcart')!.load();
    const c = new Cluster({ seed: 1, nodes: 3 });
    expect(c.apply(file.text).map((r) => `${r.object} ${r.action}`)).toEqual([
      'deployment.apps/peekcart created',
      'service/peekcart created',
      'service/mysql created',
      'statefulset.apps/mysql created',
      'horizontalpodautoscaler.autoscaling/peekcart created',
    ]);
    c.settle(10 * 60_000);
    const objs = c.objects();
    const pods = objs.filter((o): o is KObject & { status: { phase: string } } => o.kind === 'Pod' && o.metadata.namespace === 'default');
    const running = pods.filter((p) => p.status.phase === 'Running').map((p) => p.metadata.name);
    expect(running.filter((n) => n.startsWith('peekcart-'))).toHaveLength(3);
    expect(running).toContain('mysql-0');
    const pvc = objs.find((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === 'data-mysql-0') as KObject & { status: { phase: string } };
    expect(pvc.status.phase).toBe('Bound');
    const hpa = objs.find((o) => o.kind === 'HorizontalPodAutoscaler') as KObject & { status: { desiredReplicas?: number } };
    expect(hpa.status.desiredReplicas).toBe(3);
  });
});
