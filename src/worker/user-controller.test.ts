/**
 * User controllers in the host (docs/user-controllers.md): a reconcile answered later (as the
 * browser's Web Worker answers) holds the simulated clock; start, stop and edit are session
 * actions, and a reload replays them (waiting for each answer) into the same cluster.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { KObject } from '../cluster/api/types';
import { Cluster } from '../cluster/cluster';
import { DEFAULT_START_MS } from '../cluster/sim/clock';
import { describeRow } from '../cluster/kubectl/printers';
import type { SandboxFactory } from '../cluster/user-controller/types';
import { vmSandboxFactory } from '../cli/controller-vm';
import { compileController } from '../cli/controller-compile';
import { ClusterHost, TICK_MS } from './cluster-api';
import type { TickBatch } from './protocol';

const ex = (f: string) => readFileSync(new URL(`../examples/operators/${f}`, import.meta.url), 'utf8');
const WEBSITE = {
  name: 'website-controller',
  source: ex('website.controller.ts'),
  code: compileController(ex('website.controller.ts'), 'website.controller.ts'),
};

/** The vm sandbox, but every answer arrives a task later (the way a Web Worker's message does). */
function laterSandbox(limitMs?: number): { factory: SandboxFactory; answered: () => number } {
  const vm = vmSandboxFactory(limitMs);
  let n = 0;
  return {
    factory: (name) => {
      const s = vm(name);
      return {
        reconcile: (call, host) => s.reconcile(call, { call: host.call, done: (o) => void setTimeout(() => (n++, host.done(o)), 0) }),
        dispose: () => s.dispose(),
      };
    },
    answered: () => n,
  };
}

function host(factory: SandboxFactory) {
  let wall = 0;
  let tick: (() => void) | null = null;
  const h = new ClusterHost({
    createCluster: () => new Cluster({ seed: 1, nodes: 2, controllerSandbox: factory }),
    startMs: DEFAULT_START_MS,
    describeRow,
    resourceOf: (o) => `${o.kind.toLowerCase()}s`,
    wallNow: () => wall,
    setInterval: (fn) => ((tick = fn), 1),
    clearInterval: () => (tick = null),
  });
  const batches: TickBatch[] = [];
  h.subscribe((b) => batches.push(structuredClone(b)));
  /** `ms` of wall time, one tick at a time, letting the sandbox's answers arrive in between. */
  const run = async (ms: number) => {
    for (let t = 0; t < ms; t += TICK_MS) {
      wall += TICK_MS;
      tick!();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { host: h, batches, run };
}

const engine = (h: ClusterHost) => (h as unknown as { cluster: Cluster }).cluster;
const key = (o: KObject) => `${o.kind}/${o.metadata.name} ${o.metadata.uid} rv=${o.metadata.resourceVersion}`;

describe('user controllers in the host', () => {
  it('a reconcile answered later holds the clock; a reload replays start and effects into the same cluster', async () => {
    const s = laterSandbox();
    const a = host(s.factory);
    a.host.apply(ex('website-crd.yaml'));
    a.host.setSpeed(10);
    await a.run(500);
    expect(a.host.startController(WEBSITE).status).toMatchObject({
      name: 'website-controller',
      state: 'running',
      for: 'websites.demo.kube-relay.dev',
    });
    a.host.apply(ex('website.yaml'));
    await a.run(6000);
    const c = engine(a.host);
    const dep = c.get('deployments.apps', 'default', 'blog')!;
    expect(dep.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Website', name: 'blog', controller: true });
    expect(c.get('websites.demo.kube-relay.dev', 'default', 'blog')!.status.readyReplicas).toBe(2);
    expect(s.answered()).toBeGreaterThan(2);
    // every reconcile ran at one simulated instant: its requests carry its decision's time
    const hops = c.relay.all();
    for (const d of hops.filter((h) => h.from === 'website-controller' && h.kind === 'decision')) {
      expect(hops.filter((h) => h.reconcile === d.reconcile && h.kind === 'request').every((h) => h.time === d.time)).toBe(true);
    }
    // the UI got the controller's status
    expect([...a.batches].reverse().find((b) => b.controllers)?.controllers).toMatchObject([
      { name: 'website-controller', state: 'running', errors: 0, queueDepth: 0 },
    ]);

    const log = structuredClone(a.host.exportState());
    expect(log.steps.map((x) => x.step.kind)).toEqual(['apply', 'controller', 'apply']);
    const b = host(laterSandbox().factory);
    await b.host.importState(log);
    const cb = engine(b.host);
    expect(cb.now()).toBe(c.now());
    expect(
      cb
        .objects()
        .filter((o) => o.metadata.namespace === 'default')
        .map(key),
    ).toEqual(
      c
        .objects()
        .filter((o) => o.metadata.namespace === 'default')
        .map(key),
    );
    expect(cb.relay.all().map((h) => `${h.seq} ${h.time} ${h.from}>${h.to} ${h.summary}`)).toEqual(
      hops.map((h) => `${h.seq} ${h.time} ${h.from}>${h.to} ${h.summary}`),
    );
    expect(b.host.controllers()).toMatchObject([{ name: 'website-controller', state: 'running' }]);
    // the replayed controller keeps running: a new Website is reconciled
    b.host.play();
    b.host.apply(ex('website.yaml').replace('name: blog', 'name: shop'));
    await b.run(3000);
    expect(cb.get('deployments.apps', 'default', 'shop')?.metadata.ownerReferences?.[0].name).toBe('shop');
  });

  it('stop and a failed start are recorded and replayed; a looping controller is stopped at the limit and reported', async () => {
    const a = host(laterSandbox(100).factory);
    a.host.apply(ex('website-crd.yaml'));
    await a.run(200);
    expect(a.host.startController({ name: 'x', source: 'export function reconcile() {}' }).error).toBe(
      'no kind to reconcile: add a `// +kube-relay:for=RESOURCE` line (e.g. websites.demo.kube-relay.dev)',
    );
    a.host.startController({
      name: 'loop',
      source: '// +kube-relay:for=websites.demo.kube-relay.dev\nexport function reconcile() { for (;;) {} }',
    });
    a.host.apply(ex('website.yaml'));
    await a.run(1000);
    const warn = a.batches.flatMap((b) => b.events).filter((e) => e.object.reason === 'ReconcileError');
    expect(warn.at(-1)?.object.message).toBe(
      'Reconciler error: reconcile did not finish within the 100 ms CPU limit: the sandbox was stopped and restarted',
    );
    a.host.stopController('loop');
    await a.run(200);
    const log = structuredClone(a.host.exportState());
    expect(log.steps.map((x) => x.step.kind)).toEqual(['apply', 'controller', 'controller', 'apply', 'stopController']);
    const b = host(laterSandbox(100).factory);
    await b.host.importState(log);
    expect(b.host.controllers().map((s) => [s.name, s.state])).toEqual([
      ['loop', 'stopped'],
      ['x', 'failed'],
    ]);
    expect(
      engine(b.host)
        .events()
        .filter((e) => e.reason === 'ReconcileError')
        .map((e) => e.message),
    ).toEqual(
      engine(a.host)
        .events()
        .filter((e) => e.reason === 'ReconcileError')
        .map((e) => e.message),
    );
  });

  it('a controller a tour started (a scenario step) is replayed the same way', async () => {
    const a = host(laterSandbox().factory);
    a.host.runScenarioSteps([
      { kind: 'apply', manifest: ex('website-crd.yaml') },
      { kind: 'controller', name: 'website-controller', source: WEBSITE.code },
      { kind: 'apply', manifest: ex('website.yaml') },
    ]);
    a.host.setSpeed(10);
    await a.run(3000);
    const c = engine(a.host);
    expect(c.get('deployments.apps', 'default', 'blog')?.metadata.ownerReferences?.[0].name).toBe('blog');
    const log = structuredClone(a.host.exportState());
    expect(log.steps.map((x) => x.step.kind)).toEqual(['apply', 'controller', 'apply']);
    const b = host(laterSandbox().factory);
    const replay = b.host.importState(log);
    expect(replay).toBeInstanceOf(Promise);
    await replay;
    expect(
      engine(b.host)
        .objects()
        .filter((o) => o.metadata.namespace === 'default')
        .map(key),
    ).toEqual(
      c
        .objects()
        .filter((o) => o.metadata.namespace === 'default')
        .map(key),
    );
  });
});
