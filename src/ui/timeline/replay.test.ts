import { describe, expect, it } from 'vitest';
import type { ObjectChangeMsg, RelayHop, TickBatch } from '../../worker/protocol';
import { createKubeStore } from '../store/store';
import { mergeBatches } from '../store/merge-batches';
import { pendingTimers } from './pending-timers';
import type { KObject } from '../store/types';
import { createReplay } from './replay';

function batch(b: Partial<TickBatch>): TickBatch {
  return {
    gen: 1,
    reset: false,
    simMs: 0,
    startMs: 0,
    changes: [],
    events: [],
    hops: [],
    deadlines: [],
    running: true,
    speed: 1,
    profile: 'kubernetes-defaults',
    fault: null,
    applySeq: null,
    ...b,
  };
}

function pod(name: string): ObjectChangeMsg {
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: {} } as KObject;
  return {
    type: 'ADDED',
    resource: 'pods',
    key: `Pod/default/${name}`,
    object,
    row: { kind: 'Pod', namespace: 'default', name, status: 'Pending', columns: {} },
    controllers: ['kube-scheduler'],
  };
}

describe('replay', () => {
  it('shows a recorded moment while the live cluster keeps folding in, then returns to live', () => {
    const store = createKubeStore();
    const r = createReplay(store, { minGapMs: 1_000 });
    r.receive(batch({ reset: true, simMs: 1_000 }));
    r.receive(batch({ simMs: 5_000, changes: [pod('a')] }));
    expect(store.getState().objects.get('Pod/default/a')?.controllers).toEqual(['kube-scheduler']);
    expect(store.getState()).toMatchObject({ liveMs: 5_000, timelineStartMs: 1_000, replayAt: null });

    r.scrubTo(2_000);
    expect(store.getState().objects.size).toBe(0);
    expect(store.getState()).toMatchObject({ simMs: 1_000, replayAt: 2_000 });

    // the live cluster moves on underneath; the replayed view stays put, playback stays live
    r.receive(batch({ simMs: 9_000, changes: [pod('b')], running: false }));
    expect(store.getState().objects.size).toBe(0);
    expect(store.getState()).toMatchObject({ liveMs: 9_000, running: false, simMs: 1_000 });

    r.scrubTo(6_000);
    expect([...store.getState().objects.keys()]).toEqual(['Pod/default/a']);

    r.goLive();
    expect([...store.getState().objects.keys()]).toEqual(['Pod/default/a', 'Pod/default/b']);
    expect(store.getState()).toMatchObject({ simMs: 9_000, replayAt: null });
  });

  it('a scrub at or past the live time is live; a reset batch ends the replay and the old history', () => {
    const store = createKubeStore();
    const r = createReplay(store);
    r.receive(batch({ reset: true, simMs: 0 }));
    r.receive(batch({ simMs: 10_000, changes: [pod('a')] }));
    r.scrubTo(10_000);
    expect(store.getState().replayAt).toBeNull();
    r.scrubTo(0);
    expect(store.getState().replayAt).toBe(0);
    r.receive(batch({ gen: 2, reset: true, simMs: 200 }));
    expect(store.getState()).toMatchObject({ replayAt: null, simMs: 200, timelineStartMs: 200 });
    expect(r.timeline.length).toBe(1);
  });

  it("folds a reload's replayed batches into frames of their own, without pulses, then goes on live", () => {
    const store = createKubeStore();
    const r = createReplay(store, { minGapMs: 1_000 });
    const hop = (seq: number): RelayHop => ({
      seq,
      time: seq,
      from: 'kubectl',
      to: 'kube-apiserver',
      kind: 'request',
      summary: `create Pod default/p${seq}`,
      cause: null,
    });
    const grace = { at: 80_000, label: 'node-2: node-monitor-grace-period runs out', object: 'Node/node-2' };
    // as the pump hands them over: all in one go, through mergeBatches
    const queued = [
      batch({ gen: 3, reset: true, replayed: true, simMs: 0 }),
      batch({ gen: 3, replayed: true, simMs: 5_000 }),
      batch({ gen: 3, replayed: true, simMs: 12_300, changes: [pod('a')], hops: [hop(1)] }),
      batch({ gen: 3, replayed: true, simMs: 30_000, hops: [hop(2)], deadlines: [grace] }),
      batch({ gen: 3, replayed: true, simMs: 35_000, changes: [pod('b')], deadlines: [grace] }),
      batch({ gen: 3, simMs: 36_000, hops: [hop(3)] }),
      batch({ gen: 3, simMs: 36_050 }),
    ];
    const merged = mergeBatches(queued);
    expect(merged.map((b) => [b.simMs, b.replayed ?? false])).toEqual([
      [0, true],
      [5_000, true],
      [12_300, true],
      [30_000, true],
      [35_000, true],
      [36_050, false],
    ]);
    // the replayed ones alone: recorded, but the view (an older cluster here) does not play them
    r.receive(batch({ gen: 2, reset: true, simMs: 900, changes: [pod('old')] }));
    r.receiveAll(merged.slice(0, 5));
    expect(r.timeline.times()).toEqual([0, 5_000, 12_300, 30_000, 35_000]);
    expect(store.getState()).toMatchObject({ simMs: 900, liveMs: 35_000, timelineStartMs: 0, replayAt: null, gen: 3 });
    expect([...store.getState().objects.keys()]).toEqual(['Pod/default/old']);
    // then the live batch: the live cluster
    r.receiveAll(merged.slice(5));
    expect(r.timeline.times()).toEqual([0, 5_000, 12_300, 30_000, 35_000, 36_050]);
    expect(store.getState()).toMatchObject({ simMs: 36_050, liveMs: 36_050, timelineStartMs: 0, replayAt: null });
    expect([...store.getState().objects.keys()]).toEqual(['Pod/default/a', 'Pod/default/b']);
    expect(store.getState().hops.map((h) => h.seq)).toEqual([1, 2, 3]);
    // only the live hop pulses
    expect(Object.values(store.getState().pulses).map((p) => p.seq)).toEqual([3]);

    // before the first apply: no Pods; between: the first only, its deadlines counted from then
    r.scrubTo(0);
    expect(store.getState()).toMatchObject({ simMs: 0, replayAt: 0 });
    expect(store.getState().objects.size).toBe(0);
    expect(store.getState().pulses).toEqual({});
    r.scrubTo(31_999);
    expect([...store.getState().objects.keys()]).toEqual(['Pod/default/a']);
    const s = store.getState();
    expect(pendingTimers(s.deadlines, s.startMs + s.simMs).map((t) => [t.reason, t.secondsLeft])).toEqual([['grace-period', 50]]);
    r.goLive();
    expect(store.getState().deadlines).toEqual([]);
    expect(store.getState().objects.size).toBe(2);
  });

  it('a live batch while scrubbed back folds into the live view; its deadlines do not leak into the replayed one', () => {
    const store = createKubeStore();
    const r = createReplay(store, { minGapMs: 1_000 });
    const eviction = { at: 400_000, label: 'taint eviction of default/a at 300s', object: 'Pod/default/a' };
    r.receive(batch({ reset: true, simMs: 0 }));
    r.receive(batch({ simMs: 90_000, changes: [pod('a')], deadlines: [eviction] }));
    r.scrubTo(1_000);
    r.receive(batch({ simMs: 95_000, deadlines: [eviction, { at: 500_000, label: 'kube-scheduler: back-off of default/b ends' }] }));
    expect(store.getState()).toMatchObject({ simMs: 0, deadlines: [], replayAt: 1_000, liveMs: 95_000 });
    r.goLive();
    expect(store.getState().deadlines).toHaveLength(2);
  });
});
