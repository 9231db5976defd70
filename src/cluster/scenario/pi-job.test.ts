/**
 * The Kubernetes docs' pi Job (kubectl testdata/set/job.yaml, examples/real/pi-job.yaml):
 * `perl -Mbignum=bpi -wle "print bpi(2000)"` runs to completion — Complete 1/1, 2000 digits of π
 * in the log, the job-controller's events — at exact simulated times (seed 1: the perl image
 * pulls in 8.134 s, bpi(2000) computes for 2 s).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

const PI_JOB = readFileSync(new URL('../../examples/real/pi-job.yaml', import.meta.url), 'utf8');
const PI_2000 = readFileSync(new URL('../userland/testdata/perl-bpi-2000.golden.txt', import.meta.url), 'utf8');

describe('the docs pi Job completes', () => {
  const c = new Cluster({ seed: 1 });
  const t0 = c.now();
  const applied = c.kubectl('apply -f -', PI_JOB);
  c.advance(9_000);
  const at9 = c.kubectl('get job pi').output;
  c.advance(51_000);
  const at60 = c.kubectl('get job pi').output;
  const logs = c.kubectl('logs job/pi').output;
  const job = c.get('jobs.batch', 'default', 'pi')!;
  const pod = c.list('pods', 'default')[0];

  it('applies', () => {
    expect(applied.output).toBe('job.batch/pi created\n');
  });

  it('is Running 0/1 while perl computes, Complete 1/1 after 10 s', () => {
    expect(at9).toBe('NAME   STATUS    COMPLETIONS   DURATION   AGE\npi     Running   0/1           9s         9s\n');
    expect(at60).toBe('NAME   STATUS     COMPLETIONS   DURATION   AGE\npi     Complete   1/1           10s        60s\n');
    expect(job.status.startTime).toBe(new Date(t0).toISOString().replace('.000', ''));
    expect(Date.parse(job.status.completionTime) - t0).toBe(10_000);
    expect(job.status.conditions.map((x: { type: string; status: string }) => `${x.type}=${x.status}`)).toEqual([
      'SuccessCriteriaMet=True',
      'Complete=True',
    ]);
    expect(pod.status.phase).toBe('Succeeded');
    expect(pod.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('logs the 2000 digits of π (Perl 5.36 golden)', () => {
    expect(logs).toBe(PI_2000);
    expect(logs.slice(0, 12)).toBe('3.1415926535');
    expect(logs.slice(-9)).toBe('80275901\n');
    expect(logs.length).toBe(2002);
  });

  it('records SuccessfulCreate and Completed from job-controller', () => {
    const ev = c.events().filter((e) => e.involvedObject.kind === 'Job' && e.involvedObject.name === 'pi');
    expect(ev.map((e) => [e.reason, e.message, e.source?.component, Date.parse(e.lastTimestamp) - t0])).toEqual([
      ['SuccessfulCreate', `Created pod: ${pod.metadata.name}`, 'job-controller', 0],
      ['Completed', 'Job completed', 'job-controller', 10_000],
    ]);
    expect(pod.metadata.name).toMatch(/^pi-[a-z0-9]{5}$/);
    const kubelet = c
      .events()
      .filter((e) => e.involvedObject.name === pod.metadata.name)
      .map((e) => `${e.reason}: ${e.message}`);
    expect(kubelet).toEqual([
      `Scheduled: Successfully assigned default/${pod.metadata.name} to node-3`,
      'Pulling: Pulling image "perl"',
      'Pulled: Successfully pulled image "perl" in 7.303s (7.303s including waiting). Image size: 346730235 bytes.',
      'Created: Created container: pi',
      'Started: Started container pi',
    ]);
  });
});
