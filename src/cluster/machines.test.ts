import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster';
import { describeRow } from './kubectl/printers';

describe('Machines (machines.sim.kube-relay.dev)', () => {
  it('every node has a Machine that is On', () => {
    const c = new Cluster({ seed: 1 });
    const ms = c.list('machines.sim.kube-relay.dev');
    expect(ms.map((m) => `${m.metadata.name}:${m.spec.power}:${m.status?.power}`)).toEqual([
      'control-plane:On:On',
      'node-1:On:On',
      'node-2:On:On',
      'node-3:On:On',
    ]);
    expect(c.kubectl('get machines').output).toBe(
      'NAME            POWER   STATE   AGE\ncontrol-plane   On      On      30s\nnode-1          On      On      30s\nnode-2          On      On      30s\nnode-3          On      On      30s\n',
    );
  });

  it('killNode is a write of spec.power=Off by kubectl; the machine controller powers the kubelet off', () => {
    const c = new Cluster({ seed: 1 });
    c.killNode('node-2');
    const write = c.relay.all().find((h) => h.from === 'kubectl' && h.resource === 'machines' && h.verb === 'update');
    expect(write?.summary).toBe('power off machine node-2 (spec.power=Off)');
    c.advance(10);
    expect(c.kubelet('node-2').powered).toBe(false);
    expect(c.get('machines.sim.kube-relay.dev', '', 'node-2')?.status.power).toBe('Off');
    c.advance(70_000);
    expect(describeRow(c.get('nodes', '', 'node-2')!).status).toBe('NotReady');
    c.restoreNode('node-2');
    c.advance(15_000);
    expect(c.kubelet('node-2').powered).toBe(true);
    expect(describeRow(c.get('nodes', '', 'node-2')!).status).toBe('Ready');
  });

  it('a Machine spec.power outside On|Off is rejected by the CRD schema', () => {
    const c = new Cluster({ seed: 1 });
    const rc = c.kubectlClient.resource('sim.kube-relay.dev', 'machines');
    const m = rc.get('', 'node-1', { quiet: true });
    expect(() => rc.update({ ...m, spec: { power: 'Sleep' } })).toThrow(
      'Machine.sim.kube-relay.dev "node-1" is invalid: spec.power: Unsupported value: "Sleep": supported values: "On", "Off"',
    );
  });
});
