import { describe, expect, it } from 'vitest';
import type { ObjectChangeMsg, TickBatch } from '../../worker/protocol';
import { createKubeStore } from '../store/store';
import type { KObject } from '../store/types';
import { createReplay } from './replay';

function batch(b: Partial<TickBatch>): TickBatch {
  return { gen: 1, reset: false, simMs: 0, startMs: 0, changes: [], events: [], hops: [], deadlines: [], running: true, speed: 1, profile: 'kubernetes-defaults', fault: null, applySeq: null, ...b };
}

function pod(name: string): ObjectChangeMsg {
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: {} } as KObject;
  return { type: 'ADDED', resource: 'pods', key: `Pod/default/${name}`, object, row: { kind: 'Pod', namespace: 'default', name, status: 'Pending', columns: {} }, controllers: ['kube-scheduler'] };
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
});
