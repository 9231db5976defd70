import { describe, expect, it } from 'vitest';
import { SimClock } from '../sim/clock';
import type { KObject } from '../api/types';
import { newPodInfo } from './node-info';
import { SchedulingQueue, type QueuedPodInfo } from './scheduling-queue';
import { SchedulerFixture, makePod } from './scheduler.fixture';

const CP_TAINT = '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

describe('SchedulingQueue (backend/queue, simulated clock)', () => {
  const start = Date.UTC(2026, 0, 1);

  it('back-off doubles from 1 s to the 10 s cap', () => {
    const q = new SchedulingQueue(new SimClock(start));
    const table = [
      { attempts: 0, ms: 0 },
      { attempts: 1, ms: 1000 },
      { attempts: 2, ms: 2000 },
      { attempts: 3, ms: 4000 },
      { attempts: 4, ms: 8000 },
      { attempts: 5, ms: 10000 },
      { attempts: 9, ms: 10000 },
    ];
    for (const t of table) expect(q.backoffDuration(t.attempts), `attempts ${t.attempts}`).toBe(t.ms);
  });

  it('activeQ: higher priority first, then the earlier timestamp', () => {
    const clock = new SimClock(start);
    const q = new SchedulingQueue(clock);
    q.add(newPodInfo(makePod({ name: 'low-early' }), 0), null);
    clock.advance(5);
    q.add(newPodInfo(makePod({ name: 'high' }), 1000), null);
    clock.advance(5);
    q.add(newPodInfo(makePod({ name: 'low-late' }), 0), null);
    expect([q.pop(), q.pop(), q.pop()].map((x) => x!.pi.pod.metadata.name)).toEqual(['high', 'low-early', 'low-late']);
  });

  it('an errored pod waits out its aligned back-off in podErrorBackoffQ; the end is a known deadline', () => {
    const clock = new SimClock(start + 300); // 00:00:00.300
    const q = new SchedulingQueue(clock);
    q.add(newPodInfo(makePod({ name: 'p' })), null);
    const qp = q.pop() as QueuedPodInfo; // attempt 1
    q.addUnschedulableIfNotPresent(qp, new Set()); // error → podErrorBackoffQ
    expect(q.locate('default/p')).toBe('errorBackoff');
    // timestamp .300 + 1 s = 1.300 → aligned to 1.000 → released at the 2.000 flush
    expect(q.backoffEndsAt(qp)).toBe(start + 2000);
    expect(clock.deadlines()).toEqual([{ at: start + 2000, label: 'kube-scheduler: back-off of default/p ends', object: 'Pod/default/p' }]);
    expect(q.pop()).toBeUndefined(); // error back-off is not popped early
    clock.advance(1699); // to 1.999
    expect(q.locate('default/p')).toBe('errorBackoff');
    clock.advance(1);
    expect(q.locate('default/p')).toBe('active');
    // second failure: 2 s
    const again = q.pop()!;
    expect(again.attempts).toBe(2);
    q.addUnschedulableIfNotPresent(again, new Set());
    expect(q.backoffEndsAt(again)).toBe(start + 5000);
  });

  it('a moved pod still backing off sits in podBackoffQ but is popped early when activeQ is empty (SchedulerPopFromBackoffQ)', () => {
    const clock = new SimClock(start);
    const q = new SchedulingQueue(clock);
    q.add(newPodInfo(makePod({ name: 'a' })), null);
    const a = q.pop()!;
    q.addUnschedulableIfNotPresent(a, new Set(['NodeResourcesFit']));
    expect(q.locate('default/a')).toBe('unschedulable');
    q.moveAllToActiveOrBackoffQueue({ resource: 'WildCard', action: 'Update', label: 'test' });
    expect(q.locate('default/a')).toBe('backoff');
    q.add(newPodInfo(makePod({ name: 'b' })), null);
    expect(q.pop()!.pi.pod.metadata.name).toBe('b'); // activeQ first
    expect(q.pop()!.pi.pod.metadata.name).toBe('a'); // then backoffQ, early
  });

  it('queueing hints: only events a rejecting plugin registered move the pod', () => {
    const clock = new SimClock(start);
    const q = new SchedulingQueue(clock, {
      eventsByPlugin: new Map([
        ['NodeAffinity', [{ resource: 'Node', actions: ['Add'], hint: (_p, _o, n) => (n?.metadata.labels?.ok ? 'Queue' : 'QueueSkip') }]],
      ]),
    });
    q.add(newPodInfo(makePod({ name: 'a' })), null);
    q.addUnschedulableIfNotPresent(q.pop()!, new Set(['NodeAffinity']));
    const node = (ok: boolean): KObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', labels: ok ? { ok: 'y' } : {} } });
    expect(q.moveAllToActiveOrBackoffQueue({ resource: 'AssignedPod', action: 'Delete', label: 'AssignedPodDelete' })).toBe(0);
    expect(q.moveAllToActiveOrBackoffQueue({ resource: 'Node', action: 'Add', label: 'NodeAdd' }, undefined, node(false))).toBe(0);
    expect(q.moveAllToActiveOrBackoffQueue({ resource: 'Node', action: 'Add', label: 'NodeAdd' }, undefined, node(true))).toBe(1);
  });

  it('schedulingGates hold a pod until they are removed', () => {
    const q = new SchedulingQueue(new SimClock(start));
    q.add(newPodInfo(makePod({ name: 'g', spec: { schedulingGates: [{ name: 'example.com/wait' }] } })), null);
    expect(q.locate('default/g')).toBe('unschedulable');
    expect(q.pop()).toBeUndefined();
    q.update(newPodInfo(makePod({ name: 'g' })), null);
    expect(q.locate('default/g')).toBe('active');
  });
});

describe('kube-scheduler requeueing on the simulated clock', () => {
  it('a pending pod becomes schedulable when a big enough node is added', () => {
    const f = new SchedulerFixture();
    f.createPod({ name: 'big', cpu: '6' });
    f.advance(50);
    expect(f.nodeOf('big')).toBeUndefined();
    expect(f.scheduler.queue.locate('default/big')).toBe('unschedulable');
    // too small — but TaintToleration rejected the control plane, and its hint queues the pod for
    // any node whose taints it tolerates, so the pod is retried (and fails again), as upstream
    f.addNode({ name: 'node-4', cpu: '4' });
    f.advance(50);
    expect(f.scheduler.queue.locate('default/big')).toBe('unschedulable');
    expect(f.scheduler.decisionFor('default', 'big')!.attempt).toBe(2);
    const t = f.clock.now();
    f.addNode({ name: 'node-5', cpu: '8' });
    f.advance(50);
    expect(f.nodeOf('big')).toBe('node-5');
    expect(f.scheduler.decisionFor('default', 'big')!.time - t).toBeLessThan(10);
    expect(f.events('big')).toEqual([
      `FailedScheduling: 0/4 nodes are available: ${CP_TAINT}, 3 Insufficient cpu. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.`,
      `FailedScheduling: 0/5 nodes are available: ${CP_TAINT}, 4 Insufficient cpu. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.`,
      'Scheduled: Successfully assigned default/big to node-5',
    ]);
  });

  it('a pending pod is scheduled when an assigned pod is deleted and frees room', () => {
    const f = new SchedulerFixture([{ name: 'n1', cpu: '2' }]);
    f.createPod({ name: 'hog', cpu: '1500m' });
    f.advance(20);
    f.createPod({ name: 'p', cpu: '1' });
    f.advance(20);
    expect(f.nodeOf('p')).toBeUndefined();
    f.admin.resource('', 'pods').delete('default', 'hog', { gracePeriodSeconds: 0 });
    f.advance(20);
    expect(f.nodeOf('p')).toBe('n1');
  });

  it('an unschedulable pod is retried by the 5-minute leftover flush (on a 30 s tick), not before', () => {
    const f = new SchedulerFixture();
    f.createPod({ name: 'big', cpu: '6' });
    f.advance(50);
    const failedAt = f.scheduler.decisionFor('default', 'big')!.time;
    expect(f.clock.deadlines()).toEqual([]); // nothing the cluster is waiting for
    f.advance(5 * 60_000 - 100);
    expect(f.scheduler.decisionFor('default', 'big')!.attempt).toBe(1);
    f.advance(60_000);
    const d = f.scheduler.decisionFor('default', 'big')!;
    expect(d.attempt).toBe(2);
    const startMs = Date.UTC(2026, 0, 1);
    expect((d.time - startMs) % 30_000).toBeLessThanOrEqual(2); // a flush tick (+ one cycle)
    expect(d.time - failedAt).toBeGreaterThan(5 * 60_000);
    // the first attempt's PodScheduled=False write changed the Pod's resourceVersion, part of the
    // events.k8s.io recorder's key (the regarding reference): a second Event, not a series
    expect(f.events('big')).toEqual([
      `FailedScheduling: ${f.event('big', 'FailedScheduling')!.message}`,
      `FailedScheduling: ${f.event('big', 'FailedScheduling')!.message}`,
    ]);
    expect(f.event('big', 'FailedScheduling')!.series).toBeUndefined();
  });

  it('pause and resume: a paused scheduler catches up on pods created meanwhile', () => {
    const f = new SchedulerFixture();
    f.scheduler.pause();
    f.createPod({ name: 'p' });
    f.advance(1000);
    expect(f.nodeOf('p')).toBeUndefined();
    f.scheduler.resume();
    f.advance(50);
    expect(f.nodeOf('p')).toMatch(/^node-\d$/);
  });

  it('ignores pods for another scheduler and pods already bound', () => {
    const f = new SchedulerFixture();
    f.createPod({ name: 'other', spec: { schedulerName: 'my-scheduler' } });
    f.createPod({ name: 'bound', nodeName: 'node-2' });
    f.advance(50);
    expect(f.nodeOf('other')).toBeUndefined();
    expect(f.events('other')).toEqual([]);
    expect(f.events('bound')).toEqual([]);
  });

  it('counts assumed pods: a burst of pods does not overcommit a node', () => {
    const f = new SchedulerFixture([{ name: 'n1', cpu: '2', memory: '8Gi' }]);
    for (let i = 0; i < 5; i++) f.createPod({ name: `p${i}`, cpu: '500m' });
    f.advance(50);
    const bound = [0, 1, 2, 3, 4].filter((i) => f.nodeOf(`p${i}`) === 'n1');
    expect(bound).toEqual([0, 1, 2, 3]);
    expect(f.event('p4', 'FailedScheduling')!.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });
});

describe('DefaultPreemption (kwok-priority-preemption)', () => {
  it('the high-priority pod preempts the low-priority one on the 4-CPU node', () => {
    const f = new SchedulerFixture([
      { name: 'control-plane', cpu: '2', memory: '4Gi', taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
      { name: 'node-1', cpu: '4' },
    ]);
    const pc = (name: string, value: number) => ({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name },
      value,
      globalDefault: false,
      description: `This priority class is for ${name} pods.`,
    });
    f.create('scheduling.k8s.io', 'priorityclasses', pc('low-priority', 100));
    f.create('scheduling.k8s.io', 'priorityclasses', pc('high-priority', 200));
    f.advance(10);
    const res = (cpu: string) => ({ requests: { cpu }, limits: { cpu } });
    f.createPod({
      name: 'low-priority-pod',
      priorityClassName: 'low-priority',
      spec: { containers: [{ name: 'low-priority-container', image: 'fake', resources: res('3000m') }] },
    });
    f.advance(20);
    expect(f.nodeOf('low-priority-pod')).toBe('node-1');
    const high = f.createPod({
      name: 'high-priority-pod',
      priorityClassName: 'high-priority',
      spec: { containers: [{ name: 'high-priority-container', image: 'fake', resources: res('3000m') }] },
    });
    f.advance(20);
    // first attempt: preemption succeeds, the pod is nominated, the victim is marked and deleted
    const firstMsg = `0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.`;
    expect(f.events('high-priority-pod')[0]).toBe(`FailedScheduling: ${firstMsg}`);
    expect(f.pod('high-priority-pod')!.status?.nominatedNodeName).toBe('node-1');
    expect(f.events('low-priority-pod')).toContain(`Preempted: Preempted by pod ${high.metadata.uid} on node node-1`);
    // Eventf(victim, preemptor, Normal, "Preempted", "Preempting", …): the preemptor is the related object
    expect(f.event('low-priority-pod', 'Preempted')).toMatchObject({
      action: 'Preempting',
      involvedObject: { kind: 'Pod', name: 'low-priority-pod' },
      related: { kind: 'Pod', name: 'high-priority-pod', uid: high.metadata.uid },
    });
    const victim = f.pod('low-priority-pod')!;
    expect(victim.metadata.deletionTimestamp).toBeDefined();
    expect(victim.status?.conditions).toContainEqual({
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: expect.any(String),
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    expect(f.scheduler.decisionFor('default', 'high-priority-pod')).toMatchObject({
      result: 'Unschedulable',
      nominatedNode: 'node-1',
      postFilter: { plugin: 'DefaultPreemption', code: 'Success', nominatedNode: 'node-1', victims: ['default/low-priority-pod'] },
    });
    // the kubelet finishes the graceful deletion; the freed node takes the preemptor
    f.admin.resource('', 'pods').delete('default', 'low-priority-pod', { gracePeriodSeconds: 0 });
    f.advance(20);
    expect(f.nodeOf('high-priority-pod')).toBe('node-1');
    expect(f.events('high-priority-pod').at(-1)).toBe('Scheduled: Successfully assigned default/high-priority-pod to node-1');
  });

  it('while the victim terminates, a retry says the preemptor is not eligible', () => {
    const f = new SchedulerFixture([{ name: 'node-1', cpu: '4' }]);
    f.create('scheduling.k8s.io', 'priorityclasses', {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000,
    });
    f.advance(10);
    f.createPod({ name: 'low', cpu: '3' });
    f.advance(20);
    f.createPod({ name: 'high', cpu: '3', priorityClassName: 'high' });
    f.advance(20);
    expect(f.pod('high')!.status?.nominatedNodeName).toBe('node-1');
    // force a retry (the leftover flush) while the victim is still terminating
    f.advance(6 * 60_000);
    expect(f.events('high')).toEqual([
      'FailedScheduling: 0/1 nodes are available: 1 Insufficient cpu.',
      'FailedScheduling: 0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node.',
    ]);
  });

  it('preemptionPolicy: Never does not preempt', () => {
    const f = new SchedulerFixture([{ name: 'node-1', cpu: '4' }]);
    f.create('scheduling.k8s.io', 'priorityclasses', {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000,
    });
    f.advance(10);
    f.createPod({ name: 'low', cpu: '3' });
    f.advance(20);
    f.createPod({ name: 'high', cpu: '3', priorityClassName: 'high', spec: { preemptionPolicy: 'Never' } });
    f.advance(20);
    expect(f.event('high', 'FailedScheduling')!.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
    expect(f.pod('low')!.metadata.deletionTimestamp).toBeUndefined();
  });
});
