import { describe, expect, it } from 'vitest';
import { createKubeStore } from './store';
import { selectNextDeadline, selectNodeDeadline, selectPoweredOffNode } from './selectors';
import { emptyTopology } from './topology';

describe('selectors', () => {
  const store = createKubeStore();
  const now = Date.UTC(2026, 0, 1) + 100_000;
  store.setState({
    startMs: Date.UTC(2026, 0, 1),
    simMs: 100_000,
    topology: { ...emptyTopology(), pods: [{ key: 'Pod/default/web-1', node: 'node-2', owner: null }] },
    deadlines: [
      { at: now, label: 'node-lifecycle-controller: NoExecute tainting pass' },
      { at: now + 9_000, label: 'Liveness probe of default/web-1/web', object: 'Pod/default/web-1' },
      { at: now + 252_000, label: 'taint eviction of default/web-1 at 300s', object: 'Pod/default/web-1' },
      { at: now + 300_000, label: 'node-3: node-monitor-grace-period runs out', object: 'Node/node-3' },
    ],
    objects: new Map([
      [
        'Machine/node-2',
        {
          key: 'Machine/node-2',
          resource: 'machines.sim.kube-relay.dev',
          row: null,
          object: { apiVersion: 'sim.kube-relay.dev/v1alpha1', kind: 'Machine', metadata: { name: 'node-2' }, spec: { power: 'Off' } },
        },
      ],
    ]),
  });

  it('counts down to deadlines still ahead', () => {
    expect(selectNextDeadline(store.getState())).toBe('Liveness probe of default/web-1/web in 0:09');
  });

  it('shows a node its own deadlines and the evictions of its Pods', () => {
    expect(selectNodeDeadline('node-2')(store.getState())).toBe('eviction in 4:12');
    expect(selectNodeDeadline('node-3')(store.getState())).toBe('node-monitor-grace-period runs out in 5:00');
    expect(selectNodeDeadline('node-1')(store.getState())).toBeNull();
  });

  it('reads power from the Machine object', () => {
    expect(selectPoweredOffNode('node-2')(store.getState())).toBe(true);
    expect(selectPoweredOffNode('node-1')(store.getState())).toBe(false);
  });
});
