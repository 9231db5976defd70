/**
 * `kubectl create quota` (staging/src/k8s.io/kubectl/pkg/cmd/create/create_quota.go): the
 * expected outputs are real kubectl v1.32's (`--dry-run=client`, run on this machine without a
 * cluster), including its canonical quantities (0.5 → 500m, 1.5Gi → 1536Mi, 2000 → 2k).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

const c = new Cluster();

describe('kubectl create quota', () => {
  it.each([
    [
      '--hard with scopes, -o yaml',
      'create quota q --hard=cpu=0.5,memory=1.5Gi,pods=3,requests.storage=2000 --scopes=BestEffort,NotTerminating --dry-run=client -o yaml',
      'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  creationTimestamp: null\n  name: q\nspec:\n  hard:\n    cpu: 500m\n    memory: 1536Mi\n    pods: "3"\n    requests.storage: 2k\n  scopes:\n  - BestEffort\n  - NotTerminating\nstatus: {}\n',
    ],
    [
      'no --hard',
      'create quota q --dry-run=client -o yaml',
      'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  creationTimestamp: null\n  name: q\nspec: {}\nstatus: {}\n',
    ],
  ])('%s', (_n, cmd, want) => {
    expect(c.kubectl(cmd)).toMatchObject({ output: want, exitCode: 0 });
  });

  it.each([
    [
      'a pair without =',
      'create quota q --hard=cpu --dry-run=client -o yaml',
      'error: Invalid argument syntax cpu, expected <resource>=<value>',
    ],
    [
      'two =',
      'create quota q --hard=cpu=1=2 --dry-run=client -o yaml',
      'error: Invalid argument syntax cpu=1=2, expected <resource>=<value>',
    ],
    [
      'not a quantity',
      'create quota q --hard=cpu=abc --dry-run=client -o yaml',
      "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
  ])('%s', (_n, cmd, want) => {
    const r = c.kubectl(cmd);
    expect([r.output, r.error?.trimEnd(), r.exitCode]).toEqual(['', want, 1]);
  });

  it('creates it; the controller fills the status', () => {
    expect(c.kubectl('create quota q --hard=pods=1000m,count/deployments.apps=2').output).toBe('resourcequota/q created\n');
    c.settle(30_000);
    expect(c.api.getObject('resourcequotas', 'default', 'q')!.status).toEqual({
      hard: { 'count/deployments.apps': '2', pods: '1' },
      used: { 'count/deployments.apps': '0', pods: '0' },
    });
  });
});
