/**
 * kubectl rollout writes with PATCH, as kubectl v1.33 does (checked with real kubectl -v=8):
 * restart, pause and resume send a strategic merge patch under the field manager
 * kubectl-rollout (`{"spec":{"paused":true}}`, `{"spec":{"paused":null}}`, the restartedAt
 * annotation); undo of a Deployment sends rollback.go's JSON patch of /spec/template and
 * /metadata/annotations. Each is preceded by the GET of the Deployment kubectl's builder sends.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.27}]}
`;

const kubectlHops = (c: Cluster, after: number) =>
  c.relay
    .all()
    .filter((h) => h.seq > after && (h.from === 'kubectl' || h.to === 'kubectl'))
    .map((h) => `${h.kind} ${h.verb} ${h.resource}`);

const managers = (c: Cluster) => (c.get('deployments.apps', 'default', 'web')!.metadata.managedFields ?? []).map((m) => m.manager);

describe('kubectl rollout PATCHes', () => {
  const cases = [
    {
      line: 'rollout pause deploy/web',
      out: 'deployment.apps/web paused\n',
      check: (c: Cluster) => c.get('deployments.apps', 'default', 'web')!.spec.paused === true,
    },
    {
      line: 'rollout restart deploy/web',
      out: 'deployment.apps/web restarted\n',
      check: (c: Cluster) =>
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(
          c.get('deployments.apps', 'default', 'web')!.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt'],
        ),
    },
  ];
  for (const tc of cases)
    it(tc.line, () => {
      const c = new Cluster({ seed: 1 });
      c.apply(DEPLOY);
      c.advance(10_000);
      const before = c.relay.lastSeq;
      expect(c.kubectl(tc.line).output).toBe(tc.out);
      expect(kubectlHops(c, before)).toEqual([
        'request get deployments',
        'response get deployments',
        'request patch deployments',
        'response patch deployments',
      ]);
      expect(tc.check(c)).toBe(true);
      expect(managers(c)).toContain('kubectl-rollout');
    });

  it('rollout resume patches paused to null: the field is gone and kubectl-rollout owns nothing more', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(DEPLOY);
    c.advance(10_000);
    c.kubectl('rollout pause deploy/web');
    expect(c.kubectl('rollout resume deploy/web').output).toBe('deployment.apps/web resumed\n');
    const d = c.get('deployments.apps', 'default', 'web')!;
    expect('paused' in d.spec).toBe(false);
    expect(managers(c)).not.toContain('kubectl-rollout');
  });

  it('rollout undo sends a JSON patch and rolls the template back', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(DEPLOY);
    c.advance(10_000);
    c.kubectl('set image deploy/web web=nginx:1.28');
    c.advance(60_000);
    const before = c.relay.lastSeq;
    expect(c.kubectl('rollout undo deploy/web').output).toBe('deployment.apps/web rolled back\n');
    expect(kubectlHops(c, before).slice(-2)).toEqual(['request patch deployments', 'response patch deployments']);
    const d = c.get('deployments.apps', 'default', 'web')!;
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    c.advance(5_000);
    // revision 1's template comes back as revision 3 (deployment-controller)
    expect(c.get('deployments.apps', 'default', 'web')!.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
  });
});
