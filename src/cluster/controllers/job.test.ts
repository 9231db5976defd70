import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';

const T0 = Date.UTC(2026, 0, 1);
const secs = (iso: string) => (Date.parse(iso) - T0) / 1000;

function job(name: string, script: string, spec: Record<string, unknown> = {}, restartPolicy = 'Never'): string {
  return JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      ...spec,
      template: { spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', script] }], restartPolicy } },
    },
  });
}

function setup(manifest: string) {
  const c = new Cluster({ seed: 1 });
  const res = c.apply(manifest);
  expect(res.map((r) => r.action)).toEqual(['created']);
  return c;
}

const jobEvents = (c: Cluster, name: string) =>
  c
    .events()
    .filter((e) => e.involvedObject.kind === 'Job' && e.involvedObject.name === name)
    .map((e) => `${e.type} ${e.reason}: ${e.message}`);
const podsOf = (c: Cluster, name: string) =>
  c
    .list('pods', 'default')
    .filter((p) => p.metadata.labels?.['job-name'] === name)
    .sort((a, b) => secs(a.metadata.creationTimestamp!) - secs(b.metadata.creationTimestamp!));
const getJob = (c: Cluster, name: string) => c.get('jobs.batch', 'default', name) as KObject;

describe('JobController (real cluster)', () => {
  it('runs a busybox Job to completion: SuccessCriteriaMet, then Complete, finalizer removed', () => {
    const c = setup(job('done', 'echo done'));
    expect(c.settle(5 * 60_000)).toBe(true);
    const pods = podsOf(c, 'done');
    expect(pods).toHaveLength(1);
    const pod = pods[0];
    expect(pod.metadata.name).toMatch(/^done-[a-z0-9]{5}$/);
    expect(pod.status.phase).toBe('Succeeded');
    expect(pod.metadata.finalizers ?? []).toEqual([]);
    const j = getJob(c, 'done');
    expect(pod.metadata.labels).toMatchObject({
      'batch.kubernetes.io/controller-uid': j.metadata.uid,
      'batch.kubernetes.io/job-name': 'done',
      'job-name': 'done',
      'controller-uid': j.metadata.uid,
    });
    expect(jobEvents(c, 'done')).toEqual([`Normal SuccessfulCreate: Created pod: ${pod.metadata.name}`, 'Normal Completed: Job completed']);
    const st = j.status;
    expect(st).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {}, startTime: '2026-01-01T00:00:00Z' });
    expect(st.active).toBeUndefined();
    expect(st.conditions.map((x: KObject) => [x.type, x.status, x.reason, x.message])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ]);
    expect(st.completionTime).toBe(st.conditions[1].lastTransitionTime);
  });

  it('the pi Job from the kubectl testdata: the perl one-liner prints π and exits 0, so pi completes', () => {
    const c = setup(readFileSync('src/examples/real/pi-job.yaml', 'utf8'));
    c.settle(10 * 60_000);
    const pods = podsOf(c, 'pi');
    expect(pods).toHaveLength(1);
    expect(pods[0].status.phase).toBe('Succeeded');
    expect(pods[0].metadata.finalizers ?? []).toEqual([]);
    expect(pods[0].metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Job', name: 'pi', controller: true, blockOwnerDeletion: true });
    expect(getJob(c, 'pi').status).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    expect(jobEvents(c, 'pi')).toEqual([
      `Normal SuccessfulCreate: Created pod: ${pods[0].metadata.name}`,
      'Normal Completed: Job completed',
    ]);
  });

  it('backoffLimit 2 with `exit 1`: 3 Pods at 0 s, +10 s and +20 s after each failure, then BackoffLimitExceeded', () => {
    const c = setup(job('fail', 'exit 1', { backoffLimit: 2 }));
    expect(c.settle(10 * 60_000)).toBe(true);
    const pods = podsOf(c, 'fail');
    expect(pods.map((p) => p.status.phase)).toEqual(['Failed', 'Failed', 'Failed']);
    const created = pods.map((p) => secs(p.metadata.creationTimestamp!));
    const finished = pods.map((p) => secs(p.status.containerStatuses[0].state.terminated.finishedAt));
    expect(created[0]).toBe(0);
    expect(created[1]).toBe(finished[0] + 10);
    expect(created[2]).toBe(finished[1] + 20);
    expect(pods.every((p) => !(p.metadata.finalizers ?? []).length)).toBe(true);
    expect(jobEvents(c, 'fail')).toEqual([
      ...pods.map((p) => `Normal SuccessfulCreate: Created pod: ${p.metadata.name}`),
      'Warning BackoffLimitExceeded: Job has reached the specified backoff limit',
    ]);
    const st = getJob(c, 'fail').status;
    expect(st).toMatchObject({ failed: 3, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    expect(st.succeeded).toBeUndefined();
    expect(st.completionTime).toBeUndefined();
    expect(st.conditions.map((x: KObject) => `${x.type}/${x.reason}`)).toEqual([
      'FailureTarget/BackoffLimitExceeded',
      'Failed/BackoffLimitExceeded',
    ]);
  });

  it('the pod-failure back-off is a known deadline, so settle carries through it', () => {
    const c = setup(job('fail', 'exit 1', { backoffLimit: 1 }));
    c.advance(5_000);
    expect(c.deadlines().map((d) => d.label)).toContain('job default/fail pod failure back-off');
  });

  it('completions 3, parallelism 2: two Pods at once, a third after the first success', () => {
    const c = setup(job('par', 'sleep 5', { completions: 3, parallelism: 2 }));
    c.advance(3_000);
    expect(podsOf(c, 'par')).toHaveLength(2);
    expect(getJob(c, 'par').status.active).toBe(2);
    expect(c.settle(5 * 60_000)).toBe(true);
    const pods = podsOf(c, 'par');
    expect(pods.map((p) => p.status.phase)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect(getJob(c, 'par').status).toMatchObject({ succeeded: 3 });
    expect(jobEvents(c, 'par').at(-1)).toBe('Normal Completed: Job completed');
  });

  it('activeDeadlineSeconds: the Pod is deleted and the Job fails with DeadlineExceeded at the deadline', () => {
    const c = setup(job('slow', 'sleep 600', { activeDeadlineSeconds: 30 }));
    c.advance(5_000);
    expect(c.deadlines().find((d) => d.label === 'job default/slow activeDeadlineSeconds runs out')?.at).toBe(T0 + 30_000);
    expect(c.settle(10 * 60_000)).toBe(true);
    const ev = jobEvents(c, 'slow');
    expect(ev[1]).toMatch(/^Normal SuccessfulDelete: Deleted pod: slow-/);
    expect(ev.at(-1)).toBe('Warning DeadlineExceeded: Job was active longer than specified deadline');
    const st = getJob(c, 'slow').status;
    expect(st.conditions.map((x: KObject) => `${x.type}/${x.reason}`)).toEqual([
      'FailureTarget/DeadlineExceeded',
      'Failed/DeadlineExceeded',
    ]);
    expect(secs(st.conditions[0].lastTransitionTime)).toBe(30);
    expect(st.failed).toBe(1);
    expect(podsOf(c, 'slow')).toHaveLength(0);
  });

  it('restartPolicy OnFailure: container restarts count toward backoffLimit', () => {
    const c = setup(job('crash', 'exit 1', { backoffLimit: 2 }, 'OnFailure'));
    expect(c.settle(10 * 60_000)).toBe(true);
    const ev = jobEvents(c, 'crash');
    expect(ev[0]).toMatch(/^Normal SuccessfulCreate: Created pod: crash-/);
    expect(ev[1]).toMatch(/^Normal SuccessfulDelete: Deleted pod: crash-/);
    expect(ev.at(-1)).toBe('Warning BackoffLimitExceeded: Job has reached the specified backoff limit');
    expect(getJob(c, 'crash').status.failed).toBe(1);
  });

  it('ttlSecondsAfterFinished: the TTL-after-finished controller deletes the Job (and its Pods) at finish + TTL', () => {
    const c = setup(job('ttl', 'echo hi', { ttlSecondsAfterFinished: 100 }));
    c.advance(30_000);
    const j = getJob(c, 'ttl');
    const finish = Date.parse(j.status.completionTime);
    expect(c.deadlines().find((d) => d.label === 'job default/ttl ttlSecondsAfterFinished expires')?.at).toBe(finish + 100_000);
    c.advance(finish + 99_000 - c.now());
    expect(getJob(c, 'ttl')).toBeDefined();
    c.settle(5 * 60_000);
    expect(getJob(c, 'ttl')).toBeUndefined();
    expect(podsOf(c, 'ttl')).toHaveLength(0);
    const del = c.relay.all().find((h) => h.from === 'ttl-after-finished-controller' && h.verb === 'delete');
    expect(del && del.time).toBe(finish + 100_000);
  });
});
