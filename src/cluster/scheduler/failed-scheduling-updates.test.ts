/**
 * FailedScheduling after PostFilter as the cluster changes: DefaultPreemption counts nodes
 * rejected by an UnschedulableAndUnresolvable filter (taint, cordon, a request above the node's
 * allocatable) as "Preemption is not helpful for scheduling" and nodes without lower-priority
 * Pods as "No preemption victims found for incoming pod."; a cordon does not requeue the Pod
 * (no queueing hint says it may help), so the new message comes with the 5-minute flush of
 * unschedulable Pods (podMaxInUnschedulablePodsDuration, checked every 30 s); a new node requeues
 * it at once (TaintToleration's hint). The EventCorrelator's key includes the message: a new
 * message is a new Event, the same message counts the Event up.
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../cluster';

const CP = '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

describe('FailedScheduling follows the cluster', () => {
  const c = new Cluster({ seed: 1 });
  const t0 = c.now();
  const writes: [number, string, number, string][] = [];
  c.api.store.listen((ev) => {
    if (ev.resource !== 'events' || ev.obj.reason !== 'FailedScheduling') return;
    writes.push([Math.round((c.now() - t0) / 100) / 10, ev.type, ev.obj.count ?? 1, ev.obj.message]);
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
  c.advance(700_000);
  const pending = c
    .list('pods', 'default')
    .filter((p) => !p.spec.nodeName)
    .map((p) => p.metadata.name);

  test('one Pod stays Pending', () => {
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatch(/^hog-/);
  });

  test('each change of the cluster gives a new message (a new Event); repeats count the same Event up', () => {
    const m1 = `0/4 nodes are available: ${CP}, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.`;
    const m2 = `0/4 nodes are available: ${CP}, 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.`;
    const m3 = `0/5 nodes are available: ${CP}, 1 node(s) were unschedulable, 3 Insufficient cpu. preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.`;
    expect(writes).toEqual([
      [0, 'ADDED', 1, m1],
      // cordoned at 30 s: no requeue; the flush (> 5 min in unschedulablePods, every 30 s) retries at 330 s
      [330, 'ADDED', 1, m2],
      // node-4 added at 430 s: requeued at once; then the flush every 5 min counts the same Event up
      [430, 'ADDED', 1, m3],
      [750, 'MODIFIED', 2, m3],
      [1080, 'MODIFIED', 3, m3],
    ]);
  });

  test('kubectl describe pod: the three Events, the last one counted', () => {
    const ev = c.kubectl(`describe pod ${pending[0]}`).output.split('Events:\n')[1];
    expect(
      ev
        .split('\n')
        .filter((l) => l.includes('FailedScheduling'))
        .map((l) => l.replace(/\s{2,}default-scheduler\s{2,}.*$/, '').trim()),
    ).toEqual(['Warning  FailedScheduling  18m', 'Warning  FailedScheduling  13m', 'Warning  FailedScheduling  50s (x3 over 11m)']);
  });
});
