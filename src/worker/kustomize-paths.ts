/**
 * Tab paths as a kustomize file tree, for the UI (src/cluster/scenario/kustomize-paths.ts holds them).
 */
export { KUSTOMIZATION_FILE_NAMES, kustomizationDirs, normalizePath } from '../cluster/scenario/kustomize-paths';
