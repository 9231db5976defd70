import { describe, expect, it } from 'vitest';
import type { ActionStory, RelayHop } from '../relay-event';
import {
  causesOf,
  foldPerNodeReactions,
  foldResponses,
  foldWatches,
  groupByReconciliation,
  ontoKubeletLane,
  storyHops,
  type DrawnHop,
} from './story';
import { actionWindow, DEFAULT_SEQUENCE_VIEW } from './window';
import { DEFAULT_SEQUENCE_OPTIONS, renderSequence } from './to-mermaid';
import { laneLabel, wrapText } from './fit-text';

/**
 * An abridged relay of the seed's apply, shaped as the engine records it (seqs as in a real
 * run): a heartbeat before, kubectl's get/create, the etcd write, the watch delivered to two
 * informers, the deployment-controller's reconciliation, the ReplicaSet delivered to three,
 * the Service delivered to two kube-proxies that each resync alike, a Lease renewal nobody's
 * action caused, a kubelet ↔ containerd call.
 */
function relay(): RelayHop[] {
  const h = (
    seq: number,
    cause: number | null,
    from: string,
    to: string,
    kind: RelayHop['kind'],
    summary: string,
    extra: Partial<RelayHop> = {},
  ): RelayHop => ({ seq, time: seq, cause, from, to, kind, summary, ...extra });
  const dep = { resource: 'deployments', namespace: 'default', name: 'peekcart' };
  const rs = { resource: 'replicasets', namespace: 'default', name: 'peekcart-57f6cd6664' };
  const svc = { resource: 'services', namespace: 'default', name: 'peekcart' };
  return [
    h(9, null, 'kubelet/node-1', 'kube-apiserver', 'request', 'renew Lease kube-node-lease/node-1', { category: 'heartbeat' }),
    h(10, null, 'kubectl', 'kube-apiserver', 'request', 'get Deployment default/peekcart', dep),
    h(11, 10, 'kube-apiserver', 'kubectl', 'response', '404 NotFound', dep),
    h(12, null, 'kubectl', 'kube-apiserver', 'request', 'create Deployment default/peekcart', dep),
    h(13, 12, 'kube-apiserver', 'kube-apiserver', 'note', 'authn kubernetes-admin · authz allow create deployments · admission', {
      category: 'admission',
    }),
    h(14, 12, 'kube-apiserver', 'etcd', 'request', 'put /registry/deployments.apps/default/peekcart (rev 121)', { category: 'storage' }),
    h(15, 12, 'kube-apiserver', 'kubectl', 'response', '201 Created Deployment default/peekcart', dep),
    h(16, null, 'kubectl', 'kube-apiserver', 'request', 'create Service default/peekcart', svc),
    h(17, 16, 'kube-apiserver', 'kubectl', 'response', '201 Created Service default/peekcart', svc),
    // the action ends at 17
    h(20, 12, 'kube-apiserver', 'deployment-controller', 'watch', 'watch ADDED Deployment default/peekcart', {
      ...dep,
      verb: 'ADDED',
      resourceVersion: '121',
    }),
    h(21, 12, 'kube-apiserver', 'garbage-collector-controller', 'watch', 'watch ADDED Deployment default/peekcart', {
      ...dep,
      verb: 'ADDED',
      resourceVersion: '121',
    }),
    h(22, 16, 'kube-apiserver', 'kube-proxy/node-1', 'watch', 'watch ADDED Service default/peekcart', {
      ...svc,
      verb: 'ADDED',
      resourceVersion: '122',
    }),
    h(23, 16, 'kube-apiserver', 'kube-proxy/node-2', 'watch', 'watch ADDED Service default/peekcart', {
      ...svc,
      verb: 'ADDED',
      resourceVersion: '122',
    }),
    h(
      24,
      20,
      'deployment-controller',
      'deployment-controller',
      'decision',
      'no ReplicaSet matches the pod template → create ReplicaSet peekcart-57f6cd6664',
      { ...dep, reconcile: 7, note: 'new ReplicaSet peekcart-57f6cd6664 (revision 1) → 3 of 3 replicas' },
    ),
    h(25, 24, 'deployment-controller', 'kube-apiserver', 'request', 'create ReplicaSet default/peekcart-57f6cd6664', {
      ...rs,
      reconcile: 7,
    }),
    h(26, 22, 'kube-proxy/node-1', 'kube-proxy/node-1', 'decision', 'synced 39 rules: default/peekcart → no endpoints (REJECT)'),
    h(27, 25, 'kube-apiserver', 'etcd', 'request', 'put /registry/replicasets.apps/default/peekcart-57f6cd6664 (rev 123)', {
      category: 'storage',
      reconcile: 7,
    }),
    h(28, 23, 'kube-proxy/node-2', 'kube-proxy/node-2', 'decision', 'synced 39 rules: default/peekcart → no endpoints (REJECT)'),
    h(29, 25, 'kube-apiserver', 'deployment-controller', 'response', '201 Created ReplicaSet default/peekcart-57f6cd6664', {
      ...rs,
      reconcile: 7,
    }),
    h(30, null, 'kubelet/node-2', 'kube-apiserver', 'request', 'renew Lease kube-node-lease/node-2', { category: 'heartbeat' }),
    h(31, 25, 'kube-apiserver', 'replicaset-controller', 'watch', 'watch ADDED ReplicaSet default/peekcart-57f6cd6664', {
      ...rs,
      verb: 'ADDED',
      resourceVersion: '123',
    }),
    h(32, 25, 'kube-apiserver', 'deployment-controller', 'watch', 'watch ADDED ReplicaSet default/peekcart-57f6cd6664', {
      ...rs,
      verb: 'ADDED',
      resourceVersion: '123',
    }),
    h(33, 25, 'kube-apiserver', 'garbage-collector-controller', 'watch', 'watch ADDED ReplicaSet default/peekcart-57f6cd6664', {
      ...rs,
      verb: 'ADDED',
      resourceVersion: '123',
    }),
    h(34, 31, 'replicaset-controller', 'replicaset-controller', 'decision', 'desired 3 ≠ current 0 → create 3 Pods', {
      ...rs,
      reconcile: 8,
      note: 'desired 3 ≠ current 0 → create 3 Pods',
    }),
    h(35, 30, 'kube-apiserver', 'kubelet/node-2', 'response', '200 OK Lease kube-node-lease/node-2', { category: 'heartbeat' }),
    h(
      36,
      34,
      'replicaset-controller',
      'kube-apiserver',
      'request',
      'create Pod default/peekcart-57f6cd6664-<generated> for ReplicaSet peekcart-57f6cd6664',
      { resource: 'pods', namespace: 'default', name: 'peekcart-57f6cd6664-<generated>', reconcile: 8 },
    ),
    h(37, 36, 'kube-apiserver', 'replicaset-controller', 'response', '201 Created Pod default/peekcart-57f6cd6664-t7jc6', {
      resource: 'pods',
      namespace: 'default',
      name: 'peekcart-57f6cd6664-t7jc6',
      reconcile: 8,
    }),
    h(38, 34, 'replicaset-controller', 'kube-apiserver', 'request', 'update status ReplicaSet default/peekcart-57f6cd6664', {
      ...rs,
      reconcile: 8,
    }),
    h(
      39,
      38,
      'kube-apiserver',
      'replicaset-controller',
      'response',
      '409 Conflict: Operation cannot be fulfilled on replicasets.apps "peekcart-57f6cd6664"',
      { ...rs, reconcile: 8 },
    ),
    h(40, 36, 'kubelet/node-2', 'containerd/node-2', 'request', 'PullImage ghcr.io/peekcart/peekcart:1.0.0'),
    h(41, 40, 'containerd/node-2', 'kubelet/node-2', 'response', 'image ghcr.io/peekcart/peekcart:1.0.0 (sha256:375808f0b1cb)'),
  ];
}

const APPLY: ActionStory = { seq: 10, endSeq: 17, label: 'apply', subjects: [] };
const seqs = (hs: readonly RelayHop[]) => hs.map((h) => h.seq);

describe('storyHops: the action and what it caused', () => {
  const cases: { name: string; story: ActionStory; want: number[] }[] = [
    {
      name: 'an apply: its own hops, then everything they caused, never a heartbeat nor what came before',
      story: APPLY,
      want: [10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34, 36, 37, 38, 39, 40, 41],
    },
    {
      name: 'only the Service create: the Service deliveries and the kube-proxy resyncs',
      story: { seq: 16, endSeq: 17, label: 'kubectl', subjects: [] },
      want: [16, 17, 22, 23, 26, 28],
    },
    {
      name: "a subject's reconciliation joins although nothing of the action caused it (a killed node)",
      story: {
        seq: 16,
        endSeq: 17,
        label: 'kill',
        subjects: [{ resource: 'replicasets', namespace: 'default', name: 'peekcart-57f6cd6664' }],
      },
      want: [16, 17, 22, 23, 26, 28, 34, 36, 37, 38, 39, 40, 41],
    },
  ];
  it.each(cases)('$name', ({ story, want }) => {
    expect(seqs(storyHops(relay(), story))).toEqual(want);
  });
});

describe('foldWatches: a watch event drawn once', () => {
  const hops = storyHops(relay(), APPLY);
  it('one drawn hop per (event, object), to the first watcher that acted, naming every watcher', () => {
    const { hops: out, drawnAs } = foldWatches(hops, causesOf(hops), true);
    const watches = out.filter((h) => h.kind === 'watch');
    expect(watches.map((h) => [h.seq, h.to, h.watchers, h.acting])).toEqual([
      [20, 'deployment-controller', ['deployment-controller', 'garbage-collector-controller'], ['deployment-controller']],
      [22, 'kube-proxy ×2', ['kube-proxy/node-1', 'kube-proxy/node-2'], ['kube-proxy/node-1', 'kube-proxy/node-2']],
      [
        31,
        'replicaset-controller',
        ['replicaset-controller', 'deployment-controller', 'garbage-collector-controller'],
        ['replicaset-controller'],
      ],
    ]);
    expect([...drawnAs]).toEqual([
      [20, 20],
      [21, 20],
      [22, 22],
      [23, 22],
      [31, 31],
      [32, 31],
      [33, 31],
    ]);
  });
  it('in the last-N view a delivery nobody acted on is still drawn (once), to its first watcher', () => {
    const lone = relay().filter((h) => h.seq === 32 || h.seq === 33);
    const { hops: out } = foldWatches(lone, new Set(), false);
    expect(out.map((h) => [h.seq, h.to, h.watchers])).toEqual([
      [32, 'deployment-controller', ['deployment-controller', 'garbage-collector-controller']],
    ]);
    expect(foldWatches(lone, new Set(), true).hops).toEqual([]);
  });
  it('another resourceVersion is another event', () => {
    const two = relay().filter((h) => h.seq === 20 || h.seq === 21);
    two[1] = { ...two[1], resourceVersion: '125' };
    expect(foldWatches(two, new Set(), false).hops.map((h) => h.seq)).toEqual([20, 21]);
  });
});

describe('the other folds', () => {
  it('per-node agents reacting alike to one event: one note on their "×N" lane', () => {
    const hops = storyHops(relay(), APPLY);
    const { hops: w, drawnAs } = foldWatches(hops, causesOf(hops), true);
    const out = foldPerNodeReactions(w, drawnAs).filter((h) => h.summary.startsWith('synced'));
    expect(out.map((h) => [h.seq, h.from, h.to, h.actors, h.folded])).toEqual([
      [26, 'kube-proxy ×2', 'kube-proxy ×2', ['kube-proxy/node-1', 'kube-proxy/node-2'], [26, 28]],
    ]);
  });
  it("a success folds into its request (naming the generated Pod); kubectl's responses and errors stay arrows", () => {
    const out = foldResponses(relay().filter((h) => [10, 11, 36, 37, 38, 39].includes(h.seq)));
    expect(out.map((h) => [h.seq, h.summary])).toEqual([
      [10, 'get Deployment default/peekcart'],
      [11, '404 NotFound'],
      [36, 'create Pod default/peekcart-57f6cd6664-t7jc6 for ReplicaSet peekcart-57f6cd6664 → 201'],
      [38, 'update status ReplicaSet default/peekcart-57f6cd6664'],
      [39, '409 Conflict: Operation cannot be fulfilled on replicasets.apps "peekcart-57f6cd6664"'],
    ]);
  });
  it('kubelet ↔ containerd on the kubelet lane', () => {
    const [req, res] = relay().filter((h) => h.seq >= 40) as DrawnHop[];
    expect([ontoKubeletLane(req), ontoKubeletLane(res)].map((h) => [h.from, h.to, h.summary])).toEqual([
      ['kubelet/node-2', 'kubelet/node-2', '→ containerd: PullImage ghcr.io/peekcart/peekcart:1.0.0'],
      ['kubelet/node-2', 'kubelet/node-2', 'containerd: image ghcr.io/peekcart/peekcart:1.0.0 (sha256:375808f0b1cb)'],
    ]);
  });
  it('a reconciliation gathers at its first hop; the rest keeps its order', () => {
    const hs = relay().filter((h) => [24, 25, 26, 27, 28, 29].includes(h.seq));
    expect(seqs(groupByReconciliation(hs))).toEqual([24, 25, 27, 29, 26, 28]);
  });
});

describe('actionWindow: the default view', () => {
  it("draws the apply's story: kubectl first, each event once, folded responses, no admission, no heartbeat", () => {
    const out = actionWindow(relay(), APPLY, DEFAULT_SEQUENCE_OPTIONS, DEFAULT_SEQUENCE_VIEW);
    expect(out.map((h) => `${h.from} → ${h.to}: ${h.summary}`)).toEqual([
      'kubectl → kube-apiserver: get Deployment default/peekcart',
      'kube-apiserver → kubectl: 404 NotFound',
      'kubectl → kube-apiserver: create Deployment default/peekcart',
      'kube-apiserver → etcd: put /registry/deployments.apps/default/peekcart (rev 121)',
      'kube-apiserver → kubectl: 201 Created Deployment default/peekcart',
      'kubectl → kube-apiserver: create Service default/peekcart',
      'kube-apiserver → kubectl: 201 Created Service default/peekcart',
      'kube-apiserver → deployment-controller: watch ADDED Deployment default/peekcart',
      'kube-apiserver → kube-proxy ×2: watch ADDED Service default/peekcart',
      'deployment-controller → deployment-controller: no ReplicaSet matches the pod template → create ReplicaSet peekcart-57f6cd6664',
      'deployment-controller → kube-apiserver: create ReplicaSet default/peekcart-57f6cd6664 → 201',
      'kube-apiserver → etcd: put /registry/replicasets.apps/default/peekcart-57f6cd6664 (rev 123)',
      'kube-proxy ×2 → kube-proxy ×2: synced 39 rules: default/peekcart → no endpoints (REJECT)',
      'kube-apiserver → replicaset-controller: watch ADDED ReplicaSet default/peekcart-57f6cd6664',
      'replicaset-controller → replicaset-controller: desired 3 ≠ current 0 → create 3 Pods',
      'replicaset-controller → kube-apiserver: create Pod default/peekcart-57f6cd6664-t7jc6 for ReplicaSet peekcart-57f6cd6664 → 201',
      'replicaset-controller → kube-apiserver: update status ReplicaSet default/peekcart-57f6cd6664',
      'kube-apiserver → replicaset-controller: 409 Conflict: Operation cannot be fulfilled on replicasets.apps "peekcart-57f6cd6664"',
      'kubelet/node-2 → kubelet/node-2: → containerd: PullImage ghcr.io/peekcart/peekcart:1.0.0 → image ghcr.io/peekcart/peekcart:1.0.0 (sha256:375808f0b1cb)',
    ]);
  });
  it('with "background" it draws every hop from the action on, heartbeats included', () => {
    const out = actionWindow(relay(), APPLY, DEFAULT_SEQUENCE_OPTIONS, { ...DEFAULT_SEQUENCE_VIEW, background: true });
    expect(out.some((h) => h.summary === 'renew Lease kube-node-lease/node-2 → 200')).toBe(true);
    expect(out.some((h) => h.summary.startsWith('renew Lease kube-node-lease/node-1'))).toBe(false);
    expect(out.filter((h) => h.summary === 'watch ADDED ReplicaSet default/peekcart-57f6cd6664')).toHaveLength(1);
  });
  it('draws nothing before any action', () => {
    expect(actionWindow(relay(), null, DEFAULT_SEQUENCE_OPTIONS, DEFAULT_SEQUENCE_VIEW)).toEqual([]);
  });
});

describe('fitting text to the lanes', () => {
  const cases: { text: string; max: number; lines: number; want: string[]; cut: boolean }[] = [
    { text: 'get Deployment default/peekcart', max: 24, lines: 3, want: ['get Deployment', 'default/peekcart'], cut: false },
    {
      text: 'put …/deployments.apps/default/peekcart (rev 121)',
      max: 24,
      lines: 3,
      want: ['put …/deployments.apps/', 'default/peekcart (rev', '121)'],
      cut: false,
    },
    {
      text: 'create Pod default/peekcart-57f6cd6664-t7jc6 for ReplicaSet peekcart-57f6cd6664',
      max: 20,
      lines: 2,
      want: ['create Pod default/', 'peekcart-57f6cd6664…'],
      cut: true,
    },
  ];
  it.each(cases)('wrapText($text, $max, $lines)', ({ text, max, lines, want, cut }) => {
    expect(wrapText(text, max, lines)).toEqual({ lines: want, cut });
  });
  it.each([
    ['kubelet/node-1', ['kubelet/', 'node-1']],
    ['endpointslice-controller', ['endpointslice-', 'controller']],
    ['kube-proxy ×4', ['kube-proxy', '×4']],
    ['kube-apiserver', ['kube-', 'apiserver']],
    ['etcd', ['etcd']],
  ])('laneLabel(%s)', (name, want) => {
    expect(laneLabel(name, 12)).toEqual(want);
  });
  it('a fitted diagram maps every text line to its hop and gives it the whole text as title', () => {
    const hops = actionWindow(relay(), APPLY, DEFAULT_SEQUENCE_OPTIONS, DEFAULT_SEQUENCE_VIEW).slice(8, 9);
    const r = renderSequence(hops, 56, true, true, { laneChars: 20 });
    expect(r.text).toContain('participant P1 as nowrap:kube-proxy ×2\n');
    expect(r.text).toContain('P0--)P1: nowrap:watch ADDED<br/>Service<br/>default/peekcart\n');
    expect(r.messages).toEqual([22, 22, 22]);
    expect(r.messageTitles).toEqual(
      Array(3).fill(
        'watch ADDED Service default/peekcart — delivered to 2 watchers: kube-proxy/node-1, kube-proxy/node-2 — acted on by kube-proxy/node-1, kube-proxy/node-2',
      ),
    );
    expect(r.messageEvents).toEqual(Array(3).fill('ADDED services default/peekcart 122 16'));
  });
});
