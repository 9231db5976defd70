/**
 * The RBAC a learner's controller is deployed with, as kubebuilder generates it from a
 * project's markers (sigs.k8s.io/controller-tools/pkg/rbac: `config/rbac/role.yaml` and its
 * ClusterRoleBinding to the manager's ServiceAccount): starting a controller applies
 *
 * - ServiceAccount `kube-system/NAME` (the identity it authenticates as, controller.ts),
 * - ClusterRole `kube-relay:user-controller:NAME`: every verb on the `for` kind, its `/status`
 *   (get, update, patch) and `/finalizers` (update); every verb on each `owns` kind; create,
 *   patch and update on Events (core and events.k8s.io) for its recorder; plus one rule per
 *   `// +kubebuilder:rbac:groups=…,resources=…,verbs=…` marker in the source,
 * - ClusterRoleBinding `kube-relay:user-controller:NAME` binding the role to the ServiceAccount.
 *
 * They are written as the user who started it (kubectl's identity), so they are in the relay
 * like any `kubectl apply` of an operator's manifests, and a learner can read them with
 * `kubectl describe clusterrole`. A controller that needs more than it declared is denied with
 * kube-apiserver's Forbidden text, as a real operator is.
 */
import type { ResourceInfo } from '../api/resources';
import type { KObject } from '../api/types';
import type { Client } from '../client/clientset';
import { StatusError } from '../api/errors';

/** The role and binding name of the controller NAME. */
export function userControllerRoleName(name: string): string {
  return `kube-relay:user-controller:${name}`;
}

const ALL_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** One `rbac/v1` PolicyRule. */
interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/**
 * The `+kubebuilder:rbac` markers of a source (controller-tools' rbac.Rule): `groups` and
 * `resources` and `verbs` are `;`-separated lists; `groups=""` (or `groups=core`) is the core
 * group. Malformed markers are skipped.
 */
export function rbacMarkers(source: string): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const m of source.matchAll(/^[ \t]*\/\/[ \t]*\+kubebuilder:rbac:([^\n]+?)[ \t]*$/gm)) {
    const fields = new Map<string, string[]>();
    for (const part of m[1].split(',')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      const v = part.slice(eq + 1).replace(/^"(.*)"$/, '$1');
      fields.set(
        part.slice(0, eq).trim(),
        v.split(';').map((s) => (s === 'core' ? '' : s)),
      );
    }
    const resources = fields.get('resources')?.filter(Boolean);
    const verbs = fields.get('verbs')?.filter(Boolean);
    if (!resources?.length || !verbs?.length) continue;
    out.push({ apiGroups: fields.get('groups') ?? [''], resources, verbs });
  }
  return out;
}

/** The ClusterRole's rules for a controller reconciling `forInfo` and owning `owns`. */
export function userControllerRules(forInfo: ResourceInfo, owns: readonly ResourceInfo[], source: string): PolicyRule[] {
  const rules: PolicyRule[] = [
    { apiGroups: [forInfo.group], resources: [forInfo.resource], verbs: ALL_VERBS },
    { apiGroups: [forInfo.group], resources: [`${forInfo.resource}/status`], verbs: ['get', 'update', 'patch'] },
    { apiGroups: [forInfo.group], resources: [`${forInfo.resource}/finalizers`], verbs: ['update'] },
  ];
  for (const o of owns) if (o !== forInfo) rules.push({ apiGroups: [o.group], resources: [o.resource], verbs: ALL_VERBS });
  rules.push({ apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] });
  rules.push({ apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] });
  rules.push(...rbacMarkers(source));
  return rules;
}

/** Creates `obj`, or replaces what an earlier start left (same name) keeping its resourceVersion. */
function createOrUpdate(client: Client, group: string, resource: string, namespace: string, obj: KObject): void {
  const rc = client.resource(group, resource);
  try {
    rc.create(namespace, obj);
  } catch (e) {
    if (!(e instanceof StatusError) || e.code !== 409) throw e;
    const live = rc.get(namespace, obj.metadata.name ?? '');
    rc.update({ ...obj, metadata: { ...obj.metadata, resourceVersion: live.metadata.resourceVersion } });
  }
}

/**
 * Applies the ServiceAccount, ClusterRole and ClusterRoleBinding of controller `name` (see the
 * module comment) through `client`. Throws the apiserver's StatusError when `client` may not.
 */
export function grantUserControllerRBAC(
  client: Client,
  name: string,
  forInfo: ResourceInfo,
  owns: readonly ResourceInfo[],
  source: string,
): void {
  const role = userControllerRoleName(name);
  const labels = { 'app.kubernetes.io/managed-by': 'kube-relay', 'kube-relay.dev/user-controller': name };
  createOrUpdate(client, '', 'serviceaccounts', 'kube-system', {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace: 'kube-system', labels },
  });
  createOrUpdate(client, 'rbac.authorization.k8s.io', 'clusterroles', '', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: role, labels },
    rules: userControllerRules(forInfo, owns, source),
  });
  createOrUpdate(client, 'rbac.authorization.k8s.io', 'clusterrolebindings', '', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: role, labels },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'ServiceAccount', name, namespace: 'kube-system' }],
  });
}
