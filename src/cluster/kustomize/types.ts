/**
 * Types of the kustomize subset: the virtual file system it reads from, the Kustomization
 * file (sigs.k8s.io/kustomize/api/types.Kustomization, the fields we support), and the
 * resource record the build carries (the object plus its name history, as kustomize's
 * resource.Resource keeps previous ids for name references).
 */

export type Obj = Record<string, unknown>;

/** Files held anywhere (disk, memory). Paths are '/'-separated; directories have no trailing slash. */
export interface KustomizeFS {
  readFile(path: string): string | undefined;
  isDir(path: string): boolean;
  list?(dir: string): string[];
}

/** An error as kustomize reports it (the CLI prints `error: <message>`). */
export class KustomizeError extends Error {}

export interface FieldSpec {
  path: string;
  kind?: string;
  group?: string;
  version?: string;
  create?: boolean;
}

export interface GeneratorArgs {
  name: string;
  namespace?: string;
  behavior?: 'create' | 'merge' | 'replace';
  literals?: string[];
  files?: string[];
  envs?: string[];
  env?: string;
  type?: string;
  options?: GeneratorOptions;
}

export interface GeneratorOptions {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  disableNameSuffixHash?: boolean;
  immutable?: boolean;
}

export interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

export interface Patch {
  path?: string;
  patch?: string;
  target?: PatchTarget;
  options?: { allowNameChange?: boolean; allowKindChange?: boolean };
}

export interface Label {
  pairs: Record<string, string>;
  includeSelectors?: boolean;
  includeTemplates?: boolean;
}

export interface Image {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

export interface Kustomization {
  apiVersion?: string;
  kind?: string;
  metadata?: Obj;
  resources?: string[];
  bases?: string[];
  namespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  commonLabels?: Record<string, string>;
  labels?: Label[];
  commonAnnotations?: Record<string, string>;
  images?: Image[];
  imageTags?: Image[];
  replicas?: { name: string; count: number }[];
  patches?: Patch[];
  patchesStrategicMerge?: string[];
  patchesJson6902?: Patch[];
  configMapGenerator?: GeneratorArgs[];
  secretGenerator?: GeneratorArgs[];
  generatorOptions?: GeneratorOptions;
  vars?: unknown[];
  buildMetadata?: string[];
}

/** Every field of types.Kustomization (an unknown one is an error, as in kustomize). */
export const KNOWN_FIELDS = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'openapi',
  'namePrefix',
  'nameSuffix',
  'namespace',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'patchesStrategicMerge',
  'patchesJson6902',
  'patches',
  'images',
  'imageTags',
  'replacements',
  'replicas',
  'vars',
  'sortOptions',
  'resources',
  'components',
  'crds',
  'bases',
  'configMapGenerator',
  'secretGenerator',
  'helmGlobals',
  'helmCharts',
  'helmChartInflationGenerator',
  'generatorOptions',
  'configurations',
  'generators',
  'transformers',
  'validators',
  'buildMetadata',
]);

/** Known fields this subset does not implement (an error rather than a silent difference). */
export const UNSUPPORTED_FIELDS = new Set([
  'openapi',
  'replacements',
  'sortOptions',
  'components',
  'crds',
  'helmGlobals',
  'helmCharts',
  'helmChartInflationGenerator',
  'configurations',
  'generators',
  'transformers',
  'validators',
]);

/** A resource in the build: the object and every id it had before (oldest first). */
export interface Res {
  obj: Obj;
  /** previous (name, namespace) pairs, oldest first; the current one is in obj */
  prev: { name: string; namespace: string }[];
  /** a generated ConfigMap/Secret that gets the content hash appended at the end */
  needsHash: boolean;
}

export const meta = (o: Obj): Obj => {
  if (!o.metadata || typeof o.metadata !== 'object') o.metadata = {};
  return o.metadata as Obj;
};
export const nameOf = (o: Obj): string => String((o.metadata as Obj | undefined)?.name ?? '');
export const nsOf = (o: Obj): string => String((o.metadata as Obj | undefined)?.namespace ?? '');
export const kindOf = (o: Obj): string => String(o.kind ?? '');

/** (group, version) of an apiVersion. */
export function groupVersion(o: Obj): { group: string; version: string } {
  const av = String(o.apiVersion ?? '');
  const i = av.indexOf('/');
  return i >= 0 ? { group: av.slice(0, i), version: av.slice(i + 1) } : { group: '', version: av };
}

/** ResId.String(): `Kind.version.group/name.namespace` with kustomize's placeholders. */
export function idString(o: Obj): string {
  const { group, version } = groupVersion(o);
  return `${kindOf(o) || '[noKind]'}.${version || '[noVer]'}.${group || '[noGrp]'}/${nameOf(o) || '[noName]'}.${nsOf(o) || '[noNs]'}`;
}

/** Kinds kustomize (its builtin openapi data) knows to be cluster-scoped. */
export const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
  'RuntimeClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'APIService',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'CertificateSigningRequest',
  'PodSecurityPolicy',
  'ComponentStatus',
  'FlowSchema',
  'PriorityLevelConfiguration',
  'TokenReview',
  'SelfSubjectAccessReview',
  'SubjectAccessReview',
  'SelfSubjectRulesReview',
  'IPAddress',
  'ServiceCIDR',
  'DeviceClass',
]);

/** A deep copy of JSON-shaped data. */
export const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
