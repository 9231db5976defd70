/**
 * Issue 5: a Service following scale up/down and a readiness failure — the EndpointSlice's
 * endpoints and their ready/serving/terminating conditions, and kube-proxy's KUBE-SVC chain
 * (one KUBE-SEP per ready endpoint, `-m statistic` probabilities 1/n, 1/(n-1), …) at each
 * moment, with exact names, addresses and simulated times. Played from
 * src/scenarios/service-endpoints.scenario.yaml through the scenario runner's steps.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runStep, type Snapshot, type StepResult } from './runner';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(here, '../../scenarios/service-endpoints.scenario.yaml');

/** Plays the scenario; at each snapshot also keeps node-1's KUBE-SVC rules for default/web:http. */
function play() {
  const sc = parseScenario(parse(readFileSync(file, 'utf8')));
  const c = new Cluster({ seed: sc.cluster.seed, nodes: sc.cluster.nodes, images: sc.cluster.images });
  const snapshots: Snapshot[] = [];
  const steps: StepResult[] = [];
  const rules = new Map<string, string[]>();
  sc.steps.forEach((s, i) => {
    steps.push(runStep(c, s, i, { readFile: () => '' }, snapshots));
    if (s.kind === 'snapshot')
      rules.set(
        s.name,
        c.kubeProxies
          .get('node-1')!
          .rules()
          .split('\n')
          .filter((l) => l.startsWith('-A KUBE-SVC-CDGGSHYLG3RE2FKL -m comment')),
      );
  });
  return { c, steps, snapshots, rules };
}

const SVC = '-A KUBE-SVC-CDGGSHYLG3RE2FKL -m comment --comment "default/web:http -> ';
const slice = (s: Snapshot) =>
  s.objects.filter((o) => o.kind === 'EndpointSlice' && o.metadata.labels?.['kubernetes.io/service-name'] === 'web');
const endpoints = (s: Snapshot) =>
  slice(s)[0].endpoints.map(
    (e: KObject) =>
      `${e.targetRef.name.slice(-5)} ${e.addresses[0]} ${e.nodeName} ready=${e.conditions.ready} serving=${e.conditions.serving} terminating=${e.conditions.terminating}`,
  );

describe('a Service following scale up/down and a readiness failure', () => {
  const { steps, snapshots, rules } = play();
  const snap = (n: string) => snapshots.find((s) => s.name === n)!;

  it('one EndpointSlice web-<5> managed by the endpointslice controller, port http → 8080', () => {
    const [s] = slice(snap('two-ready'));
    expect(slice(snap('two-ready'))).toHaveLength(1);
    expect(s.metadata.name).toBe('web-c647k');
    expect(s.metadata.generateName).toBe('web-');
    expect(s.metadata.labels).toMatchObject({
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      'kubernetes.io/service-name': 'web',
    });
    expect(s.addressType).toBe('IPv4');
    expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
  });

  it.each([
    {
      at: 'two-ready',
      time: '2026-01-01T00:00:40Z',
      endpoints: [
        'h9895 10.244.1.3 node-1 ready=true serving=true terminating=false',
        'wkphc 10.244.3.2 node-3 ready=true serving=true terminating=false',
      ],
      rules: [
        '10.244.1.3:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-2AZ33KU3V5PGPQZH',
        '10.244.3.2:8080" -j KUBE-SEP-UTFLDO4GY7FI2SFB',
      ],
    },
    {
      at: 'four-ready',
      time: '2026-01-01T00:01:20Z',
      endpoints: [
        '6p9l6 10.244.3.3 node-3 ready=true serving=true terminating=false',
        'h9895 10.244.1.3 node-1 ready=true serving=true terminating=false',
        'ldhg8 10.244.2.3 node-2 ready=true serving=true terminating=false',
        'wkphc 10.244.3.2 node-3 ready=true serving=true terminating=false',
      ],
      rules: [
        '10.244.1.3:8080" -m statistic --mode random --probability 0.25000000000 -j KUBE-SEP-2AZ33KU3V5PGPQZH',
        '10.244.2.3:8080" -m statistic --mode random --probability 0.33333333349 -j KUBE-SEP-VQGOCFX4X6FWJPNR',
        '10.244.3.2:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-UTFLDO4GY7FI2SFB',
        '10.244.3.3:8080" -j KUBE-SEP-5KYHQA6S7JV2SJHX',
      ],
    },
    {
      // kubectl exec deploy/web -- rm /tmp/ready at 00:01:20: the oldest Running Pod (h9895, first by name of the two oldest) fails readiness 3× (period 5 s)
      at: 'one-unready',
      time: '2026-01-01T00:01:50Z',
      endpoints: [
        '6p9l6 10.244.3.3 node-3 ready=true serving=true terminating=false',
        'h9895 10.244.1.3 node-1 ready=false serving=false terminating=false',
        'ldhg8 10.244.2.3 node-2 ready=true serving=true terminating=false',
        'wkphc 10.244.3.2 node-3 ready=true serving=true terminating=false',
      ],
      rules: [
        '10.244.2.3:8080" -m statistic --mode random --probability 0.33333333349 -j KUBE-SEP-VQGOCFX4X6FWJPNR',
        '10.244.3.2:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-UTFLDO4GY7FI2SFB',
        '10.244.3.3:8080" -j KUBE-SEP-5KYHQA6S7JV2SJHX',
      ],
    },
    {
      // scaled to 1 at 00:01:50: three Pods terminating (30 s grace; sh ignores SIGTERM) — still serving if ready, never ready
      at: 'scaling-down',
      time: '2026-01-01T00:01:55Z',
      endpoints: [
        '6p9l6 10.244.3.3 node-3 ready=false serving=true terminating=true',
        'h9895 10.244.1.3 node-1 ready=false serving=false terminating=true',
        'ldhg8 10.244.2.3 node-2 ready=true serving=true terminating=false',
        'wkphc 10.244.3.2 node-3 ready=false serving=true terminating=true',
      ],
      rules: ['10.244.2.3:8080" -j KUBE-SEP-VQGOCFX4X6FWJPNR'],
    },
    {
      at: 'one-left',
      time: '2026-01-01T00:02:50.004Z',
      endpoints: ['ldhg8 10.244.2.3 node-2 ready=true serving=true terminating=false'],
      rules: ['10.244.2.3:8080" -j KUBE-SEP-VQGOCFX4X6FWJPNR'],
    },
  ])('$at ($time): endpoints and KUBE-SVC-CDGGSHYLG3RE2FKL', ({ at, time, endpoints: eps, rules: want }) => {
    expect(snap(at).time).toBe(time);
    expect(endpoints(snap(at))).toEqual(eps);
    expect(rules.get(at)).toEqual(want.map((r) => SVC + r));
  });

  it('the readiness failure: Ready False at 00:01:30 (3 failed probes 5 s apart after the rm at 00:01:20)', () => {
    expect(steps[6]).toMatchObject({ step: 'kubectl', time: '2026-01-01T00:01:20Z', output: '', error: null });
    const pod = snap('one-unready').objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'web-7f7748cb9f-h9895')!;
    expect(pod.status.conditions.find((x: KObject) => x.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [web]',
      lastTransitionTime: '2026-01-01T00:01:30Z',
    });
    const unhealthy = snap('one-unready').events.filter(
      (e) => e.reason === 'Unhealthy' && e.involvedObject.name === 'web-7f7748cb9f-h9895',
    );
    expect(unhealthy[0].message).toBe("Readiness probe failed: cat: can't open '/tmp/ready': No such file or directory\n");
  });
});
