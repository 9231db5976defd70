/**
 * A Kustomize subset (sigs.k8s.io/kustomize/api krusty behaviour, as `kubectl kustomize`
 * v1.32 / kustomize v5.5 prints it), pure TypeScript over a virtual file system. See README.md.
 */
import { build } from './build';
import { KustomizeError, type KustomizeFS } from './types';

export { build, legacySort, loadKustomization, type BuildResult } from './build';
export { kustomizeHash } from './generators';
export { toGoYaml } from './yaml-emit';
export { KustomizeError, type KustomizeFS } from './types';

/** What `kubectl kustomize DIR` prints: stdout, stderr and the exit code. */
export function kustomizeOutput(fs: KustomizeFS, dir: string): { stdout: string; stderr: string; code: number } {
  const warnings: string[] = [];
  const warn = () => warnings.map((w) => w + '\n').join('');
  try {
    const r = build(fs, dir, warnings);
    return { stdout: r.yaml, stderr: warn(), code: 0 };
  } catch (e) {
    if (!(e instanceof KustomizeError)) throw e;
    return { stdout: '', stderr: `${warn()}error: ${e.message}\n`, code: 1 };
  }
}

/** A file system over an in-memory map of path → content (directories are implied by paths). */
export function memoryFS(files: Record<string, string>): KustomizeFS {
  const norm = (p: string) => p.replace(/\/+$/, '');
  return {
    readFile: (p) => files[norm(p)],
    isDir: (p) => {
      const d = norm(p) + '/';
      return Object.keys(files).some((f) => f.startsWith(d));
    },
    list: (dir) => {
      const d = norm(dir) + '/';
      return [
        ...new Set(
          Object.keys(files)
            .filter((f) => f.startsWith(d))
            .map((f) => f.slice(d.length).split('/')[0]),
        ),
      ].sort();
    },
  };
}
