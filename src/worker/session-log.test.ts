/**
 * The session log's import (session-log.ts): the times of a log are checked before anything is
 * reset (session.ts validateSessionTimes, naming the entry and field), and the batches held for a
 * subscriber that has not come yet are bounded (MAX_HELD_IMPORT_BATCHES).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { MAX_HELD_IMPORT_BATCHES, SessionRecorder } from './session-log';
import { MAX_SESSION_SPAN_MS, type SessionLog, type SessionLogV1 } from './session';
import type { SessionHost } from './host-types';
import type { TickBatch } from './protocol';

/** A host with a fake cluster: its clock jumps to where it is asked, every frame is a new batch, nobody subscribed. */
function fakeHost() {
  let now = DEFAULT_START_MS;
  let n = 0;
  const calls = { boot: 0, sent: 0 };
  const host = {
    cluster: { options: {}, now: () => now, clock: { runUntil: (t: number) => ((now = Math.max(now, t)), true) } },
    loop: { running: false, speed: 1, restore: () => {}, whenIdle: async () => {} },
    sessionCluster: {},
    subscribed: false,
    setReplicas: () => {},
    boot: () => {
      calls.boot++;
      now = DEFAULT_START_MS;
    },
    playHere: () => {},
    releaseHeld: () => {},
    nextBatch: () => ({ seq: ++n }) as unknown as TickBatch,
    send: () => false,
    changed: () => {},
  } as unknown as SessionHost;
  return { host, calls };
}

const log = (steps: SessionLog['steps'], now = DEFAULT_START_MS + 60_000): SessionLog => ({
  format: 'kube-relay-session',
  version: 2,
  cluster: { seed: 1, nodes: 1 },
  steps,
  now,
  running: false,
  speed: 1,
});
const apply = { kind: 'apply', manifest: 'x' } as const;
const MAX_AT = DEFAULT_START_MS + MAX_SESSION_SPAN_MS;

describe('importState checks the times of a session log', () => {
  it.each([
    ['a negative at', log([{ at: -5, step: apply }]), 'session steps[0].at: must be ≥ 0 (got -5)'],
    [
      'an at past the span',
      log([
        { at: DEFAULT_START_MS, step: apply },
        { at: MAX_AT + 1, step: apply },
      ]),
      `session steps[1].at: must be at most ${MAX_AT} (got ${MAX_AT + 1})`,
    ],
    [
      'an at that is not a number',
      log([{ at: '5' as unknown as number, step: apply }]),
      'session steps[0].at: must be a finite number of simulated ms (got string)',
    ],
    [
      'a non-finite at',
      log([{ at: Infinity, step: apply }]),
      'session steps[0].at: must be a finite number of simulated ms (got Infinity)',
    ],
    [
      'an advance ms that is negative',
      log([{ at: DEFAULT_START_MS, step: { kind: 'advance', ms: -1 } }]),
      'session steps[0].step.ms: must be ≥ 0 (got -1)',
    ],
    [
      'an advance ms past the span',
      log([{ at: DEFAULT_START_MS, step: { kind: 'advance', ms: 1e15 } }]),
      `session steps[0].step.ms: must be at most ${MAX_SESSION_SPAN_MS} (got 1000000000000000)`,
    ],
    [
      'an advance ms that is NaN',
      log([{ at: DEFAULT_START_MS, step: { kind: 'advance', ms: NaN } }]),
      'session steps[0].step.ms: must be a finite number of simulated ms (got NaN)',
    ],
    ['a now past the span', log([], MAX_AT + 1), `session now: must be at most ${MAX_AT} (got ${MAX_AT + 1})`],
    [
      'a version-1 action at',
      {
        format: 'kube-relay-session',
        version: 1,
        actions: [{ op: 'kubectl', line: 'get pods', at: -1 }],
        now: DEFAULT_START_MS,
      } as unknown as SessionLogV1,
      'session actions[0].at: must be ≥ 0 (got -1)',
    ],
  ])('%s', (_name, bad, message) => {
    const { host, calls } = fakeHost();
    const r = new SessionRecorder(host);
    expect(() => r.importState(bad)).toThrow(new Error(message));
    expect(calls.boot).toBe(0); // refused before the cluster was reset
  });

  it('accepts times at the bounds', () => {
    const { host, calls } = fakeHost();
    const r = new SessionRecorder(host);
    r.importState(log([{ at: DEFAULT_START_MS, step: { kind: 'advance', ms: 0 } }], DEFAULT_START_MS));
    expect(calls.boot).toBe(1);
  });
});

describe('the batches an import holds before the first subscriber are bounded', () => {
  const steps = (n: number) => Array.from({ length: n }, () => ({ at: DEFAULT_START_MS, step: { kind: 'advance', ms: 0 } as const }));

  it('holds every batch of a log within the bound', () => {
    const { host } = fakeHost();
    const r = new SessionRecorder(host);
    r.importState(log(steps(10)));
    // the reset, one per step, and the time frames up to `now` (60 s in 5 s strides)
    expect(r.takeImportBatches()).toHaveLength(1 + 10 + 12);
    expect(r.droppedImportBatches).toBe(0);
  });

  it(`past ${MAX_HELD_IMPORT_BATCHES} it drops them all, counted, and the subscriber gets a reset instead`, () => {
    const { host } = fakeHost();
    const r = new SessionRecorder(host);
    r.importState(log(steps(MAX_HELD_IMPORT_BATCHES + 100)));
    expect(r.takeImportBatches()).toBeNull(); // cluster-api.ts subscribe: no held batches → a reset
    expect(r.droppedImportBatches).toBe(1 + MAX_HELD_IMPORT_BATCHES + 100 + 12);
    // the next import starts over
    r.importState(log(steps(1)));
    expect(r.takeImportBatches()).toHaveLength(1 + 1 + 12);
    expect(r.droppedImportBatches).toBe(0);
  });
});
