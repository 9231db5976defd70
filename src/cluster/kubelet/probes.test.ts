/**
 * The kubelet's remaining behaviour (issue 4 §5): probes, config errors, volumes and init
 * containers, with exact upstream strings and simulated timings. The liveness-exec scenario
 * plays the docs' manifest through the real Cluster.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import { newEnv, createPod, getPod, timeline, type TestEnv } from './kubelet.fixture';

const REAL = 'src/examples/real';

/** [seconds since t0 (0.1 s), reason, message] of the events about Pods whose name starts with `prefix`. */
function clusterTimeline(c: Cluster, t0: number, prefix: string, reasons?: string[]): [number, string, string][] {
  const out: [number, string, string][] = [];
  c.api.store.listen((ev) => {
    if (ev.resource !== 'events' || ev.type === 'DELETED') return;
    const e = ev.obj;
    if (!e.involvedObject?.name?.startsWith(prefix) || (reasons && !reasons.includes(e.reason))) return;
    out.push([Math.round((c.now() - t0) / 100) / 10, e.reason, e.message]);
  });
  return out;
}

const cs = (p: KObject | undefined) => p?.status?.containerStatuses?.[0];

describe('scenario: liveness-exec (test/fixtures/doc-yaml/user-guide/liveness/exec-liveness.yaml)', () => {
  // echo ok > /tmp/health; sleep 10; rm -rf /tmp/health; sleep 600 — probe `cat /tmp/health`,
  // initialDelaySeconds 15, period 10 s (default), failureThreshold 3 (default)
  const c = new Cluster({ seed: 1 });
  const t0 = c.now();
  const tl = clusterTimeline(c, t0, 'liveness-exec');
  expect(c.apply(readFileSync(`${REAL}/liveness-exec-pod.yaml`, 'utf8')).map((r) => r.action)).toEqual(['created']);
  c.advance(2_000);
  const started = tl.find(([, r]) => r === 'Started')![0];
  let mid: KObject | undefined;
  while (!mid && c.now() - t0 < 120_000) {
    c.advance(1_000);
    if (tl.some(([, r]) => r === 'Killing')) mid = c.get('pods', 'default', 'liveness-exec');
  }
  c.advance(t0 + 80_000 - c.now());
  const at80 = c
    .events()
    .filter((e) => e.involvedObject.name === 'liveness-exec')
    // kube-scheduler's Scheduled is an events.k8s.io Event: eventTime (floored to seconds), no count
    .map((e) => [
      Math.floor((Date.parse(e.firstTimestamp ?? e.eventTime) - t0) / 1000),
      Math.floor((Date.parse(e.lastTimestamp ?? e.eventTime) - t0) / 1000),
      e.count ?? 1,
      e.reason,
    ]);
  c.advance(50_000);

  test('file gone at 10 s; first probe after the 15 s delay fails; 3 × 10 s later Killing; restart after the 30 s grace period', () => {
    const unhealthy = tl.filter(([, r]) => r === 'Unhealthy');
    const msg = "Liveness probe failed: cat: can't open '/tmp/health': No such file or directory\n";
    expect(unhealthy.slice(0, 3).map(([, , m]) => m)).toEqual([msg, msg, msg]);
    // probe ticks every 10 s from the worker's start (≈ the Pod's arrival); the first tick with
    // ≥ 15 s since startedAt is the first probe: between 15 and 25 s after the start
    const first = unhealthy[0][0] - started;
    expect(first).toBeGreaterThanOrEqual(15);
    expect(first).toBeLessThan(25);
    expect(unhealthy[1][0] - unhealthy[0][0]).toBeCloseTo(10, 1);
    expect(unhealthy[2][0] - unhealthy[1][0]).toBeCloseTo(10, 1);
    const killing = tl.filter(([, r]) => r === 'Killing');
    expect(killing[0]).toEqual([unhealthy[2][0], 'Killing', 'Container liveness-exec failed liveness probe, will be restarted']);
    // sh as PID 1 ignores SIGTERM: SIGKILL after terminationGracePeriodSeconds (30 s), then started again at once
    const restart = tl.filter(([, r]) => r === 'Started')[1][0];
    expect(restart - killing[0][0]).toBeGreaterThanOrEqual(30);
    expect(restart - killing[0][0]).toBeLessThan(32);
    expect(tl.slice(0, 4).map(([, r]) => r)).toEqual(['Scheduled', 'Pulling', 'Pulled', 'Created']);
  });

  test('kubectl describe view (seed 1): Unhealthy (x3 over 20s) at 20–40 s, Killing at 40 s, restarted at 70 s', () => {
    expect(at80).toEqual([
      [0, 0, 1, 'Scheduled'],
      [0, 70, 2, 'Pulling'],
      [1, 1, 1, 'Pulled'],
      [1, 70, 2, 'Created'],
      [1, 70, 2, 'Started'],
      [20, 40, 3, 'Unhealthy'],
      [40, 40, 1, 'Killing'],
      [70, 70, 1, 'Pulled'],
    ]);
  });

  test('during the kill the container still runs; afterwards restartCount 1, lastState Error 137', () => {
    expect(cs(mid)).toMatchObject({ restartCount: 0, ready: true, state: { running: {} } });
    const s = cs(c.get('pods', 'default', 'liveness-exec'));
    expect(s.restartCount).toBe(1);
    expect(s.lastState.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(s.state.running).toBeDefined();
    expect(c.get('pods', 'default', 'liveness-exec')!.status.phase).toBe('Running');
  });
});

describe('readiness', () => {
  test('a failing readiness probe flips Ready and removes the Pod from its Service EndpointSlice', () => {
    const c = new Cluster({ seed: 2 });
    c.apply(`apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: [sh, -c, "touch /tmp/ready; sleep 40; rm /tmp/ready; sleep 3600"]
    readinessProbe:
      exec: {command: [test, -f, /tmp/ready]}
      periodSeconds: 5
`);
    const endpointReady = () =>
      c
        .list('endpointslices.discovery.k8s.io', 'default')
        .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'web')
        .flatMap((s) => s.endpoints ?? [])
        .map((e: { conditions: { ready: boolean } }) => e.conditions.ready);
    c.advance(20_000);
    const pod = () => c.get('pods', 'default', 'web')!;
    expect(pod().status.conditions.find((x: { type: string }) => x.type === 'Ready').status).toBe('True');
    expect(endpointReady()).toEqual([true]);
    c.advance(40_000);
    const ready = pod().status.conditions.find((x: { type: string }) => x.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
    expect(cs(pod())).toMatchObject({ ready: false, started: true, restartCount: 0 });
    expect(endpointReady()).toEqual([false]);
    const un = c.events().filter((e) => e.reason === 'Unhealthy');
    expect(un[0].message).toBe('Readiness probe failed: ');
    expect(un[0].count).toBeGreaterThanOrEqual(3);
  });

  test('not ready until the first success after initialDelaySeconds; startup probe gates started', () => {
    const env = newEnv();
    createPod(env, 'app', 'node-1', [
      {
        name: 'app',
        image: 'nginx:1.14.2',
        ports: [{ containerPort: 80 }],
        startupProbe: { tcpSocket: { port: 80 }, periodSeconds: 10, failureThreshold: 30, timeoutSeconds: 1, successThreshold: 1 },
        readinessProbe: {
          httpGet: { path: '/', port: 80, scheme: 'HTTP' },
          initialDelaySeconds: 5,
          periodSeconds: 10,
          failureThreshold: 3,
          timeoutSeconds: 1,
          successThreshold: 1,
        },
      },
    ]);
    env.clock.advance(3_000);
    expect(cs(getPod(env, 'app'))).toMatchObject({ ready: false, started: false, state: { running: {} } });
    env.clock.advance(60_000);
    expect(cs(getPod(env, 'app'))).toMatchObject({ ready: true, started: true });
    expect(timeline(env, 'app', ['Unhealthy'])).toEqual([]);
  });
});

describe('probe handlers against what the container serves', () => {
  const cases = [
    {
      name: 'httpGet to an undeclared port',
      probe: { httpGet: { path: '/healthz', port: 8081, scheme: 'HTTP' } },
      msg: (ip: string) => `Liveness probe failed: Get "http://${ip}:8081/healthz": dial tcp ${ip}:8081: connect: connection refused`,
    },
    {
      name: 'tcpSocket to an undeclared port',
      probe: { tcpSocket: { port: 9000 } },
      msg: (ip: string) => `Liveness probe failed: dial tcp ${ip}:9000: connect: connection refused`,
    },
    {
      name: 'grpc to an undeclared port',
      probe: { grpc: { port: 9555, service: '' } },
      msg: (ip: string) => `Liveness probe failed: timeout: failed to connect service "${ip}:9555" within 1s: context deadline exceeded`,
    },
    {
      name: 'a named port that does not exist',
      probe: { httpGet: { path: '/', port: 'http', scheme: 'HTTP' } },
      msg: () => 'Liveness probe errored and resulted in unknown state: strconv.Atoi: parsing "http": invalid syntax',
    },
  ];
  test.each(cases)('$name', ({ probe, msg }) => {
    const env = newEnv();
    createPod(env, 'web', 'node-1', [
      {
        name: 'web',
        image: 'nginx:1.14.2',
        ports: [{ containerPort: 8080 }],
        livenessProbe: { ...probe, periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 1, successThreshold: 1 },
      },
    ]);
    env.clock.advance(60_000);
    const ip = getPod(env, 'web')!.status.podIP;
    const un = timeline(env, 'web', ['Unhealthy', 'Killing']);
    expect(un[0][2]).toBe(msg(ip));
    if (!msg('').includes('errored'))
      expect(un.find(([, r]) => r === 'Killing')?.[2]).toBe('Container web failed liveness probe, will be restarted');
    else expect(un.some(([, r]) => r === 'Killing')).toBe(false);
  });

  test('an unknown image: the declared port answers (assumed), and containerInfo says so', () => {
    const env = newEnv();
    createPod(env, 'web', 'node-1', [
      {
        name: 'web',
        image: 'ghcr.io/example/shop:1.0',
        ports: [{ containerPort: 8080, name: 'http' }],
        livenessProbe: {
          httpGet: { path: '/', port: 'http', scheme: 'HTTP' },
          periodSeconds: 10,
          failureThreshold: 3,
          timeoutSeconds: 1,
          successThreshold: 1,
        },
      },
    ]);
    env.clock.advance(60_000);
    expect(timeline(env, 'web', ['Unhealthy', 'Killing'])).toEqual([]);
    expect(env.kubelets.get('node-1')!.containerInfo('default', 'web')).toEqual([
      { name: 'web', assumed: true, logs: [], previousLogs: [], serves: { kind: 'assumed', ports: [8080] } },
    ]);
    // nginx's default server is modelled: port 80 only, whatever containerPorts say
    createPod(env, 'ng', 'node-1', [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080 }] }]);
    env.clock.advance(10_000);
    expect(env.kubelets.get('node-1')!.containerInfo('default', 'ng')[0].serves).toEqual({ kind: 'known', ports: [80] });
  });
});

function configMap(env: TestEnv, name: string, data: Record<string, string>): void {
  env.admin
    .resource('', 'configmaps')
    .create('default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });
}

describe('config errors', () => {
  test('kustomize helloWorld without its ConfigMap: CreateContainerConfigError, then Running once the ConfigMap is applied', () => {
    const c = new Cluster({ seed: 3 });
    const t0 = c.now();
    const docs = readFileSync(`${REAL}/kustomize-helloworld.yaml`, 'utf8').split(/^---$/m);
    const cm = docs.find((d) => /kind: ConfigMap/.test(d))!;
    const tl = clusterTimeline(c, t0, 'the-deployment', ['Failed', 'Started']);
    c.apply(docs.filter((d) => d !== cm).join('\n---\n'));
    c.advance(30_000);
    const pods = () => c.list('pods', 'default').filter((p) => p.metadata.name.startsWith('the-deployment'));
    expect(pods().length).toBe(3);
    for (const p of pods()) {
      expect(cs(p).state.waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'configmap "the-map" not found' });
      expect(p.status.phase).toBe('Pending');
    }
    const failed = c.events().filter((e) => e.reason === 'Failed');
    expect(failed.map((e) => e.message)).toEqual([
      'Error: configmap "the-map" not found',
      'Error: configmap "the-map" not found',
      'Error: configmap "the-map" not found',
    ]);
    expect(failed.every((e) => e.count >= 2 && e.source.component === 'kubelet')).toBe(true);
    // retried every 10–15 s (the pod worker's backOffPeriod with jitter)
    const one = tl.filter(([, r]) => r === 'Failed');
    expect(one.length).toBeGreaterThanOrEqual(6);
    c.apply(cm);
    c.advance(20_000);
    for (const p of pods()) {
      expect(p.status.phase).toBe('Running');
      expect(cs(p)).toMatchObject({ ready: true, restartCount: 0 });
    }
  });

  const envCases = [
    {
      name: 'missing key',
      env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'nope' } } }],
      msg: "couldn't find key nope in ConfigMap default/cfg",
    },
    {
      name: 'missing Secret',
      env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }],
      msg: 'secret "db" not found',
    },
    { name: 'missing envFrom ConfigMap', envFrom: [{ configMapRef: { name: 'other' } }], msg: 'configmap "other" not found' },
  ];
  test.each(envCases)('$name', ({ env: e, envFrom, msg }) => {
    const env = newEnv();
    configMap(env, 'cfg', { a: '1' });
    createPod(env, 'p', 'node-1', [{ name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'], env: e, envFrom }]);
    env.clock.advance(5_000);
    expect(cs(getPod(env, 'p')).state.waiting).toEqual({ reason: 'CreateContainerConfigError', message: msg });
    expect(timeline(env, 'p', ['Failed'])[0][2]).toBe(`Error: ${msg}`);
  });

  test('optional references are skipped; env reaches the process (printenv, $(VAR) expansion, fieldRef)', () => {
    const env = newEnv();
    configMap(env, 'cfg', { greeting: 'hello' });
    createPod(
      env,
      'p',
      'node-1',
      [
        {
          name: 'c',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'echo $GREETING $(POD); printenv NS; hostname'],
          env: [
            { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'greeting' } } },
            { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'OPT', valueFrom: { secretKeyRef: { name: 'none', key: 'k', optional: true } } },
          ],
        },
      ],
      { restartPolicy: 'Never' },
    );
    env.clock.advance(10_000);
    expect(getPod(env, 'p')!.status.phase).toBe('Succeeded');
    expect(env.kubelets.get('node-1')!.containerInfo('default', 'p')[0]).toMatchObject({
      assumed: false,
      logs: ['hello p', 'default', 'p'],
    });
  });
});

describe('volumes', () => {
  test('a missing ConfigMap volume: FailedMount with back-off, ContainerCreating, then starts once it exists', () => {
    const env = newEnv();
    createPod(
      env,
      'p',
      'node-1',
      [
        {
          name: 'c',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'cat /etc/config/mode; sleep 3600'],
          volumeMounts: [{ name: 'config', mountPath: '/etc/config' }],
        },
      ],
      { volumes: [{ name: 'config', configMap: { name: 'app-config', defaultMode: 420 } }] },
    );
    env.clock.advance(16_000);
    const fm = timeline(env, 'p', ['FailedMount']);
    expect(fm.map(([, , m]) => m)).toEqual(
      Array(6).fill('MountVolume.SetUp failed for volume "config" : configmap "app-config" not found'),
    );
    // nestedpendingoperations back-off: 0.5 s doubling
    expect(fm.slice(1).map(([t], i) => Math.round((t - fm[i][0]) * 10) / 10)).toEqual([0.5, 1, 2, 4, 8]);
    expect(cs(getPod(env, 'p')).state.waiting).toEqual({ reason: 'ContainerCreating' });
    expect(getPod(env, 'p')!.status.conditions[0]).toMatchObject({ type: 'PodReadyToStartContainers', status: 'False' });
    configMap(env, 'app-config', { mode: 'debug' });
    env.clock.advance(40_000);
    expect(getPod(env, 'p')!.status.phase).toBe('Running');
    expect(env.kubelets.get('node-1')!.containerInfo('default', 'p')[0].logs).toEqual(['debug']);
  });

  test('a PVC volume waits for the claim to be Bound; files written survive the Pod', () => {
    const env = newEnv();
    const pvcs = env.admin.resource('', 'persistentvolumeclaims');
    pvcs.create('default', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Pending' },
    });
    createPod(
      env,
      'w',
      'node-1',
      [
        {
          name: 'c',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'echo saved > /data/file'],
          volumeMounts: [{ name: 'd', mountPath: '/data' }],
        },
      ],
      { restartPolicy: 'Never', volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
    );
    env.clock.advance(10_000);
    const k = env.kubelets.get('node-1')!;
    expect(getPod(env, 'w')!.status.phase).toBe('Pending');
    expect(k.volumeWaits('default', 'w')).toEqual(['PVC default/data has non-bound phase ("Pending") or empty pvc.Spec.VolumeName ("")']);
    const pvc = pvcs.get('default', 'data');
    pvcs.updateStatus({ ...pvc, spec: { ...pvc.spec, volumeName: 'pv-1' }, status: { phase: 'Bound' } });
    const p2 = pvcs.get('default', 'data');
    pvcs.update({ ...p2, spec: { ...p2.spec, volumeName: 'pv-1' } });
    env.clock.advance(200_000);
    expect(getPod(env, 'w')!.status.phase).toBe('Succeeded');
    expect(k.claimData('default', 'data').files.get('/file')).toBe('saved\n');
  });
});

describe('init containers', () => {
  test('run in order before the app container; Init:0/2 → Init:1/2 → Running', () => {
    const env = newEnv();
    const seen: string[] = [];
    env.api.store.listen((ev) => {
      if (ev.resource !== 'pods') return;
      const s = ev.obj.status ?? {};
      const init = (s.initContainerStatuses ?? [])
        .map(
          (x: { state: Record<string, { reason?: string }> }) =>
            Object.keys(x.state)[0] + (x.state.waiting?.reason ? `:${x.state.waiting.reason}` : ''),
        )
        .join(',');
      const line = `${s.phase} ${init} | ${Object.keys(cs(ev.obj)?.state ?? {})[0]}`;
      if (seen[seen.length - 1] !== line) seen.push(line);
    });
    createPod(
      env,
      'p',
      'node-1',
      [
        {
          name: 'app',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'cat /work/a /work/b; sleep 3600'],
          volumeMounts: [{ name: 'w', mountPath: '/work' }],
        },
      ],
      {
        initContainers: [
          {
            name: 'first',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'sleep 2; echo one > /work/a'],
            volumeMounts: [{ name: 'w', mountPath: '/work' }],
          },
          {
            name: 'second',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'echo two > /work/b'],
            volumeMounts: [{ name: 'w', mountPath: '/work' }],
          },
        ],
        volumes: [{ name: 'w', emptyDir: {} }],
      },
    );
    env.clock.advance(20_000);
    expect(timeline(env, 'p', ['Started']).map(([, , m]) => m)).toEqual([
      'Started container first',
      'Started container second',
      'Started container app',
    ]);
    expect(seen).toContain('Pending waiting:PodInitializing,waiting:PodInitializing | waiting');
    expect(seen).toContain('Pending running,waiting:PodInitializing | waiting');
    expect(seen[seen.length - 1]).toBe('Running terminated,terminated | running');
    const s = getPod(env, 'p')!.status;
    expect(s.conditions.find((x: { type: string }) => x.type === 'Initialized').status).toBe('True');
    expect(
      s.initContainerStatuses.map((x: { ready: boolean; state: { terminated: { reason: string } } }) => [
        x.ready,
        x.state.terminated.reason,
      ]),
    ).toEqual([
      [true, 'Completed'],
      [true, 'Completed'],
    ]);
    expect(env.kubelets.get('node-1')!.containerInfo('default', 'p', 'app')[0].logs).toEqual(['one', 'two']);
  });

  test('a failing init container: Initialized False, CrashLoopBackOff on the init container; a sidecar keeps running', () => {
    const env = newEnv();
    createPod(env, 'p', 'node-1', [{ name: 'app', image: 'nginx:1.14.2' }], {
      initContainers: [
        { name: 'proxy', image: 'busybox:1.36', restartPolicy: 'Always', command: ['sh', '-c', 'sleep infinity'] },
        { name: 'wait-db', image: 'busybox:1.36', command: ['sh', '-c', 'test -f /db-ready'] },
      ],
    });
    env.clock.advance(60_000);
    const s = getPod(env, 'p')!.status;
    expect(s.phase).toBe('Pending');
    expect(s.conditions.find((x: { type: string }) => x.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [wait-db]',
    });
    expect(s.initContainerStatuses[0]).toMatchObject({ name: 'proxy', started: true, state: { running: {} } });
    expect(s.initContainerStatuses[1].state.waiting.reason).toBe('CrashLoopBackOff');
    expect(s.initContainerStatuses[1].lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs(getPod(env, 'p')).state.waiting.reason).toBe('PodInitializing');
  });
});
