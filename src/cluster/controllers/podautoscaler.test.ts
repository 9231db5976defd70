import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import { ResourceClient } from '../client/clientset';

const S = 1000;
const MIN = 60 * S;

function deployment(name: string, cpuRequest?: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'app', image: 'nginx:1.27', ...(cpuRequest ? { resources: { requests: { cpu: cpuRequest } } } : {}) }],
        },
      },
    },
  });
}

function hpa(name: string, target: string, utilization = 50, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } }],
      ...extra,
    },
  });
}

const hpaEvents = (c: Cluster, name: string) =>
  c.events().filter((e) => e.involvedObject.kind === 'HorizontalPodAutoscaler' && e.involvedObject.name === name);
const evText = (e: KObject) => `${e.type} ${e.reason}: ${e.message}`;
const getHPA = (c: Cluster, name: string) => c.get('horizontalpodautoscalers.autoscaling', 'default', name)!;
const cond = (h: KObject, type: string) => (h.status.conditions as KObject[]).find((x) => x.type === type);
const replicas = (c: Cluster, name: string) => c.get('deployments.apps', 'default', name)!.spec.replicas;

describe('HorizontalController + metrics-server (real cluster)', () => {
  it('cpu 50%: scales out under load at a sync boundary, back in only after the 300 s stabilization window', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(deployment('web', '200m'));
    c.advance(MIN);
    expect(c.apply(hpa('web', 'web')).map((r) => r.action)).toEqual(['created']);
    const created = Date.parse(getHPA(c, 'web').metadata.creationTimestamp!);
    c.metrics.setLoad('default', 'deployment/web', { totalCpuMillicores: 400 });
    c.advance(20 * S);
    // first sync 15 s after the HPA appeared: 400m on one Pod = 200 % of the 200m request → ceil(1 × 200/50) = 4
    const up = hpaEvents(c, 'web');
    expect(up.map(evText)).toEqual([
      'Normal SuccessfulRescale: New size: 4; reason: cpu resource utilization (percentage of request) above target',
    ]);
    expect(up[0].source).toEqual({ component: 'horizontal-pod-autoscaler' });
    expect(Date.parse(up[0].firstTimestamp) - created).toBe(15 * S);
    expect(replicas(c, 'web')).toBe(4);
    let h = getHPA(c, 'web');
    expect(h.status.lastScaleTime).toBe(up[0].firstTimestamp);
    expect(h.status.desiredReplicas).toBe(4);
    expect(cond(h, 'AbleToScale')).toMatchObject({
      status: 'True',
      reason: 'SucceededRescale',
      message: 'the HPA controller was able to update the target scale to 4',
    });
    expect(cond(h, 'ScalingActive')).toMatchObject({
      status: 'True',
      reason: 'ValidMetricFound',
      message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    });
    expect(
      c.relay
        .since(0)
        .some(
          (x) => x.from === 'horizontal-pod-autoscaler-controller' && x.kind === 'decision' && /scale Deployment web to 4/.test(x.summary),
        ),
    ).toBe(true);

    // the new Pods become ready: 400m spread over 4 Pods = 100m = 50 % → stays at 4
    c.advance(2 * MIN);
    h = getHPA(c, 'web');
    expect(replicas(c, 'web')).toBe(4);
    expect(h.status.currentReplicas).toBe(4);
    expect(h.status.currentMetrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 50 } } },
    ]);
    expect(cond(h, 'AbleToScale')).toMatchObject({ reason: 'ReadyForNewScale', message: 'recommended size matches current size' });
    expect(cond(h, 'ScalingLimited')).toMatchObject({
      status: 'False',
      reason: 'DesiredWithinRange',
      message: 'the desired count is within the acceptable range',
    });

    // load drops: the recommendation is 1, but the last 5 minutes recommended 4
    const drop = c.now();
    c.metrics.setLoad('default', 'deployment/web', { totalCpuMillicores: 40 });
    c.advance(30 * S);
    h = getHPA(c, 'web');
    expect(replicas(c, 'web')).toBe(4);
    expect(cond(h, 'AbleToScale')).toMatchObject({
      reason: 'ScaleDownStabilized',
      message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
    });
    const dl = c.deadlines().find((d) => d.object === 'HorizontalPodAutoscaler/default/web');
    expect(dl?.label).toMatch(/^hpa default\/web: scale-down stabilization window ends at \d\d:\d\d:\d\d$/);
    // settle carries on through the window end
    expect(c.settle(15 * MIN)).toBe(true);
    const down = hpaEvents(c, 'web').filter((e) => /New size: 1/.test(e.message));
    expect(down.map(evText)).toEqual(['Normal SuccessfulRescale: New size: 1; reason: All metrics below target']);
    const downAt = Date.parse(down[0].firstTimestamp);
    expect(downAt).toBe(dl!.at - (dl!.at % S));
    expect(downAt - drop).toBeGreaterThan(300 * S);
    expect(downAt - drop).toBeLessThanOrEqual(300 * S + 30 * S);
    expect((downAt - created) % (15 * S)).toBe(0);
    expect(replicas(c, 'web')).toBe(1);
  });

  it('kwok fake-app: usage from the kwok.x-k8s.io/usage-cpu annotation, 20 % of a 1000m request', () => {
    const c = new Cluster({ seed: 1 });
    const res = c.apply(readFileSync('src/examples/real/kwok-hpa-fake-app.yaml', 'utf8'));
    expect(res.map((r) => `${r.object} ${r.action}`)).toEqual([
      'deployment.apps/fake-app created',
      'horizontalpodautoscaler.autoscaling/pod-auto-scaler created',
    ]);
    c.advance(2 * MIN);
    const h = getHPA(c, 'pod-auto-scaler');
    expect(h.status.currentMetrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '200m', averageUtilization: 20 } } },
    ]);
    expect(h.status).toMatchObject({ currentReplicas: 1, desiredReplicas: 1 });
    expect(cond(h, 'ScalingActive')).toMatchObject({ status: 'True', reason: 'ValidMetricFound' });
    // minReplicas 1 bounds the recommendation (ceil(0.2857 × 1) = 1): within range
    expect(cond(h, 'ScalingLimited')).toMatchObject({ status: 'False', reason: 'DesiredWithinRange' });
    expect(c.metrics.podMetrics('default')[0]).toMatchObject({
      apiVersion: 'metrics.k8s.io/v1beta1',
      kind: 'PodMetrics',
      window: '15s',
      containers: [{ name: 'fake-container', usage: { cpu: '200000000n' } }],
    });
  });

  it('Pods without a cpu request: FailedGetResourceMetric, ScalingActive False, <unknown> current metric', () => {
    const c = new Cluster({ seed: 1 });
    const text = readFileSync('src/examples/real/kwok-hpa-fake-app.yaml', 'utf8').replace(
      /\n\s+resources:\n\s+requests:\n\s+cpu: 1000m.*\n\s+limits:\n\s+cpu: 1200m/,
      '',
    );
    expect(text).not.toContain('requests');
    c.apply(text);
    c.advance(2 * MIN);
    const pod = c.list('pods', 'default').find((p) => p.metadata.labels?.app === 'fake-app')!;
    const err = `failed to get cpu utilization: missing request for cpu in container fake-container of Pod ${pod.metadata.name}`;
    const ev = hpaEvents(c, 'pod-auto-scaler');
    // the first sync (15 s) comes before metrics-server has a full window for the new Pod
    const early = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    expect(ev.map(evText)).toEqual([
      `Warning FailedGetResourceMetric: ${early}`,
      `Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: ${early}`,
      `Warning FailedGetResourceMetric: ${err}`,
      `Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: ${err}`,
    ]);
    expect(ev[2].count).toBeGreaterThan(1);
    const h = getHPA(c, 'pod-auto-scaler');
    expect(cond(h, 'ScalingActive')).toMatchObject({
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message: `the HPA was unable to compute the replica count: ${err}`,
    });
    expect(cond(h, 'AbleToScale')).toMatchObject({
      status: 'True',
      reason: 'SucceededGetScale',
      message: "the HPA controller was able to get the target's current scale",
    });
    expect(h.status.currentMetrics).toEqual([{ type: '' }]);
    expect(replicas(c, 'fake-app')).toBe(1);
  });

  it('vllm-gpu-hpa: a Pods metric needs the custom metrics API → FailedGetPodsMetric', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(readFileSync('src/examples/real/vllm-gpu-hpa.yaml', 'utf8'));
    c.advance(MIN);
    const err =
      'unable to get metric vllm_num_requests_running: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered';
    expect(hpaEvents(c, 'gemma-server-hpa').map(evText)).toEqual([
      `Warning FailedGetPodsMetric: ${err}`,
      `Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: ${err}`,
    ]);
    const h = getHPA(c, 'gemma-server-hpa');
    expect(cond(h, 'ScalingActive')).toMatchObject({
      status: 'False',
      reason: 'FailedGetPodsMetric',
      message: `the HPA was unable to compute the replica count: ${err}`,
    });
    expect(h.status.currentMetrics).toEqual([{ type: '' }]);
  });

  it('a missing scale target: FailedGetScale', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(hpa('ghost', 'nope'));
    c.advance(20 * S);
    expect(hpaEvents(c, 'ghost').map(evText)).toEqual(['Warning FailedGetScale: deployments.apps "nope" not found']);
    expect(cond(getHPA(c, 'ghost'), 'AbleToScale')).toMatchObject({
      status: 'False',
      reason: 'FailedGetScale',
      message: 'the HPA controller was unable to get the target\'s current scale: deployments.apps "nope" not found',
    });
  });

  it('a ReplicationController target: its selector is a label map (Scale status.selector "app=web"), not a LabelSelector', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'web' },
        spec: {
          replicas: 1,
          selector: { app: 'web' },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '200m' } } }] },
          },
        },
      }),
    );
    // another workload's Pod in the namespace, idle: a selector matching everything would average it in
    c.apply(deployment('other', '200m'));
    c.advance(MIN);
    const ref = { apiVersion: 'v1', kind: 'ReplicationController', name: 'web' };
    expect(c.apply(hpa('web', 'web', 50, { scaleTargetRef: ref })).map((r) => r.action)).toEqual(['created']);
    c.metrics.setLoad('default', 'app=web', { totalCpuMillicores: 400 });
    c.advance(20 * S);
    // only the RC's Pod: 400m of 200m = 200 % (a selector matching both Pods would average 200m, 100 %)
    expect(hpaEvents(c, 'web').map(evText)).toEqual([
      'Normal SuccessfulRescale: New size: 4; reason: cpu resource utilization (percentage of request) above target',
    ]);
    expect(c.get('replicationcontrollers', 'default', 'web')!.spec.replicas).toBe(4);
    expect(getHPA(c, 'web').status.currentMetrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '400m', averageUtilization: 200 } } },
    ]);
  });

  it("an autoscaling/v1 HPA keeps v1's status shape; currentMetrics and conditions go into the round-trip annotations", () => {
    const c = new Cluster({ seed: 1 });
    c.apply(deployment('web', '200m'));
    c.advance(MIN);
    const v1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', annotations: { team: 'a' } },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 10,
        targetCPUUtilizationPercentage: 50,
      },
    };
    // written at /apis/autoscaling/v1 (the HTTP API's path): stored as an autoscaling/v1 object
    const v1Info = c.api.registry.forKind('autoscaling/v1', 'HorizontalPodAutoscaler')!;
    new ResourceClient(c.api, c.kubectlClient.user, v1Info).create('default', v1);
    c.metrics.setLoad('default', 'deployment/web', { totalCpuMillicores: 400 });
    c.advance(20 * S);
    expect(replicas(c, 'web')).toBe(4);
    const h = getHPA(c, 'web');
    const scaled = hpaEvents(c, 'web')[0].firstTimestamp;
    expect(h.apiVersion).toBe('autoscaling/v1');
    expect(h.status).toEqual({ lastScaleTime: scaled, currentReplicas: 1, desiredReplicas: 4, currentCPUUtilizationPercentage: 200 });
    const ann = h.metadata.annotations ?? {};
    expect(Object.keys(ann)).toEqual([
      'autoscaling.alpha.kubernetes.io/conditions',
      'autoscaling.alpha.kubernetes.io/current-metrics',
      'team',
    ]);
    expect(ann['autoscaling.alpha.kubernetes.io/current-metrics']).toBe(
      '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":200,"currentAverageValue":"400m"}}]',
    );
    expect(JSON.parse(ann['autoscaling.alpha.kubernetes.io/conditions'])).toEqual([
      {
        type: 'AbleToScale',
        status: 'True',
        lastTransitionTime: scaled,
        reason: 'SucceededRescale',
        message: 'the HPA controller was able to update the target scale to 4',
      },
      {
        type: 'ScalingActive',
        status: 'True',
        lastTransitionTime: scaled,
        reason: 'ValidMetricFound',
        message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
      },
      {
        type: 'ScalingLimited',
        status: 'False',
        lastTransitionTime: scaled,
        reason: 'DesiredWithinRange',
        message: 'the desired count is within the acceptable range',
      },
    ]);
    // the next sync reads its conditions back from the annotation: the transition times stay
    c.advance(15 * S);
    const again = getHPA(c, 'web');
    expect(JSON.parse(again.metadata.annotations?.['autoscaling.alpha.kubernetes.io/conditions'] ?? '')[0].lastTransitionTime).toBe(scaled);
    expect(again.status.currentReplicas).toBe(4);
  });

  it('kubectl apply of an autoscaling/v1 manifest writes at v1: targetCPUUtilizationPercentage is the target, get hpa shows it', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(deployment('web', '200m'));
    c.advance(MIN);
    const out = c.apply(`apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  targetCPUUtilizationPercentage: 50
`);
    expect(out.map((r) => [r.object, r.action])).toEqual([['horizontalpodautoscaler.autoscaling/web', 'created']]);
    const stored = getHPA(c, 'web');
    expect(stored.apiVersion).toBe('autoscaling/v1');
    expect(stored.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 10,
      targetCPUUtilizationPercentage: 50,
    });
    expect(c.kubectl('get hpa web').output.split('\n')[1]).toMatch(/^web\s+Deployment\/web\s+cpu: <unknown>\/50%\s+1\s+10\s+0\s+/);
    // 300m of 200m = 150 %: against 50 % that is 3 replicas (against v2's default 80 % it would be 2)
    c.metrics.setLoad('default', 'deployment/web', { totalCpuMillicores: 300 });
    c.advance(20 * S);
    expect(hpaEvents(c, 'web').map(evText)).toEqual([
      'Normal SuccessfulRescale: New size: 3; reason: cpu resource utilization (percentage of request) above target',
    ]);
    expect(replicas(c, 'web')).toBe(3);
    expect(c.kubectl('get hpa web').output.split('\n')[1]).toMatch(/^web\s+Deployment\/web\s+cpu: 150%\/50%\s+1\s+10\s+1\s+/);
    // applied again unchanged: the three-way patch at v1 finds nothing to change
    expect(
      c
        .apply(
          `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  targetCPUUtilizationPercentage: 50
`,
        )
        .map((r) => r.action),
    ).toEqual(['unchanged']);
  });

  it('behavior: scaleUp Pods policy limits the rate (ScaleUpLimit)', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(deployment('api', '100m'));
    c.advance(MIN);
    c.apply(hpa('api', 'api', 50, { behavior: { scaleUp: { policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] } } }));
    c.metrics.setLoad('default', 'app=api', { cpuMillicoresPerPod: 400 });
    c.advance(20 * S);
    expect(replicas(c, 'api')).toBe(3);
    const h = getHPA(c, 'api');
    expect(h.spec.behavior.scaleDown).toEqual({
      stabilizationWindowSeconds: 300,
      selectPolicy: 'Max',
      policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    });
    expect(cond(h, 'ScalingLimited')).toMatchObject({
      status: 'True',
      reason: 'ScaleUpLimit',
      message: 'the desired replica count is increasing faster than the maximum scale rate',
    });
  });
});
