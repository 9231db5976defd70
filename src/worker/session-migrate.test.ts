/**
 * Sessions saved before the log held scenario steps (version 1, session.ts SessionLogV1) keep
 * loading: testdata/session-v1.json is a session recorded with the version-1 host (every op it
 * logged, and a Step from before steps recorded `until`), with a digest of the cluster its
 * replay gave then. Imported now, it must give the same cluster, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Cluster } from '../cluster/cluster';
import { testHost } from './test-host';
import { actionStep, isSessionLog, migrateSessionLog, type SessionAction, type SessionLogV1 } from './session';
import { readFileSync } from 'node:fs';

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const engine = (h: ReturnType<typeof testHost>) => (h.host as unknown as { cluster: Cluster }).cluster;
const RECORDED = JSON.parse(readFileSync(new URL('testdata/session-v1.json', import.meta.url), 'utf8')) as {
  log: SessionLogV1;
  replayed: { now: number; objects: string; events: number; lastSeq: number; relay: string };
};
const v1 = RECORDED.log;

describe('a version-1 session log', () => {
  it('is a session log, and migrates to one step per action at the same times', () => {
    expect(isSessionLog(v1)).toBe(true);
    const log = migrateSessionLog(v1);
    expect(log.version).toBe(2);
    expect(log.steps.map((e) => e.at)).toEqual(v1.actions.map((a) => a.at));
    expect(log.steps.map((e) => e.step.kind)).toEqual([
      'apply',
      'kubectl',
      'setImageMissing',
      'killNode',
      'deletePod',
      'advance',
      'fireTimers',
      'advance',
      'addNode',
      'restoreNode',
      'actAs',
      'kubectl',
      'apply',
      'actAs',
      'dnsLookup',
      'request',
      'setLoad',
      'docker',
      'applyKustomize',
      'kubectl',
      'advance',
      'killNode',
      'stopController',
      'advance',
      'removeNode',
    ]);
  });

  it('replays to the cluster its version-1 replay gave (objects, events, relay, time)', () => {
    const h = testHost();
    h.host.importState(v1);
    const c = engine(h);
    expect({
      now: c.now(),
      objects: sha(c.objects()),
      events: c.events().length,
      lastSeq: c.relay.lastSeq,
      relay: sha(c.relay.all()),
    }).toEqual(RECORDED.replayed);
    // exported again, it is a version-2 log that replays to the same cluster
    const again = testHost();
    again.host.importState(structuredClone(h.host.exportState()));
    expect(sha(engine(again).relay.all())).toBe(RECORDED.replayed.relay);
    h.host.dispose();
    again.host.dispose();
  });

  const cases: { name: string; action: SessionAction; step: unknown }[] = [
    { name: 'apply', action: { at: 1, op: 'apply', text: 'x' }, step: { kind: 'apply', manifest: 'x' } },
    { name: 'kill', action: { at: 1, op: 'kill', node: 'node-1' }, step: { kind: 'killNode', node: 'node-1' } },
    { name: 'addNode', action: { at: 1, op: 'addNode', node: 'node-4' }, step: { kind: 'addNode', node: { name: 'node-4' } } },
    {
      name: 'deletePod (through the API)',
      action: { at: 1, op: 'deletePod', namespace: 'default', name: 'web' },
      step: { kind: 'deletePod', pod: { namespace: 'default', name: 'web' }, via: 'api' },
    },
    { name: 'a step with until', action: { at: 5, op: 'step', until: 5 }, step: { kind: 'advance', ms: 0 } },
    { name: 'a step before until', action: { at: 5, op: 'step' }, step: { kind: 'fireTimers', max: 2000 } },
    { name: 'fastForward', action: { at: 5, op: 'fastForward', until: 5 }, step: { kind: 'advance', ms: 0 } },
    {
      name: 'setLoad',
      action: { at: 1, op: 'setLoad', load: { namespace: 'default', workload: 'deployment/web', totalCpuMillicores: 900 } },
      step: { kind: 'setLoad', namespace: 'default', workload: 'deployment/web', cpuMillicores: 900 },
    },
    {
      name: 'a request from a Pod',
      action: { at: 1, op: 'request', request: { source: { kind: 'pod', namespace: 'default', name: 'a' }, url: 'http://web', count: 2 } },
      step: { kind: 'request', from: { kind: 'pod', namespace: 'default', name: 'a' }, url: 'http://web', count: 2 },
    },
    {
      name: 'controller',
      action: { at: 1, op: 'controller', spec: { name: 'c', source: 's', code: 'k', for: 'pods' } },
      step: { kind: 'controller', name: 'c', source: 's', code: 'k', for: 'pods' },
    },
    { name: 'controllerStop', action: { at: 1, op: 'controllerStop', name: 'c' }, step: { kind: 'stopController', name: 'c' } },
    { name: 'an unknown op is skipped', action: { at: 1, op: 'teleport' } as unknown as SessionAction, step: null },
  ];
  it.each(cases)('$name', ({ action, step }) => expect(actionStep(action)).toEqual(step));
});
