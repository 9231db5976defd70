/**
 * Reconcile notes: the headline each control loop records on the decision hop that opens a
 * reconciliation (RelayHop.note), and the reconcile id its writes inherit. Played on a real
 * cluster (simulated clock, seeded RNG); the strings are asserted exactly.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { RelayHop } from './relay-event';
import { reconcileRecordOf } from './relay-event';
import { RelayRecorder } from './recorder';

const S = 1000;
const MIN = 60 * S;

function deployment(name: string, replicas: number, cpu?: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27', ...(cpu ? { resources: { requests: { cpu } } } : {}) }] },
      },
    },
  });
}

const service = (name: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }] } });

const notes = (c: Cluster, from: string): string[] =>
  c.relay
    .all()
    .filter((h) => h.from === from && h.note !== undefined)
    .map((h) => h.note!);

describe('reconcile notes (exact strings)', () => {
  const c = new Cluster({ seed: 7 });
  c.apply(deployment('web', 3));
  c.apply(service('web'));
  c.settle(2 * MIN);
  const rs = c.objects().find((o) => o.kind === 'ReplicaSet' && o.metadata.namespace === 'default')!;
  const workers = c.objects().filter((o) => o.kind === 'Node').length;

  it.each([
    ['deployment-controller', `new ReplicaSet ${rs.metadata.name} (revision 1) → 3 of 3 replicas (maxSurge 1, maxUnavailable 0)`],
    ['replicaset-controller', 'desired 3 ≠ current 0 → create 3 Pods'],
  ])('%s opens the first reconciliation with "%s"', (from, note) => {
    expect(notes(c, from)[0]).toBe(note);
  });

  it('kube-scheduler: filtered N/M nodes → node (score S), once per Pod', () => {
    const n = notes(c, 'kube-scheduler');
    expect(n).toHaveLength(3);
    for (const x of n) expect(x).toMatch(new RegExp(`^filtered 3/${workers} nodes → node-[123] \\(score \\d+\\)$`));
  });

  it('endpointslice-controller: the last note counts 3 ready endpoints', () => {
    expect(notes(c, 'endpointslice-controller').at(-1)).toBe('3 ready endpoints');
  });

  it('the ReplicaSet reconciliation groups its Pod creates, etcd writes and responses, but no watch delivery', () => {
    const open = c.relay.all().find((h) => h.from === 'replicaset-controller' && h.note !== undefined)!;
    expect(reconcileRecordOf(open)).toEqual({
      id: open.reconcile,
      controller: 'replicaset-controller',
      object: `replicasets default/${rs.metadata.name}`,
      note: 'desired 3 ≠ current 0 → create 3 Pods',
    });
    const group = c.relay.all().filter((h) => h.reconcile === open.reconcile);
    const shape = (h: RelayHop) => `${h.from} ${h.kind} ${h.to}`;
    const creates = group.filter((h) => h.kind === 'request' && h.from === 'replicaset-controller' && h.resource === 'pods');
    expect(creates.map((h) => h.summary)).toEqual(
      Array(3).fill(`create Pod default/${rs.metadata.name}-<generated> for ReplicaSet ${rs.metadata.name}`),
    );
    expect(group.some((h) => shape(h) === 'kube-apiserver request etcd')).toBe(true);
    expect(group.some((h) => shape(h) === 'kube-apiserver response replicaset-controller')).toBe(true);
    expect(group.some((h) => h.kind === 'watch')).toBe(false);
  });

  it('scale 3 → 5: the ReplicaSet says desired 5 ≠ current 3 → create 2 Pods', () => {
    c.kubectl('scale deployment web --replicas=5');
    c.settle(MIN);
    // 25 % of 5: maxSurge rounds up (2), maxUnavailable down (1)
    expect(notes(c, 'deployment-controller').at(-1)).toBe(`scale up ReplicaSet ${rs.metadata.name} 3 → 5 (maxSurge 2, maxUnavailable 1)`);
    expect(notes(c, 'replicaset-controller').at(-1)).toBe('desired 5 ≠ current 3 → create 2 Pods');
  });

  it('node lifecycle: a killed node goes NotReady once its heartbeat is older than the 50 s grace period', () => {
    c.killNode('node-2');
    c.advance(2 * MIN);
    // checked every 5 s (nodeMonitorPeriod), so the age is in (50 s, 55 s]; this seed's is 55 s
    expect(notes(c, 'node-lifecycle-controller')).toEqual([
      'node-2: no Lease renewal observed for 55 s (> node-monitor-grace-period 50 s) → NotReady',
    ]);
  });
});

describe('HPA reconcile note', () => {
  it('current 200% / target 50% → desired 4', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(deployment('web', 1, '200m'));
    c.advance(MIN);
    c.apply(
      JSON.stringify({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web' },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
          minReplicas: 1,
          maxReplicas: 10,
          metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
        },
      }),
    );
    c.metrics.setLoad('default', 'deployment/web', { totalCpuMillicores: 400 });
    c.advance(20 * S);
    expect(notes(c, 'horizontal-pod-autoscaler-controller')).toEqual(['current 200% / target 50% → desired 4']);
  });
});

describe('RelayRecorder reconcile inheritance', () => {
  const cases: { name: string; cause: 'decision' | 'none'; kind: RelayHop['kind']; want: number | undefined }[] = [
    { name: 'a request caused by the decision inherits', cause: 'decision', kind: 'request', want: 1 },
    { name: 'a response caused by the decision inherits', cause: 'decision', kind: 'response', want: 1 },
    { name: 'a watch delivery does not inherit', cause: 'decision', kind: 'watch', want: undefined },
    { name: 'a hop without a cause does not inherit', cause: 'none', kind: 'request', want: undefined },
  ];
  it.each(cases)('$name', ({ cause, kind, want }) => {
    const r = new RelayRecorder(() => 0);
    const id = r.newReconcile();
    const d = r.record({ from: 'x-controller', to: 'x-controller', kind: 'decision', summary: 's', reconcile: id, note: 'n' });
    const seq = r.withCause(cause === 'decision' ? d : null, () =>
      r.record({ from: 'x-controller', to: 'kube-apiserver', kind, summary: 'w' }),
    );
    expect(r.get(seq)!.reconcile).toBe(want);
    // and transitively: a hop caused by that one
    const next = r.record({ from: 'kube-apiserver', to: 'etcd', kind: 'request', summary: 'e', cause: seq });
    expect(r.get(next)!.reconcile).toBe(want);
  });
});
