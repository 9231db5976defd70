import { describe, expect, it } from 'vitest';
import { SchedulerFixture, defaultClusterNodes, type NodeSpec, type PodSpec } from './scheduler.fixture';

const CP_TAINT = '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

describe('kube-scheduler on the default cluster (tainted control plane + 3 workers of 4 CPU / 8Gi / 110 pods)', () => {
  it('spreads 3 pods over the 3 workers (least allocated) and records Scheduled events', () => {
    const f = new SchedulerFixture();
    for (const n of ['web-1', 'web-2', 'web-3']) f.createPod({ name: n, cpu: '100m', memory: '128Mi' });
    f.advance(100);
    const nodes = ['web-1', 'web-2', 'web-3'].map((n) => f.nodeOf(n));
    expect(new Set(nodes)).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    for (const n of ['web-1', 'web-2', 'web-3']) {
      expect(f.events(n)).toEqual([`Scheduled: Successfully assigned default/${n} to ${f.nodeOf(n)}`]);
      // an events.k8s.io Event (tools/events) as core/v1 shows it: empty source, reporting fields, action
      expect(f.event(n, 'Scheduled')).toMatchObject({
        source: {},
        reportingComponent: 'default-scheduler',
        reportingInstance: 'default-scheduler-control-plane',
        action: 'Binding',
      });
      expect(f.event(n, 'Scheduled')?.type).toBe('Normal');
      expect(f.condition(n)).toMatchObject({ type: 'PodScheduled', status: 'True' });
    }
  });

  it('records why: per-node filter verdicts and weighted scores, and a decision hop before the bind', () => {
    const f = new SchedulerFixture();
    f.createPod({ name: 'web-1', cpu: '1', memory: '1Gi' });
    f.advance(100);
    const d = f.scheduler.decisionFor('default', 'web-1')!;
    expect(d.result).toBe('Scheduled');
    expect(d.numAllNodes).toBe(4);
    expect(d.feasibleNodes).toBe(3);
    const cp = d.nodes.find((n) => n.node === 'control-plane')!;
    expect(cp).toMatchObject({
      feasible: false,
      failedPlugin: 'TaintToleration',
      reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
    });
    expect(cp.filters).toEqual([
      {
        plugin: 'TaintToleration',
        passed: false,
        code: 'UnschedulableAndUnresolvable',
        reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
      },
    ]);
    expect(d.nodes.filter((n) => n.feasible).every((n) => n.filters.length === 0)).toBe(true);
    const chosen = d.nodes.find((n) => n.node === d.selectedNode)!;
    const byPlugin = Object.fromEntries(chosen.scores!.map((s) => [s.plugin, s]));
    // (4000-1000)*100/4000 = 75 cpu, (8Gi-1Gi)*100/8Gi = 87 memory → (75+87)/2 = 81
    expect(byPlugin.NodeResourcesFit).toMatchObject({ raw: 81, normalized: 81, weight: 1, final: 81 });
    // fractions 0.25 and 0.125 → std 0.0625 → 93
    expect(byPlugin.NodeResourcesBalancedAllocation).toMatchObject({ raw: 93, weight: 1, final: 93 });
    expect(byPlugin.TaintToleration).toMatchObject({ raw: 0, normalized: 100, weight: 3, final: 300 });
    expect(byPlugin.ImageLocality).toMatchObject({ raw: 0, final: 0 });
    expect(chosen.total).toBe(81 + 93 + 300);
    expect(d.skippedScorePlugins).toEqual(expect.arrayContaining(['NodeAffinity', 'PodTopologySpread', 'InterPodAffinity']));
    expect(d.tiedNodes).toHaveLength(3);
    const hops = f.relay.all();
    const di = hops.findIndex((h) => h.kind === 'decision' && h.name === 'web-1');
    const bi = hops.findIndex((h) => h.resource === 'pods/binding' && h.kind === 'request' && h.name === 'web-1');
    expect(di).toBeGreaterThan(-1);
    expect(bi).toBeGreaterThan(di);
    expect(hops[di]).toMatchObject({ from: 'kube-scheduler', to: 'kube-scheduler' });
    expect(hops[di].summary).toBe(`${d.selectedNode}: score 474 (tied with 2 other node(s), picked at random) — 3 feasible of 4`);
    expect(hops[bi].cause).toBe(hops[di].seq);
  });

  const failures: { name: string; nodes?: NodeSpec[]; before?: PodSpec[]; pod: PodSpec; message: string }[] = [
    {
      name: 'more CPU than any node has',
      pod: { name: 'big', cpu: '5' },
      message: `0/4 nodes are available: ${CP_TAINT}, 3 Insufficient cpu. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.`,
    },
    {
      name: 'more CPU than is free (no lower-priority victims)',
      before: [
        { name: 'a', cpu: '1' },
        { name: 'b', cpu: '1' },
        { name: 'c', cpu: '1' },
      ],
      pod: { name: 'big', cpu: '3500m' },
      message: `0/4 nodes are available: ${CP_TAINT}, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.`,
    },
    {
      name: 'cpu and memory both short, counted separately',
      pod: { name: 'big', cpu: '5', memory: '9Gi' },
      message: `0/4 nodes are available: ${CP_TAINT}, 3 Insufficient cpu, 3 Insufficient memory. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.`,
    },
    {
      name: 'nodeSelector matching no node',
      pod: { name: 'ssd', spec: { nodeSelector: { disktype: 'ssd' } } },
      message: `0/4 nodes are available: ${CP_TAINT}, 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.`,
    },
    {
      name: 'every worker cordoned',
      nodes: defaultClusterNodes().map((n) => (n.name === 'control-plane' ? n : { ...n, unschedulable: true })),
      pod: { name: 'p' },
      message: `0/4 nodes are available: ${CP_TAINT}, 3 node(s) were unschedulable. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.`,
    },
    {
      name: 'kwok taints: no toleration for kwok.x-k8s.io/node',
      nodes: [
        { name: 'kwok-node-0', taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }] },
        { name: 'kwok-node-1', taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }] },
      ],
      pod: { name: 'no-toleration-pod' },
      message:
        '0/2 nodes are available: 2 node(s) had untolerated taint {kwok.x-k8s.io/node: fake}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    },
    {
      name: 'host port taken on every worker',
      before: ['node-1', 'node-2', 'node-3'].map((n) => ({
        name: `hp-${n}`,
        nodeName: n,
        spec: { containers: [{ name: 'a', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] },
      })),
      pod: { name: 'p', spec: { containers: [{ name: 'a', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] } },
      message: `0/4 nodes are available: ${CP_TAINT}, 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.`,
    },
    {
      name: 'topology spread on a label no node has (kwok-topology-spread)',
      pod: {
        name: 'fake-app',
        labels: { app: 'fake-app' },
        spec: {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/region',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'fake-app' } },
            },
          ],
        },
      },
      message: `0/4 nodes are available: ${CP_TAINT}, 3 node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.`,
    },
  ];
  for (const c of failures) {
    it(`FailedScheduling: ${c.name}`, () => {
      const f = new SchedulerFixture(c.nodes);
      for (const b of c.before ?? []) f.createPod(b);
      f.advance(50);
      f.createPod(c.pod);
      f.advance(50);
      expect(f.nodeOf(c.pod.name)).toBeUndefined();
      const ev = f.event(c.pod.name, 'FailedScheduling')!;
      expect(ev.message).toBe(c.message);
      expect(ev.type).toBe('Warning');
      expect(ev).toMatchObject({ source: {}, reportingComponent: 'default-scheduler', action: 'Scheduling' });
      expect(f.condition(c.pod.name)).toEqual({
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: expect.any(String),
        reason: 'Unschedulable',
        message: c.message,
      });
      expect(f.scheduler.decisionFor('default', c.pod.name)).toMatchObject({ result: 'Unschedulable', message: c.message });
    });
  }

  const placements: { name: string; nodes?: NodeSpec[]; pod: PodSpec; expect: string[] }[] = [
    {
      name: 'nodeSelector picks the labelled node',
      nodes: defaultClusterNodes().map((n) => (n.name === 'node-2' ? { ...n, labels: { disktype: 'ssd' } } : n)),
      pod: { name: 'p', spec: { nodeSelector: { disktype: 'ssd' } } },
      expect: ['node-2'],
    },
    {
      name: 'required node affinity region In [us-west-2] (kwok-node-affinity-pod)',
      nodes: defaultClusterNodes().map((n) =>
        n.name === 'node-3'
          ? { ...n, labels: { region: 'us-west-2' } }
          : n.name === 'node-1'
            ? { ...n, labels: { region: 'us-east-1' } }
            : n,
      ),
      pod: {
        name: 'p',
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'region', operator: 'In', values: ['us-west-2'] }] }],
              },
            },
          },
        },
      },
      expect: ['node-3'],
    },
    {
      name: 'preferred node affinity wins the score',
      nodes: defaultClusterNodes().map((n) => (n.name === 'node-1' ? { ...n, labels: { zone: 'a' } } : n)),
      pod: {
        name: 'p',
        spec: {
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 50, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
              ],
            },
          },
        },
      },
      expect: ['node-1'],
    },
    {
      name: 'toleration + nodeSelector lands on the control plane',
      pod: {
        name: 'p',
        spec: {
          nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
        },
      },
      expect: ['control-plane'],
    },
    {
      name: 'kwok taints: with-toleration-pod schedules onto tainted nodes',
      nodes: [{ name: 'kwok-node-0', taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }] }],
      pod: {
        name: 'with-toleration-pod',
        spec: { tolerations: [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }] },
      },
      expect: ['kwok-node-0'],
    },
    {
      name: 'PreferNoSchedule taint is avoided',
      nodes: [
        { name: 'n1', taints: [{ key: 'dedicated', value: 'x', effect: 'PreferNoSchedule' }] },
        { name: 'n2', taints: [{ key: 'dedicated', value: 'x', effect: 'PreferNoSchedule' }] },
        { name: 'n3' },
      ],
      pod: { name: 'p' },
      expect: ['n3'],
    },
    {
      name: 'cordoned nodes are skipped',
      nodes: defaultClusterNodes().map((n) => (n.name === 'node-1' || n.name === 'node-2' ? { ...n, unschedulable: true } : n)),
      pod: { name: 'p' },
      expect: ['node-3'],
    },
    {
      name: 'a pod tolerating node.kubernetes.io/unschedulable may use a cordoned node',
      nodes: [{ name: 'only', unschedulable: true }],
      pod: { name: 'p', spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } },
      expect: ['only'],
    },
    {
      name: 'image locality prefers the node that has the image',
      nodes: [
        { name: 'n1' },
        { name: 'n2', images: [{ names: ['docker.io/library/nginx:1.27', 'nginx:1.27'], sizeBytes: 500 * 1024 * 1024 }] },
        { name: 'n3' },
      ],
      pod: { name: 'p' },
      expect: ['n2'],
    },
  ];
  for (const c of placements) {
    it(`placement: ${c.name}`, () => {
      const f = new SchedulerFixture(c.nodes);
      f.createPod(c.pod);
      f.advance(50);
      expect(c.expect).toContain(f.nodeOf(c.pod.name));
    });
  }

  it('kwok requests-and-limits: pod-1 (2700m) on the 4-CPU node, pod-2 (1200m) on the 2-CPU node', () => {
    const taints = [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }];
    const f = new SchedulerFixture([
      { name: 'kwok-node-0', cpu: '4', taints },
      { name: 'kwok-node-1', cpu: '2', taints },
    ]);
    const tolerations = [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }];
    const containers = (cpu: string, limit: string) => [
      {
        name: 'fake-container',
        image: 'fake-image',
        ports: [{ containerPort: 80 }],
        resources: { requests: { cpu }, limits: { cpu: limit } },
      },
    ];
    f.createPod({ name: 'pod-1', spec: { containers: containers('2700m', '3000m'), tolerations } });
    f.createPod({ name: 'pod-2', spec: { containers: containers('1200m', '1500m'), tolerations } });
    f.advance(50);
    expect(f.nodeOf('pod-1')).toBe('kwok-node-0');
    expect(f.nodeOf('pod-2')).toBe('kwok-node-1');
  });

  it('a Deployment-like set spreads by the system default topology constraints', () => {
    const f = new SchedulerFixture();
    f.create(
      'apps',
      'replicasets',
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web', namespace: 'default' },
        spec: { replicas: 6, selector: { matchLabels: { app: 'web' } }, template: {} },
      },
      'default',
    );
    for (let i = 0; i < 6; i++) f.createPod({ name: `web-${i}`, labels: { app: 'web' } });
    f.advance(100);
    const counts = new Map<string, number>();
    for (let i = 0; i < 6; i++) counts.set(f.nodeOf(`web-${i}`)!, (counts.get(f.nodeOf(`web-${i}`)!) ?? 0) + 1);
    expect([...counts.values()]).toEqual([2, 2, 2]);
    const d = f.scheduler.decisionFor('default', 'web-5')!;
    expect(d.skippedScorePlugins).not.toContain('PodTopologySpread');
  });
});
