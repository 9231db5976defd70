/**
 * kustomize's builtin field specs (api/internal/konfig/builtinpluginconsts): where labels,
 * selectors, annotations and name references live, per kind.
 */
import type { FieldSpec } from './types';

const fs = (path: string, kind?: string, create = false, group?: string, version?: string): FieldSpec => ({
  path,
  kind,
  create,
  group,
  version,
});

const TEMPLATE_KINDS: [string, string | undefined, string | undefined][] = [
  ['ReplicationController', undefined, 'v1'],
  ['Deployment', undefined, undefined],
  ['ReplicaSet', undefined, undefined],
  ['DaemonSet', undefined, undefined],
  ['StatefulSet', 'apps', undefined],
  ['Job', 'batch', undefined],
];

/** metadataLabelsFieldSpecs minus metadata/labels: pod template labels (`includeTemplates`). */
function templateSpecs(field: 'labels' | 'annotations'): FieldSpec[] {
  return [
    ...TEMPLATE_KINDS.map(([k, g, v]) => fs(`spec/template/metadata/${field}`, k, true, g, v)),
    fs(`spec/jobTemplate/metadata/${field}`, 'CronJob', true, 'batch'),
    fs(`spec/jobTemplate/spec/template/metadata/${field}`, 'CronJob', true, 'batch'),
  ];
}

export const METADATA_LABELS: FieldSpec[] = [fs('metadata/labels', undefined, true)];
export const TEMPLATE_LABELS: FieldSpec[] = [
  ...templateSpecs('labels'),
  fs('spec/volumeClaimTemplates[]/metadata/labels', 'StatefulSet', true, 'apps'),
];

const AFFINITY = [
  'spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels',
  'spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels',
  'spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels',
  'spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels',
  'spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels',
];

/** commonLabelFieldSpecs (`commonLabels`, `labels` with includeSelectors). */
export const COMMON_LABELS: FieldSpec[] = [
  fs('spec/selector', 'Service', true, undefined, 'v1'),
  fs('spec/selector', 'ReplicationController', true, undefined, 'v1'),
  fs('spec/selector/matchLabels', 'Deployment', true),
  ...AFFINITY.map((p) => fs(p, 'Deployment', false, 'apps')),
  fs('spec/selector/matchLabels', 'ReplicaSet', true),
  fs('spec/selector/matchLabels', 'DaemonSet', true),
  fs('spec/selector/matchLabels', 'StatefulSet', true, 'apps'),
  fs('spec/volumeClaimTemplates[]/metadata/labels', 'StatefulSet', true, 'apps'),
  ...AFFINITY.map((p) => fs(p, 'StatefulSet', false, 'apps')),
  fs('spec/selector/matchLabels', 'Job', false, 'batch'),
  fs('spec/jobTemplate/spec/selector/matchLabels', 'CronJob', false, 'batch'),
  fs('spec/selector/matchLabels', 'PodDisruptionBudget', false, 'policy'),
  fs('spec/podSelector/matchLabels', 'NetworkPolicy', false, 'networking.k8s.io'),
  fs('spec/ingress/from/podSelector/matchLabels', 'NetworkPolicy', false, 'networking.k8s.io'),
  fs('spec/egress/to/podSelector/matchLabels', 'NetworkPolicy', false, 'networking.k8s.io'),
  ...METADATA_LABELS,
  ...TEMPLATE_LABELS,
];

/** commonAnnotationsFieldSpecs. */
export const COMMON_ANNOTATIONS: FieldSpec[] = [fs('metadata/annotations', undefined, true), ...templateSpecs('annotations')];

/** Replica count fields (replicas.go). */
export const REPLICAS: FieldSpec[] = [
  fs('spec/replicas', 'Deployment', true),
  fs('spec/replicas', 'ReplicationController', true),
  fs('spec/replicas', 'ReplicaSet', true),
  fs('spec/replicas', 'StatefulSet', true),
];

/** The pod spec paths of a workload kind (prefix before `/spec/...` of the pod). */
const POD_SPEC: Record<string, string> = {
  Pod: 'spec',
  PodTemplate: 'template/spec',
  Deployment: 'spec/template/spec',
  ReplicaSet: 'spec/template/spec',
  DaemonSet: 'spec/template/spec',
  StatefulSet: 'spec/template/spec',
  Job: 'spec/template/spec',
  ReplicationController: 'spec/template/spec',
  CronJob: 'spec/jobTemplate/spec/template/spec',
};

const podRefs = (kinds: string[], suffixes: string[]): FieldSpec[] =>
  kinds.flatMap((k) => suffixes.map((s) => fs(`${POD_SPEC[k]}/${s}`, k)));

const WORKLOADS = ['Pod', 'PodTemplate', 'Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob'];
const SA_KINDS = ['Pod', 'StatefulSet', 'Deployment', 'ReplicationController', 'CronJob', 'Job', 'DaemonSet'];

export interface NameRef {
  /** kind of the referenced object */
  kind: string;
  fieldSpecs: FieldSpec[];
}

/** nameReferenceFieldSpecs (the common kinds). */
export const NAME_REFERENCES: NameRef[] = [
  ...['Deployment', 'ReplicationController', 'ReplicaSet', 'StatefulSet'].map((kind) => ({
    kind,
    fieldSpecs: [fs('spec/scaleTargetRef/name', 'HorizontalPodAutoscaler')],
  })),
  {
    kind: 'ConfigMap',
    fieldSpecs: [
      ...podRefs(WORKLOADS, [
        'volumes/configMap/name',
        'containers/env/valueFrom/configMapKeyRef/name',
        'initContainers/env/valueFrom/configMapKeyRef/name',
        'containers/envFrom/configMapRef/name',
        'initContainers/envFrom/configMapRef/name',
        'volumes/projected/sources/configMap/name',
      ]),
      fs('spec/configSource/configMap', 'Node'),
      fs('rules/resourceNames', 'Role'),
      fs('rules/resourceNames', 'ClusterRole'),
    ],
  },
  {
    kind: 'Secret',
    fieldSpecs: [
      ...podRefs(WORKLOADS, [
        'volumes/secret/secretName',
        'containers/env/valueFrom/secretKeyRef/name',
        'initContainers/env/valueFrom/secretKeyRef/name',
        'containers/envFrom/secretRef/name',
        'initContainers/envFrom/secretRef/name',
        'imagePullSecrets/name',
        'volumes/projected/sources/secret/name',
      ]),
      fs('spec/tls/secretName', 'Ingress'),
      fs('imagePullSecrets/name', 'ServiceAccount'),
      fs('parameters/secretName', 'StorageClass'),
      fs('parameters/adminSecretName', 'StorageClass'),
      fs('parameters/userSecretName', 'StorageClass'),
      fs('parameters/secretRef', 'StorageClass'),
      fs('rules/resourceNames', 'Role'),
      fs('rules/resourceNames', 'ClusterRole'),
      fs('spec/azureFile/secretName', 'PersistentVolume'),
    ],
  },
  {
    kind: 'Service',
    fieldSpecs: [
      fs('spec/serviceName', 'StatefulSet', false, 'apps'),
      fs('spec/rules/http/paths/backend/serviceName', 'Ingress'),
      fs('spec/backend/serviceName', 'Ingress'),
      fs('spec/rules/http/paths/backend/service/name', 'Ingress'),
      fs('spec/defaultBackend/service/name', 'Ingress'),
      fs('spec/service/name', 'APIService', false, 'apiregistration.k8s.io'),
      fs('spec/rules/backendRefs/name', 'HTTPRoute'),
    ],
  },
  { kind: 'Role', fieldSpecs: [fs('roleRef/name', 'RoleBinding', false, 'rbac.authorization.k8s.io')] },
  {
    kind: 'ClusterRole',
    fieldSpecs: [
      fs('roleRef/name', 'RoleBinding', false, 'rbac.authorization.k8s.io'),
      fs('roleRef/name', 'ClusterRoleBinding', false, 'rbac.authorization.k8s.io'),
    ],
  },
  {
    kind: 'ServiceAccount',
    fieldSpecs: [
      fs('subjects', 'RoleBinding', false, 'rbac.authorization.k8s.io'),
      fs('subjects', 'ClusterRoleBinding', false, 'rbac.authorization.k8s.io'),
      ...podRefs(SA_KINDS, ['serviceAccountName']),
    ],
  },
  { kind: 'PersistentVolumeClaim', fieldSpecs: podRefs(SA_KINDS.concat([]), ['volumes/persistentVolumeClaim/claimName']) },
  { kind: 'PersistentVolume', fieldSpecs: [fs('spec/volumeName', 'PersistentVolumeClaim'), fs('rules/resourceNames', 'ClusterRole')] },
  {
    kind: 'StorageClass',
    fieldSpecs: [
      fs('spec/storageClassName', 'PersistentVolume'),
      fs('spec/storageClassName', 'PersistentVolumeClaim'),
      fs('spec/volumeClaimTemplates/spec/storageClassName', 'StatefulSet'),
    ],
  },
  { kind: 'PriorityClass', fieldSpecs: podRefs(SA_KINDS, ['priorityClassName']) },
  { kind: 'IngressClass', fieldSpecs: [fs('spec/ingressClassName', 'Ingress')] },
];
