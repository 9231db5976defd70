/**
 * A Pod's container whose image changes (`kubectl set image pod/…`: the one mutable field of a
 * container) is restarted by the kubelet as computePodActions' containerChanged does: the
 * Killing event "Container c definition changed, will be restarted", whatever the
 * restartPolicy, then a pull and a start of the new image; the restart count goes up by one.
 * A container waiting in CrashLoopBackOff starts with the new image at once: its back-off key
 * carries the container spec's hash, so the new spec has no back-off.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

const pod = (restartPolicy: string, image: string, command = '') => `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  restartPolicy: ${restartPolicy}
  containers: [{name: c, image: ${image}${command ? `, command: ${command}` : ''}}]
`;

function kubeletEvents(c: Cluster, afterMs: number): string[] {
  return c
    .list('events', 'default')
    .filter((e) => e.source?.component === 'kubelet' && Date.parse(e.lastTimestamp ?? '') >= afterMs)
    .map((e) => `${e.reason}: ${e.message}`);
}

describe('the kubelet restarts a container whose image changed (containerChanged)', () => {
  for (const policy of ['Always', 'Never'])
    it(`restartPolicy ${policy}: Killing, then the new image runs; RESTARTS 1`, () => {
      const c = new Cluster({ seed: 1 });
      c.apply(pod(policy, 'nginx:1.27'));
      c.advance(30_000);
      const at = Math.floor(c.now() / 1000) * 1000;
      expect(c.kubectl('set image pod/p c=nginx:1.28').output).toBe('pod/p image updated\n');
      c.advance(30_000);
      const events = kubeletEvents(c, at);
      expect(events).toContain('Killing: Container c definition changed, will be restarted');
      expect(events).toContain('Pulling: Pulling image "nginx:1.28"');
      expect(events).toContain('Started: Started container c');
      const s = c.get('pods', 'default', 'p')!.status!;
      expect(s.phase).toBe('Running');
      expect(s.containerStatuses![0]).toMatchObject({ image: 'docker.io/library/nginx:1.28', restartCount: 1, ready: true });
      expect(s.containerStatuses![0].lastState?.terminated).toBeDefined();
    });

  it('a container in CrashLoopBackOff starts the new image at once, with no back-off', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(pod('Always', 'busybox:1.36', "[sh, -c, 'exit 1']"));
    c.advance(120_000);
    const before = c.get('pods', 'default', 'p')!.status!.containerStatuses![0];
    expect(before.state?.waiting?.reason).toBe('CrashLoopBackOff');
    // busybox:1.36 → nginx:1.27 (whose default command serves, so the container keeps running)
    c.kubectl('set image pod/p c=nginx:1.27');
    c.advance(5_000);
    const after = c.get('pods', 'default', 'p')!.status!.containerStatuses![0];
    expect(after.image).toBe('docker.io/library/nginx:1.27');
    expect(after.restartCount).toBe(before.restartCount + 1);
  });
});

describe('init containers whose image changed (computeInitContainerActions)', () => {
  const initPod = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  terminationGracePeriodSeconds: 2
  initContainers:
  - {name: side, image: busybox:1.36, restartPolicy: Always, command: [sleep, '3600']}
  - {name: wait, image: busybox:1.36, command: [sleep, '60']}
  containers: [{name: c, image: nginx:1.27}]
`;
  const cases = [
    {
      name: 'a running sidecar is killed and started again: "Init container side definition changed"',
      line: 'set image pod/p side=busybox:1.37',
      killing: ['Killing: Init container side definition changed'],
      statuses: [
        ['side', 'docker.io/library/busybox:1.37', 1],
        ['wait', 'docker.io/library/busybox:1.36', 0],
      ],
    },
    {
      name: 'a running init container that is not a sidecar runs on (no Killing)',
      line: 'set image pod/p wait=busybox:1.37',
      killing: [],
      statuses: [
        ['side', 'docker.io/library/busybox:1.36', 0],
        ['wait', 'docker.io/library/busybox:1.36', 0],
      ],
    },
  ];
  for (const tc of cases)
    it(tc.name, () => {
      const c = new Cluster({ seed: 1 });
      c.apply(initPod);
      c.advance(20_000);
      expect(c.get('pods', 'default', 'p')!.status!.initContainerStatuses![1].state?.running).toBeDefined();
      const at = Math.floor(c.now() / 1000) * 1000;
      expect(c.kubectl(tc.line).output).toBe('pod/p image updated\n');
      c.advance(10_000);
      expect(kubeletEvents(c, at).filter((e) => e.startsWith('Killing'))).toEqual(tc.killing);
      const s = c.get('pods', 'default', 'p')!.status!;
      expect(
        s.initContainerStatuses!.map((x: { name: string; image: string; restartCount: number }) => [x.name, x.image, x.restartCount]),
      ).toEqual(tc.statuses);
    });
});
