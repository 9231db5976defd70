/** Issue 18's scenario fields: `as: {user, groups}` on apply and kubectl steps, and the `canI` step. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from './scenario';
import { runScenario } from './runner';

const one = (step: unknown) => parseScenario({ steps: [step] }).steps[0];

describe('scenario steps with as, and canI', () => {
  it.each([
    {
      name: 'kubectl as a user',
      step: { kubectl: { command: 'get pods', as: { user: 'jane' } } },
      want: { kind: 'kubectl', command: 'get pods', as: { user: 'jane' } },
    },
    {
      name: 'apply as a user in groups',
      step: { apply: { manifest: 'kind: ConfigMap', as: { user: 'jane', groups: ['devs'] } } },
      want: { kind: 'apply', manifest: 'kind: ConfigMap', as: { user: 'jane', groups: ['devs'] } },
    },
    {
      name: 'canI',
      step: { canI: { verb: 'list', resource: 'pods', namespace: 'team', as: { user: 'jane' } } },
      want: { kind: 'canI', verb: 'list', resource: 'pods', namespace: 'team', as: { user: 'jane' } },
    },
  ])('$name', ({ step, want }) => {
    expect(one(step)).toEqual(want);
  });

  it.each([
    { step: { canI: 'list pods' }, msg: 'steps[0] (canI): expected {verb, resource, namespace?, as?}' },
    { step: { kubectl: { command: 'get pods', as: 'jane' } }, msg: 'steps[0] (kubectl): as must be {user: NAME, groups?: [GROUP…]}' },
    {
      step: { kubectl: { command: 'get pods', as: { user: 'jane', groups: [1] } } },
      msg: 'steps[0] (kubectl): as.groups must be a list of group names',
    },
  ])('rejects $step', ({ step, msg }) => {
    expect(() => one(step)).toThrow(msg);
  });

  it('runs: jane is denied, then a RoleBinding lets her list Pods', () => {
    const sc = parseScenario({
      cluster: { nodes: 1 },
      steps: [
        { canI: { verb: 'list', resource: 'pods', as: { user: 'jane' } } },
        { kubectl: { command: 'get pods', as: { user: 'jane' } } },
        { apply: { manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', as: { user: 'jane' } } },
        {
          apply:
            'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: jane-view, namespace: default}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\nsubjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}]\n',
        },
        { canI: { verb: 'list', resource: 'pods', as: { user: 'jane' } } },
      ],
    });
    const res = runScenario(sc, { readFile: () => '' }).steps;
    expect(res[0].output).toBe('no\n');
    expect(res[1].error).toBe(
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    expect(res[2].results?.map((r) => r.message)).toEqual([
      'Error from server (Forbidden): error when retrieving current configuration of:\nResource: "/v1, Resource=configmaps", GroupVersionKind: "/v1, Kind=ConfigMap"\nName: "x", Namespace: "default"\nfrom server for: "STDIN": configmaps "x" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default"',
    ]);
    expect(res[4].output).toBe('yes\n');
  });
});
