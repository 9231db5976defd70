import { describe, expect, it } from 'vitest';
import { proxyTestEnv } from './proxy.fixture';
import { KubeProxy } from './kube-proxy';
import { RulesetCache } from './ruleset-cache';

const NODES = ['node-1', 'node-2', 'node-3', 'node-4', 'node-5'];
const ENDPOINTS = [
  { ip: '10.244.1.5', pod: 'web-a', node: 'node-1' },
  { ip: '10.244.2.6', pod: 'web-b', node: 'node-2' },
];

/** Five nodes, a Service with endpoints on node-1 and node-2; kube-proxies with a shared cache and without. */
function cluster(spec: Record<string, unknown>) {
  const env = proxyTestEnv();
  NODES.forEach((n, i) => env.node(n, `172.18.0.${i + 2}`));
  env.service('web', { clusterIP: '10.96.0.20', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }], ...spec });
  const slice = env.slice('web', [{ port: 8080 }], ENDPOINTS);
  const cache = new RulesetCache();
  const shared = NODES.map((n) => new KubeProxy(env.ctx, n, { rulesetCache: cache }));
  const own = NODES.map((n) => new KubeProxy(env.ctx, n));
  for (const kp of [...shared, ...own]) kp.start();
  return { env, slice, cache, shared, own };
}

describe('kube-proxy ruleset cache', () => {
  const cases: { name: string; spec: Record<string, unknown>; sameText: [string, string][]; otherText: [string, string][] }[] = [
    {
      name: 'cluster traffic policy: every node the same rules',
      spec: {},
      sameText: [
        ['node-1', 'node-4'],
        ['node-4', 'node-5'],
      ],
      otherText: [],
    },
    {
      name: 'internalTrafficPolicy Local: rules differ where an endpoint is local',
      spec: { internalTrafficPolicy: 'Local' },
      sameText: [['node-4', 'node-5']],
      otherText: [
        ['node-1', 'node-2'],
        ['node-1', 'node-4'],
      ],
    },
  ];
  it.each(cases)('$name', ({ spec, sameText, otherText }) => {
    const { cache, shared, own } = cluster(spec);
    const at = (n: string) => NODES.indexOf(n);
    // each node's rules are what it computes on its own
    for (let i = 0; i < NODES.length; i++) {
      expect(shared[i].rules()).toBe(own[i].rules());
      expect(shared[i].ruleset()).toEqual(own[i].ruleset());
    }
    for (const [a, b] of sameText) expect(shared[at(a)].rules()).toBe(shared[at(b)].rules());
    for (const [a, b] of otherText) expect(shared[at(a)].rules()).not.toBe(shared[at(b)].rules());
    // node-4 and node-5 see the same state (no local endpoint): one result object for both
    expect(shared[at('node-4')].ruleset()).toBe(shared[at('node-5')].ruleset());
    // node-1 and node-2 each have a local endpoint: their results are their own
    expect(shared[at('node-1')].ruleset()).not.toBe(shared[at('node-4')].ruleset());
    expect(shared[at('node-1')].ruleset()).not.toBe(shared[at('node-2')].ruleset());
    // three distinct states (local on node-1, local on node-2, none): three computed, two answered
    expect(cache.size).toBe(3);
    expect(cache.hits).toBe(2);
  });

  it('records the same relay hop with and without the cache, after an endpoint change', () => {
    const { env, slice, shared, own } = cluster({});
    env.updateSlice(slice, [{ port: 8080 }], [...ENDPOINTS, { ip: '10.244.3.7', pod: 'web-c', node: 'node-3' }]);
    env.clock.advance(2_000);
    const hops = env.relay.all().filter((h) => h.kind === 'decision' && h.summary.startsWith('synced'));
    const last = (p: string) => hops.filter((h) => h.from === p).at(-1)!.summary;
    for (let i = 0; i < NODES.length; i++) {
      expect(last(shared[i].participant)).toBe('synced 20 rules: default/web → 3 endpoints');
      expect(last(own[i].participant)).toBe('synced 20 rules: default/web → 3 endpoints');
      expect(shared[i].rules()).toBe(own[i].rules());
    }
    expect(shared[3].syncCount).toBe(2);
  });
});
