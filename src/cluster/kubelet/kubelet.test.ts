import { describe, expect, test } from 'vitest';
import { newEnv, createPod, getPod, timeline, since, type TestEnv } from './kubelet.fixture';

const NOT_FOUND =
  'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.161": failed to resolve reference "docker.io/library/nginx:1.161": docker.io/library/nginx:1.161: not found';
const NGINX = { name: 'nginx', image: 'nginx:1.14.2', imagePullPolicy: 'IfNotPresent' };

function statusOf(env: TestEnv, name: string) {
  return getPod(env, name)?.status;
}

/** Records (seconds since t0, waiting/running/terminated reason) of the first container on every write. */
function watchStates(env: TestEnv, name: string): [number, string][] {
  const out: [number, string][] = [];
  env.api.store.listen((ev) => {
    if (ev.resource !== 'pods' || ev.obj.metadata.name !== name) return;
    const s = ev.obj.status?.containerStatuses?.[0]?.state;
    const r = !s ? '-' : s.waiting ? s.waiting.reason : s.running ? 'Running' : s.terminated ? `Terminated:${s.terminated.reason}` : '?';
    if (!out.length || out[out.length - 1][1] !== r) out.push([since(env), r]);
  });
  return out;
}

describe('Kubelet registration and heartbeats', () => {
  test('registers the Node as kubeadm/kind would, with upstream conditions and events', () => {
    const env = newEnv({
      nodes: [
        { name: 'control-plane', controlPlane: true, capacity: { cpu: '2', memory: '4Gi', pods: '110' } },
        { name: 'node-1', labels: { tier: 'web' }, capacity: { cpu: '4', memory: '8Gi', pods: '110' } },
      ],
    });
    const node = env.api.store.get('nodes', 'node-1')!.obj;
    expect(node.metadata.labels).toEqual({
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
      tier: 'web',
    });
    expect(node.spec.podCIDR).toBe('10.244.1.0/24');
    expect(node.status.addresses).toEqual([
      { address: '172.18.0.3', type: 'InternalIP' },
      { address: 'node-1', type: 'Hostname' },
    ]);
    expect(node.status.capacity).toMatchObject({ cpu: '4', memory: '8388608Ki', pods: '110' });
    expect(node.status.allocatable).toMatchObject({ cpu: '4', memory: '8286208Ki', pods: '110' });
    expect(node.status.nodeInfo).toMatchObject({
      kubeletVersion: 'v1.33.1',
      containerRuntimeVersion: 'containerd://2.1.1',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    expect(node.status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
      ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
    ]);
    const cp = env.api.store.get('nodes', 'control-plane')!.obj;
    expect(cp.metadata.labels?.['node-role.kubernetes.io/control-plane']).toBe('');
    expect(cp.spec.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(cp.spec.podCIDR).toBe('10.244.0.0/24');
    expect(timeline(env, 'node-1')).toEqual([
      [0, 'Starting', 'Starting kubelet.'],
      [0, 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods'],
      [0, 'NodeHasSufficientMemory', 'Node node-1 status is now: NodeHasSufficientMemory'],
      [0, 'NodeHasNoDiskPressure', 'Node node-1 status is now: NodeHasNoDiskPressure'],
      [0, 'NodeHasSufficientPID', 'Node node-1 status is now: NodeHasSufficientPID'],
      [0, 'NodeReady', 'Node node-1 status is now: NodeReady'],
    ]);
    const ev = env.api.store
      .list('events')
      .map((e) => e.obj)
      .find((e) => e.reason === 'NodeReady' && e.involvedObject.name === 'node-1')!;
    expect(ev.source).toEqual({ component: 'kubelet', host: 'node-1' });
    expect(ev.involvedObject).toMatchObject({ kind: 'Node', name: 'node-1', uid: 'node-1' });
  });

  test('Lease renewed every 10 s; node status posted only on change or every 5 min, as heartbeats', () => {
    const env = newEnv();
    const renewals: number[] = [];
    const nodePosts: number[] = [];
    env.api.store.listen((ev) => {
      if (ev.resource === 'leases.coordination.k8s.io') renewals.push(since(env));
      if (ev.resource === 'nodes' && ev.type === 'MODIFIED') nodePosts.push(since(env));
    });
    env.clock.advance(310_000);
    expect(renewals.slice(0, 4)).toEqual([10, 20, 30, 40]);
    expect(renewals.length).toBe(31);
    expect(nodePosts).toEqual([300]);
    const lease = env.api.store.get('leases.coordination.k8s.io', 'kube-node-lease/node-1')!.obj;
    expect(lease.spec).toEqual({ holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:05:10.000000Z' });
    expect(lease.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'node-1' });
    const hb = env.relay
      .all()
      .filter((h) => h.from === 'kubelet/node-1' && h.kind === 'request' && (h.resource === 'leases' || h.resource === 'nodes/status'));
    expect(hb.length).toBeGreaterThan(30);
    expect(hb.every((h) => h.category === 'heartbeat')).toBe(true);
  });
});

describe('Pod workers', () => {
  test('Pending → ContainerCreating → Running with upstream events, timings and relay hops', () => {
    const env = newEnv();
    const states = watchStates(env, 'web');
    createPod(env, 'web', 'node-1', [NGINX]);
    env.clock.advance(10_000);
    expect(states.map(([, s]) => s)).toEqual(['-', 'ContainerCreating', 'Running']);
    const evs = timeline(env, 'web');
    expect(evs.map(([, r, m]) => [r, m])).toEqual([
      ['Pulling', 'Pulling image "nginx:1.14.2"'],
      [
        'Pulled',
        expect.stringMatching(
          /^Successfully pulled image "nginx:1\.14\.2" in (\d+\.\d+s) \(\1 including waiting\)\. Image size: \d+ bytes\.$/,
        ),
      ],
      ['Created', 'Created container: nginx'],
      ['Started', 'Started container nginx'],
    ]);
    // nginx ≈ 68 MiB: 0.5 s + 68 × 20 ms ≈ 1.86 s ± 20 %, after a ~0.4 s sandbox
    expect(evs[1][0] - evs[0][0]).toBeGreaterThan(1.4);
    expect(evs[1][0] - evs[0][0]).toBeLessThan(2.3);
    expect(evs[3][0]).toBeLessThan(3.5);
    const s = statusOf(env, 'web');
    expect(s.phase).toBe('Running');
    expect(s.conditions.map((c: Record<string, string>) => `${c.type}=${c.status}`)).toEqual([
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    expect(s.hostIP).toBe('172.18.0.2');
    expect(s.podIP).toBe('10.244.0.2');
    const cs = s.containerStatuses[0];
    expect(cs).toMatchObject({ name: 'nginx', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.14.2' });
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(cs.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    const cri = env.relay
      .all()
      .filter((h) => h.to === 'containerd/node-1' && h.name === 'web')
      .map((h) => h.verb);
    expect(cri).toEqual(['RunPodSandbox', 'PullImage', 'CreateContainer', 'StartContainer']);
    expect(env.relay.all().some((h) => h.from === 'containerd/node-1' && h.to === 'kubelet/node-1' && h.kind === 'response')).toBe(true);
  });

  test('the first status while creating: Pending, ContainersNotReady', () => {
    const env = newEnv();
    createPod(env, 'web', 'node-1', [NGINX]);
    env.clock.advance(100);
    const s = statusOf(env, 'web');
    expect(s.phase).toBe('Pending');
    expect(s.containerStatuses[0]).toEqual({
      image: 'nginx:1.14.2',
      imageID: '',
      lastState: {},
      name: 'nginx',
      ready: false,
      restartCount: 0,
      started: false,
      state: { waiting: { reason: 'ContainerCreating' } },
    });
    const ready = s.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [nginx]' });
  });

  const pullCases = [
    {
      name: 'IfNotPresent hits the node cache',
      policy: 'IfNotPresent',
      image: 'nginx:1.14.2',
      second: ['Pulled', 'Container image "nginx:1.14.2" already present on machine'],
    },
    { name: 'Always pulls again', policy: 'Always', image: 'nginx:1.14.2', second: ['Pulling', 'Pulling image "nginx:1.14.2"'] },
    {
      name: ':latest without policy means Always',
      policy: undefined,
      image: 'nginx:latest',
      second: ['Pulling', 'Pulling image "nginx:latest"'],
    },
    { name: 'no tag without policy means Always', policy: undefined, image: 'nginx', second: ['Pulling', 'Pulling image "nginx"'] },
  ];
  test.each(pullCases)('image pull policy: $name', ({ policy, image, second }) => {
    const env = newEnv();
    createPod(env, 'a', 'node-1', [{ name: 'c', image, ...(policy ? { imagePullPolicy: policy } : {}) }]);
    env.clock.advance(10_000);
    createPod(env, 'b', 'node-1', [{ name: 'c', image, ...(policy ? { imagePullPolicy: policy } : {}) }]);
    env.clock.advance(10_000);
    expect(timeline(env, 'b')[0].slice(1)).toEqual(second);
    expect(statusOf(env, 'b').phase).toBe('Running');
    expect(statusOf(env, 'b').podIP).toBe('10.244.0.3');
  });

  test('missing image: ErrImagePull, then ImagePullBackOff, retries after 10 s, 20 s, 40 s … 300 s', () => {
    const env = newEnv({ missing: ['nginx:1.161'] });
    const states = watchStates(env, 'web');
    createPod(env, 'web', 'node-1', [{ name: 'nginx', image: 'nginx:1.161' }]);
    env.clock.advance(1_000_000);
    // the CRI calls, not the Events: after 25 Events about the Pod the kubelet's spam filter
    // writes one per 5 minutes (events_cache.go)
    const hops = env.relay.all();
    const pulls = hops.filter((h) => h.summary === 'PullImage nginx:1.161').map((h) => since(env, h.time));
    const fails = hops.filter((h) => h.summary === 'NotFound docker.io/library/nginx:1.161').map((h) => since(env, h.time));
    expect(pulls.length).toBe(8);
    const gaps = pulls.slice(1).map((t, i) => Math.round(t - fails[i]));
    expect(gaps).toEqual([10, 20, 40, 80, 160, 300, 300]);
    const first = timeline(env, 'web')
      .slice(0, 6)
      .map(([, r, m]) => [r, m]);
    expect(first).toEqual([
      ['Pulling', 'Pulling image "nginx:1.161"'],
      [
        'Failed',
        'Failed to pull image "nginx:1.161": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.161": failed to resolve reference "docker.io/library/nginx:1.161": docker.io/library/nginx:1.161: not found',
      ],
      ['Failed', 'Error: ErrImagePull'],
      ['BackOff', 'Back-off pulling image "nginx:1.161"'],
      ['Failed', 'Error: ImagePullBackOff'],
      ['Pulling', 'Pulling image "nginx:1.161"'],
    ]);
    expect(states.map(([, s]) => s).slice(0, 6)).toEqual([
      '-',
      'ContainerCreating',
      'ErrImagePull',
      'ImagePullBackOff',
      'ErrImagePull',
      'ImagePullBackOff',
    ]);
    const s = statusOf(env, 'web');
    expect(s.phase).toBe('Pending');
    // v1.33 wraps the last pull error into the back-off's waiting message (prevPullErrMsg)
    expect(s.containerStatuses[0].state.waiting).toEqual({
      reason: 'ImagePullBackOff',
      message: `Back-off pulling image "nginx:1.161": ErrImagePull: ${NOT_FOUND}`,
    });
    expect(env.clock.deadlines().some((d) => d.label === 'back-off pulling image nginx:1.161 for default/web')).toBe(true);
  });

  test('CrashLoopBackOff: restarts after 0, 10, 20, 40, 80, 160, 300 s with upstream texts', () => {
    const env = newEnv();
    const pod = createPod(env, 'crash', 'node-1', [
      { name: 'bb', image: 'busybox:1.36', command: ['sh', '-c', 'echo hi; sleep 5; exit 1'] },
    ]);
    const starts: number[] = [];
    const exits: number[] = [];
    env.api.store.listen((ev) => {
      if (ev.resource !== 'pods') return;
      const a = ev.prev?.status?.containerStatuses?.[0]?.state;
      const b = ev.obj.status?.containerStatuses?.[0]?.state;
      if (b?.running && !a?.running) starts.push(since(env));
      if (b?.terminated && !a?.terminated) exits.push(since(env));
    });
    env.clock.advance(1_300_000);
    const gaps = starts.slice(1).map((t, i) => Math.round(t - exits[i]));
    expect(gaps.slice(0, 8)).toEqual([0, 10, 20, 40, 80, 160, 300, 300]);
    const backoff = timeline(env, 'crash', ['BackOff'])[0];
    expect(backoff[2]).toBe(`Back-off restarting failed container bb in pod crash_default(${pod.metadata.uid})`);
    const s = statusOf(env, 'crash');
    expect(s.phase).toBe('Running');
    const cs = s.containerStatuses[0];
    expect(cs.state.waiting.reason).toBe('CrashLoopBackOff');
    expect(cs.state.waiting.message).toBe(`back-off 5m0s restarting failed container=bb pod=crash_default(${pod.metadata.uid})`);
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs.restartCount).toBe(starts.length - 1);
  });

  const policyCases = [
    { name: 'Never + exit 1 → Failed', policy: 'Never', script: 'sleep 2; exit 1', phase: 'Failed', restarts: 0, reason: 'Error' },
    { name: 'Never + exit 0 → Succeeded', policy: 'Never', script: 'echo done', phase: 'Succeeded', restarts: 0, reason: 'Completed' },
    {
      name: 'OnFailure + exit 0 → Succeeded',
      policy: 'OnFailure',
      script: 'sleep 1; true',
      phase: 'Succeeded',
      restarts: 0,
      reason: 'Completed',
    },
    {
      name: 'OnFailure + exit 2 → restarted',
      policy: 'OnFailure',
      script: 'sleep 1; exit 2',
      phase: 'Running',
      restarts: 2,
      reason: 'Error',
    },
    { name: 'Always + exit 0 → restarted', policy: 'Always', script: 'sleep 1', phase: 'Running', restarts: 2, reason: 'Completed' },
  ];
  test.each(policyCases)('restartPolicy: $name', ({ policy, script, phase, restarts, reason }) => {
    const env = newEnv();
    createPod(env, 'job', 'node-1', [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', script] }], { restartPolicy: policy });
    env.clock.advance(20_000);
    const s = statusOf(env, 'job');
    expect(s.phase).toBe(phase);
    const cs = s.containerStatuses[0];
    expect(cs.restartCount).toBe(restarts);
    expect((cs.state.terminated ?? cs.lastState.terminated).reason).toBe(reason);
    if (phase === 'Succeeded')
      expect(s.conditions.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  });

  const deletionCases = [
    { name: 'nginx exits on SIGTERM within 1 s', container: NGINX, within: [0, 1.1] },
    {
      name: 'a PID-1 shell ignores SIGTERM and is killed after the 30 s grace period',
      container: { name: 'bb', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] },
      within: [30, 30.1],
    },
  ];
  test.each(deletionCases)('graceful deletion: $name', ({ container, within }) => {
    const env = newEnv();
    createPod(env, 'web', 'node-1', [container]);
    env.clock.advance(10_000);
    const deletedAt: number[] = [];
    env.api.store.listen((ev) => {
      if (ev.resource === 'pods' && ev.type === 'DELETED') deletedAt.push(since(env));
    });
    const t = since(env);
    env.admin.resource('', 'pods').delete('default', 'web');
    expect(getPod(env, 'web')?.metadata.deletionTimestamp).toBe('2026-01-01T00:00:40Z');
    env.clock.advance(40_000);
    expect(getPod(env, 'web')).toBeUndefined();
    expect(deletedAt.length).toBe(1);
    expect(deletedAt[0] - t).toBeGreaterThanOrEqual(within[0]);
    expect(deletedAt[0] - t).toBeLessThanOrEqual(within[1]);
    expect(timeline(env, 'web', ['Killing']).map(([, , m]) => m)).toEqual([`Stopping container ${container.name}`]);
    const del = env.relay.all().find((h) => h.from === 'kubelet/node-1' && h.verb === 'delete')!;
    expect(del.summary).toContain('grace 0');
    expect(env.kubelets.get('node-1')!.runtime.runningCount()).toBe(0);
  });
});

describe('power', () => {
  test('powerOff stops everything; powerOn restarts containers with restartCount + 1 and a new Pod IP', () => {
    const env = newEnv();
    createPod(env, 'web', 'node-1', [NGINX]);
    env.clock.advance(10_000);
    const before = statusOf(env, 'web');
    const k = env.kubelets.get('node-1')!;
    const rv = env.api.store.revision;
    k.powerOff();
    expect(k.powered).toBe(false);
    expect(k.timers.size).toBe(0);
    expect(k.runtime.runningCount()).toBe(0);
    env.clock.advance(120_000);
    expect(env.api.store.revision).toBe(rv); // no heartbeats, no status: the apiserver shows the old state
    expect(statusOf(env, 'web').phase).toBe('Running');
    k.powerOn();
    env.clock.advance(10_000);
    const after = statusOf(env, 'web');
    expect(after.phase).toBe('Running');
    expect(after.containerStatuses[0].restartCount).toBe(1);
    expect(after.containerStatuses[0].lastState.terminated).toMatchObject({ exitCode: 255, reason: 'Unknown' });
    expect(after.podIP).not.toBe(before.podIP);
    expect(
      timeline(env, 'web')
        .slice(-3)
        .map(([, r, m]) => [r, m]),
    ).toEqual([
      ['Pulled', 'Container image "nginx:1.14.2" already present on machine'],
      ['Created', 'Created container: nginx'],
      ['Started', 'Started container nginx'],
    ]);
    // no node controller here: the Node never left Ready, so only the start events (no condition transitions)
    const boot = timeline(env, 'node-1').slice(-3);
    expect(boot.map(([, r]) => r)).toEqual(['Starting', 'NodeAllocatableEnforced', 'Rebooted']);
    expect(boot[2][2]).toMatch(/^Node node-1 has been rebooted, boot id: [0-9a-f-]{36}$/);
  });
});

describe('image pull waiting messages (image_manager.go v1.33)', () => {
  test("ErrImagePull carries the pull error; ImagePullBackOff wraps it, alternating on upstream's timing", () => {
    const env = newEnv({ missing: ['nginx:1.161'] });
    const msgs: [number, string, string][] = [];
    env.api.store.listen((ev) => {
      if (ev.resource !== 'pods' || ev.obj.metadata.name !== 'web') return;
      const w = ev.obj.status?.containerStatuses?.[0]?.state?.waiting;
      if (w && (!msgs.length || msgs[msgs.length - 1][2] !== w.message)) msgs.push([since(env), w.reason, w.message]);
    });
    createPod(env, 'web', 'node-1', [{ name: 'nginx', image: 'nginx:1.161' }]);
    env.clock.advance(40_000);
    expect(msgs.map(([, r, m]) => [r, m])).toEqual([
      ['ContainerCreating', undefined],
      ['ErrImagePull', NOT_FOUND],
      ['ImagePullBackOff', `Back-off pulling image "nginx:1.161": ErrImagePull: ${NOT_FOUND}`],
      ['ErrImagePull', NOT_FOUND],
      ['ImagePullBackOff', `Back-off pulling image "nginx:1.161": ErrImagePull: ${NOT_FOUND}`],
      ['ErrImagePull', NOT_FOUND],
      ['ImagePullBackOff', `Back-off pulling image "nginx:1.161": ErrImagePull: ${NOT_FOUND}`],
    ]);
    // pull fails → ErrImagePull; the resync 1 s later hits the back-off; the retry comes 10 s,
    // then 20 s after the failed pull (image back-off 10 s doubling)
    expect(msgs.map(([t]) => t)).toEqual([0.001, 0.996, 1.996, 11.433, 12.433, 32.076, 33.076]);
  });
});
