/**
 * Kustomize from the editor's tabs: the in-memory file system (tab paths → "/"-rooted tree)
 * renders every committed golden (produced by a real `kubectl kustomize`, kustomize v5.5)
 * byte for byte; `apply -k` through ClusterHost applies the rendered objects, is recorded in
 * the session log and replays to the same cluster.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Cluster } from '../cluster/cluster';
import { applyKustomize, kustomizationDirs, kustomizeBuild, normalizePath, type KustomizeFiles } from './kustomize';
import { testHost } from './test-host';

const SRC = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const GOLDENS = `${SRC}/cluster/kustomize/testdata`;
/** The goldens as tabs: the peekcart cases reach ../../../../scenarios, so the tree is src/ (tab paths relative to it). */
const IN_TABS = 'cluster/kustomize/testdata';

/** Every file under `root` keyed by its relative path, as editor tabs hold them. */
function tabsOf(root: string, rel = '', out: KustomizeFiles = {}, prefix = ''): KustomizeFiles {
  for (const name of readdirSync(`${root}/${rel}`)) {
    const p = rel ? `${rel}/${name}` : name;
    if (statSync(`${root}/${p}`).isDirectory()) tabsOf(root, p, out, prefix);
    else if (!name.startsWith('expected.') && !name.endsWith('.py'))
      out[prefix ? `${prefix}/${p}` : p] = readFileSync(`${root}/${p}`, 'utf8');
  }
  return out;
}

const goldenTabs = { ...tabsOf(GOLDENS, '', {}, IN_TABS), ...tabsOf(`${SRC}/scenarios/kustomize`, '', {}, 'scenarios/kustomize') };
const goldenCases = Object.keys(goldenTabs)
  .filter((p) => p.startsWith(`${IN_TABS}/`))
  .map((p) => p.slice(IN_TABS.length + 1, p.lastIndexOf('/')))
  .filter(
    (d, i, all) =>
      all.indexOf(d) === i && statSync(`${GOLDENS}/${d}`).isDirectory() && readdirSync(`${GOLDENS}/${d}`).includes('expected.yaml'),
  )
  .sort();

const host = () => testHost({ subscribe: false }).host;

describe('kubectl kustomize over the tabs (in-memory FS) = the goldens', () => {
  it('finds every golden case', () => expect(goldenCases.length).toBeGreaterThanOrEqual(13));
  it.each(goldenCases)('%s', (dir) => {
    const out = kustomizeBuild(goldenTabs, `${IN_TABS}/${dir}`);
    const wantErr = readFileSync(`${GOLDENS}/${dir}/expected.stderr`, 'utf8').replaceAll('<ROOT>', `/${IN_TABS}`);
    expect(out.stdout).toBe(readFileSync(`${GOLDENS}/${dir}/expected.yaml`, 'utf8'));
    expect(out.stderr).toBe(wantErr);
    expect(out.code).toBe(wantErr.includes('error: ') ? 1 : 0);
  });
});

describe('tab paths', () => {
  it.each([
    { name: 'plain', paths: ['a.yaml'], dirs: [] },
    { name: 'root kustomization', paths: ['kustomization.yaml', 'cm.yaml'], dirs: [''] },
    {
      name: 'base and overlays',
      paths: ['overlays/prod/kustomization.yaml', 'base/kustomization.yml', 'base/deploy.yaml', 'overlays/dev/Kustomization'],
      dirs: ['base', 'overlays/dev', 'overlays/prod'],
    },
    { name: 'odd separators', paths: ['./base//kustomization.yaml', 'x\\y\\kustomization.yaml'], dirs: ['base', 'x/y'] },
  ])('$name', ({ paths, dirs }) => expect(kustomizationDirs(paths)).toEqual(dirs));
  it('normalizes', () => expect(normalizePath('/./overlays//prod/')).toBe('overlays/prod'));
});

describe('apply -k through the worker', () => {
  const files = tabsOf(`${SRC}/scenarios/kustomize`);
  it('applies overlays/prod in kustomize order, recorded and replayed', () => {
    const h = host();
    const results = h.applyKustomize(files, 'overlays/prod');
    expect(results.map((r) => `${r.object} ${r.action}`)).toEqual([
      'namespace/shop created',
      'configmap/prod-peekcart-config-bf75tdm878 created',
      'secret/prod-peekcart-db-hkc82gd68h created',
      'service/prod-peekcart created',
      'deployment.apps/prod-peekcart created',
    ]);
    const log = h.exportState();
    expect(log.steps).toEqual([{ at: log.steps[0].at, step: { kind: 'applyKustomize', path: 'overlays/prod', files } }]);
    const again = host();
    again.importState(log);
    expect(again.kubectl('get deployments -n shop -o name').output).toBe('deployment.apps/prod-peekcart\n');
  });

  it('a second apply -k is unchanged; the dev overlay adds its own objects', () => {
    const h = host();
    h.applyKustomize(files, 'overlays/prod');
    expect(h.applyKustomize(files, 'overlays/prod').map((r) => r.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(h.applyKustomize(files, 'overlays/dev').map((r) => `${r.object} ${r.action}`)).toEqual([
      'configmap/dev-peekcart-config-47668c6k28 created',
      'service/dev-peekcart created',
      'deployment.apps/dev-peekcart created',
    ]);
  });

  it.each<{ name: string; files: KustomizeFiles; dir: string; message: string }>([
    {
      name: 'missing resource',
      files: { 'k/kustomization.yaml': 'resources:\n- gone.yaml\n' },
      dir: 'k',
      message:
        "error: accumulating resources: accumulation err='accumulating resources from 'gone.yaml': evalsymlink failure on '/k/gone.yaml' : lstat /k/gone.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '/k/gone.yaml' : lstat /k/gone.yaml: no such file or directory",
    },
    {
      name: 'no such directory',
      files: { 'a.yaml': 'kind: ConfigMap\n' },
      dir: 'nope',
      message:
        "error: must build at directory: not a valid directory: evalsymlink failure on '/nope' : lstat /nope: no such file or directory",
    },
  ])('a build error applies nothing: $name', ({ files: f, dir, message }) => {
    const h = host();
    const before = h.kubectl('get configmaps -A -o name').output;
    const results = h.applyKustomize(f, dir);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ action: 'error', message });
    expect(h.kubectl('get configmaps -A -o name').output).toBe(before);
  });

  it("kustomize's deprecation warnings ride on the first result", () => {
    const f = {
      'kustomization.yaml': 'commonLabels:\n  team: a\nresources:\n- cm.yaml\n',
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
    };
    const results = applyKustomize(new Cluster({ seed: 1, nodes: 1 }), f, '');
    expect(results.map((r) => [r.object, r.action, r.warnings])).toEqual([
      [
        'configmap/c',
        'created',
        [
          "# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
        ],
      ],
    ]);
  });
});
