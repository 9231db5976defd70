/**
 * Step and fast-forward (issue 6 §3) on ClusterHost with the real engine: one press of step
 * delivers one hop the user's relay view shows (held hops of one instant revealed with the
 * clock standing still; never more than one heartbeat period, never past a known deadline);
 * fast-forward after a node kill in a cluster older than progressDeadlineSeconds reaches the
 * taint eviction instead of stalling on deployment retries.
 */
import { describe, expect, it } from 'vitest';
import SEED_MANIFEST from '../scenarios/peekcart.yaml?raw';
import type { RelayHop } from '../cluster/relay/relay-event';
import type { Cluster } from '../cluster/cluster';
import { stepShows } from './cluster-api';
import { STEP_MAX_MS, type StepFilter } from './protocol';
import { testHost } from './test-host';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { BOOT_MS } from '../cluster/cluster';

type Host = ReturnType<typeof testHost>;
const engine = (h: Host) => (h.host as unknown as { cluster: Cluster }).cluster;

/** Presses step `n` times; per press: simulated ms it moved, hops it delivered, and the summaries of the shown ones. */
function press(h: Host, n: number, filter: StepFilter = {}) {
  const c = engine(h);
  const out: { dt: number; hops: number; shown: string[] }[] = [];
  for (let i = 0; i < n; i++) {
    const at = c.now();
    const from = h.batches.length;
    h.host.step(filter);
    const hops: RelayHop[] = h.batches.slice(from).flatMap((b) => b.hops);
    out.push({ dt: c.now() - at, hops: hops.length, shown: hops.filter((x) => stepShows(x, filter)).map((x) => x.summary) });
  }
  return out;
}

describe('step: one press, one shown hop', () => {
  const cases: {
    name: string;
    apply: boolean;
    filter?: StepFilter;
    presses: number;
    want: { dt: number; hops: number; shown: string[] }[];
  }[] = [
    {
      // 16 hops of node Lease renewals, 40 of kube-controller-manager's and kube-scheduler's
      // leader-election renewals (every 2 s), 4 of the kube-apiserver identity Lease's
      name: 'idle cluster, heartbeats hidden: the clock moves exactly one heartbeat period and delivers its heartbeats',
      apply: false,
      presses: 3,
      want: [
        { dt: STEP_MAX_MS, hops: 60, shown: [] },
        { dt: STEP_MAX_MS, hops: 60, shown: [] },
        { dt: STEP_MAX_MS, hops: 60, shown: [] },
      ],
    },
    {
      name: 'idle cluster, heartbeats shown: the next heartbeat hop, the rest of its instant held',
      apply: false,
      filter: { heartbeats: true },
      presses: 3,
      want: [
        // the first heartbeat is kube-controller-manager's leader-election renewal, 2 s after time zero
        {
          dt: 2_000,
          hops: 1,
          shown: ['renew Lease kube-system/kube-controller-manager (control-plane_1d56a5cb-e37c-4242-ae4f-488c824d7529)'],
        },
        {
          dt: 0,
          hops: 1,
          shown: [
            'authn system:kube-controller-manager [system:authenticated] · authz allow update leases by ClusterRoleBinding system:kube-controller-manager → ClusterRole system:kube-controller-manager · admission',
          ],
        },
        { dt: 0, hops: 1, shown: ['put /registry/leases/kube-system/kube-controller-manager (rev 313)'] },
      ],
    },
    {
      name: 'after an apply: one watch delivery per press within the same millisecond, then the controller decision',
      apply: true,
      presses: 8,
      want: [
        { dt: 1, hops: 1, shown: ['watch ADDED Deployment default/peekcart'] },
        { dt: 0, hops: 1, shown: ['watch ADDED Service default/peekcart'] },
        { dt: 0, hops: 1, shown: ['watch ADDED Service default/peekcart'] },
        { dt: 0, hops: 1, shown: ['watch ADDED Service default/peekcart'] },
        { dt: 0, hops: 1, shown: ['watch ADDED Service default/peekcart'] },
        { dt: 0, hops: 1, shown: ['watch ADDED Service default/peekcart'] },
        { dt: 0, hops: 1, shown: ['watch ADDED Service default/peekcart'] },
        {
          dt: 0,
          hops: 1,
          shown: [
            'no ReplicaSet matches the pod template → create ReplicaSet peekcart-57f6cd6664 (pod-template-hash 57f6cd6664, revision 1) with 3 replicas',
          ],
        },
      ],
    },
  ];
  it.each(cases)('$name', ({ apply, filter, presses, want }) => {
    const h = testHost();
    h.host.pause();
    if (apply) h.host.apply(SEED_MANIFEST);
    expect(press(h, presses, filter)).toEqual(want);
    h.host.dispose();
  });

  it('never steps past a known deadline: a killed node’s grace period ends a step', () => {
    const h = testHost();
    const c = engine(h);
    h.host.pause();
    h.host.killNode('node-2');
    h.host.fastForward(); // the grace period is armed once the node lifecycle controller notices the silence
    h.host.killNode('node-3');
    // step until node-3's grace period is armed, then until it runs out: no step jumps over it
    let grace: number | undefined;
    for (let i = 0; i < 40 && c.now() <= (grace ?? Infinity); i++) {
      const before = c.now();
      h.host.step();
      grace ??= c.deadlines().find((d) => d.label === 'node-3: node-monitor-grace-period runs out')?.at;
      if (grace !== undefined && before < grace) expect(c.now()).toBeLessThanOrEqual(grace);
      expect(c.now() - before).toBeLessThanOrEqual(STEP_MAX_MS);
    }
    expect(grace).toBeDefined();
    expect(c.now()).toBeGreaterThanOrEqual(grace!);
    h.host.dispose();
  });

  it('a reload replays the steps to the same clock, objects and relay', () => {
    const a = testHost();
    a.host.pause();
    a.host.apply(SEED_MANIFEST);
    press(a, 12);
    a.host.killNode('node-1');
    press(a, 5);
    a.host.play(); // releases the held hops
    const log = structuredClone(a.host.exportState());
    expect(log.steps.filter((x) => x.step.kind === 'advance').every((x) => x.step.kind === 'advance' && x.step.ms >= 0)).toBe(true);
    const b = testHost();
    b.host.importState(log);
    const [ca, cb] = [engine(a), engine(b)];
    expect(cb.now()).toBe(ca.now());
    expect(cb.relay.lastSeq).toBe(ca.relay.lastSeq);
    expect(cb.objects().map((o) => `${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`)).toEqual(
      ca.objects().map((o) => `${o.kind}/${o.metadata.name}@${o.metadata.resourceVersion}`),
    );
    a.host.dispose();
    b.host.dispose();
  });
});

describe('fast-forward after a node kill in a cluster older than progressDeadlineSeconds', () => {
  it.each([
    { name: 'peekcart, 700 s old, node-1 killed', ageMs: 700_000, node: 'node-1' },
    { name: 'peekcart, 20 min old, node-2 killed', ageMs: 1_200_000, node: 'node-2' },
  ])('$name: reaches the taint eviction within 3 clicks; no deployment retry is a countdown', ({ ageMs, node }) => {
    const h = testHost();
    const c = engine(h);
    h.host.apply(SEED_MANIFEST);
    h.host.pause();
    c.clock.runUntil(c.now() + ageMs);
    const victims = c
      .objects()
      .filter((o) => o.kind === 'Pod' && o.spec?.nodeName === node)
      .map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
    expect(victims.length).toBeGreaterThan(0);
    h.host.killNode(node);
    const killedAt = c.now();
    const labels = new Set<string>();
    let clicks = 0;
    const evicted = () =>
      victims.every(
        (k) => c.objects().find((o) => o.kind === 'Pod' && `${o.metadata.namespace}/${o.metadata.name}` === k)?.metadata.deletionTimestamp,
      );
    while (clicks < 5 && !evicted()) {
      h.host.fastForward();
      clicks++;
      for (const d of c.deadlines()) labels.add(d.label);
    }
    expect(clicks).toBeLessThanOrEqual(3);
    expect(evicted()).toBe(true);
    // NotReady after 50 s (40 s grace + 5 s monitor period), eviction 300 s later, and quiet
    expect(c.now() - killedAt).toBeGreaterThan(340_000);
    expect([...labels].filter((l) => / retry /.test(l))).toEqual([]);
    h.host.dispose();
  });
});

describe('the clock the UI shows agrees with the nodes’ AGE', () => {
  it.each([
    { name: 'fresh cluster', runMs: 0, clock: 30_000, age: '30s' },
    { name: 'after 2 simulated minutes', runMs: 120_000, clock: 150_000, age: '2m30s' },
  ])('$name: simMs $clock, every Node AGE $age', ({ runMs, clock, age }) => {
    const h = testHost({ startMs: DEFAULT_START_MS - BOOT_MS }); // as cluster.worker.ts
    h.host.pause();
    engine(h).clock.runUntil(engine(h).now() + runMs);
    h.host.subscribe((x) => h.batches.push(x)); // a reset batch, as after a reload
    const r = h.batches.at(-1)!;
    expect(r.reset).toBe(true);
    expect(r.simMs).toBe(clock);
    expect(r.startMs).toBe(DEFAULT_START_MS - BOOT_MS);
    expect(new Set(r.changes.filter((c) => c.object.kind === 'Node').map((c) => c.row?.columns.AGE))).toEqual(new Set([age]));
    h.host.dispose();
  });
});
