import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import { describeRow } from '../kubectl/printers';

const PEEKCART = readFileSync(new URL('../../scenarios/peekcart.yaml', import.meta.url), 'utf8');

describe('PodGCController', () => {
  it('removing a node: its Pods are force-deleted after the 40 s quarantine and replaced elsewhere', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(PEEKCART);
    c.settle(120_000);
    const victim = c.list('pods', 'default')[0];
    const node = victim.spec.nodeName;
    const t0 = c.now();
    c.removeNode(node);
    expect(c.get('nodes', '', node)).toBeUndefined();
    expect(c.get('machines.sim.kube-relay.dev', '', node)).toBeUndefined();
    expect(c.settle(5 * 60_000)).toBe(true);
    const gone = c.relay
      .all()
      .find((h) => h.from === 'pod-garbage-collector-controller' && h.kind === 'decision' && h.name === victim.metadata.name);
    expect(gone?.summary).toBe(`force delete Pod default/${victim.metadata.name}: node ${node} no longer exists`);
    // first seen missing at a 20 s pass, deleted at the first pass 40 s later
    const after = (gone!.time - t0) / 1000;
    expect(after).toBeGreaterThanOrEqual(40);
    expect(after).toBeLessThanOrEqual(80);
    const pods = c.list('pods', 'default');
    expect(pods.map((p) => describeRow(p).status)).toEqual(['Running', 'Running', 'Running']);
    expect(pods.every((p) => p.spec.nodeName !== node)).toBe(true);
    expect(c.kubectl('get nodes').output.split('\n').filter(Boolean)).toHaveLength(4); // header, control-plane, 2 workers
  });

  it('a terminating Pod that was never scheduled is force-deleted', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(`apiVersion: v1
kind: Pod
metadata: {name: stuck, finalizers: [example.com/hold]}
spec:
  nodeSelector: {disk: none}
  containers: [{name: c, image: nginx:1.27}]
`);
    c.advance(2_000);
    c.kubectl('delete pod stuck --wait=false');
    const p = c.get('pods', 'default', 'stuck');
    expect(p?.metadata.deletionTimestamp).toBeDefined();
    c.advance(25_000);
    // force delete sets grace 0; the finalizer still holds it until removed
    const hop = c.relay.all().find((h) => h.from === 'pod-garbage-collector-controller' && h.name === 'stuck');
    expect(hop?.summary).toBe('force delete Pod default/stuck: terminating and never scheduled');
  });
});
