import { describe, expect, it } from 'vitest';
import type { KObject, SchedulingDecision, StoredObject } from '../store/types';
import { keyLabel, ownedTree, ownerChain } from './owners';
import { decisionTable } from './scheduling';

function stored(kind: string, name: string, uid: string, owner?: { kind: string; name: string; uid: string }): StoredObject {
  const object = {
    apiVersion: 'v1',
    kind,
    metadata: {
      name,
      namespace: 'default',
      uid,
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', ...owner, controller: true }] } : {}),
    },
  } as KObject;
  return { key: `${kind}/default/${name}`, resource: '', object, row: null };
}

describe('owners', () => {
  const d = stored('Deployment', 'web', 'd1');
  const rs = stored('ReplicaSet', 'web-5d', 'r1', { kind: 'Deployment', name: 'web', uid: 'd1' });
  const p1 = stored('Pod', 'web-5d-b', 'p2', { kind: 'ReplicaSet', name: 'web-5d', uid: 'r1' });
  const p0 = stored('Pod', 'web-5d-a', 'p1', { kind: 'ReplicaSet', name: 'web-5d', uid: 'r1' });
  const objects = new Map([d, rs, p1, p0].map((s) => [s.key, s]));

  it('walks the owner chain up from a Pod', () => {
    expect(ownerChain(objects, p0.object).map((o) => o.key)).toEqual(['ReplicaSet/default/web-5d', 'Deployment/default/web']);
    expect(ownerChain(objects, d.object)).toEqual([]);
  });

  it('lists what a Deployment owns, down through its ReplicaSet', () => {
    expect(ownedTree(objects, d.object)).toEqual([
      {
        key: 'ReplicaSet/default/web-5d',
        children: [
          { key: 'Pod/default/web-5d-a', children: [] },
          { key: 'Pod/default/web-5d-b', children: [] },
        ],
      },
    ]);
    expect(keyLabel('ReplicaSet/default/web-5d')).toBe('replicaset/web-5d');
    expect(keyLabel('Node/node-1')).toBe('node/node-1');
  });
});

describe('decisionTable', () => {
  it('puts the chosen node first, then feasible by score, then rejected nodes with their filter', () => {
    const score = (plugin: string, final: number) => ({ plugin, raw: final, normalized: final, weight: 1, final });
    const d: SchedulingDecision = {
      namespace: 'default',
      name: 'web',
      uid: 'u',
      attempt: 1,
      time: 0,
      result: 'Scheduled',
      selectedNode: 'node-2',
      numAllNodes: 3,
      feasibleNodes: 2,
      nodes: [
        {
          node: 'control-plane',
          filters: [],
          feasible: false,
          failedPlugin: 'TaintToleration',
          reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
        },
        { node: 'node-1', filters: [], feasible: true, scores: [score('NodeResourcesFit', 90), score('TaintToleration', 100)], total: 190 },
        { node: 'node-2', filters: [], feasible: true, scores: [score('NodeResourcesFit', 95), score('TaintToleration', 100)], total: 195 },
      ],
      preFilter: [],
      skippedScorePlugins: [],
    };
    const t = decisionTable(d);
    expect(t.plugins).toEqual(['NodeResourcesFit', 'TaintToleration']);
    expect(t.rows.map((r) => [r.node, r.chosen, r.failedPlugin ?? null, r.total ?? null])).toEqual([
      ['node-2', true, null, 195],
      ['node-1', false, null, 190],
      ['control-plane', false, 'TaintToleration', null],
    ]);
  });
});
