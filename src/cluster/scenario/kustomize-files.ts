/**
 * `kubectl kustomize DIR` and `kubectl apply -k DIR` over the editor's tabs. Each tab is a file
 * whose name is its path ("base/kustomization.yaml", "overlays/prod/kustomization.yaml"); the
 * tabs form an in-memory tree rooted at "/" that the engine's kustomize (src/cluster/kustomize,
 * kustomize v5.5 behaviour) reads through its `KustomizeFS`.
 *
 * Upstream: kubectl's `-k` goes through k8s.io/cli-runtime resource.Builder.Kustomize →
 * KustomizeVisitor, which runs krusty's MakeKustomizer(...).Run(fSys, dir) and streams the
 * rendered YAML into the same visitors as `-f` (the stream is named after the directory).
 */
import type { ApplyResult } from '../kubectl/apply';
import { KustomizeError, build, kustomizeOutput, memoryFS, type KustomizeFS } from '../kustomize';
import { normalizePath } from './kustomize-paths';

/** Tab path → text. Paths are relative ("overlays/prod/kustomization.yaml"). */
export type KustomizeFiles = Record<string, string>;

/** The tabs as a file system rooted at "/". */
export function tabsFS(files: KustomizeFiles): KustomizeFS {
  const abs: Record<string, string> = {};
  for (const [p, text] of Object.entries(files)) abs[`/${normalizePath(p)}`] = text;
  return memoryFS(abs);
}

const absDir = (dir: string) => `/${normalizePath(dir)}`;

/** What `kubectl kustomize DIR` prints for the tabs: stdout, stderr (warnings, `error: …`), exit code. */
export function kustomizeBuild(files: KustomizeFiles, dir: string): { stdout: string; stderr: string; code: number } {
  return kustomizeOutput(tabsFS(files), absDir(dir));
}

/**
 * `kubectl apply -k DIR`: builds the kustomization, then applies the rendered documents as
 * one stream named DIR. A build error applies nothing and is the one error result (kubectl's
 * `error: …`); kustomize's warnings ride on the first result.
 */
export function applyKustomize(
  cluster: { apply(text: string, opts?: { source?: string; dryRun?: 'server' | 'client' | false }): ApplyResult[] },
  files: KustomizeFiles,
  dir: string,
  opts: { dryRun?: 'server' } = {},
): ApplyResult[] {
  const warnings: string[] = [];
  let yaml: string;
  try {
    yaml = build(tabsFS(files), absDir(dir), warnings).yaml;
  } catch (e) {
    if (!(e instanceof KustomizeError)) throw e;
    return [{ object: '', namespace: null, action: 'error', message: `error: ${e.message}`, warnings, documentIndex: 0, line: 1 }];
  }
  const results = cluster.apply(yaml, { source: normalizePath(dir) || '.', dryRun: opts.dryRun });
  if (warnings.length && results.length) results[0] = { ...results[0], warnings: [...warnings, ...results[0].warnings] };
  return results;
}
