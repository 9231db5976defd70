import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import type { CronJob } from '../api/objects';
import { formatRFC1123Z, formatRFC3339In, mostRecentScheduleTime, parseSchedule } from './cronjob-utils';

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

function cronJob(name: string, script: string, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: {
      schedule: '*/1 * * * *',
      ...spec,
      jobTemplate: {
        metadata: { labels: { app: name } },
        spec: {
          template: {
            spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', script] }], restartPolicy: 'OnFailure' },
          },
        },
      },
    },
  });
}

const cjEvents = (c: Cluster, name: string) =>
  c
    .events()
    .filter((e) => e.involvedObject.kind === 'CronJob' && e.involvedObject.name === name)
    .map((e) => `${e.type} ${e.reason}: ${e.message}`);
const jobsOf = (c: Cluster, name: string) =>
  c
    .list('jobs.batch', 'default')
    .filter((j) => j.metadata.ownerReferences?.[0]?.name === name)
    .map((j) => j.metadata.name)
    .sort();
const jobName = (name: string, at: number) => `${name}-${Math.floor(at / MIN)}`;

describe('CronJobController (real cluster)', () => {
  it('*/1: a Job each minute named <cronjob>-<unix minutes>, with the upstream events, annotation and status', () => {
    const c = new Cluster({ seed: 1 });
    expect(c.apply(cronJob('hello', 'echo hello')).map((r) => r.action)).toEqual(['created']);
    c.advance(100);
    // the next run is a known deadline
    expect(c.deadlines().find((d) => d.object === 'CronJob/default/hello')?.label).toBe('cronjob default/hello: next run at 00:01:00');
    c.advance(MIN - 101);
    expect(jobsOf(c, 'hello')).toEqual([]);
    c.advance(101);
    const first = jobName('hello', T0 + MIN);
    expect(jobsOf(c, 'hello')).toEqual([first]);
    const job = c.get('jobs.batch', 'default', first) as KObject;
    expect(job.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T00:01:00Z' });
    expect(job.metadata.labels).toMatchObject({ app: 'hello' });
    expect(job.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: 'hello',
        uid: c.get('cronjobs.batch', 'default', 'hello')!.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(job.metadata.creationTimestamp).toBe('2026-01-01T00:01:00Z');
    const cj = c.get('cronjobs.batch', 'default', 'hello')!;
    expect(cj.status.lastScheduleTime).toBe('2026-01-01T00:01:00Z');
    expect(cj.status.active).toEqual([
      {
        kind: 'Job',
        namespace: 'default',
        name: first,
        uid: job.metadata.uid,
        apiVersion: 'batch/v1',
        resourceVersion: expect.any(String),
      },
    ]);

    c.advance(5 * MIN);
    const names = [1, 2, 3, 4, 5, 6].map((m) => jobName('hello', T0 + m * MIN));
    // successfulJobsHistoryLimit 3: the oldest completed Jobs are deleted (the 00:06 one still runs)
    expect(jobsOf(c, 'hello')).toEqual(names.slice(2));
    const ev = cjEvents(c, 'hello');
    expect(ev.slice(0, 2)).toEqual([
      `Normal SuccessfulCreate: Created job ${names[0]}`,
      `Normal SawCompletedJob: Saw completed job: ${names[0]}, condition: Complete`,
    ]);
    for (const n of names) expect(ev).toContain(`Normal SuccessfulCreate: Created job ${n}`);
    for (const n of names.slice(0, 2)) expect(ev).toContain(`Normal SuccessfulDelete: Deleted job ${n}`);
    expect(ev).not.toContain(`Normal SuccessfulDelete: Deleted job ${names[2]}`);
    const st = c.get('cronjobs.batch', 'default', 'hello')!.status;
    expect(st.lastScheduleTime).toBe('2026-01-01T00:06:00Z');
    expect(Date.parse(st.lastSuccessfulTime)).toBeGreaterThan(T0 + 5 * MIN);
    // relay: the controller's create request hangs off a decision
    expect(
      c.relay
        .since(0)
        .some(
          (h) => h.from === 'cronjob-controller' && h.kind === 'decision' && /scheduled time 00:06:00 reached → create Job/.test(h.summary),
        ),
    ).toBe(true);
  });

  it('Forbid: no new Job while the previous one runs (JobAlreadyActive)', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(cronJob('slow', 'sleep 150', { concurrencyPolicy: 'Forbid' }));
    c.advance(3 * MIN + 500);
    const first = jobName('slow', T0 + MIN);
    expect(jobsOf(c, 'slow')).toEqual([first]);
    expect(cjEvents(c, 'slow')).toEqual([
      `Normal SuccessfulCreate: Created job ${first}`,
      'Normal JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid',
    ]);
    // aggregated into one Event with count 2
    expect(c.events().filter((e) => e.reason === 'JobAlreadyActive')[0].count).toBe(2);
    c.advance(MIN);
    // as upstream: a skipped run does not move lastScheduleTime, so when the first Job finishes
    // (≈00:03:31) the sync it triggers starts the 00:03 run late
    const late = jobName('slow', T0 + 3 * MIN);
    expect(jobsOf(c, 'slow')).toEqual([first, late]);
    const created = Date.parse(c.get('jobs.batch', 'default', late)!.metadata.creationTimestamp!);
    expect(created).toBeGreaterThan(T0 + 3 * MIN + 30_000);
    expect(c.get('jobs.batch', 'default', late)!.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(
      '2026-01-01T00:03:00Z',
    );
  });

  it('Replace: the running Job is deleted and replaced', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(cronJob('rep', 'sleep 600', { concurrencyPolicy: 'Replace' }));
    c.advance(2 * MIN + 500);
    const [a, b] = [jobName('rep', T0 + MIN), jobName('rep', T0 + 2 * MIN)];
    expect(cjEvents(c, 'rep')).toEqual([
      `Normal SuccessfulCreate: Created job ${a}`,
      `Normal SuccessfulDelete: Deleted job ${a}`,
      `Normal SuccessfulCreate: Created job ${b}`,
    ]);
    expect(c.get('cronjobs.batch', 'default', 'rep')!.status.active.map((r: KObject) => r.name)).toEqual([b]);
  });

  it('suspend: no Jobs; startingDeadlineSeconds: a schedule missed while the controller was down is skipped', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(cronJob('off', 'echo', { suspend: true }));
    c.advance(3 * MIN);
    expect(jobsOf(c, 'off')).toEqual([]);
    // pause the controller-manager across a scheduled time, resume later than the deadline
    c.apply(cronJob('late', 'echo', { schedule: '*/5 * * * *', startingDeadlineSeconds: 10 }));
    c.controllerManager.pause();
    c.advance(3 * MIN);
    c.controllerManager.resume();
    c.advance(1000);
    // upstream v2 clamps the earliest time to now − startingDeadlineSeconds: 00:05 is silently skipped
    expect(cjEvents(c, 'late')).toEqual([]);
    expect(jobsOf(c, 'late')).toEqual([]);
    c.advance(4 * MIN);
    expect(jobsOf(c, 'late')).toEqual([jobName('late', T0 + 10 * MIN)]);
  });

  it('podinfo backup-daily: next run at midnight is a deadline; settle does not wait for it', () => {
    const c = new Cluster({ seed: 1 });
    const res = c.apply(readFileSync('src/examples/real/podinfo-cronjob-backup.yaml', 'utf8'));
    expect(res.map((r) => `${r.object} ${r.action}`)).toEqual(['cronjob.batch/backup-daily created']);
    c.advance(100);
    expect(c.deadlines().map((d) => [d.label, new Date(d.at).toISOString()])).toContainEqual([
      'cronjob default/backup-daily: next run at 00:00:00',
      '2026-01-02T00:00:00.100Z',
    ]);
    expect(c.settle(10 * MIN)).toBe(true);
    expect(c.now() - T0).toBeLessThan(2 * MIN);
    c.advance(24 * 60 * MIN);
    expect(jobsOf(c, 'backup-daily')).toEqual([`backup-daily-${Math.floor(Date.UTC(2026, 0, 2) / MIN)}`]);
  });

  it('schedule helpers: macros, time zones, @every, too many missed', () => {
    expect(new Date(parseSchedule('@hourly').next(T0)).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(new Date(parseSchedule('0 0 * * *', 'America/New_York').next(T0)).toISOString()).toBe('2026-01-01T05:00:00.000Z');
    expect(new Date(parseSchedule('@every 90s').next(T0 + 500)).toISOString()).toBe('2026-01-01T00:01:30.000Z');
    expect(formatRFC3339In(Date.UTC(2026, 0, 1, 5), 'America/New_York')).toBe('2026-01-01T00:00:00-05:00');
    expect(formatRFC1123Z(T0)).toBe('Thu, 01 Jan 2026 00:00:00 +0000');
    const cj = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {},
    } as CronJob;
    const [, recent, missed] = mostRecentScheduleTime(cj, T0 + 200 * MIN + 30_000, parseSchedule('* * * * *'), true);
    expect([recent && new Date(recent).toISOString(), missed]).toEqual(['2026-01-01T03:20:00.000Z', 'many']);
  });
});
