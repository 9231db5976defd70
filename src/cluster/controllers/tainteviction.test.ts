import { describe, expect, test } from 'vitest';
import { newEnv, createPod, getPod, timeline, startNodeControllers, DEFAULT_TOLERATIONS } from '../kubelet/kubelet.fixture';
import { getMatchingTolerations, getMinTolerationSeconds } from './nodelifecycle-utils';

const taint = { key: 'example.com/maintenance', value: 'true', effect: 'NoExecute' };

function taintNode(env: ReturnType<typeof newEnv>, taints: unknown[] | undefined) {
  const nodes = env.admin.resource('', 'nodes');
  const n = nodes.get('', 'node-1');
  nodes.update({ ...n, spec: { ...n.spec, taints } });
}

describe('TaintEvictionController', () => {
  const cases = [
    {
      name: 'no matching toleration → deleted at once',
      tolerations: [],
      evictAfter: 0,
      notes: [[0, 'Pod default/web does not tolerate example.com/maintenance=true:NoExecute → evict now']],
    },
    {
      name: 'tolerationSeconds 60 → deleted after 60 s',
      tolerations: [{ key: 'example.com/maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
      evictAfter: 60,
      notes: [
        [0, 'Pod default/web tolerates example.com/maintenance=true:NoExecute for 60 s → evict at 00:01:10'],
        [60, 'Pod default/web tolerates example.com/maintenance=true:NoExecute for 60 s, elapsed → evict'],
      ],
    },
    {
      name: 'smallest of several tolerationSeconds wins',
      tolerations: [
        { operator: 'Exists', tolerationSeconds: 90 },
        { key: 'example.com/maintenance', operator: 'Equal', value: 'true', tolerationSeconds: 30 },
      ],
      evictAfter: 90,
      notes: [
        [0, 'Pod default/web tolerates example.com/maintenance=true:NoExecute for 90 s → evict at 00:01:40'],
        [90, 'Pod default/web tolerates example.com/maintenance=true:NoExecute for 90 s, elapsed → evict'],
      ],
    },
    {
      name: 'toleration without seconds → tolerated forever',
      tolerations: [{ key: 'example.com/maintenance', operator: 'Exists' }],
      evictAfter: null,
      notes: [],
    },
    {
      name: 'wrong value does not tolerate',
      tolerations: [{ key: 'example.com/maintenance', operator: 'Equal', value: 'false', effect: 'NoExecute' }],
      evictAfter: 0,
      notes: [[0, 'Pod default/web does not tolerate example.com/maintenance=true:NoExecute → evict now']],
    },
  ];
  test.each(cases)('$name', ({ tolerations, evictAfter, notes }) => {
    const env = newEnv();
    startNodeControllers(env);
    createPod(env, 'web', 'node-1', [{ name: 'nginx', image: 'nginx:1.14.2' }], { tolerations: [...DEFAULT_TOLERATIONS, ...tolerations] });
    env.clock.advance(10_000);
    taintNode(env, [taint]);
    const t0 = env.clock.now();
    env.clock.advance(200_000);
    // the reconcile notes (decision hops) say why, and when; the taint's watch delivery is ~1 ms after the update
    const decisions = env.relay.all().filter((h) => h.from === 'taint-eviction-controller' && h.kind === 'decision');
    expect(decisions.map((h) => [Math.floor((h.time - t0) / 1000), h.note])).toEqual(notes);
    // the eviction's event, DisruptionTarget status write and delete belong to the last decision's reconciliation
    if (evictAfter !== null) {
      const last = decisions.at(-1)!;
      const writes = env.relay
        .all()
        .filter((h) => h.reconcile === last.reconcile && h.kind === 'request' && h.from === 'taint-eviction-controller');
      expect(writes.map((h) => `${h.verb} ${h.resource}`)).toEqual(['create events', 'update pods/status', 'delete pods']);
    }
    const ev = timeline(env, 'web', ['TaintManagerEviction']);
    if (evictAfter === null) {
      expect(ev).toEqual([]);
      expect(getPod(env, 'web')?.metadata.deletionTimestamp).toBeUndefined();
    } else {
      expect(ev.map(([t, , m]) => [Math.round((t - 10) * 1000) / 1000, m])).toEqual([
        [evictAfter + 0.001, 'Marking for deletion Pod default/web'],
      ]);
      // the kubelet is alive: graceful deletion completes
      expect(getPod(env, 'web')).toBeUndefined();
    }
  });

  test('removing the taint cancels the scheduled eviction', () => {
    const env = newEnv();
    const { tec } = startNodeControllers(env);
    createPod(env, 'web', 'node-1', [{ name: 'nginx', image: 'nginx:1.14.2' }], {
      tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    });
    env.clock.advance(10_000);
    taintNode(env, [taint]);
    env.clock.advance(1_000);
    expect([...tec.scheduled().keys()]).toEqual(['default/web']);
    expect(env.clock.deadlines().map((d) => d.label)).toContain('taint eviction of default/web at 300s');
    taintNode(env, undefined);
    env.clock.advance(400_000);
    expect(timeline(env, 'web', ['TaintManagerEviction']).map(([, , m]) => m)).toEqual(['Cancelling deletion of Pod default/web']);
    expect(getPod(env, 'web')?.metadata.deletionTimestamp).toBeUndefined();
    expect(tec.scheduled().size).toBe(0);
  });

  test('helpers: GetMatchingTolerations and getMinTolerationTime', () => {
    expect(getMatchingTolerations([], [])).toEqual([true, []]);
    expect(getMatchingTolerations([taint], [])).toEqual([false, []]);
    expect(getMinTolerationSeconds([{ tolerationSeconds: 0 }])).toBe(0);
    expect(getMinTolerationSeconds([{ key: 'a' }])).toBe(-1);
    expect(getMinTolerationSeconds([])).toBe(0);
  });
});
