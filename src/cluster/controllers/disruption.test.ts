/**
 * DisruptionController (pkg/controller/disruption/disruption.go) and the eviction subresource's
 * checkAndDecrement (pkg/registry/core/pod/storage/eviction.go), on a whole simulated cluster.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { StatusError } from '../api/errors';
import { users } from '../client/clientset';
import type { KObject } from '../api/types';

const web = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`;
const pdb = (spec: string) => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
  ${spec}
  selector: {matchLabels: {app: web}}
`;

function cluster(replicas: number, spec: string): Cluster {
  const c = new Cluster({ seed: 1 });
  c.apply(web(replicas));
  c.settle(600_000);
  c.apply(pdb(spec));
  c.settle(600_000);
  return c;
}

const status = (c: Cluster): KObject['status'] => c.get('poddisruptionbudgets.policy', 'default', 'web-pdb')!.status;
const numbers = (s: KObject['status']) => [s.currentHealthy, s.desiredHealthy, s.expectedPods, s.disruptionsAllowed];

describe('DisruptionController status', () => {
  it.each([
    // name, replicas, spec, [currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed], condition
    ['minAvailable int: expected = matching Pods', 3, 'minAvailable: 2', [3, 2, 3, 1], ['True', 'SufficientPods']],
    ['minAvailable int above the Pods', 2, 'minAvailable: 2', [2, 2, 2, 0], ['False', 'InsufficientPods']],
    ['minAvailable percent rounds up on the Deployment scale', 3, 'minAvailable: 50%', [3, 2, 3, 1], ['True', 'SufficientPods']],
    ['maxUnavailable int', 4, 'maxUnavailable: 1', [4, 3, 4, 1], ['True', 'SufficientPods']],
    ['maxUnavailable percent rounds up', 3, 'maxUnavailable: 34%', [3, 1, 3, 2], ['True', 'SufficientPods']],
    ['maxUnavailable 0', 2, 'maxUnavailable: 0', [2, 2, 2, 0], ['False', 'InsufficientPods']],
  ] as const)('%s', (_n, replicas, spec, want, [condStatus, reason]) => {
    const c = cluster(replicas, spec);
    const s = status(c);
    expect(numbers(s)).toEqual(want);
    expect(s.observedGeneration).toBe(1);
    expect(s.disruptedPods).toBeUndefined();
    expect(s.conditions).toEqual([
      { type: 'DisruptionAllowed', status: condStatus, observedGeneration: 1, lastTransitionTime: expect.any(String), reason, message: '' },
    ]);
  });

  it('records a decision naming the numbers', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(web(2));
    c.settle(600_000);
    const seen: string[] = [];
    const stop = c.ctx.relay.listen((h) => {
      if (h.kind === 'decision' && h.from === 'disruption-controller') seen.push(h.summary);
    });
    c.apply(pdb('minAvailable: 2'));
    c.settle(600_000);
    stop();
    expect(seen).toEqual(['PDB default/web-pdb: 2 healthy of 2 expected, desired 2 → 0 disruptions allowed']);
  });

  it('counts a Pod whose node stops as not healthy', () => {
    const c = cluster(3, 'minAvailable: 2');
    const victim = c.list('pods', 'default').find((p) => p.metadata.labels?.app === 'web')!;
    c.killNode(victim.spec.nodeName);
    // node-monitor-grace-period 40 s, then MarkPodsNotReady; taint eviction only after 300 s
    c.advance(60_000);
    expect(c.get('pods', 'default', victim.metadata.name)!.status.conditions.find((x: { type: string }) => x.type === 'Ready').status).toBe(
      'False',
    );
    expect(numbers(status(c))).toEqual([2, 2, 3, 0]);
    expect(status(c).conditions[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
  });

  it('a selector that matches no Pod: NoPods event, nothing allowed', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(pdb('maxUnavailable: 1'));
    c.settle(600_000);
    expect(numbers(status(c))).toEqual([0, 0, 0, 0]);
    expect(
      c
        .events()
        .filter((e) => e.involvedObject.name === 'web-pdb')
        .map((e) => `${e.reason}: ${e.message} (${e.source.component})`),
    ).toEqual(['NoPods: No matching pods found (controllermanager)']);
  });

  it('maxUnavailable on DaemonSet Pods fails safe: SyncFailed, as upstream', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`);
    c.settle(600_000);
    c.apply(pdb('maxUnavailable: 1'));
    c.settle(600_000);
    const s = status(c);
    expect(s.disruptionsAllowed).toBe(0);
    expect(s.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'False',
        lastTransitionTime: expect.any(String),
        reason: 'SyncFailed',
        message: 'daemonsets.apps does not implement the scale subresource',
      },
    ]);
  });
});

describe('eviction with the budget status (checkAndDecrement)', () => {
  const evict = (c: Cluster, name: string): string => {
    try {
      c.ctx.client(users.kubectl()).evict('default', name);
      return 'evicted';
    } catch (err) {
      const st = (err as StatusError).status;
      return `${st.code} ${st.message} | ${st.details?.causes?.[0]?.message ?? ''}`;
    }
  };

  it('decrements disruptionsAllowed, records disruptedPods, then refuses', () => {
    const c = cluster(3, 'minAvailable: 2');
    const [a, b] = c.list('pods', 'default').map((p) => p.metadata.name);
    const t = new Date(c.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(evict(c, a)).toBe('evicted');
    // written before the Pod's delete, read back before any controller ran
    const s = status(c);
    expect(s.disruptionsAllowed).toBe(0);
    expect(s.disruptedPods).toEqual({ [a]: t });
    expect(s.conditions[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    expect(evict(c, b)).toBe(
      "429 Cannot evict pod as it would violate the pod's disruption budget. | The disruption budget web-pdb needs 2 healthy pods and has 3 currently",
    );
    c.settle(600_000);
    // the replacement is Ready and the evicted Pod gone: disruptedPods emptied, 1 allowed again
    expect(numbers(status(c))).toEqual([3, 2, 3, 1]);
    expect(status(c).disruptedPods).toBeUndefined();
  });

  it('refuses while the budget generation is not yet observed', () => {
    const c = cluster(3, 'minAvailable: 2');
    c.controllerManager.pause();
    c.apply(pdb('minAvailable: 1'));
    const name = c.list('pods', 'default')[0].metadata.name;
    expect(evict(c, name)).toBe(
      "429 Cannot evict pod as it would violate the pod's disruption budget. | The disruption budget web-pdb is still being processed by the server.",
    );
  });
});

describe('kubectl get/describe pdb', () => {
  it('prints the controller-kept status', () => {
    const c = cluster(2, 'minAvailable: 1');
    expect(c.kubectl('get pdb').output).toMatch(
      /^NAME      MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nweb-pdb   1               N\/A               1                     \d+s\n$/,
    );
    expect(c.kubectl('describe pdb web-pdb').output).toBe(
      'Name:           web-pdb\nNamespace:      default\nMin available:  1\nSelector:       app=web\nStatus:\n    Allowed disruptions:  1\n    Current:              2\n    Desired:              1\n    Total:                2\nEvents:                   <none>\n',
    );
  });
});
