/**
 * A reload's timeline (issue 6 §3): `importState` sends the batches the session would have
 * sent live (flagged `replayed`), a bounded number of them, deterministically, ending in the
 * live session's state.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { FramedRun, IMPORT_FRAME_MS, IMPORT_MAX_TIME_FRAMES, importStride } from './import-frames';
import type { SessionLog, TickBatch } from './protocol';
import SEED_MANIFEST from '../scenarios/peekcart.yaml?raw';
import { testHost } from './test-host';

const setup = (subscribe = true) => testHost({ subscribe });

/** Folds batches as the UI's reducer does: key → [resourceVersion, uid, row status]. */
function fold(batches: readonly TickBatch[]): Map<string, [string | undefined, string | undefined, string | undefined]> {
  let objects = new Map<string, [string | undefined, string | undefined, string | undefined]>();
  for (const b of batches) {
    if (b.reset) objects = new Map();
    for (const c of b.changes) {
      if (c.type === 'DELETED') objects.delete(c.key);
      else objects.set(c.key, [c.object.metadata.resourceVersion, c.object.metadata.uid, c.row?.status]);
    }
  }
  return objects;
}

const peekcartPods = (objects: ReturnType<typeof fold>) =>
  [...objects].filter(([k]) => k.startsWith('Pod/default/peekcart-')).map(([, v]) => v[2]);

/** ~20 actions over 30 simulated minutes, made live (speed ×100: 18 s of wall time). */
function liveSession(): { log: SessionLog; live: ReturnType<typeof setup> } {
  const live = setup();
  const { host, run } = live;
  host.setSpeed(100);
  run(200); // 20 s before the apply
  host.apply(SEED_MANIFEST);
  run(300);
  host.kubectl('get pods');
  host.kubectl('get nodes -o wide');
  host.kubectl('scale deployment peekcart --replicas=4');
  run(300);
  host.setImageMissing('nginx:1.161', true);
  host.killNode('node-2');
  run(1_000);
  host.kubectl('label node node-1 tier=front');
  expect(() => host.deletePod('default', 'nope')).toThrow('not found');
  run(3_000); // past the 300 s eviction
  host.restoreNode('node-2');
  host.addNode();
  run(500);
  host.kubectl('cordon node-3');
  host.kubectl('uncordon node-3');
  host.step();
  host.play();
  host.kubectl('scale deployment peekcart --replicas=2');
  run(500);
  host.fastForward();
  host.play();
  host.kubectl('annotate deployment peekcart note=hi');
  host.dnsLookup('peekcart', 'default');
  host.kubectl('rollout status deployment/peekcart');
  host.setImageMissing('nginx:1.161', false);
  host.kubectl('scale deployment peekcart --replicas=3');
  const left = 30 * 60_000 - (host.exportState().now - DEFAULT_START_MS);
  run(Math.max(0, left / 100));
  return { log: structuredClone(host.exportState()), live };
}

describe('importStride', () => {
  it.each([
    ['an empty session', IMPORT_FRAME_MS, 0],
    ['30 simulated minutes', IMPORT_FRAME_MS, 30 * 60_000],
    ['2 simulated hours', 15_000, 2 * 3_600_000],
    ['10 simulated hours', 72_000, 10 * 3_600_000],
  ])('%s → a frame every %i ms', (_name, stride, span) => {
    expect(importStride(span)).toBe(stride);
    expect(span / importStride(span)).toBeLessThanOrEqual(IMPORT_MAX_TIME_FRAMES);
  });
});

describe('FramedRun', () => {
  it('stops at every stride boundary on the way, and after a jump resumes at the next one', () => {
    let now = 1_000;
    const frames: number[] = [];
    const c = { now: () => now, clock: { runUntil: (t: number) => ((now = Math.max(now, t)), true) } };
    const run = new FramedRun(c, 1_000, 5_000, () => frames.push(now));
    run.runTo(12_000);
    expect(frames).toEqual([6_000, 11_000]);
    expect(now).toBe(12_000);
    now = 27_500; // a `step` action moved the clock
    run.catchUp();
    run.runTo(40_000);
    expect(frames).toEqual([6_000, 11_000, 31_000, 36_000]);
    run.runTo(39_000); // behind now: nothing
    expect(frames).toHaveLength(4);
  });
});

describe('importState sends the session as it would have run live', () => {
  const { log, live } = liveSession();
  const actions = log.steps.length;
  const direct = setup();
  const t0 = performance.now();
  direct.host.importState(log);
  const importMs = performance.now() - t0;
  const replayed = direct.batches.slice(1); // [0] is the fresh worker's own reset

  it('a session of ~20 actions and 30 simulated minutes', () => {
    expect(actions).toBeGreaterThanOrEqual(20);
    expect(log.now - DEFAULT_START_MS).toBeGreaterThanOrEqual(30 * 60_000);
    // eslint-disable-next-line no-console
    console.info(
      `import of ${actions} actions, ${Math.round((log.now - DEFAULT_START_MS) / 1000)} simulated s: ${Math.round(importMs)} ms, ${replayed.length} batches`,
    );
    expect(importMs).toBeLessThan(15_000);
  });

  it('a replayed reset first, replayed frames (bounded), then live batches', () => {
    expect(replayed[0]).toMatchObject({ reset: true, replayed: true });
    const frames = replayed.filter((b) => b.replayed);
    expect(replayed.slice(0, frames.length).every((b) => b.replayed)).toBe(true);
    expect(replayed.slice(frames.length).every((b) => !b.replayed && !b.reset)).toBe(true);
    expect(replayed.length).toBeGreaterThan(frames.length); // the live batch after them
    const timeFrames = Math.ceil((log.now - DEFAULT_START_MS) / importStride(log.now - DEFAULT_START_MS));
    expect(frames.length).toBeGreaterThanOrEqual(timeFrames);
    expect(frames.length).toBeLessThanOrEqual(1 + actions + timeFrames);
    const times = frames.map((b) => b.simMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeGreaterThan(log.now - DEFAULT_START_MS - importStride(log.now - DEFAULT_START_MS));
    expect(replayed.at(-1)!.simMs).toBe(log.now - DEFAULT_START_MS);
  });

  it("ends in the live session's state (same objects, versions, uids, statuses)", () => {
    let snapshot: TickBatch | null = null;
    live.host.subscribe((b) => (snapshot = structuredClone(b)));
    const expected = fold([snapshot!]);
    expect(fold(replayed)).toEqual(expected);
    expect(peekcartPods(expected)).toEqual(['Running', 'Running', 'Running']);
    live.host.dispose();
  });

  it('shows the moments before the apply and after the kill (their deadlines too)', () => {
    const applyAt = log.steps.find((e) => e.step.kind === 'apply')!.at - DEFAULT_START_MS;
    const before = replayed.filter((b) => b.simMs < applyAt);
    expect(before.length).toBeGreaterThanOrEqual(4); // t=0, 5 s, 10 s, 15 s
    expect(peekcartPods(fold(before))).toEqual([]);
    expect([...fold(before).keys()].filter((k) => k.startsWith('Node/'))).toEqual([
      'Node/control-plane',
      'Node/node-1',
      'Node/node-2',
      'Node/node-3',
    ]);
    const killAt = log.steps.find((e) => e.step.kind === 'killNode')!.at - DEFAULT_START_MS;
    const graceEnds = replayed.find(
      (b) => b.simMs > killAt && b.deadlines.some((d) => d.label === 'node-2: node-monitor-grace-period runs out'),
    );
    expect(graceEnds).toBeDefined();
    const evictions = replayed.find(
      (b) => b.simMs > killAt && b.deadlines.some((d) => d.label.startsWith('taint eviction of default/peekcart-')),
    );
    expect(evictions).toBeDefined();
  });

  it('is deterministic, and held batches (no subscriber yet: a page load) are the same batches', () => {
    const held = setup(false);
    held.host.importState(log);
    expect(held.batches).toEqual([]);
    held.listen();
    expect(held.batches.length).toBe(replayed.length);
    expect(held.batches).toEqual(replayed);
    held.host.dispose();
    direct.host.dispose();
  });
});
