import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { Pod } from '../api/objects';

describe('a node reboot keeps container IDs as the runtime reports them', () => {
  it('a completed init container and the last state of a restarted one keep one "containerd://" prefix', () => {
    const c = new Cluster({ seed: 1 });
    c.advance(5000);
    c.apply(`apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  nodeName: node-1
  initContainers: [{name: init, image: busybox, command: ["true"]}]
  containers: [{name: c, image: nginx}]
`);
    c.advance(30_000);
    const ids = () => {
      const p = c.get('pods', 'default', 'p') as Pod;
      return [
        p.status?.initContainerStatuses?.[0]?.state?.terminated?.containerID,
        p.status?.containerStatuses?.[0]?.lastState?.terminated?.containerID,
      ];
    };
    const [initBefore] = ids();
    c.killNode('node-1');
    c.advance(20_000);
    c.restoreNode('node-1');
    c.advance(60_000);
    const [initAfter, last] = ids();
    expect(initAfter).toBe(initBefore);
    expect(initAfter).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(last).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
  });
});
