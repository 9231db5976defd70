import { describe, expect, it } from 'vitest';
import type { StoredObject, KObject } from '../store/types';
import { cpuMillicores, loadTargets } from './load';

function stored(object: KObject, columns: Record<string, string> = {}): StoredObject {
  const m = object.metadata;
  return {
    key: `${object.kind}/${m.namespace}/${m.name}`,
    resource: '',
    object,
    row: { kind: object.kind, namespace: m.namespace ?? null, name: m.name, status: '', columns },
  };
}

const deployment = (name: string, namespace: string, replicas: number, cpu?: string, ready = 0): StoredObject =>
  stored({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      template: { spec: { containers: [{ name: 'c', image: 'nginx', ...(cpu ? { resources: { requests: { cpu } } } : {}) }] } },
    },
    status: { readyReplicas: ready },
  });

const hpa = (name: string, namespace: string, target: { kind: string; name: string }, targets: string, max = 10): StoredObject =>
  stored(
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name, namespace },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', ...target }, minReplicas: 1, maxReplicas: max },
      status: { currentReplicas: 3, desiredReplicas: 5 },
    },
    { REFERENCE: `${target.kind}/${target.name}`, TARGETS: targets },
  );

describe('cpuMillicores', () => {
  it.each([
    ['250m', 250],
    ['0.5', 500],
    ['2', 2000],
    [' 100m ', 100],
    [1.5, 1500],
    ['1Gi', 0],
    [undefined, 0],
  ] as [unknown, number][])('%s → %i', (q, m) => {
    expect(cpuMillicores(q)).toBe(m);
  });
});

describe('loadTargets', () => {
  const objects = [
    deployment('web', 'default', 3, '100m', 3),
    deployment('idle', 'default', 2),
    deployment('coredns', 'kube-system', 2, '100m'),
    deployment('api', 'shop', 1, '500m', 1),
    hpa('web', 'default', { kind: 'Deployment', name: 'web' }, 'cpu: 120%/50%'),
    hpa('db', 'default', { kind: 'StatefulSet', name: 'db' }, 'cpu: <unknown>/80%', 4),
    hpa('broken', 'default', { kind: 'CronJob', name: 'x' }, '<none>'),
  ];
  const targets = loadTargets(objects);

  it('lists HPA targets first, then other Deployments outside kube-system; nothing for kinds an HPA cannot scale here', () => {
    expect(targets.map((t) => t.id)).toEqual([
      'default/deployment/web',
      'default/statefulset/db',
      'default/deployment/idle',
      'shop/deployment/api',
    ]);
  });

  it('shows the HPA as kubectl get hpa prints it, with min/max and replicas', () => {
    expect(targets[0]).toEqual({
      namespace: 'default',
      workload: 'deployment/web',
      id: 'default/deployment/web',
      hpas: [{ name: 'web', targets: 'cpu: 120%/50%', minReplicas: 1, maxReplicas: 10, currentReplicas: 3, desiredReplicas: 5 }],
      replicas: 3,
      readyReplicas: 3,
      podRequestMillicores: 100,
      maxMillicores: 2000,
    });
  });

  it.each([
    [
      'an HPA target the store does not hold yet',
      'default/statefulset/db',
      { replicas: null, podRequestMillicores: 0, maxMillicores: 1000 },
    ],
    ['a Deployment without requests', 'default/deployment/idle', { replicas: 2, podRequestMillicores: 0, maxMillicores: 1000, hpas: [] }],
    [
      'a Deployment with 500m per Pod: at least 1000m',
      'shop/deployment/api',
      { replicas: 1, podRequestMillicores: 500, maxMillicores: 1000 },
    ],
  ])('%s', (_case, id, expected) => {
    expect(targets.find((t) => t.id === id)).toMatchObject(expected);
  });
});
