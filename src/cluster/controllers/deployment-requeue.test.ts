/**
 * requeueStuckDeployment (pkg/controller/deployment/progress.go) and the deployment queue's
 * DefaultControllerRateLimiter (5 ms · 2^n per item, 10 qps / burst 100 overall): a finished
 * rollout that lost available Pods past its progressDeadlineSeconds is requeued rate-limited on
 * every sync (it never times out), but such a retry is not a known deadline; a rollout that has
 * not finished times out (ProgressDeadlineExceeded) and is not requeued again.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { RateLimitingQueue } from '../client/workqueue';
import { SimClock } from '../sim/clock';
import { RelayRecorder } from '../relay/recorder';
import type { TimerInfo } from '../sim/clock';
import type { KObject } from '../api/types';

const DEPLOYMENT = (name: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 2
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: c
          image: ${image}
`;

/** Fired timers by label, counted from now on. */
function countFired(c: Cluster): Map<string, number> {
  const fired = new Map<string, number>();
  const prev = c.clock.onFire;
  c.clock.onFire = (info: TimerInfo | undefined) => {
    prev?.(info);
    const l = info?.label ?? '';
    fired.set(l, (fired.get(l) ?? 0) + 1);
  };
  return fired;
}

const progressing = (d: KObject | undefined) => d?.status?.conditions?.find((x: { type: string }) => x.type === 'Progressing');
const get = (c: Cluster, name: string) => c.objects().find((o) => o.kind === 'Deployment' && o.metadata.name === name);

describe('requeueStuckDeployment', () => {
  it('a finished rollout that loses Pods on a dead node past its deadline: retried at 10 qps, never a countdown', () => {
    const c = new Cluster({ seed: 1, nodes: 1 });
    c.apply(DEPLOYMENT('web', 'nginx:1.27'));
    c.advance(700_000); // older than progressDeadlineSeconds (600 s)
    expect(progressing(get(c, 'web'))).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
    c.killNode('node-1');
    c.advance(80_000); // NotReady (lease silent 40 s + the monitor period): the Pods are no longer available
    expect(get(c, 'web')!.status.availableReplicas ?? 0).toBe(0);
    const fired = countFired(c);
    c.advance(10_000);
    // upstream keeps requeueing (the condition stays NewReplicaSetAvailable: DeploymentTimedOut is false for it)…
    expect(progressing(get(c, 'web'))).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
    // …at the overall bucket's 10 qps, shared with kube-system/coredns (also on node-1): 100 in 10 s
    expect((fired.get('deployment requeue default/web') ?? 0) + (fired.get('deployment requeue kube-system/coredns') ?? 0)).toBe(100);
    // …and none of them is a known deadline: the next thing that happens is the eviction
    expect(c.deadlines().filter((d) => / retry /.test(d.label))).toEqual([]);
    expect(c.deadlines()[0].label).toMatch(/^taint eviction of (default\/web|kube-system\/coredns)-/);
  });

  it('a rollout that never finishes times out once, then is not requeued', () => {
    const c = new Cluster({ seed: 1, nodes: 1, images: { missing: ['nginx:9.9'] } });
    c.apply(DEPLOYMENT('web', 'nginx:9.9'));
    c.advance(1_000);
    const check = c.deadlines().find((d) => d.label === 'default/web: progressDeadlineSeconds check');
    expect(check).toBeDefined();
    c.advance(check!.at - c.now() + 1_000);
    const rs = c.objects().find((o) => o.kind === 'ReplicaSet' && o.metadata.labels?.app === 'web')!.metadata.name;
    expect(progressing(get(c, 'web'))).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${rs}" has timed out progressing.`,
    });
    const fired = countFired(c);
    c.advance(60_000);
    expect([...fired.keys()].filter((l) => l.startsWith('deployment') && l.includes('default/web'))).toEqual([]);
    expect(c.deadlines().filter((d) => d.object === 'Deployment/default/web')).toEqual([]);
  });
});

describe('RateLimitingQueue bucket (DefaultControllerRateLimiter)', () => {
  const cases = [
    // delays of consecutive AddRateLimited calls of distinct keys at one instant
    { name: 'no bucket: 5 ms each (first failure of each key)', bucket: undefined, adds: 3, want: [5, 5, 5] },
    {
      name: 'burst 100 at 10 qps: the 101st waits 100 ms, the 102nd 200 ms',
      bucket: { qps: 10, burst: 100 },
      adds: 102,
      want: [...Array<number>(100).fill(5), 100, 200],
    },
    { name: 'burst 2 at 10 qps', bucket: { qps: 10, burst: 2 }, adds: 4, want: [5, 5, 100, 200] },
  ];
  it.each(cases)('$name', ({ bucket, adds, want }) => {
    const clock = new SimClock(0);
    const q = new RateLimitingQueue('q', clock, new RelayRecorder(() => clock.now()), () => {}, { bucket });
    for (let i = 0; i < adds; i++) q.addRateLimited(`k${i}`);
    expect(clock.deadlines().map((d) => d.at)).toEqual(want);
  });

  it('a retry marked deadline: false is a plain timer (no countdown)', () => {
    const clock = new SimClock(0);
    const q = new RateLimitingQueue('q', clock, new RelayRecorder(() => clock.now()), () => {});
    q.addRateLimited('a', { deadline: false });
    q.addRateLimited('b');
    expect(clock.deadlines()).toEqual([{ at: 5, label: 'q: retry b', object: undefined }]);
    expect(clock.pending).toBe(2);
  });
});
