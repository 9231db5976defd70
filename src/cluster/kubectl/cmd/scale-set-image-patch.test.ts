/**
 * kubectl scale and kubectl set image are PATCH requests, as kubectl sends them:
 * - scale (kubectl's scale.go ScaleSimple): a JSON merge patch {"spec":{"replicas":N}} of the
 *   …/scale subresource, authorized as `patch` on deployments/scale; with a precondition
 *   (--current-replicas, --resource-version) a GET and a PUT of the Scale instead (`update`);
 * - set image (set_image.go): a strategic merge patch of the changed containers under the
 *   field manager kubectl-set.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { setImagePatch } from './mutate';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers: [{name: init, image: busybox:1.36}]
      containers: [{name: web, image: nginx:1.27}, {name: side, image: busybox:1.36, command: [sleep, '3600']}]
`;

function cluster(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.apply(DEPLOY);
  c.advance(10_000);
  return c;
}

function kubectlHops(c: Cluster, after: number): string[] {
  return c.relay
    .all()
    .filter(
      (h) =>
        h.seq > after &&
        (h.from === 'kubectl' || h.to === 'kubectl' || (h.to === 'etcd' && h.from === 'kube-apiserver' && h.resource === 'deployments')),
    )
    .map((h) => `${h.kind} ${h.verb}`);
}

describe('kubectl scale', () => {
  const cases = [
    { name: 'no precondition: merge PATCH of /scale', line: 'scale deploy/web --replicas=4', verb: 'patch' },
    { name: '--current-replicas: PUT of /scale', line: 'scale deploy/web --replicas=4 --current-replicas=2', verb: 'update' },
  ];
  for (const tc of cases)
    it(tc.name, () => {
      const c = cluster();
      const before = c.relay.lastSeq;
      expect(c.kubectl(tc.line).output).toBe('deployment.apps/web scaled\n');
      expect(kubectlHops(c, before).slice(-3)).toEqual([`request ${tc.verb}`, 'request update', `response ${tc.verb}`]);
      const authz = c.relay.all().find((h) => h.seq > before && h.kind === 'note' && h.summary.includes('authz allow'));
      expect(authz?.summary).toContain(`authz allow ${tc.verb} deployments by`);
      const d = c.get('deployments.apps', 'default', 'web')!;
      expect(d.spec.replicas).toBe(4);
      expect((d.metadata.managedFields ?? []).map((m) => [m.manager, m.operation, m.subresource])).toContainEqual([
        'kubectl',
        'Update',
        'scale',
      ]);
    });

  it('--resource-version that does not match fails as scale.go PreconditionError', () => {
    const c = cluster();
    const r = c.kubectl('scale deploy/web --replicas=4 --resource-version=1');
    expect(r.exitCode).toBe(1);
    expect(r.error).toMatch(/^error: Expected resource version to be 1, was \d+/);
    expect(c.get('deployments.apps', 'default', 'web')!.spec.replicas).toBe(2);
  });
});

describe('kubectl set image', () => {
  it('sends a strategic merge patch under kubectl-set; the rollout follows', () => {
    const c = cluster();
    const before = c.relay.lastSeq;
    expect(c.kubectl('set image deploy/web web=nginx:1.28').output).toBe('deployment.apps/web image updated\n');
    expect(kubectlHops(c, before).slice(-3)).toEqual(['request patch', 'request update', 'response patch']);
    const d = c.get('deployments.apps', 'default', 'web')!;
    expect(d.spec.template.spec.containers.map((x: { image: string }) => x.image)).toEqual(['nginx:1.28', 'busybox:1.36']);
    expect(d.spec.template.spec.initContainers[0].image).toBe('busybox:1.36');
    expect((d.metadata.managedFields ?? []).map((m) => [m.manager, m.operation])).toContainEqual(['kubectl-set', 'Update']);
    c.advance(120_000);
    const pods = c.list('pods', 'default').filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);
    expect(pods.map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.28', 'nginx:1.28']);
  });

  const patches = [
    {
      name: 'one container of a Deployment',
      kind: 'Deployment',
      before: {
        containers: [
          { name: 'web', image: 'a' },
          { name: 'side', image: 'b' },
        ],
      },
      after: {
        containers: [
          { name: 'web', image: 'c' },
          { name: 'side', image: 'b' },
        ],
      },
      want: {
        spec: {
          template: {
            spec: { '$setElementOrder/containers': [{ name: 'web' }, { name: 'side' }], containers: [{ image: 'c', name: 'web' }] },
          },
        },
      },
    },
    {
      name: 'an init container of a Pod',
      kind: 'Pod',
      before: { initContainers: [{ name: 'i', image: 'a' }], containers: [{ name: 'web', image: 'b' }] },
      after: { initContainers: [{ name: 'i', image: 'z' }], containers: [{ name: 'web', image: 'b' }] },
      want: { spec: { '$setElementOrder/initContainers': [{ name: 'i' }], initContainers: [{ image: 'z', name: 'i' }] } },
    },
    {
      name: 'a CronJob',
      kind: 'CronJob',
      before: { containers: [{ name: 'job', image: 'a' }] },
      after: { containers: [{ name: 'job', image: 'b' }] },
      want: {
        spec: {
          jobTemplate: {
            spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'job' }], containers: [{ image: 'b', name: 'job' }] } } },
          },
        },
      },
    },
  ];
  for (const tc of patches)
    it(`patch body: ${tc.name}`, () => {
      const obj = { apiVersion: 'v1', kind: tc.kind, metadata: { name: 'x' } };
      expect(setImagePatch(obj as never, tc.before as never, tc.after as never)).toEqual(tc.want);
    });
});
