/**
 * The "done when": apply the seed's Deployment, settle, kill the node of one of its
 * Pods, settle 10 minutes → 3 Running Pods, none on the killed node, and a relay whose hops
 * follow the seed's order. Played through the real scenario runner.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runScenario, type ScenarioResult } from './runner';
import { describeRow } from '../kubectl/printers';
import type { KObject } from '../api/types';

const here = dirname(fileURLToPath(import.meta.url));
const scenarios = resolve(here, '../../scenarios');

function play(): ScenarioResult {
  const sc = parseScenario(parse(readFileSync(resolve(scenarios, 'seed-relay.scenario.yaml'), 'utf8')));
  return runScenario(sc, { readFile: (p) => readFileSync(resolve(scenarios, p), 'utf8') });
}

const podsOf = (objs: KObject[]) => objs.filter((o) => o.kind === 'Pod' && o.metadata.namespace === 'default');
const status = (p: KObject) => describeRow(p).status;

describe('seed story: apply → run → kill a node → heal', () => {
  const result = play();
  const running = result.snapshots.find((s) => s.name === 'running')!;
  const healed = result.snapshots.find((s) => s.name === 'healed')!;
  const killed = result.steps[3].target!;

  it('applies the Deployment and the Service in kubectl words', () => {
    expect(result.kubernetesVersion).toBe('v1.33');
    expect(result.steps[0].time).toBe('2026-01-01T00:00:00Z');
    expect(result.steps[0].results!.map((r) => `${r.object} ${r.action}`)).toEqual([
      'deployment.apps/peekcart created',
      'service/peekcart created',
    ]);
  });

  it('runs 3 Pods named <rs>-<5 chars> on three different workers', () => {
    const pods = podsOf(running.objects);
    expect(pods).toHaveLength(3);
    const rs = running.objects.filter((o) => o.kind === 'ReplicaSet' && o.metadata.namespace === 'default');
    expect(rs).toHaveLength(1);
    expect(rs[0].metadata.name).toMatch(/^peekcart-[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(new RegExp(`^${rs[0].metadata.name}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(status(p)).toBe('Running');
      expect(p.spec.nodeName).toMatch(/^node-[123]$/);
    }
    expect(new Set(pods.map((p) => p.spec.nodeName)).size).toBe(3);
    expect(result.steps[1].settled).toBe(true);
  });

  it('heals: 3 Running Pods, none on the killed node', () => {
    const pods = podsOf(healed.objects);
    const runningPods = pods.filter((p) => status(p) === 'Running');
    expect(runningPods).toHaveLength(3);
    expect(runningPods.every((p) => p.spec.nodeName !== killed)).toBe(true);
    // the evicted Pod stays Terminating: its kubelet is down and cannot confirm
    const terminating = pods.filter((p) => status(p) === 'Terminating');
    expect(terminating).toHaveLength(1);
    expect(terminating[0].spec.nodeName).toBe(killed);
    const node = healed.objects.find((o) => o.kind === 'Node' && o.metadata.name === killed)!;
    expect(describeRow(node).status).toBe('NotReady');
    expect(node.spec.taints.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`).sort()).toEqual([
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
  });

  it('takes Kubernetes time: NotReady ≈ 50 s after the kill, eviction 300 s after the taint', () => {
    const killAt = Date.parse(result.steps[3].time);
    const ev = healed.events;
    const notReady = ev.find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node' && e.involvedObject.name === killed)!;
    expect(notReady.message).toBe(`Node ${killed} status is now: NodeNotReady`);
    const t1 = (Date.parse(notReady.firstTimestamp) - killAt) / 1000;
    expect(t1).toBeGreaterThanOrEqual(40);
    expect(t1).toBeLessThanOrEqual(60);
    const eviction = ev.find((e) => e.reason === 'TaintManagerEviction' && e.involvedObject.namespace === 'default')!;
    expect(eviction.message).toMatch(/^Marking for deletion Pod default\/peekcart-/);
    const t2 = (Date.parse(eviction.firstTimestamp) - Date.parse(notReady.firstTimestamp)) / 1000;
    expect(t2).toBeGreaterThanOrEqual(299);
    expect(t2).toBeLessThanOrEqual(306);
  });

  it('records the relay in the seed order', () => {
    const first = (pred: (h: ScenarioResult['relay'][number]) => boolean) => result.relay.findIndex(pred);
    const order = [
      first((h) => h.from === 'kubectl' && h.to === 'kube-apiserver' && h.kind === 'request' && h.resource === 'deployments'),
      first((h) => h.from === 'kube-apiserver' && h.to === 'etcd' && h.resource === 'deployments' && h.name === 'peekcart'),
      first((h) => (h.from === 'deployment-controller' || h.to === 'deployment-controller') && h.name === 'peekcart'),
      first((h) => h.from === 'replicaset-controller' && h.kind === 'request' && h.resource === 'pods'),
      first((h) => h.from === 'kube-scheduler' && h.resource === 'pods/binding'),
      first((h) => h.from.startsWith('kubelet/') && h.kind === 'request' && h.resource === 'pods/status'),
    ];
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('is reproducible: same seed, same output', () => {
    const again = play();
    expect(JSON.stringify(again)).toBe(JSON.stringify(result));
  });
});
