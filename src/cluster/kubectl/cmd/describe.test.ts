/**
 * Findings from the user trial, against the real Cluster (seed 1): describe node merges the
 * events recorded by UID and by name (describe.go NodeDescriber), `get hpa` TARGETS as
 * printers.go formatHPAMetrics, and the dedicated PVC / PV / StatefulSet / Namespace / Ingress
 * describers. Outputs are exact.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import type { KObject } from '../../api/types';
import { hpaTargets } from '../table';

const SEED = readFileSync(join(__dirname, '../../../scenarios/peekcart.yaml'), 'utf8');
const REAL = 'src/examples/real';

function run(c: Cluster, line: string): string {
  const r = c.kubectl(line);
  return r.output + (r.error !== null ? `<stderr>\n${r.error}` : '') + `<exit ${r.exitCode}>`;
}

describe('describe node: events by UID and by name', () => {
  it('shows kubelet and node-controller events after the node dies', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(SEED);
    c.settle(600_000);
    c.killNode('node-1');
    c.advance(70_000);
    const out = run(c, 'describe node node-1');
    expect(out.slice(out.indexOf('Events:'))).toMatchInlineSnapshot(`
      "Events:
        Type    Reason                   Age    From             Message
        ----    ------                   ----   ----             -------
        Normal  Starting                 2m20s  kubelet          Starting kubelet.
        Normal  NodeAllocatableEnforced  2m20s  kubelet          Updated Node Allocatable limit across pods
        Normal  NodeHasSufficientMemory  2m20s  kubelet          Node node-1 status is now: NodeHasSufficientMemory
        Normal  NodeHasNoDiskPressure    2m20s  kubelet          Node node-1 status is now: NodeHasNoDiskPressure
        Normal  NodeHasSufficientPID     2m20s  kubelet          Node node-1 status is now: NodeHasSufficientPID
        Normal  NodeReady                2m20s  kubelet          Node node-1 status is now: NodeReady
        Normal  RegisteredNode           2m15s  node-controller  Node node-1 event: Registered Node node-1 in Controller
        Normal  NodeNotReady             10s    node-controller  Node node-1 status is now: NodeNotReady
      <exit 0>"
    `);
  });
});

describe('get hpa TARGETS (formatHPAMetrics)', () => {
  type M = Record<string, unknown>;
  const hpa = (metrics: M[], currentMetrics?: M[]): KObject =>
    ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { metrics },
      status: { currentMetrics },
    }) as KObject;
  const podsM: M = { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '4' } } };
  const cpuM: M = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };
  const cases: [string, KObject, string][] = [
    ['no metrics', hpa([]), '<none>'],
    ['pods, no current', hpa([podsM]), '<unknown>/4'],
    ['pods, empty status entry', hpa([podsM], [{ type: '' }]), '<unknown>/4'],
    ['pods, current', hpa([podsM], [{ type: 'Pods', pods: { metric: { name: 'rps' }, current: { averageValue: '2500m' } } }]), '2500m/4'],
    ['resource utilization unknown', hpa([cpuM]), 'cpu: <unknown>/50%'],
    [
      'resource utilization known',
      hpa([cpuM], [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 30, averageValue: '300m' } } }]),
      'cpu: 30%/50%',
    ],
    [
      'resource average value',
      hpa([{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }]),
      'memory: <unknown>/1Gi',
    ],
    [
      'object value',
      hpa([
        {
          type: 'Object',
          object: { metric: { name: 'qps' }, describedObject: { kind: 'Ingress', name: 'i' }, target: { type: 'Value', value: '10k' } },
        },
      ]),
      '<unknown>/10k',
    ],
    [
      'object average value',
      hpa([{ type: 'Object', object: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '2' } } }]),
      '<unknown>/2 (avg)',
    ],
    [
      'external value, current',
      hpa(
        [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '30' } } }],
        [{ type: 'External', external: { current: { value: '12' } } }],
      ),
      '12/30',
    ],
    [
      'external average value',
      hpa([{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '5' } } }]),
      '<unknown>/5 (avg)',
    ],
    ['three metrics', hpa([podsM, cpuM, podsM]), '<unknown>/4, cpu: <unknown>/50% + 1 more...'],
  ];
  it.each(cases)('%s', (_name, obj, want) => {
    expect(hpaTargets(obj)).toBe(want);
  });

  it('real manifests after settling', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(readFileSync(join(REAL, 'vllm-gpu-hpa.yaml'), 'utf8'));
    c.apply(readFileSync(join(REAL, 'kwok-hpa-fake-app.yaml'), 'utf8'));
    c.settle(600_000);
    expect(run(c, 'get hpa')).toMatchInlineSnapshot(`
      "NAME               REFERENCE                          TARGETS        MINPODS   MAXPODS   REPLICAS   AGE
      gemma-server-hpa   Deployment/vllm-gemma-deployment   <unknown>/4    1         5         1          3m45s
      pod-auto-scaler    Deployment/fake-app                cpu: 20%/70%   1         2         1          3m45s
      <exit 0>"
    `);
  });
});

const STS = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, labels: {app: db}}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - name: pg
        image: postgres:16
        volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend: {service: {name: peekcart, port: {number: 80}}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: fallback, annotations: {team: shop}}
spec:
  defaultBackend: {service: {name: nope, port: {name: http}}}
`;

describe('dedicated describers', () => {
  const c = new Cluster({ seed: 1 });
  c.apply(SEED);
  c.apply(STS);
  c.settle(600_000);
  const pv = c.list('persistentvolumes').find((p) => p.spec?.claimRef?.name === 'data-db-0')!.metadata.name;
  const cases: [string, string][] = [
    ['persistentvolumeclaim', 'describe pvc data-db-0'],
    ['persistentvolume', `describe pv ${pv}`],
    ['statefulset', 'describe sts db'],
    ['namespace', 'describe ns default'],
    ['ingress with rules', 'describe ingress web'],
    ['ingress with only a default backend', 'describe ingress fallback'],
  ];
  it.each(cases)('%s', (_name, line) => {
    expect(run(c, line)).toMatchSnapshot();
  });
});
