import { describe, expect, it } from 'vitest';
import { testHost } from './test-host';

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: default}\ndata: {a: "1"}\n';
const POD_READER =
  'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: pod-reader, namespace: default}\nrules:\n- {apiGroups: [""], resources: [pods], verbs: [get, list, watch]}\n' +
  '---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: read-pods, namespace: default}\n' +
  'subjects: [{kind: User, name: jane, apiGroup: rbac.authorization.k8s.io}]\nroleRef: {kind: Role, name: pod-reader, apiGroup: rbac.authorization.k8s.io}\n';
const LIST_DENIED =
  'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n';

describe('ClusterHost.setActingAs (the UI\'s "Acting as")', () => {
  it.each([
    ['jane: denied', { user: 'jane', groups: [] }, 'get pods', { exitCode: 1, error: LIST_DENIED }],
    [
      'a ServiceAccount: its own name in the message',
      { user: 'system:serviceaccount:default:default', groups: [] },
      'get pods',
      {
        exitCode: 1,
        error:
          'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"\n',
      },
    ],
    ['jane in system:masters may', { user: 'jane', groups: ['system:masters'] }, 'auth can-i list pods', { exitCode: 0, output: 'yes\n' }],
    [
      'whoami names the impersonated user',
      { user: 'jane', groups: ['dev'] },
      'auth whoami',
      { output: 'ATTRIBUTE   VALUE\nUsername    jane\nGroups      [dev system:authenticated]\n' },
    ],
    [
      "the line's own --as wins",
      { user: 'jane', groups: [] },
      'auth can-i list pods --as=kubernetes-admin --as-group=system:masters',
      { output: 'yes\n' },
    ],
    ['null: the admin again', null, 'auth can-i list pods', { exitCode: 0, output: 'yes\n' }],
  ])('%s', (_name, as, line, expected) => {
    const h = testHost();
    h.run(100);
    h.host.setActingAs(as);
    expect(h.host.kubectl(line)).toMatchObject(expected);
    expect(h.batches.at(-1)!.actingAs).toEqual(as);
    h.host.dispose();
  });

  it("the Apply is made as the identity: kubectl apply's Forbidden per object; a Pod delete too", () => {
    const h = testHost();
    h.run(100);
    h.host.setActingAs({ user: 'jane', groups: [] });
    expect(h.host.apply(CM).map((r) => [r.action, r.message])).toEqual([
      [
        'error',
        'Error from server (Forbidden): error when retrieving current configuration of:\nResource: "/v1, Resource=configmaps", GroupVersionKind: "/v1, Kind=ConfigMap"\nName: "settings", Namespace: "default"\nfrom server for: "STDIN": configmaps "settings" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default"',
      ],
    ]);
    expect(() => h.host.deletePod('kube-system', 'etcd-control-plane')).toThrow(
      'pods "etcd-control-plane" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "kube-system"',
    );
    h.host.dispose();
  });

  it('is recorded: a replay of the log acts as the same identities in the same order; a reset is the admin again', () => {
    const h = testHost();
    h.run(100);
    h.host.setActingAs({ user: ' jane ', groups: ['dev', ' '] });
    h.host.apply(CM); // denied
    h.host.setActingAs(null);
    h.host.apply(POD_READER);
    h.host.setActingAs({ user: 'jane', groups: [] });
    expect(h.host.kubectl('get pods')).toMatchObject({ exitCode: 0, error: 'No resources found in default namespace.\n' });
    const log = h.host.exportState();
    expect(
      log.steps.map(({ step: s }) => (s.kind === 'actAs' ? `actAs ${s.as ? `${s.as.user} [${s.as.groups.join(',')}]` : 'admin'}` : s.kind)),
    ).toEqual(['actAs jane [dev]', 'apply', 'actAs admin', 'apply', 'actAs jane []', 'kubectl']);

    const fresh = testHost();
    fresh.host.importState(log);
    fresh.run(100);
    expect(fresh.batches.at(-1)!.actingAs).toEqual({ user: 'jane', groups: [] });
    const kinds = fresh.batches.flatMap((b) =>
      b.changes.filter((c) => c.type === 'ADDED').map((c) => `${c.object.kind}/${c.object.metadata.name}`),
    );
    expect(kinds).toContain('RoleBinding/read-pods');
    expect(kinds).not.toContain('ConfigMap/settings');
    expect(fresh.host.kubectl('get pods')).toMatchObject({ exitCode: 0 });

    h.host.reset();
    h.run(100);
    expect(h.batches.at(-1)!.actingAs).toBeNull();
    expect(() => h.host.setActingAs({ user: '  ', groups: [] })).toThrow('a user name is required');
    h.host.dispose();
    fresh.host.dispose();
  });
});
