import { describe, expect, it } from 'vitest';
import { rbacMarkers, userControllerRules } from './rbac';
import type { ResourceInfo } from '../api/resources';

const info = (group: string, resource: string) => ({ group, resource }) as ResourceInfo;

describe('a user controller is deployed with kubebuilder-style RBAC', () => {
  it.each([
    {
      name: 'core group as ""',
      src: '// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list',
      want: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    },
    {
      name: 'core spelled core',
      src: '// +kubebuilder:rbac:groups=core,resources=pods;pods/log,verbs=get',
      want: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get'] }],
    },
    {
      name: 'a named group',
      src: '  // +kubebuilder:rbac:groups=apps,resources=deployments,verbs=*',
      want: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }],
    },
    { name: 'no verbs: skipped', src: '// +kubebuilder:rbac:groups=apps,resources=deployments', want: [] },
    { name: 'not a comment line: skipped', src: 'const x = "+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get"', want: [] },
  ])('markers: $name', ({ src, want }) => {
    expect(rbacMarkers(src)).toEqual(want);
  });

  it('rules: every verb on for and owns, status and finalizers of for, Events', () => {
    expect(userControllerRules(info('demo.kube-relay.dev', 'websites'), [info('apps', 'deployments'), info('', 'services')], '')).toEqual([
      {
        apiGroups: ['demo.kube-relay.dev'],
        resources: ['websites'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
      { apiGroups: ['demo.kube-relay.dev'], resources: ['websites/status'], verbs: ['get', 'update', 'patch'] },
      { apiGroups: ['demo.kube-relay.dev'], resources: ['websites/finalizers'], verbs: ['update'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
      { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
    ]);
  });
});
