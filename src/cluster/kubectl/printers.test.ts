import { describe, expect, it } from 'vitest';
import { describeRow, humanDuration, podColumns } from './printers';
import type { KObject } from '../api/types';

const NOW = Date.UTC(2026, 0, 1, 0, 10, 0);

function pod(status: Record<string, unknown>, extra: Partial<KObject['metadata']> = {}, spec: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z', ...extra },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }], nodeName: 'node-1', ...spec },
    status,
  };
}

describe('podColumns (printPod)', () => {
  const cases: { name: string; obj: KObject; status: string; ready: string }[] = [
    { name: 'pending, unscheduled', obj: pod({ phase: 'Pending' }, {}, { nodeName: undefined }), status: 'Pending', ready: '0/1' },
    {
      name: 'container creating',
      obj: pod({
        phase: 'Pending',
        containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }],
      }),
      status: 'ContainerCreating',
      ready: '0/1',
    },
    {
      name: 'running and ready',
      obj: pod({
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'nginx', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:05Z' } } }],
      }),
      status: 'Running',
      ready: '1/1',
    },
    {
      name: 'image pull back-off',
      obj: pod({
        phase: 'Pending',
        containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } }],
      }),
      status: 'ImagePullBackOff',
      ready: '0/1',
    },
    {
      name: 'terminating',
      obj: pod(
        { phase: 'Running', containerStatuses: [{ name: 'nginx', ready: true, restartCount: 0, state: { running: {} } }] },
        { deletionTimestamp: '2026-01-01T00:09:00Z' },
      ),
      status: 'Terminating',
      ready: '1/1',
    },
    {
      name: 'completed',
      obj: pod({
        phase: 'Succeeded',
        containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } }],
      }),
      status: 'Completed',
      ready: '0/1',
    },
    {
      name: 'exit code without reason',
      obj: pod({
        phase: 'Running',
        containerStatuses: [{ name: 'nginx', ready: false, restartCount: 2, state: { terminated: { exitCode: 3 } } }],
      }),
      status: 'ExitCode:3',
      ready: '0/1',
    },
    {
      name: 'init container waiting',
      obj: pod(
        {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'init', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }],
        },
        {},
        { initContainers: [{ name: 'init', image: 'busybox' }] },
      ),
      status: 'Init:0/1',
      ready: '0/1',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = podColumns(c.obj, NOW);
      expect(got.status).toBe(c.status);
      expect(got.ready).toBe(c.ready);
    });
  }
});

describe('humanDuration', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [119_000, '119s'],
    [120_000, '2m'],
    [312_000, '5m12s'],
    [600_000, '10m'],
    [3 * 3600_000, '3h'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [50 * 3600_000, '2d2h'],
  ];
  for (const [ms, want] of cases) it(`${ms} ms → ${want}`, () => expect(humanDuration(ms)).toBe(want));
});

describe('describeRow', () => {
  it('node NotReady and cordoned', () => {
    const n: KObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-2' },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
    };
    expect(describeRow(n).status).toBe('NotReady,SchedulingDisabled');
  });
  it('deployment READY column', () => {
    const d: KObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'peekcart', namespace: 'default' },
      spec: { replicas: 3 },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    const r = describeRow(d);
    expect(r.ready).toBe('2/3');
    expect(r.columns).toEqual({ READY: '2/3', 'UP-TO-DATE': '3', AVAILABLE: '2', AGE: '<unknown>' });
  });
  it('service ports and external IP', () => {
    const s: KObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { type: 'LoadBalancer', clusterIP: '10.96.0.12', ports: [{ port: 80, nodePort: 31234, protocol: 'TCP' }] },
    };
    expect(describeRow(s).columns).toMatchObject({
      TYPE: 'LoadBalancer',
      'CLUSTER-IP': '10.96.0.12',
      'EXTERNAL-IP': '<pending>',
      'PORT(S)': '80:31234/TCP',
    });
  });
});
