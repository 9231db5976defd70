import { describe, expect, it } from 'vitest';
import { testHost } from './test-host';
import type { TickBatch } from './protocol';

/** Control-plane Nodes the batches of the latest generation added. */
const cpNodes = (batches: TickBatch[]) => {
  const gen = batches.at(-1)!.gen;
  const names = new Set<string>();
  for (const b of batches)
    if (b.gen === gen)
      for (const c of b.changes)
        if (c.object.kind === 'Node' && c.object.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined)
          names.add(c.object.metadata.name);
  return [...names].sort();
};

describe('ClusterHost.setControlPlaneReplicas (the HA button)', () => {
  it('starts over with 3 control-plane nodes; the session log names them and a replay boots the same', () => {
    const h = testHost();
    h.run(100);
    h.host.setControlPlaneReplicas(3);
    h.run(100);
    expect(cpNodes(h.batches)).toEqual(['control-plane', 'control-plane2', 'control-plane3']);
    h.host.killNode('control-plane');
    h.run(200);
    const log = h.host.exportState();
    expect(log.cluster).toEqual({ seed: 1, nodes: 3, controlPlane: { replicas: 3 } });
    expect(log.steps.map((e) => e.step.kind)).toEqual(['killNode']);
    // a reset keeps the choice
    h.host.reset();
    expect(h.host.exportState().cluster).toEqual({ seed: 1, nodes: 3, controlPlane: { replicas: 3 } });

    const fresh = testHost();
    fresh.host.importState(log);
    fresh.run(100);
    expect(cpNodes(fresh.batches)).toEqual(['control-plane', 'control-plane2', 'control-plane3']);
    expect(fresh.host.exportState().cluster).toEqual({ seed: 1, nodes: 3, controlPlane: { replicas: 3 } });
    h.host.dispose();
    fresh.host.dispose();
  });

  it('1 goes back to the default cluster (session options as before); other counts throw', () => {
    const h = testHost();
    h.host.setControlPlaneReplicas(3);
    h.host.setControlPlaneReplicas(1);
    expect(h.host.exportState().cluster).toEqual({ seed: 1, nodes: 3 });
    expect(() => h.host.setControlPlaneReplicas(2)).toThrow('unsupported control-plane replicas 2 (1 or 3)');
    h.host.dispose();
  });
});
