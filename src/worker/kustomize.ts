/**
 * `kubectl kustomize DIR` and `kubectl apply -k DIR` over the editor's tabs: the worker's names
 * for src/cluster/scenario/kustomize-files.ts (where the shared step player uses them).
 */
export { applyKustomize, kustomizeBuild, tabsFS, type KustomizeFiles } from '../cluster/scenario/kustomize-files';
export { KUSTOMIZATION_FILE_NAMES, kustomizationDirs, normalizePath } from '../cluster/scenario/kustomize-paths';
