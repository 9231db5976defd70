/**
 * Issue 4's scenario: a rollout stuck on a missing image, then rolled back — exact names,
 * events, counts and simulated timings (progressDeadlineSeconds 600).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { describeRow } from '../kubectl/printers';

const DEPLOY = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, labels: {app: nginx}}
spec:
  replicas: 3
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports: [{containerPort: 80}]
`;

describe('a rollout stuck on a missing image, then rolled back', () => {
  const c = new Cluster({ seed: 1, images: { missing: ['nginx:1.161'] } });
  c.apply(DEPLOY('nginx:1.14.2'));
  c.settle(120_000);
  const oldRs = c.list('replicasets.apps', 'default')[0].metadata.name;
  const tSet = c.now();
  const set = c.kubectl('set image deployment/nginx nginx=nginx:1.161');
  c.advance(60_000);
  const at60 = c.list('pods', 'default').map((p) => [p.metadata.name, describeRow(p).status]);
  const status60 = c.kubectl('rollout status deployment/nginx');
  c.settle(15 * 60_000);
  const d = c.get('deployments.apps', 'default', 'nginx')!;
  const progressing = d.status.conditions.find((x: { type: string }) => x.type === 'Progressing');
  const undo = c.kubectl('rollout undo deployment/nginx');
  c.settle(5 * 60_000);

  it('set image creates a second ReplicaSet whose Pod cannot pull (maxUnavailable rounds down to 0)', () => {
    expect(set.output).toBe('deployment.apps/nginx image updated\n');
    const rs = c.list('replicasets.apps', 'default').map((r) => r.metadata.name);
    expect(rs).toHaveLength(2);
    const newRs = rs.find((n) => n !== oldRs)!;
    const newPods = at60.filter(([n]) => (n as string).startsWith(`${newRs}-`));
    expect(newPods).toHaveLength(1);
    expect(['ErrImagePull', 'ImagePullBackOff']).toContain(newPods[0][1]);
    expect(at60.filter(([n, s]) => (n as string).startsWith(`${oldRs}-`) && s === 'Running')).toHaveLength(3);
    expect(status60.output).toBe('Waiting for deployment "nginx" rollout to finish: 1 out of 3 new replicas have been updated...\n');
  });

  it('Progressing turns False with ProgressDeadlineExceeded after progressDeadlineSeconds (600 s)', () => {
    expect(progressing).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded' });
    expect(progressing.message).toMatch(/^ReplicaSet "nginx-[a-z0-9]+" has timed out progressing\.$/);
    const at = Date.parse(progressing.lastTransitionTime) - tSet;
    expect(at).toBeGreaterThanOrEqual(600_000);
    expect(at).toBeLessThanOrEqual(620_000);
  });

  it('rollout undo brings back the old template; the broken ReplicaSet scales to 0', () => {
    expect(undo.output).toBe('deployment.apps/nginx rolled back\n');
    const pods = c.list('pods', 'default');
    expect(pods.map((p) => describeRow(p).status)).toEqual(['Running', 'Running', 'Running']);
    expect(pods.every((p) => p.metadata.name.startsWith(`${oldRs}-`))).toBe(true);
    const scaled = c
      .events()
      .filter((e) => e.reason === 'ScalingReplicaSet')
      .map((e) => e.message);
    expect(scaled[scaled.length - 1]).toMatch(new RegExp(`^Scaled down replica set nginx-[a-z0-9]+ from 1 to 0$`));
    const d2 = c.get('deployments.apps', 'default', 'nginx')!;
    expect(d2.spec.template.spec.containers[0].image).toBe('nginx:1.14.2');
    expect(d2.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
  });
});
