/**
 * Tab paths as a kustomize file tree (no dependencies: the UI and the worker both use it).
 */

/** The names kustomize accepts for a kustomization file (konfig.RecognizedKustomizationFileNames). */
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** Normalizes a tab path: '/'-separated, no leading '/', no empty or '.' segments. */
export function normalizePath(p: string): string {
  return p
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** The directories (relative, "" for the root) that hold a kustomization file, sorted. */
export function kustomizationDirs(paths: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const raw of paths) {
    const p = normalizePath(raw);
    const i = p.lastIndexOf('/');
    if ((KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(p.slice(i + 1))) dirs.add(i < 0 ? '' : p.slice(0, i));
  }
  return [...dirs].sort();
}
