import { describe, expect, it } from 'vitest';
import { rbacView } from './rbac-view';
import type { KObject, StoredObject } from '../store/types';

const RBAC = 'rbac.authorization.k8s.io/v1';
const obj = (o: Record<string, unknown>): KObject => o as unknown as KObject;
const role = obj({
  apiVersion: RBAC,
  kind: 'Role',
  metadata: { name: 'pod-reader', namespace: 'default' },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
});
const clusterRole = obj({
  apiVersion: RBAC,
  kind: 'ClusterRole',
  metadata: { name: 'monitoring' },
  aggregationRule: {
    clusterRoleSelectors: [
      { matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } },
      { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
    ],
  },
  rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
});
const rb = (name: string, ns: string, kind: string, ref: string, subjects: unknown[]) =>
  obj({
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name, namespace: ns },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: ref },
    subjects,
  });
const crb = (name: string, ref: string, subjects: unknown[]) =>
  obj({
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: ref },
    subjects,
  });
const keyOf = (o: KObject) =>
  o.metadata.namespace ? `${o.kind}/${o.metadata.namespace}/${o.metadata.name}` : `${o.kind}/${o.metadata.name}`;
const store = (...os: KObject[]) =>
  new Map<string, StoredObject>(os.map((o) => [keyOf(o), { key: keyOf(o), resource: '', object: o, row: null }]));

const jane = { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' };
const builder = { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' };
const objects = store(
  role,
  clusterRole,
  rb('read-pods', 'default', 'Role', 'pod-reader', [jane]),
  rb('other-ns', 'kube-system', 'Role', 'pod-reader', [jane]), // a Role of another namespace: not this one
  rb('mon', 'ci', 'ClusterRole', 'monitoring', [builder]),
  crb('mon-all', 'monitoring', [{ kind: 'Group', name: 'sre', apiGroup: 'rbac.authorization.k8s.io' }]),
  rb('dangling', 'default', 'Role', 'nope', [jane]),
);

describe('rbacView (the inspector RBAC tab)', () => {
  it('a Role: its rules and the RoleBindings of its namespace that refer to it', () => {
    expect(rbacView(role, objects)).toEqual({
      kind: 'role',
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [], nonResourceURLs: [] }],
      aggregation: null,
      bindings: [
        {
          key: 'RoleBinding/default/read-pods',
          kind: 'RoleBinding',
          namespace: 'default',
          name: 'read-pods',
          subjects: [{ kind: 'User', name: 'jane', namespace: '' }],
        },
      ],
    });
  });

  it('an aggregated ClusterRole: selectors, and ClusterRoleBindings before RoleBindings', () => {
    const v = rbacView(clusterRole, objects);
    expect(v).toMatchObject({
      kind: 'role',
      rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'], resources: [] }],
      aggregation: [['rbac.example.com/aggregate-to-monitoring=true'], ['tier In (a, b)']],
    });
    expect(
      v?.kind === 'role' && v.bindings.map((b) => `${b.key} → ${b.subjects.map((s) => `${s.kind}:${s.namespace}/${s.name}`).join(',')}`),
    ).toEqual(['ClusterRoleBinding/mon-all → Group:/sre', 'RoleBinding/ci/mon → ServiceAccount:ci/builder']);
  });

  it.each([
    ['a RoleBinding → its namespace Role', rb('read-pods', 'default', 'Role', 'pod-reader', [jane]), 'Role/default/pod-reader', 1],
    ['a RoleBinding → a ClusterRole', rb('mon', 'ci', 'ClusterRole', 'monitoring', [builder]), 'ClusterRole/monitoring', 1],
    ['a role that does not exist', rb('dangling', 'default', 'Role', 'nope', [jane]), 'Role/default/nope', null],
  ])('%s', (_n, binding, key, rules) => {
    const v = rbacView(binding, objects);
    expect(v?.kind).toBe('binding');
    if (v?.kind !== 'binding') return;
    expect(v.roleRef.key).toBe(key);
    expect(v.rules === null ? null : v.rules.length).toBe(rules);
    expect(v.subjects.length).toBe(1);
  });

  it('other kinds: null', () => expect(rbacView(obj({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }), objects)).toBeNull());
});
