/**
 * Issue 5: an HPA (autoscaling/v2, 50% of a 200m CPU request) scaling a Deployment up under a
 * load set through the load control (`setLoad`: total CPU spread over the Ready Pods, seen from
 * metrics-server's next 15 s scrape), limited by the default scale-up policy (max(100%, 4 Pods)
 * per 15 s), and back down only after the 300 s scale-down stabilization window, with the
 * SuccessfulRescale messages upstream writes. Played from src/scenarios/hpa-load.scenario.yaml.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runScenario } from './runner';
import type { KObject } from '../api/types';

const here = dirname(fileURLToPath(import.meta.url));
const scenarios = resolve(here, '../../scenarios');

describe('an HPA scaling up under load and back down after the stabilization window', () => {
  const sc = parseScenario(parse(readFileSync(resolve(scenarios, 'hpa-load.scenario.yaml'), 'utf8')));
  const result = runScenario(sc, { readFile: (p) => readFileSync(resolve(scenarios, p), 'utf8') });
  const steps = result.steps;
  const hpaEvents = result.final.events.filter((e) => e.involvedObject.kind === 'HorizontalPodAutoscaler' && e.type === 'Normal');

  it('the setLoad steps parse from {namespace, workload, cpu} and name their target', () => {
    expect(sc.steps[3]).toEqual({ kind: 'setLoad', namespace: 'default', workload: 'deployment/web', cpuMillicores: 500 });
    expect(steps[3]).toMatchObject({ step: 'setLoad', target: 'default/deployment/web', time: '2026-01-01T00:01:00.001Z' });
  });

  it('SuccessfulRescale: 4 (scale-up limit) at 00:01:15, 5 at 00:01:30, 1 only at 00:08:15 (load dropped at 00:03:00, first seen 00:03:15, + 300 s)', () => {
    expect(hpaEvents.map((e) => [e.reason, e.message, e.source.component, e.firstTimestamp])).toEqual([
      [
        'SuccessfulRescale',
        'New size: 4; reason: cpu resource utilization (percentage of request) above target',
        'horizontal-pod-autoscaler',
        '2026-01-01T00:01:15Z',
      ],
      [
        'SuccessfulRescale',
        'New size: 5; reason: cpu resource utilization (percentage of request) above target',
        'horizontal-pod-autoscaler',
        '2026-01-01T00:01:30Z',
      ],
      ['SuccessfulRescale', 'New size: 1; reason: All metrics below target', 'horizontal-pod-autoscaler', '2026-01-01T00:08:15Z'],
    ]);
    const rs = result.final.events
      .filter((e) => e.reason === 'ScalingReplicaSet' && e.involvedObject.name === 'web')
      .map((e) => [e.message.replace(/web-[a-z0-9]+/, 'RS'), e.firstTimestamp]);
    expect(rs).toEqual([
      ['Scaled up replica set RS from 0 to 1', '2026-01-01T00:00:00Z'],
      ['Scaled up replica set RS from 1 to 4', '2026-01-01T00:01:15Z'],
      ['Scaled up replica set RS from 4 to 5', '2026-01-01T00:01:30Z'],
      ['Scaled down replica set RS from 5 to 1', '2026-01-01T00:08:15Z'],
    ]);
  });

  it.each([
    { step: 2, at: '00:01:00', targets: 'cpu: 0%/50%', replicas: 1, age: '60s' },
    { step: 5, at: '00:03:00', targets: 'cpu: 50%/50%', replicas: 5, age: '3m' },
    { step: 11, at: '00:10:00', targets: 'cpu: 25%/50%', replicas: 1, age: '10m' },
  ])('kubectl get hpa at $at: $targets, $replicas replicas', ({ step, targets, replicas, age }) => {
    const [, row] = steps[step].output!.trimEnd().split('\n');
    expect(row.split(/\s{2,}/)).toEqual(['web', 'Deployment/web', targets, '1', '10', String(replicas), age]);
  });

  it('4 minutes after the load dropped the Deployment still has 5 replicas (stabilized)', () => {
    const snap = result.snapshots.find((s) => s.name === 'still-five')!;
    expect(snap.time).toBe('2026-01-01T00:07:00.001Z');
    expect(snap.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'web')!.spec.replicas).toBe(5);
    const hpa = snap.objects.find((o) => o.kind === 'HorizontalPodAutoscaler')!;
    expect(hpa.status.desiredReplicas).toBe(5);
    expect(hpa.status.conditions.find((c: KObject) => c.type === 'AbleToScale')).toMatchObject({
      status: 'True',
      reason: 'ScaleDownStabilized',
    });
  });
});
