/**
 * The pod worker's re-sync cadence while a container is in back-off (pod_workers.go
 * completeWork: a failed sync is requeued after backOffPeriod 10 s with jitter 0.5), and the
 * BackOff events it re-records on each such sync (kuberuntime_manager.go doBackOff;
 * image_manager.go for image pulls). Restart/pull times keep their 10, 20, 40 … 300 s back-off.
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../cluster';
import { createPod, newEnv, timeline } from './kubelet.fixture';
import { workerBackOffMs } from './pod-workers';

describe('workerBackOffMs: wait.Jitter(10 s, 0.5)', () => {
  test.each([
    { u: 0, ms: 10_000 },
    { u: 0.5, ms: 12_500 },
    { u: 0.25, ms: 11_250 },
  ])('u=$u → $ms ms', ({ u, ms }) => {
    expect(workerBackOffMs(u)).toBe(ms);
  });
});

describe('BackOff events during CrashLoopBackOff and ImagePullBackOff', () => {
  const cases = [
    // the written BackOff Events stop once the kubelet has written 25 Events about the Pod (spam filter)
    {
      name: 'CrashLoopBackOff (sh -c "sleep 2; exit 1")',
      missing: [] as string[],
      container: { name: 'bb', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2; exit 1'] },
      message: (uid: string) => `Back-off restarting failed container bb in pod crash_default(${uid})`,
      at: [5.565, 17.88, 30.083, 40.225, 50.322, 60.955, 74.79, 82.55, 97.214],
      count: 9,
      first: '2026-01-01T00:00:05Z',
      last: '2026-01-01T00:01:37Z',
    },
    {
      name: 'ImagePullBackOff (nginx:1.161 missing)',
      missing: ['nginx:1.161'],
      container: { name: 'nginx', image: 'nginx:1.161' },
      message: () => 'Back-off pulling image "nginx:1.161"',
      at: [1.996, 12.433, 26.282, 33.076, 46.5, 60.106, 71.237],
      count: 7,
      first: '2026-01-01T00:00:01Z',
      last: '2026-01-01T00:01:11Z',
    },
  ];
  test.each(cases)('$name', ({ missing, container, message, at, count, first, last }) => {
    const env = newEnv({ missing });
    const pod = createPod(env, 'crash', 'node-1', [container]);
    env.clock.advance(304_000);
    const times = timeline(env, 'crash', ['BackOff'])
      .filter(([, , m]) => m === message(pod.metadata.uid ?? ''))
      .map(([t]) => t);
    expect(times).toEqual(at);
    // never more than one requeue period (15 s) apart while the Pod stays in back-off
    expect(times.slice(1).every((t, i) => t - times[i] <= 15)).toBe(true);
    const ev = env.api.store
      .list('events', 'default')
      .map((e) => e.obj)
      .filter((e) => e.reason === 'BackOff');
    expect(ev.map((e) => [e.count, e.firstTimestamp, e.lastTimestamp])).toEqual([[count, first, last]]);
  });

  // seed-dependent: once the kubelet has written 25 Events about the Pod (Pulled messages differ
  // by pull time, so each is new) the spam filter drops the rest — here BackOff stops at x7
  test('kubectl describe: BackOff (x7 over 4m58s), last seen 3m48s ago (spam filter); restarts unchanged (5 in 5 min)', () => {
    const c = new Cluster({ seed: 1 });
    c.kubectl('run crash --image=busybox --restart=Always -- sh -c "sleep 2; exit 1"');
    c.advance(304_000);
    const uid = c.get('pods', 'default', 'crash')!.metadata.uid;
    const events = c.kubectl('describe pod crash').output.split('Events:\n')[1].split('\n');
    expect(events.find((l) => l.includes('BackOff'))).toBe(
      `  Warning  BackOff    3m48s (x7 over 4m58s)  kubelet            Back-off restarting failed container crash in pod crash_default(${uid})`,
    );
    expect(c.kubectl('get pod crash').output).toBe(
      'NAME    READY   STATUS             RESTARTS        AGE\ncrash   0/1     CrashLoopBackOff   5 (2m17s ago)   5m4s\n',
    );
  });
});

describe('an image that cannot be pulled, as kubectl shows it (seed 1, 120 s)', () => {
  const c = new Cluster({ seed: 1 });
  c.images.markMissing('nginx:1.161');
  c.kubectl('run web --image=nginx:1.161');
  c.advance(120_000);
  const NOT_FOUND =
    'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.161": failed to resolve reference "docker.io/library/nginx:1.161": docker.io/library/nginx:1.161: not found';

  test('describe: Pulling, Failed (pull error, ErrImagePull, ImagePullBackOff) and BackOff counted up (25 kubelet Events: the spam filter’s burst)', () => {
    const rows = c
      .kubectl('describe pod web')
      .output.split('Events:\n')[1]
      .split('\n')
      .slice(2, -1)
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows.map(([type, reason, age, , msg]) => [type, reason, age, msg])).toEqual([
      // eventTime (events.k8s.io, microseconds): 119.99 s ago is "119s" (HumanDuration truncates)
      ['Normal', 'Scheduled', '119s', 'Successfully assigned default/web to node-3'],
      ['Warning', 'Failed', '58s (x6 over 118s)', 'Error: ImagePullBackOff'],
      ['Normal', 'Pulling', '48s (x4 over 2m)', 'Pulling image "nginx:1.161"'],
      ['Warning', 'Failed', '48s (x4 over 119s)', `Failed to pull image "nginx:1.161": ${NOT_FOUND}`],
      ['Warning', 'Failed', '48s (x4 over 119s)', 'Error: ErrImagePull'],
      ['Normal', 'BackOff', '47s (x7 over 118s)', 'Back-off pulling image "nginx:1.161"'],
    ]);
  });

  test('get pod: STATUS ImagePullBackOff with the v1.33 waiting message', () => {
    expect(c.kubectl('get pod web').output).toBe(
      'NAME   READY   STATUS             RESTARTS   AGE\nweb    0/1     ImagePullBackOff   0          2m\n',
    );
    expect(c.get('pods', 'default', 'web')!.status.containerStatuses[0].state.waiting).toEqual({
      reason: 'ImagePullBackOff',
      message: `Back-off pulling image "nginx:1.161": ErrImagePull: ${NOT_FOUND}`,
    });
  });
});
