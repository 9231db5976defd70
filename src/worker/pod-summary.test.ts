/**
 * The large-cluster path (issue 21 §5): PodTally's exact counts per node and owner, and the
 * host's switch — beyond SUMMARY_ENTER_PODS Pods the batches carry counts, not Pods; back
 * below SUMMARY_LEAVE_PODS the Pods come back as ADDED changes.
 */
import { describe, expect, it } from 'vitest';
import type { KObject } from '../cluster/api/types';
import { PodTally, SUMMARY_ENTER_PODS, SUMMARY_MAX_OWNERS, podSummaryStatus } from './pod-summary';
import { capOutput } from './cluster-api';
import { testHost } from './test-host';

function pod(name: string, opts: { node?: string; rs?: string; phase?: string; ready?: boolean; deleting?: boolean } = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      ...(opts.rs ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: opts.rs, uid: 'u', controller: true }] } : {}),
      ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:10Z' } : {}),
    },
    spec: { containers: [], ...(opts.node ? { nodeName: opts.node } : {}) },
    status: { ...(opts.phase ? { phase: opts.phase } : {}), conditions: [{ type: 'Ready', status: opts.ready ? 'True' : 'False' }] },
  } as KObject;
}

describe('PodTally', () => {
  const cases: { name: string; apply: (t: PodTally) => void; nodes: unknown; owners: unknown; all: unknown }[] = [
    {
      name: 'counts per node (natural order, unscheduled last) and per owner (most Pods first)',
      apply: (t) => {
        t.update('ADDED', pod('a', { node: 'node-10', rs: 'web-1', phase: 'Running', ready: true }));
        t.update('ADDED', pod('b', { node: 'node-2', rs: 'web-1', phase: 'Running', ready: true }));
        t.update('ADDED', pod('c', { node: 'node-2', rs: 'web-1' }));
        t.update('ADDED', pod('d', {}));
      },
      nodes: [
        {
          node: 'node-2',
          total: 2,
          ready: 1,
          statuses: [
            ['Pending', 1],
            ['Running', 1],
          ],
        },
        { node: 'node-10', total: 1, ready: 1, statuses: [['Running', 1]] },
        { node: '', total: 1, ready: 0, statuses: [['Pending', 1]] },
      ],
      owners: [
        {
          owner: 'ReplicaSet/default/web-1',
          total: 3,
          ready: 2,
          statuses: [
            ['Running', 2],
            ['Pending', 1],
          ],
        },
        { owner: '', total: 1, ready: 0, statuses: [['Pending', 1]] },
      ],
      all: {
        total: 4,
        ready: 2,
        statuses: [
          ['Pending', 2],
          ['Running', 2],
        ],
      },
    },
    {
      name: 'a Pod that binds, runs and terminates moves between counts; a deleted one leaves them',
      apply: (t) => {
        t.update('ADDED', pod('a', { rs: 'web-1' }));
        t.update('MODIFIED', pod('a', { rs: 'web-1', node: 'node-1' }));
        t.update('MODIFIED', pod('a', { rs: 'web-1', node: 'node-1', phase: 'Running', ready: true }));
        t.update('ADDED', pod('b', { rs: 'web-1', node: 'node-1', phase: 'Running', ready: true }));
        t.update('MODIFIED', pod('b', { rs: 'web-1', node: 'node-1', phase: 'Running', ready: true, deleting: true }));
        t.update('ADDED', pod('c', { rs: 'web-2', node: 'node-2', phase: 'Failed' }));
        t.update('DELETED', pod('c', { rs: 'web-2', node: 'node-2', phase: 'Failed' }));
        t.update('DELETED', pod('never'));
      },
      nodes: [
        {
          node: 'node-1',
          total: 2,
          ready: 2,
          statuses: [
            ['Running', 1],
            ['Terminating', 1],
          ],
        },
      ],
      owners: [
        {
          owner: 'ReplicaSet/default/web-1',
          total: 2,
          ready: 2,
          statuses: [
            ['Running', 1],
            ['Terminating', 1],
          ],
        },
      ],
      all: {
        total: 2,
        ready: 2,
        statuses: [
          ['Running', 1],
          ['Terminating', 1],
        ],
      },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const t = new PodTally();
      c.apply(t);
      const s = t.snapshot();
      expect(s.nodes).toEqual(c.nodes);
      expect(s.owners).toEqual(c.owners);
      expect(s.all).toEqual(c.all);
      expect(s.moreNodes).toBe(0);
      expect(s.moreOwners).toBe(0);
    });

  it('20,000 Pods of 60 owners on 3 nodes: exact totals, the 50 biggest owners listed, 10 counted', () => {
    const t = new PodTally();
    for (let i = 0; i < 20_000; i++)
      t.update(
        'ADDED',
        pod(`p${i}`, { node: `node-${(i % 3) + 1}`, rs: `rs-${i % 60}`, phase: i % 7 ? 'Running' : 'Pending', ready: i % 7 !== 0 }),
      );
    const s = t.snapshot();
    expect(s.nodes.map((n) => [n.node, n.total])).toEqual([
      ['node-1', 6667],
      ['node-2', 6667],
      ['node-3', 6666],
    ]);
    expect(s.all).toEqual({
      total: 20_000,
      ready: 17_142,
      statuses: [
        ['Running', 17_142],
        ['Pending', 2858],
      ],
    });
    expect(s.owners).toHaveLength(SUMMARY_MAX_OWNERS);
    expect(s.moreOwners).toBe(10);
    expect(s.owners[0]).toMatchObject({ owner: 'ReplicaSet/default/rs-0', total: 334 });
    expect(t.sample(() => null, 3).map((r) => r.key)).toEqual(['Pod/default/p0', 'Pod/default/p1', 'Pod/default/p2']);
  });

  it('keyed by uid: a Pod recreated under its name is a new entry; the sample rows name the Pod by its key', () => {
    const t = new PodTally();
    const withUid = (name: string, uid: string, node?: string) => {
      const p = pod(name, { node, rs: 'web-1' });
      p.metadata.uid = uid;
      return p;
    };
    t.update('ADDED', withUid('a', 'u-a1'));
    t.update('ADDED', withUid('b', 'u-b'));
    t.update('MODIFIED', withUid('a', 'u-a1', 'node-1'));
    t.update('DELETED', withUid('a', 'u-a1', 'node-1'));
    t.update('ADDED', withUid('a', 'u-a2'));
    expect(t.size).toBe(2);
    expect(t.snapshot().nodes).toEqual([{ node: '', total: 2, ready: 0, statuses: [['Pending', 2]] }]);
    expect(t.sample(() => null).map((r) => r.key)).toEqual(['Pod/default/b', 'Pod/default/a']);
  });

  it('status: the phase, Pending when unset, Terminating once deletionTimestamp is set', () => {
    expect([
      podSummaryStatus(pod('a')),
      podSummaryStatus(pod('a', { phase: 'Succeeded' })),
      podSummaryStatus(pod('a', { phase: 'Running', deleting: true })),
    ]).toEqual(['Pending', 'Succeeded', 'Terminating']);
  });
});

describe('capOutput (the kubectl bar)', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}\n`).join('');
  it('keeps up to the cap whole, cuts beyond it with a note on stderr', () => {
    const ok = { output: lines(3), error: null, exitCode: 0 };
    expect(capOutput(ok, 3)).toBe(ok);
    const cut = capOutput({ output: lines(5), error: null, exitCode: 0 }, 3);
    expect(cut.output).toBe(lines(3));
    expect(cut.error).toBe(
      'kube-relay: the kubectl bar shows the first 3 of 5 lines; narrow the listing with -l, --field-selector, -n or a name\n',
    );
  });
});

describe('ClusterHost: the summarized mode', () => {
  const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: huge}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: huge}}
  template:
    metadata: {labels: {app: huge}}
    spec:
      containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: 1m, memory: 1Mi}}}]
`;
  it(`beyond ${SUMMARY_ENTER_PODS} Pods batches carry counts and no Pod; scaled back down, the Pods come back`, () => {
    const t = testHost();
    t.host.setSpeed(100);
    t.host.apply(deployment(1200));
    for (let i = 0; i < 400 && !t.batches.some((b) => b.podSummary?.all.total === 1200); i++) t.run(500);
    const first = t.batches.findIndex((b) => b.podSummary);
    expect(first).toBeGreaterThan(0);
    expect(
      t.batches
        .slice(first)
        .flatMap((b) => b.changes)
        .filter((c) => c.object.kind === 'Pod'),
    ).toEqual([]);
    const last = t.batches.filter((b) => b.podSummary).at(-1)!.podSummary!;
    expect(last.all.total).toBe(1200);
    expect(last.nodes.reduce((n, x) => n + x.total, 0)).toBe(1200);
    expect(last.owners).toHaveLength(1);
    expect(last.owners[0].owner).toMatch(/^ReplicaSet\/default\/huge-[a-z0-9]+$/);
    const sample = t.batches.filter((b) => b.podSample).at(-1)!.podSample!;
    expect(sample.total).toBeGreaterThan(SUMMARY_ENTER_PODS);
    expect(sample.rows).toHaveLength(500);
    expect(Object.keys(sample.rows[0].object.metadata).sort()).toEqual(['creationTimestamp', 'name', 'namespace', 'uid']);
    // back below the threshold
    const mark = t.batches.length;
    t.host.kubectl('scale deployment huge --replicas=10');
    for (let i = 0; i < 400 && !t.batches.slice(mark).some((b) => b.podSummary === null); i++) t.run(500);
    const back = t.batches.slice(mark).findIndex((b) => b.podSummary === null) + mark;
    expect(back).toBeGreaterThanOrEqual(mark);
    const added = new Set(
      t.batches
        .slice(back)
        .flatMap((b) => b.changes)
        .filter((c) => c.object.kind === 'Pod' && c.type === 'ADDED')
        .map((c) => c.key),
    );
    expect(added.size).toBeGreaterThan(0);
    expect(added.size).toBeLessThan(800);
  }, 120_000);
});
