/**
 * `kubectl delete node` while the machine runs: the kubelet's registrationCompleted stays true,
 * so it keeps failing "error getting node" and does not re-register
 * (pkg/kubelet/kubelet_node_status.go; kubernetes/kubernetes#71398). The pod garbage collector
 * deletes the orphaned Pods after its 40 s quarantine and the ReplicaSet replaces them
 * elsewhere. A restart of the kubelet (the machine power-cycled) registers the Node again.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.14.2}]
`;

describe('kubectl delete node while its kubelet runs', () => {
  const c = new Cluster({ seed: 1 });
  c.apply(DEPLOY);
  c.settle(120_000);
  const onNode2 = () =>
    c
      .list('pods', 'default')
      .filter((p) => p.spec.nodeName === 'node-2')
      .map((p) => p.metadata.name);
  const before = onNode2();

  it('the Node stays deleted; its Pods are garbage-collected and replaced on the other nodes', () => {
    expect(before.length).toBeGreaterThan(0);
    expect(c.kubectl('delete node node-2').output).toBe('node "node-2" deleted\n');
    c.advance(120_000);
    expect(c.get('nodes', '', 'node-2')).toBeUndefined();
    expect(onNode2()).toEqual([]);
    const pods = c.list('pods', 'default');
    expect(pods.length).toBe(3);
    expect(pods.every((p) => p.status.phase === 'Running' && p.spec.nodeName !== 'node-2')).toBe(true);
  });

  it('a power cycle restarts the kubelet, which registers the Node again', () => {
    c.killNode('node-2');
    c.advance(5_000);
    c.restoreNode('node-2');
    c.advance(30_000);
    const node = c.get('nodes', '', 'node-2');
    expect(node?.status.conditions.find((x: { type: string }) => x.type === 'Ready').status).toBe('True');
  });
});
