/**
 * Issue 18: src/scenarios/ha-failover.scenario.yaml through the scenario runner — an HA
 * control plane whose leaders' node dies; the Deployment applied meanwhile gets nothing done
 * until the new kube-controller-manager leader acquires its Lease, then catches up. The
 * result's `controlPlane` names every instance's role.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runScenario } from './runner';

const here = dirname(fileURLToPath(import.meta.url));
const sc = parseScenario(parse(readFileSync(resolve(here, '../../scenarios/ha-failover.scenario.yaml'), 'utf8')));

describe('HA control plane failover scenario', () => {
  const r = runScenario(sc, { readFile: () => '' });
  const roles = (list: { participant: string; role: string }[]) => list.map((v) => `${v.participant}:${v.role}`);

  it('parses cluster.controlPlane.replicas', () => {
    expect(sc.cluster.controlPlane).toEqual({ replicas: 3 });
  });

  it('no step failed; the Deployment was not reconciled while no one led, and is complete after the takeover', () => {
    expect(r.steps.filter((s) => s.error)).toEqual([]);
    const out = r.steps.map((s) => s.output ?? '').filter(Boolean);
    expect(out[1]).toBe('NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    0/3     0            0           10s\n');
    expect(out[2].split('\n').slice(4, 6)).toEqual([
      'kube-controller-manager                control-plane3_55630d6e-8d2b-4725-af6b-c2fe03399b24                         61s',
      'kube-scheduler                         control-plane2_bd72637d-5b94-47fb-a581-c537fff3ea20                         61s',
    ]);
    expect(out[3]).toBe('NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           94s\n');
    // settle goes quiet although the Leases keep renewing (they are heartbeats)
    expect(r.steps.find((s) => s.step === 'settle')).toMatchObject({ settled: true, endTime: '2026-01-01T00:01:35.100Z' });
    const leaderless = r.snapshots.find((s) => s.name === 'leaderless')!;
    expect(leaderless.objects.filter((o) => (o.kind === 'ReplicaSet' || o.kind === 'Pod') && o.metadata.namespace === 'default')).toEqual(
      [],
    );
    const after = r.snapshots.find((s) => s.name === 'new-leaders')!;
    expect(after.objects.filter((o) => o.kind === 'Pod' && o.metadata.namespace === 'default' && o.spec.nodeName).length).toBe(3);
  });

  it('snapshots carry controlPlane: leaders down, then standbys leading', () => {
    expect(roles(r.snapshots[0].controlPlane).filter((x) => !x.endsWith(':standby'))).toEqual([
      'kube-apiserver (control-plane):down',
      'kube-controller-manager (control-plane):down',
      'kube-scheduler (control-plane):down',
      'kube-apiserver (control-plane2):active',
      'kube-apiserver (control-plane3):active',
    ]);
    expect(roles(r.final.controlPlane)).toEqual([
      'kube-apiserver (control-plane):down',
      'kube-controller-manager (control-plane):down',
      'kube-scheduler (control-plane):down',
      'kube-apiserver (control-plane2):active',
      'kube-controller-manager (control-plane2):standby',
      'kube-scheduler (control-plane2):leader',
      'kube-apiserver (control-plane3):active',
      'kube-controller-manager (control-plane3):leader',
      'kube-scheduler (control-plane3):standby',
    ]);
    expect(r.final.controlPlane.find((v) => v.participant === 'kube-controller-manager (control-plane3)')?.identity).toBe(
      'control-plane3_55630d6e-8d2b-4725-af6b-c2fe03399b24',
    );
  });

  it("the relay shows the takeover: the acquire write and the new leader's catch-up note", () => {
    const hops = r.relay.filter(
      (h) => h.from === 'kube-controller-manager (control-plane3)' && (h.kind === 'note' || h.kind === 'request'),
    );
    const acquire = hops.find((h) => h.summary.startsWith('acquire Lease'));
    expect(acquire).toMatchObject({
      to: 'kube-apiserver',
      verb: 'update',
      resource: 'leases',
      category: 'heartbeat',
      time: '2026-01-01T00:00:18.372Z',
      summary:
        'acquire Lease kube-system/kube-controller-manager: control-plane3_55630d6e-8d2b-4725-af6b-c2fe03399b24 (leaseTransitions 1)',
    });
    expect(hops.find((h) => h.kind === 'note' && h.summary.includes('became leader'))).toMatchObject({
      time: '2026-01-01T00:00:18.372Z',
      summary:
        'kube-controller-manager (control-plane3) became leader: relist and resync — level-triggered loops catch up on what no one did meanwhile',
    });
    const rsCreate = r.relay.find((h) => h.kind === 'request' && h.verb === 'create' && h.resource === 'replicasets');
    expect([rsCreate?.from, rsCreate?.time]).toEqual(['deployment-controller', '2026-01-01T00:00:18.372Z']);
  });
});
