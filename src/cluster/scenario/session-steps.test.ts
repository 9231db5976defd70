/**
 * The step kinds the worker's session log needs besides a scenario's own (docs/scenario-format.md
 * "Steps the app records"): valid in a scenario file, validated like every step, and played by
 * the same player (play.ts) headless.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from './scenario';
import { runScenario } from './runner';

const one = (step: unknown) => parseScenario({ steps: [step] }).steps[0];
const NO_IO = { readFile: () => '' };

describe('session steps in a scenario file', () => {
  it.each([
    {
      name: 'actAs a user',
      step: { actAs: { user: 'jane', groups: ['dev'] } },
      want: { kind: 'actAs', as: { user: 'jane', groups: ['dev'] } },
    },
    { name: 'actAs without groups', step: { actAs: { user: 'jane' } }, want: { kind: 'actAs', as: { user: 'jane', groups: [] } } },
    { name: 'actAs null: the kubectl user again', step: { actAs: null }, want: { kind: 'actAs', as: null } },
    {
      name: 'setImageMissing',
      step: { setImageMissing: { image: 'nginx:1.161', missing: true } },
      want: { kind: 'setImageMissing', image: 'nginx:1.161', missing: true },
    },
    { name: 'docker', step: { docker: 'docker -H ssh://node-1 ps' }, want: { kind: 'docker', line: 'docker -H ssh://node-1 ps' } },
    { name: 'dnsLookup of a name', step: { dnsLookup: 'web' }, want: { kind: 'dnsLookup', name: 'web', namespace: 'default' } },
    {
      name: 'dnsLookup from a namespace',
      step: { dnsLookup: { name: 'web', namespace: 'team' } },
      want: { kind: 'dnsLookup', name: 'web', namespace: 'team' },
    },
    { name: 'fireTimers', step: { fireTimers: 2000 }, want: { kind: 'fireTimers', max: 2000 } },
    {
      name: 'deletePod through the API',
      step: { deletePod: { name: 'web', via: 'api' } },
      want: { kind: 'deletePod', pod: { namespace: 'default', name: 'web' }, via: 'api' },
    },
    {
      name: 'deletePod via kubectl (the default)',
      step: { deletePod: { name: 'web', via: 'kubectl' } },
      want: { kind: 'deletePod', pod: { namespace: 'default', name: 'web' } },
    },
    {
      name: 'applyKustomize of inline files',
      step: { applyKustomize: { path: 'base', files: { 'base/kustomization.yaml': 'resources: []\n' } } },
      want: { kind: 'applyKustomize', path: 'base', files: { 'base/kustomization.yaml': 'resources: []\n' } },
    },
    {
      name: 'controller with its compiled code',
      step: { controller: { name: 'c', source: 'const x: number = 1', code: 'const x = 1', for: 'pods' } },
      want: { kind: 'controller', name: 'c', source: 'const x: number = 1', code: 'const x = 1', for: 'pods' },
    },
  ])('$name', ({ step, want }) => {
    expect(one(step)).toEqual(want);
  });

  it.each([
    { step: { actAs: 'jane' }, msg: 'steps[0] (actAs): as must be {user: NAME, groups?: [GROUP…]}' },
    { step: { actAs: { user: '' } }, msg: 'steps[0] (actAs): as.user must be a non-empty string' },
    {
      step: { setImageMissing: { image: 'nginx', missing: 'yes' } },
      msg: 'steps[0] (setImageMissing): missing must be true or false (got the string "yes")',
    },
    { step: { setImageMissing: { image: 'nginx', missing: true, tag: 'x' } }, msg: 'steps[0] (setImageMissing): unknown field "tag"' },
    { step: { docker: '' }, msg: 'steps[0] (docker): the docker command line must be a non-empty string' },
    { step: { dnsLookup: { name: 'web', namespace: 'Bad_NS' } }, msg: 'steps[0] (dnsLookup): namespace: Invalid value: "Bad_NS"' },
    { step: { fireTimers: 0 }, msg: 'steps[0] (fireTimers): must be a number of timers from 1 to 10000' },
    { step: { fireTimers: 10_001 }, msg: 'steps[0] (fireTimers): must be a number of timers from 1 to 10000' },
    { step: { deletePod: { name: 'web', via: 'ssh' } }, msg: 'steps[0] (deletePod): via must be kubectl (the default) or api' },
    {
      step: { applyKustomize: { path: 'base', files: 'x' } },
      msg: 'steps[0] (applyKustomize): files must be a mapping of file paths to their text',
    },
    { step: { applyKustomize: { path: 'base', files: { a: 1 } } }, msg: 'steps[0] (applyKustomize): files: a must be text' },
    {
      step: { applyKustomize: { files: {} } },
      msg: 'steps[0] (applyKustomize): path must be the folder among files, "" for their root (got',
    },
  ])('rejects $step', ({ step, msg }) => {
    expect(() => one(step)).toThrow(msg);
  });

  it('plays headless: actAs applies to later steps, an image goes missing, docker, nslookup, kustomize of inline files', () => {
    const r = runScenario(
      parseScenario({
        steps: [
          { actAs: { user: 'jane' } },
          { kubectl: 'get pods' },
          { apply: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n' },
          { actAs: null },
          { kubectl: 'get pods' },
          { setImageMissing: { image: 'nginx:1.161', missing: true } },
          {
            applyKustomize: {
              path: 'base',
              files: {
                'base/kustomization.yaml': 'namePrefix: k-\nresources:\n  - cm.yaml\n',
                'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
              },
            },
          },
          { docker: 'docker -H ssh://node-1 run -d --name web nginx' },
          { dnsLookup: 'kubernetes' },
          { fireTimers: 50 },
        ],
      }),
      NO_IO,
    );
    const s = r.steps;
    expect(s[1].error).toBe(
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    expect(s[2].results?.map((x) => [x.action, x.message])).toEqual([
      [
        'error',
        'Error from server (Forbidden): error when retrieving current configuration of:\nResource: "/v1, Resource=configmaps", GroupVersionKind: "/v1, Kind=ConfigMap"\nName: "cm", Namespace: "default"\nfrom server for: "STDIN": configmaps "cm" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default"',
      ],
    ]);
    expect(s[4].error).toBe('No resources found in default namespace.\n');
    expect(s[6].results?.map((x) => [x.object, x.action])).toEqual([['configmap/k-cm', 'created']]);
    expect(s[7].output).toMatch(/^[0-9a-f]{64}\n$/);
    expect(s[8].output).toContain('Name:\tkubernetes.default.svc.cluster.local');
    expect(s.map((x) => x.step)).toEqual([
      'actAs',
      'kubectl',
      'apply',
      'actAs',
      'kubectl',
      'setImageMissing',
      'applyKustomize',
      'docker',
      'dnsLookup',
      'fireTimers',
    ]);
    expect(s.filter((x, i) => i !== 1 && i !== 4 && x.error).map((x) => [x.step, x.error])).toEqual([]);
  });
});
