/**
 * EventsV1Recorder (client-go tools/events event_broadcaster.go recordToSink, finishSeries,
 * refreshExistingEventSeries) on its own: the writes each call makes, in simulated time.
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../cluster';
import { FINISH_TIME_MS } from './events-recorder';

const REF = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cm', uid: 'u1' };

function run(steps: [string, number][]): [number, string, number, string][] {
  const c = new Cluster({ seed: 1 });
  const t0 = c.now();
  const writes: [number, string, number, string][] = [];
  c.api.store.listen((ev) => {
    if (ev.resource === 'events' && ev.obj.involvedObject?.name === 'cm')
      writes.push([Math.round((c.now() - t0) / 1000), ev.type, ev.obj.series?.count ?? 0, ev.obj.message]);
  });
  for (const [note, advanceMs] of steps) {
    c.scheduler.recorder.eventf(REF, null, 'Warning', 'Test', 'Testing', note);
    c.advance(advanceMs);
  }
  return writes;
}

describe('EventsV1Recorder', () => {
  const cases: { name: string; steps: [string, number][]; want: [number, string, number, string][] }[] = [
    { name: 'a single Event is created once', steps: [['a', 1000]], want: [[0, 'ADDED', 0, 'a']] },
    {
      name: 'the note is not part of the key: the second is a series PATCH keeping the first note, the third counts in memory',
      steps: [
        ['a', 1000],
        ['b', 1000],
        ['c', 1000],
      ],
      want: [
        [0, 'ADDED', 0, 'a'],
        [1, 'MODIFIED', 2, 'a'],
      ],
    },
    {
      // finishSeries runs every 6 min from the scheduler's start (30 s before t0 here): at 690 s the
      // series last observed at 1 s is older than 6 min, written (count 3) and forgotten; the next
      // one creates a new Event
      name: 'finishSeries writes and forgets a finished series',
      steps: [
        ['a', 1000],
        ['a', 1000],
        ['a', 2 * FINISH_TIME_MS],
        ['a', 1000],
      ],
      want: [
        [0, 'ADDED', 0, 'a'],
        [1, 'MODIFIED', 2, 'a'],
        [690, 'MODIFIED', 3, 'a'],
        [722, 'ADDED', 0, 'a'],
      ],
    },
    {
      name: 'finishSeries forgets a non-series Event older than 6 min: the next isomorphic one is a new Event',
      steps: [
        ['a', 2 * FINISH_TIME_MS],
        ['a', 1000],
      ],
      want: [
        [0, 'ADDED', 0, 'a'],
        [720, 'ADDED', 0, 'a'],
      ],
    },
  ];
  test.each(cases)('$name', ({ steps, want }) => {
    expect(run(steps)).toEqual(want);
  });

  test('the cache has no bound but finishSeries: the first of 5,000 objects retried within 6 min is a series, not a new Event', () => {
    const c = new Cluster({ seed: 1 });
    let created = 0;
    let patched = 0;
    c.api.store.listen((ev) => {
      if (ev.resource !== 'events' || ev.obj.reason !== 'Test') return;
      if (ev.type === 'ADDED') created++;
      if (ev.type === 'MODIFIED') patched++;
    });
    const ref = (i: number) => ({ ...REF, name: `cm-${i}`, uid: `u-${i}` });
    for (let i = 0; i < 5000; i++) c.scheduler.recorder.eventf(ref(i), null, 'Warning', 'Test', 'Testing', 'a');
    c.advance(60_000);
    c.scheduler.recorder.eventf(ref(0), null, 'Warning', 'Test', 'Testing', 'a');
    c.advance(1000);
    expect([created, patched]).toEqual([5000, 1]);
  });
});
