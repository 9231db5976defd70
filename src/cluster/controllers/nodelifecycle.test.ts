import { describe, expect, test } from 'vitest';
import { newEnv, createPod, getPod, timeline, since, startNodeControllers } from '../kubelet/kubelet.fixture';

const NODES = [{ name: 'control-plane', controlPlane: true }, { name: 'node-1' }, { name: 'node-2' }];

/** Seconds since t0 of the first write after which `pred` holds for the stored object. */
function firstTime(env: ReturnType<typeof newEnv>, resource: string, key: string, pred: (o: any) => boolean): () => number | undefined {
  let at: number | undefined;
  env.api.store.listen((ev) => {
    if (at === undefined && ev.resource === resource && ev.key === key && pred(ev.obj)) at = since(env);
  });
  return () => at;
}

describe('NodeLifecycleController + TaintEvictionController: the node-kill demo', () => {
  test('power off at T → Unknown at T+57 s, unreachable taints, eviction at taint+300 s; power on → Ready, taints gone, Pod finalized', () => {
    const env = newEnv({ nodes: NODES });
    startNodeControllers(env);
    createPod(env, 'web', 'node-2', [{ name: 'nginx', image: 'nginx:1.14.2' }]);
    const notReadyAt = firstTime(env, 'nodes', 'node-2', (n) =>
      n.status.conditions.some((c: any) => c.type === 'Ready' && c.status === 'Unknown'),
    );
    const noSchedAt = firstTime(env, 'nodes', 'node-2', (n) => (n.spec.taints ?? []).some((t: any) => t.effect === 'NoSchedule'));
    const noExecAt = firstTime(env, 'nodes', 'node-2', (n) => (n.spec.taints ?? []).some((t: any) => t.effect === 'NoExecute'));
    const terminatingAt = firstTime(env, 'pods', 'default/web', (p) => !!p.metadata.deletionTimestamp);
    env.clock.advance(33_000);
    const T = since(env);
    env.kubelets.get('node-2')!.powerOff();
    // lease last renewed at 30 s, seen by the controller's informer at the 35 s pass; 50 s grace → the 90 s pass
    env.clock.advance(56_000);
    expect(notReadyAt()).toBeUndefined();
    expect(env.clock.deadlines().find((d) => d.object === 'Node/node-2')).toMatchObject({
      label: 'node-2: node-monitor-grace-period runs out',
      at: env.t0 + 90_000,
    });
    env.clock.advance(2_000);
    expect(notReadyAt()).toBe(90);
    // the reconcile note measures from the pass that observed the last renewal (35 s), not from renewTime (30 s)
    const notes = env.relay.all().filter((h) => h.from === 'node-lifecycle-controller' && h.note !== undefined);
    expect(notes.map((h) => [(h.time - env.t0) / 1000, h.note])).toEqual([
      [90, 'node-2: no Lease renewal observed for 55 s (> node-monitor-grace-period 50 s) → NotReady'],
    ]);
    expect(notReadyAt()! - T).toBeGreaterThanOrEqual(50);
    expect(notReadyAt()! - T).toBeLessThanOrEqual(60);
    const node = env.api.store.get('nodes', 'node-2')!.obj;
    expect(node.status.conditions.map((c: any) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime])).toEqual([
      ['MemoryPressure', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', '2026-01-01T00:01:30Z'],
      ['DiskPressure', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', '2026-01-01T00:01:30Z'],
      ['PIDPressure', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', '2026-01-01T00:01:30Z'],
      ['Ready', 'Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', '2026-01-01T00:01:30Z'],
    ]);
    env.clock.advance(10_000);
    expect(noSchedAt()).toBe(90.001);
    // NoExecute follows from the observed condition of the next pass (95 s) plus the 100 ms tainting pass
    expect(noExecAt()).toBe(95.1);
    expect(env.api.store.get('nodes', 'node-2')!.obj.spec.taints).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-01-01T00:01:30Z' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:01:35Z' },
    ]);
    const pod = getPod(env, 'web')!;
    expect(pod.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      lastTransitionTime: '2026-01-01T00:01:30Z',
    });
    expect(timeline(env, 'node-2', ['NodeNotReady'])).toEqual([[90, 'NodeNotReady', 'Node node-2 status is now: NodeNotReady']]);
    expect(timeline(env, 'web', ['NodeNotReady'])).toEqual([[90, 'NodeNotReady', 'Node is not ready']]);
    const evict = env.clock.deadlines().find((d) => d.object === 'Pod/default/web')!;
    expect(evict.label).toBe('taint eviction of default/web at 300s');
    expect((evict.at - env.t0) / 1000).toBe(395.101); // taint seen via watch 1 ms later
    // eviction: Terminating (the kubelet is down, so nobody finishes the deletion)
    env.clock.advance(300_000);
    expect(terminatingAt()).toBe(395.101);
    expect(timeline(env, 'web', ['TaintManagerEviction'])).toEqual([
      [395.101, 'TaintManagerEviction', 'Marking for deletion Pod default/web'],
    ]);
    const terminating = getPod(env, 'web')!;
    expect(terminating.metadata.deletionTimestamp).toBe('2026-01-01T00:07:05Z');
    expect(terminating.status.conditions.find((c: any) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    const ev = env.api.store
      .list('events')
      .map((e) => e.obj)
      .find((e) => e.reason === 'TaintManagerEviction')!;
    expect(ev.source).toEqual({ component: 'taint-eviction-controller' });
    const nn = env.api.store
      .list('events')
      .map((e) => e.obj)
      .find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node')!;
    expect(nn.source).toEqual({ component: 'node-controller' });
    expect(env.relay.all().some((h) => h.from === 'node-lifecycle-controller' && h.resource === 'nodes/status')).toBe(true);
    expect(env.relay.all().some((h) => h.from === 'taint-eviction-controller' && h.verb === 'delete')).toBe(true);
    env.clock.advance(60_000);
    expect(getPod(env, 'web')).toBeDefined();

    // power on: Ready again, taints removed, the terminating Pod finalized by its kubelet
    env.kubelets.get('node-2')!.powerOn();
    env.clock.advance(10_000);
    expect(getPod(env, 'web')).toBeUndefined();
    const back = env.api.store.get('nodes', 'node-2')!.obj;
    expect(back.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(back.spec.taints).toBeUndefined();
    expect(
      timeline(env, 'node-2')
        .filter(([t]) => t >= 455)
        .map(([, r]) => r),
    ).toEqual([
      'Starting',
      'NodeAllocatableEnforced',
      'Rebooted',
      'NodeHasSufficientMemory',
      'NodeHasNoDiskPressure',
      'NodeHasSufficientPID',
      'NodeReady',
    ]);
    expect(env.clock.deadlines()).toEqual([]);
  });

  test('a Pod that does not tolerate the taint is evicted as soon as the NoExecute taint lands', () => {
    const env = newEnv({ nodes: NODES });
    startNodeControllers(env);
    createPod(env, 'bare', 'node-1', [{ name: 'nginx', image: 'nginx:1.14.2' }], { tolerations: [] });
    env.clock.advance(33_000);
    env.kubelets.get('node-1')!.powerOff();
    env.clock.advance(63_000);
    expect(timeline(env, 'bare', ['TaintManagerEviction'])).toEqual([
      [95.101, 'TaintManagerEviction', 'Marking for deletion Pod default/bare'],
    ]);
  });

  test('disruption: all nodes down → FullDisruption, NoExecute taints removed, no evictions', () => {
    const env = newEnv({ nodes: NODES });
    const { nlc } = startNodeControllers(env);
    createPod(env, 'web', 'node-1', [{ name: 'nginx', image: 'nginx:1.14.2' }]);
    env.clock.advance(33_000);
    for (const k of env.kubelets.values()) k.powerOff();
    env.clock.advance(600_000);
    expect(nlc.zones().get('')).toBe('FullDisruption');
    for (const n of ['control-plane', 'node-1', 'node-2']) {
      const taints = env.api.store.get('nodes', n)!.obj.spec.taints ?? [];
      expect(taints.some((t: any) => t.effect === 'NoExecute')).toBe(false);
    }
    expect(getPod(env, 'web')?.metadata.deletionTimestamp).toBeUndefined();
    expect(timeline(env, 'web', ['TaintManagerEviction'])).toEqual([]);
  });

  test('disruption: computeZoneState with --unhealthy-zone-threshold 0.55', () => {
    const env = newEnv({ nodes: [] });
    const { nlc } = startNodeControllers(env);
    const c = (s: string) => ({ type: 'Ready', status: s });
    const cases: [string, ReturnType<typeof c>[], string][] = [
      ['all ready', [c('True'), c('True'), c('True')], 'Normal'],
      ['one of three down', [c('True'), c('True'), c('Unknown')], 'Normal'],
      ['two of three down (≤ 2 not ready)', [c('True'), c('False'), c('Unknown')], 'Normal'],
      ['3 of 5 down (60 %)', [c('True'), c('True'), c('Unknown'), c('Unknown'), c('Unknown')], 'PartialDisruption'],
      ['3 of 6 down (50 %)', [c('True'), c('True'), c('True'), c('Unknown'), c('Unknown'), c('Unknown')], 'Normal'],
      ['none ready', [c('Unknown'), c('False')], 'FullDisruption'],
    ];
    for (const [name, conds, want] of cases) expect(nlc.computeZoneState(conds)[1], name).toBe(want);
  });

  test('RegisteredNode events from node-controller on the first pass', () => {
    const env = newEnv({ nodes: NODES });
    startNodeControllers(env);
    env.clock.advance(5_000);
    expect(timeline(env, undefined, ['RegisteredNode']).map(([, , m]) => m)).toEqual([
      'Node control-plane event: Registered Node control-plane in Controller',
      'Node node-1 event: Registered Node node-1 in Controller',
      'Node node-2 event: Registered Node node-2 in Controller',
    ]);
  });
});
