import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';

function ds(name: string, extra: Record<string, unknown> = {}, image = 'nginx:1.25'): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }], ...extra } },
    },
  });
}
const podsOf = (c: Cluster, ns: string, app: string) =>
  c.list('pods', ns).filter((p) => p.metadata.labels?.app === app || p.metadata.labels?.['app.kubernetes.io/name'] === app);
const nodesOf = (pods: KObject[]) => pods.map((p) => p.spec.nodeName).sort();
const dsEvents = (c: Cluster) =>
  c
    .events()
    .filter((e) => e.source.component === 'daemonset-controller')
    .map((e) => `${e.reason}: ${e.message}`);

describe('DaemonSetsController (real cluster)', () => {
  it('one Pod per worker node, none on the tainted control-plane node; default tolerations and node-name affinity', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(ds('agent'));
    expect(c.settle(5 * 60_000)).toBe(true);
    const pods = podsOf(c, 'default', 'agent');
    expect(nodesOf(pods)).toEqual(['node-1', 'node-2', 'node-3']);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^agent-[a-z0-9]{5}$/);
      expect(p.status.phase).toBe('Running');
      expect(p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] }],
      });
      expect(p.spec.tolerations.filter((t: KObject) => t.operator === 'Exists').map((t: KObject) => `${t.key}:${t.effect}`)).toEqual([
        'node.kubernetes.io/not-ready:NoExecute',
        'node.kubernetes.io/unreachable:NoExecute',
        'node.kubernetes.io/disk-pressure:NoSchedule',
        'node.kubernetes.io/memory-pressure:NoSchedule',
        'node.kubernetes.io/pid-pressure:NoSchedule',
        'node.kubernetes.io/unschedulable:NoSchedule',
      ]);
      expect(p.metadata.labels?.['pod-template-generation']).toBe('1');
    }
    const revs = c.list('controllerrevisions.apps', 'default');
    expect(revs.map((r) => [r.metadata.name, r.revision])).toEqual([[`agent-${pods[0].metadata.labels?.['controller-revision-hash']}`, 1]]);
    expect(dsEvents(c).sort()).toEqual(pods.map((p) => `SuccessfulCreate: Created pod: ${p.metadata.name}`).sort());
    expect(c.get('daemonsets.apps', 'default', 'agent')!.status).toEqual({
      currentNumberScheduled: 3,
      desiredNumberScheduled: 3,
      numberMisscheduled: 0,
      numberReady: 3,
      numberAvailable: 3,
      updatedNumberScheduled: 3,
      observedGeneration: 1,
    });
  });

  it('node-exporter (kube-prometheus) tolerates everything: a Pod on the control-plane node too', () => {
    const c = new Cluster({ seed: 1 });
    const res = c.apply(
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: monitoring}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: node-exporter, namespace: monitoring}\n---\n' +
        readFileSync('src/examples/real/node-exporter-daemonset.yaml', 'utf8'),
    );
    expect(res.find((r) => r.object === 'daemonset.apps/node-exporter')?.action).toBe('created');
    c.settle(5 * 60_000);
    const pods = podsOf(c, 'monitoring', 'node-exporter');
    expect(nodesOf(pods)).toEqual(['control-plane', 'node-1', 'node-2', 'node-3']);
    // hostNetwork: network-unavailable is tolerated as well
    expect(pods[0].spec.tolerations.some((t: KObject) => t.key === 'node.kubernetes.io/network-unavailable')).toBe(true);
    expect(c.get('daemonsets.apps', 'monitoring', 'node-exporter')!.status).toMatchObject({ desiredNumberScheduled: 4, numberReady: 4 });
  });

  it('follows nodes: addNode gets a Pod; a killed node keeps its Pod (unreachable:NoExecute tolerated) but, tainted unreachable:NoSchedule, it counts as misscheduled', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(ds('agent'));
    c.settle(5 * 60_000);
    c.addNode({ name: 'node-4' });
    c.settle(5 * 60_000);
    expect(nodesOf(podsOf(c, 'default', 'agent'))).toEqual(['node-1', 'node-2', 'node-3', 'node-4']);
    c.killNode('node-1');
    c.settle(15 * 60_000);
    const pods = podsOf(c, 'default', 'agent');
    expect(nodesOf(pods)).toEqual(['node-1', 'node-2', 'node-3', 'node-4']);
    expect(c.get('daemonsets.apps', 'default', 'agent')!.status).toMatchObject({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberMisscheduled: 1,
      numberReady: 3,
      numberAvailable: 3,
    });
  });

  it('nodeSelector: only matching nodes', () => {
    const c = new Cluster({ seed: 1 });
    c.addNode({ name: 'gpu-1', labels: { gpu: 'true' } });
    c.apply(ds('gpu', { nodeSelector: { gpu: 'true' } }));
    c.settle(5 * 60_000);
    expect(nodesOf(podsOf(c, 'default', 'gpu'))).toEqual(['gpu-1']);
  });

  it('RollingUpdate replaces Pods one node at a time (maxUnavailable 1) and records revision 2', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(ds('agent'));
    c.settle(5 * 60_000);
    const before = podsOf(c, 'default', 'agent').map((p) => p.metadata.name);
    c.apply(ds('agent', {}, 'nginx:1.26'));
    let maxGone = 0;
    for (let i = 0; i < 600; i++) {
      c.advance(500);
      const live = podsOf(c, 'default', 'agent').filter(
        (p) => !p.metadata.deletionTimestamp && p.status.conditions?.some((x: KObject) => x.type === 'Ready' && x.status === 'True'),
      );
      maxGone = Math.max(maxGone, 3 - live.length);
    }
    const after = podsOf(c, 'default', 'agent');
    expect(after.map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.26', 'nginx:1.26', 'nginx:1.26']);
    expect(after.some((p) => before.includes(p.metadata.name))).toBe(false);
    expect(maxGone).toBe(1);
    expect(
      c
        .list('controllerrevisions.apps', 'default')
        .map((r) => r.revision)
        .sort(),
    ).toEqual([1, 2]);
    expect(dsEvents(c).filter((e) => e.startsWith('SuccessfulDelete')).length).toBe(3);
  });
});
