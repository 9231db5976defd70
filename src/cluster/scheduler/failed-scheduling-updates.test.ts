/**
 * FailedScheduling after PostFilter as the cluster changes, recorded as kube-scheduler records it:
 * through the events.k8s.io/v1 broadcaster (client-go tools/events, client/events-recorder.ts).
 * DefaultPreemption counts nodes rejected by an UnschedulableAndUnresolvable filter (taint, cordon,
 * a request above the node's allocatable) as "Preemption is not helpful for scheduling" and nodes
 * without lower-priority Pods as "No preemption victims found for incoming pod."; a cordon does
 * not requeue the Pod, so the next attempt comes with the 5-minute flush of unschedulable Pods; a
 * new node requeues it at once. The broadcaster's key is (type, action, reason, reporting
 * controller/instance, regarding, related), not the note: the regarding reference carries the
 * Pod's resourceVersion, which the first attempt's PodScheduled=False status write changes, so
 * the second attempt creates a second Event; from then on isomorphic attempts make it a series
 * (count 2 by a PATCH), count up in memory only, and the 30-minute refresh writes the count. A
 * new note of an isomorphic attempt is never written: the Event keeps its first note.
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../cluster';

const CP = '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

describe('FailedScheduling follows the cluster (events.k8s.io series)', () => {
  const c = new Cluster({ seed: 1 });
  const t0 = c.now();
  const writes: [number, string, number, string][] = [];
  c.api.store.listen((ev) => {
    if (ev.resource !== 'events' || ev.obj.reason !== 'FailedScheduling') return;
    writes.push([Math.round((c.now() - t0) / 100) / 10, ev.type, ev.obj.series?.count ?? 0, ev.obj.message]);
  });
  // three 4-CPU workers, one 3500m Pod each (spread), and a fourth that fits nowhere
  c.apply(`apiVersion: v1
kind: Pod
metadata: {name: filler}
spec:
  containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: "1"}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: hog}
spec:
  replicas: 3
  selector: {matchLabels: {app: hog}}
  template:
    metadata: {labels: {app: hog}}
    spec:
      topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: hog}}}]
      containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: "3500m"}}}]
`);
  c.advance(30_000);
  c.kubectl('cordon node-1');
  c.advance(400_000);
  c.addNode({ name: 'node-4', capacity: { cpu: '500m', memory: '8Gi', pods: '110' } });
  c.advance(1_500_000);
  const pending = c
    .list('pods', 'default')
    .filter((p) => !p.spec.nodeName)
    .map((p) => p.metadata.name);

  test('one Pod stays Pending', () => {
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatch(/^hog-/);
  });

  test('writes: a new resourceVersion is a new Event; then a series (PATCH at count 2, counted in memory, written by the 30-minute refresh)', () => {
    const m1 = `0/4 nodes are available: ${CP}, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.`;
    const m2 = `0/4 nodes are available: ${CP}, 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.`;
    const m3 = `0/5 nodes are available: ${CP}, 1 node(s) were unschedulable, 3 Insufficient cpu. preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.`;
    expect(writes).toEqual([
      // each attempt whose PodScheduled message differs rewrites the Pod's status: the next
      // attempt's regarding reference has a new resourceVersion, so a new key
      [0, 'ADDED', 0, m1],
      // cordoned at 30 s: no requeue; the flush (> 5 min in unschedulablePods, every 30 s) retries at 330 s
      [330, 'ADDED', 0, m2],
      // node-4 added at 430 s: requeued at once
      [430, 'ADDED', 0, m3],
      // the 750 s attempt: same message as at 430 s, but the 430 s status write changed the resourceVersion
      [750, 'ADDED', 0, m3],
      // 1080 s: isomorphic → series {count: 2} by a PATCH
      [1080, 'MODIFIED', 2, m3],
      // 1410 s and 1740 s count up in memory only; refreshExistingEventSeries (30 min after the
      // scheduler started) writes count 4
      [1770, 'MODIFIED', 4, m3],
    ]);
  });

  test('the series Event as core/v1 shows it', () => {
    const ev = c.list('events', 'default').find((e) => e.reason === 'FailedScheduling' && e.series);
    expect(ev).toMatchObject({
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Warning',
      action: 'Scheduling',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
      involvedObject: { kind: 'Pod', namespace: 'default', name: pending[0] },
      series: { count: 4 },
    });
    expect(ev?.count).toBeUndefined();
    expect(ev?.metadata.name).toMatch(new RegExp(`^${pending[0]}\\.[0-9a-f]+$`));
  });

  test('kubectl describe pod: four Events, the last with "(x4 over …)" from its series', () => {
    const ev = c.kubectl(`describe pod ${pending[0]}`).output.split('Events:\n')[1];
    expect(
      ev
        .split('\n')
        .filter((l) => l.includes('FailedScheduling'))
        .map((l) => l.replace(/\s{2,}default-scheduler\s{2,}.*$/, '').trim()),
    ).toEqual([
      'Warning  FailedScheduling  32m',
      'Warning  FailedScheduling  26m',
      'Warning  FailedScheduling  24m',
      'Warning  FailedScheduling  3m9s (x4 over 19m)',
    ]);
  });
});

describe('Scheduled: an events.k8s.io Event with action Binding', () => {
  const c = new Cluster({ seed: 1 });
  c.apply(`apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: c, image: nginx:1.27}]
`);
  c.advance(5_000);
  const ev = c.list('events', 'default').filter((e) => e.reason === 'Scheduled');

  test('one Event, in the core/v1 form of an events.k8s.io Event', () => {
    expect(ev).toHaveLength(1);
    const { metadata, involvedObject, ...rest } = ev[0];
    expect(metadata.name).toMatch(/^web\.[0-9a-f]+$/);
    expect(involvedObject).toMatchObject({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web' });
    expect(rest).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      reason: 'Scheduled',
      message: `Successfully assigned default/web to ${c.get('pods', 'default', 'web')?.spec.nodeName}`,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Normal',
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
    });
    expect(typeof rest.eventTime).toBe('string');
    expect(rest.count).toBeUndefined();
    expect(rest.series).toBeUndefined();
  });
});
