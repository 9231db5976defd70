/**
 * The incremental per-ReplicaSet pod counts (replicaset-pods.ts) and the indexes they rest on
 * stay equal to a full recomputation over the informer cache, under random creates, updates
 * (labels, owner, phase, readiness) and deletes delivered by the watch.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { APIServer } from '../apiserver/apiserver';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { Client, users } from '../client/clientset';
import { newListWatchFromClient } from '../client/listwatch';
import { SharedInformer } from '../client/informer';
import { fromLabelSelector, matches } from '../api/labels';
import { getControllerOf, metaNamespaceKey } from '../api/types';
import type { Pod, ReplicaSet } from '../api/objects';
import { isPodActive, isPodReady } from './controller-utils';
import { ensurePodControllerUIDIndex, orphanPodIndexKey, PodControllerUIDIndex } from './replicaset';
import { ReplicaSetPodCounter, templateSelector } from './replicaset-pods';

const OWNERS = ['uid-a', 'uid-b', null] as const;
const RS: ReplicaSet[] = ['a', 'b'].map((n) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: `rs-${n}`, namespace: 'default', uid: `uid-${n}` },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web', tier: 'x' } } } },
}));

type Op =
  | { op: 'put'; name: number; owner: number; app: boolean; tier: boolean; phase: number; ready: boolean }
  | { op: 'delete'; name: number }
  | { op: 'advance' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('put' as const),
    name: fc.nat(9),
    owner: fc.nat(2),
    app: fc.boolean(),
    tier: fc.boolean(),
    phase: fc.nat(3),
    ready: fc.boolean(),
  }),
  fc.record({ op: fc.constant('delete' as const), name: fc.nat(9) }),
  fc.constant({ op: 'advance' as const }),
);

function setup() {
  const clock = new SimClock();
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, new Rng(7), relay, {});
  const u = users.kubectl();
  api.create(u, api.registry.forResource('', 'namespaces')!, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const podsInfo = api.registry.forResource('', 'pods')!;
  const client = new Client(api, users.controller('replicaset-controller'));
  const pods = new SharedInformer<Pod>(newListWatchFromClient<Pod>(client, '', 'pods'));
  ensurePodControllerUIDIndex(pods);
  const counter = new ReplicaSetPodCounter(pods);
  pods.start();
  return { clock, api, u, podsInfo, pods, counter };
}

function podObject(o: Extract<Op, { op: 'put' }>): Pod {
  const owner = OWNERS[o.owner];
  const labels: Record<string, string> = {};
  if (o.app) labels.app = 'web';
  if (o.tier) labels.tier = 'x';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p-${o.name}`,
      namespace: 'default',
      labels,
      ...(owner
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${owner.slice(4)}`, uid: owner, controller: true }] }
        : {}),
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
    status: {
      phase: ['Pending', 'Running', 'Succeeded', 'Failed'][o.phase],
      conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }],
    },
  };
}

/** What filterActivePods → claimObjects → calculateStatus count, from a full walk of the cache. */
function reference(pods: SharedInformer<Pod>, rs: ReplicaSet) {
  const sel = fromLabelSelector(rs.spec.selector);
  const tpl = templateSelector(rs.spec.template?.metadata?.labels ?? {});
  const r = { claimed: 0, unmatched: 0, fullyLabeled: 0, ready: 0 };
  for (const p of pods.list()) {
    if (getControllerOf(p)?.uid !== rs.metadata.uid || !isPodActive(p)) continue;
    if (!matches(sel, p.metadata.labels)) {
      r.unmatched++;
      continue;
    }
    r.claimed++;
    if (matches(tpl, p.metadata.labels)) r.fullyLabeled++;
    if (isPodReady(p)) r.ready++;
  }
  return r;
}

describe('ReplicaSetPodCounter (property)', () => {
  it('counts equal a full recomputation; the controller-UID index equals a filtered list', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 50 }), fc.boolean(), (ops, early) => {
        const { clock, api, u, podsInfo, pods, counter } = setup();
        // `early`: the counter builds its state before any pod exists (then only sees changes)
        if (early) for (const rs of RS) counter.counts(rs, fromLabelSelector(rs.spec.selector));
        const check = () => {
          for (const rs of RS) {
            const { claimed, unmatched, fullyLabeled, ready } = counter.counts(rs, fromLabelSelector(rs.spec.selector));
            expect({ claimed, unmatched, fullyLabeled, ready }).toEqual(reference(pods, rs));
          }
          for (const v of [...OWNERS.slice(0, 2), orphanPodIndexKey('default')]) {
            const want = pods
              .list()
              .filter((p) => (getControllerOf(p)?.uid ?? orphanPodIndexKey('default')) === v)
              .map(metaNamespaceKey)
              .sort();
            expect(pods.byIndex(PodControllerUIDIndex, v!).map(metaNamespaceKey).sort()).toEqual(want);
          }
        };
        for (const o of ops) {
          if (o.op === 'advance') {
            clock.advance(1_000);
            check();
            continue;
          }
          const name = `p-${o.name}`;
          const cur = api.store.get('pods', `default/${name}`)?.obj;
          if (o.op === 'delete') {
            if (cur) api.delete(u, podsInfo, 'default', name);
            continue;
          }
          const obj = podObject(o);
          if (cur)
            api.update(u, podsInfo, 'default', { ...obj, metadata: { ...obj.metadata, resourceVersion: cur.metadata.resourceVersion } });
          else api.create(u, podsInfo, 'default', obj);
        }
        clock.advance(1_000);
        check();
      }),
      { numRuns: 150 },
    );
  });

  it('forgets a ReplicaSet', () => {
    const { counter } = setup();
    counter.counts(RS[0], fromLabelSelector(RS[0].spec.selector));
    expect(counter.size).toBe(1);
    counter.forget('uid-a');
    expect(counter.size).toBe(0);
  });
});
