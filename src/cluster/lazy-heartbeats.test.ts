import { describe, expect, it } from 'vitest';
import { Cluster, LAZY_HEARTBEAT_NODES } from './cluster';
import { users } from './client/clientset';
import { BUILTIN_RESOURCES } from './api/resources';
import type { KObject } from './api/types';

// The lazy node heartbeats (sim/heartbeats.ts, docs/time-model.md#lazy-node-heartbeats) claim to be
// exactly equivalent to the eager renewals and reports in everything but resourceVersions, relay
// hops and same-instant timer order: each case runs one cluster both ways and compares.

type Run = (c: Cluster) => string[];

/** resourceVersions and the managedFields times differ by design (one write stands for several). */
function mask(s: string): string {
  return s.replace(/resourceVersion: "\d+"/g, 'resourceVersion: RV').replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"RV"');
}

function watchAs(c: Cluster, resource: 'leases' | 'nodes', namespace: string | undefined, out: string[]): () => void {
  const info = BUILTIN_RESOURCES.find((r) => r.resource === resource)!;
  const api = (c as unknown as { api: { watch: (...a: unknown[]) => () => void } }).api;
  return api.watch(users.kubectl(), info, namespace, {}, (ev: { type: string; object: KObject }) => {
    const o = ev.object;
    const beat =
      resource === 'leases'
        ? `${o.spec?.renewTime} generation ${o.metadata.generation}`
        : (o.status?.conditions ?? []).map((x: KObject) => `${x.type}=${x.status}@${x.lastHeartbeatTime}`).join(' ');
    out.push(`${new Date(c.now()).toISOString()} ${ev.type} ${o.metadata.name} ${beat}`);
  });
}

/** The first simulated time (1 s steps) at which node's Ready condition is not True, within `ms`. */
function notReadyAt(c: Cluster, node: string, ms: number): string {
  const end = c.now() + ms;
  while (c.now() < end) {
    c.advance(1_000);
    const ready = (c.get('nodes', '', node)?.status?.conditions ?? []).find((x: KObject) => x.type === 'Ready');
    if (ready?.status !== 'True') return `${new Date(c.now()).toISOString()} Ready=${ready?.status}`;
  }
  return 'still Ready';
}

const cases: [string, Run][] = [
  ['kubectl get lease -o yaml after 2 min', (c) => (c.advance(123_456), [c.kubectl('get lease -n kube-node-lease -o yaml').output])],
  [
    'kubectl get nodes -o yaml after 12 min (two 5 min reports)',
    (c) => (c.advance(12 * 60_000 + 3_210), [c.kubectl('get nodes -o yaml').output, c.kubectl('describe node node-1').output]),
  ],
  [
    'a Lease watcher sees every renewal, then the lazy path resumes',
    (c) => {
      c.advance(61_000);
      const seen: string[] = [];
      const stop = watchAs(c, 'leases', 'kube-node-lease', seen);
      c.advance(35_000);
      stop();
      c.advance(200_000);
      return [seen.join('\n'), c.kubectl('get lease -n kube-node-lease node-2 -o yaml').output];
    },
  ],
  [
    'a Node watcher sees every status report',
    (c) => {
      c.advance(200_000);
      const seen: string[] = [];
      const stop = watchAs(c, 'nodes', undefined, seen);
      c.advance(400_000);
      stop();
      c.advance(301_000);
      return [seen.join('\n'), c.kubectl('get node node-3 -o yaml').output];
    },
  ],
  [
    'killNode: NotReady time, conditions, taints, Events, deadlines',
    (c) => {
      c.advance(47_123);
      c.killNode('node-2');
      const at = notReadyAt(c, 'node-2', 120_000);
      const deadlines = JSON.stringify(c.deadlines());
      c.advance(400_000);
      return [
        at,
        deadlines,
        c.kubectl('describe node node-2').output,
        c.kubectl('get events -A').output,
        c.kubectl('get lease -n kube-node-lease -o yaml').output,
      ];
    },
  ],
  [
    'killNode after 20 idle minutes, then settle and restoreNode',
    (c) => {
      c.advance(20 * 60_000 + 7_777);
      c.killNode('node-3');
      const settled = c.settle(900_000);
      const when = new Date(c.now()).toISOString();
      c.restoreNode('node-3');
      c.advance(120_000);
      return [
        `${settled} ${when}`,
        c.kubectl('get nodes').output,
        c.kubectl('describe node node-3').output,
        c.kubectl('get events -A').output,
      ];
    },
  ],
  [
    'a Pod pulls its image while a report is due',
    (c) => {
      c.advance(4 * 60_000 + 55_000);
      c.apply(
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  nodeName: node-1\n  containers:\n  - name: web\n    image: nginx:1.27\n',
      );
      c.advance(600_000);
      return [c.kubectl('get node node-1 -o yaml').output, c.kubectl('get pods -o wide').output];
    },
  ],
  [
    'a Node labelled and annotated between reports',
    (c) => {
      c.advance(3 * 60_000 + 1_234);
      c.kubectl('label node node-1 tier=web');
      c.advance(4 * 60_000);
      c.kubectl('annotate node node-2 note=x');
      c.advance(7 * 60_000);
      return [c.kubectl('get nodes -o yaml').output, c.kubectl('get events -A').output];
    },
  ],
  [
    'a Deployment, then its nodes killed one by one: NotReady Pods, taints, evictions, disruption',
    (c) => {
      c.apply(
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 6\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n',
      );
      c.advance(6 * 60_000);
      const out: string[] = [];
      for (const node of ['node-1', 'node-2', 'node-3', 'node-4']) {
        c.killNode(node);
        c.advance(97_000);
        out.push(c.kubectl('get pods -o wide').output, c.kubectl('get nodes').output);
      }
      c.advance(600_000);
      out.push(c.kubectl('get events -A').output, c.kubectl('describe nodes').output);
      return out;
    },
  ],
];

describe('lazy node heartbeats are exactly equivalent to eager ones', () => {
  it.each(cases)('%s', (_name, run) => {
    const eager = run(new Cluster({ seed: 1, nodes: 4, lazyHeartbeats: false })).map(mask);
    const lazy = run(new Cluster({ seed: 1, nodes: 4, lazyHeartbeats: true })).map(mask);
    expect(lazy).toEqual(eager);
  });

  it('the lazy path writes no idle renewal and almost no idle report', () => {
    const writes = (lazy: boolean) => {
      const c = new Cluster({ seed: 1, nodes: 4, lazyHeartbeats: lazy });
      const n = { leases: 0, nodes: 0 };
      const store = (c as unknown as { api: { store: { listen: (l: (ev: { resource: string; key: string }) => void) => void } } }).api
        .store;
      store.listen((ev) => {
        if (ev.resource === 'leases.coordination.k8s.io' && ev.key.startsWith('kube-node-lease/')) n.leases++;
        if (ev.resource === 'nodes') n.nodes++;
      });
      c.advance(3_600_000);
      return n;
    };
    // eager: 5 kubelets × 360 renewals and × 12 reports; lazy: the reports written when the
    // kubelets' ServiceAccount token refreshes read the Node (two in this hour)
    expect(writes(false)).toEqual({ leases: 1800, nodes: 60 });
    expect(writes(true)).toEqual({ leases: 0, nodes: 2 });
  });

  it('is off by default below 1,000 nodes', () => {
    expect(new Cluster({ seed: 1, nodes: 3 }).ctx.heartbeats.enabled).toBe(false);
    expect(LAZY_HEARTBEAT_NODES).toBe(1000);
  });
});
