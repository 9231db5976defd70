/**
 * What a container serves decides what probes and traffic see (userland/images/web-servers.ts):
 * nginx answers `/` and `/index.html`, 404 elsewhere; a readiness probe on a path it has no file
 * for keeps the Pod unready (Unhealthy events counting up, ContainersReady/Ready False, the
 * EndpointSlice endpoint not ready, the Deployment unavailable); a liveness probe on such a path
 * kills the container after failureThreshold periods and the kubelet restarts it with its back-off.
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import { defaultServer, httpAnswer } from './images/web-servers';

describe('httpAnswer: the default pages of known images', () => {
  test.each([
    { name: 'nginx /', c: { image: 'nginx:1.27' }, path: '/', status: 200, summary: 'Welcome to nginx!', assumed: false },
    {
      name: 'nginx /index.html?x=1',
      c: { image: 'nginx:1.27' },
      path: '/index.html?x=1',
      status: 200,
      summary: 'Welcome to nginx!',
      assumed: false,
    },
    { name: 'nginx /healthz', c: { image: 'nginx:1.27' }, path: '/healthz', status: 404, summary: '404 Not Found', assumed: false },
    {
      name: 'nginx-unprivileged /nope',
      c: { image: 'nginxinc/nginx-unprivileged:1.27' },
      path: '/nope',
      status: 404,
      summary: '404 Not Found',
      assumed: false,
    },
    { name: 'httpd /', c: { image: 'httpd:2.4' }, path: '/', status: 200, summary: 'It works!', assumed: false },
    { name: 'httpd /status', c: { image: 'httpd:2.4' }, path: '/status', status: 404, summary: '404 Not Found', assumed: false },
    {
      name: 'podinfo /readyz',
      c: { image: 'ghcr.io/stefanprodan/podinfo:6.14.1' },
      path: '/readyz',
      status: 200,
      summary: '{"status": "OK"}',
      assumed: false,
    },
    {
      name: 'podinfo /nope: Go net/http 404',
      c: { image: 'ghcr.io/stefanprodan/podinfo:6.14.1' },
      path: '/nope',
      status: 404,
      summary: '404 page not found',
      assumed: false,
    },
    {
      name: 'nginx with a ConfigMap over /etc/nginx/conf.d: assumed',
      c: { image: 'nginx:1.27', volumeMounts: [{ mountPath: '/etc/nginx/conf.d' }] },
      path: '/healthz',
      status: 200,
      summary: undefined,
      assumed: true,
    },
    {
      name: 'nginx with a command: assumed',
      c: { image: 'nginx:1.27', command: ['nginx', '-g', 'daemon off;'] },
      path: '/healthz',
      status: 200,
      summary: undefined,
      assumed: true,
    },
    {
      name: 'an unknown image: assumed',
      c: { image: 'ghcr.io/example/shop:1.0' },
      path: '/anything',
      status: 200,
      summary: undefined,
      assumed: true,
    },
  ])('$name', ({ c, path, status, summary, assumed }) => {
    const a = httpAnswer(c, path, 'web-1');
    expect([a.status, a.summary, a.assumed]).toEqual([status, summary, assumed]);
  });

  test('nginx 404 page names the version of an x.y.z tag', () => {
    expect(httpAnswer({ image: 'nginx:1.27.5' }, '/x', 'p').body).toContain('<hr><center>nginx/1.27.5</center>');
    expect(defaultServer({ image: 'nginx:1.27', volumeMounts: [{ mountPath: '/data' }] })?.ports).toEqual([80]);
  });
});

const deployment = (probe: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80}]
${probe}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
`;

const cond = (o: KObject, type: string) => (o.status?.conditions ?? []).find((x: { type: string }) => x.type === type);

describe('a readiness probe on a path nginx does not serve', () => {
  const c = new Cluster({ seed: 1 });
  c.apply(deployment('        readinessProbe: {httpGet: {path: /healthz, port: 80}, periodSeconds: 5}'));
  c.advance(60_000);
  const pod = c.list('pods', 'default').find((p) => p.metadata.name.startsWith('web-'))!;

  test('Unhealthy "Readiness probe failed: HTTP probe failed with statuscode: 404", counting up', () => {
    const un = c.events().filter((e) => e.reason === 'Unhealthy' && e.involvedObject.name === pod.metadata.name);
    expect(un.map((e) => [e.type, e.message, e.involvedObject.fieldPath])).toEqual([
      ['Warning', 'Readiness probe failed: HTTP probe failed with statuscode: 404', 'spec.containers{nginx}'],
    ]);
    expect(un[0].count).toBeGreaterThanOrEqual(10);
  });

  test('ContainersReady and Ready False with upstream reason and message; the container runs, unready', () => {
    for (const t of ['ContainersReady', 'Ready']) {
      expect(cond(pod, t)).toMatchObject({
        status: 'False',
        reason: 'ContainersNotReady',
        message: 'containers with unready status: [nginx]',
      });
    }
    expect(pod.status.containerStatuses[0]).toMatchObject({ ready: false, started: true, restartCount: 0, state: { running: {} } });
    expect(c.kubectl('get pods').output).toMatch(/^web-\S+ +0\/1 +Running +0 +60s$/m);
  });

  test('the EndpointSlice endpoint is not ready; the Deployment has 0 available', () => {
    const eps = c
      .list('endpointslices.discovery.k8s.io', 'default')
      .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'web')
      .flatMap((s) => s.endpoints ?? []);
    expect(eps.map((e: KObject) => e.conditions)).toEqual([{ ready: false, serving: false, terminating: false }]);
    const d = c.get('deployments.apps', 'default', 'web')!;
    expect([d.status.replicas, d.status.readyReplicas ?? 0, d.status.availableReplicas ?? 0, d.status.unavailableReplicas]).toEqual([
      1, 0, 0, 1,
    ]);
    expect(cond(d, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
    expect(c.kubectl('get deploy web').output).toBe(
      'NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    0/1     1            0           60s\n',
    );
  });

  test('the same probe on / passes', () => {
    const ok = new Cluster({ seed: 1 });
    ok.apply(deployment('        readinessProbe: {httpGet: {path: /index.html, port: 80}, periodSeconds: 5}'));
    ok.advance(30_000);
    expect(ok.events().filter((e) => e.reason === 'Unhealthy')).toEqual([]);
    expect(ok.get('deployments.apps', 'default', 'web')!.status.availableReplicas).toBe(1);
  });
});

describe('a liveness probe on a path nginx does not serve', () => {
  const c = new Cluster({ seed: 1 });
  const t0 = c.now();
  const seen: [number, string][] = [];
  c.apply(`apiVersion: v1
kind: Pod
metadata: {name: live}
spec:
  terminationGracePeriodSeconds: 30
  containers:
  - name: web
    image: nginx:1.27
    livenessProbe: {httpGet: {path: /healthz, port: 80}, periodSeconds: 5, failureThreshold: 2}
`);
  for (let i = 0; i < 200; i++) {
    c.advance(1_000);
    const row = c
      .kubectl('get pod live')
      .output.split('\n')[1]
      .split(/\s{2,}/);
    const st = `${row[2]} ${row[3].split(' ')[0]}`;
    if (!seen.length || seen[seen.length - 1][1] !== st) seen.push([(c.now() - t0) / 1000, st]);
  }

  test('Unhealthy ×failureThreshold, then Killing "Container web failed liveness probe, will be restarted"', () => {
    const tl = c.events().filter((e) => e.involvedObject.name === 'live' && ['Unhealthy', 'Killing'].includes(e.reason));
    expect(tl.map((e) => [e.reason, e.message])).toEqual([
      ['Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 404'],
      ['Killing', 'Container web failed liveness probe, will be restarted'],
    ]);
  });

  test('kubectl get pod: restarted at once twice, then CrashLoopBackOff while the back-off (10 s doubling) runs', () => {
    // probes at 5 s and 10 s after the start fail (failureThreshold 2) → kill; SyncPod starts
    // the container again in the same pass; doBackOff looks at the run before the killed one,
    // so the 4th kill is the first that waits (20 s, then 40 s, 80 s)
    expect(seen).toEqual([
      [1, 'ContainerCreating 0'],
      [3, 'Running 0'],
      [12, 'Running 1'],
      [21, 'Running 2'],
      [31, 'Running 3'],
      [41, 'CrashLoopBackOff 3'],
      [61, 'Running 4'],
      [71, 'CrashLoopBackOff 4'],
      [111, 'Running 5'],
      [121, 'CrashLoopBackOff 5'],
    ]);
    const s = c.get('pods', 'default', 'live')!.status.containerStatuses[0];
    // nginx's STOPSIGNAL (SIGQUIT) makes it quit gracefully: exit 0, Completed
    expect(s.lastState.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(s.state.waiting).toEqual({
      reason: 'CrashLoopBackOff',
      message: `back-off 1m20s restarting failed container=web pod=live_default(${c.get('pods', 'default', 'live')!.metadata.uid})`,
    });
  });
});
