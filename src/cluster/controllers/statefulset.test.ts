import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';

const T0 = Date.UTC(2026, 0, 1);
function sts(replicas: number, extra: Record<string, unknown> = {}, image = 'nginx:1.25'): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web' },
    spec: {
      serviceName: 'nginx',
      replicas,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image }] } },
      ...extra,
    },
  });
}
const stsEvents = (c: Cluster) =>
  c
    .events()
    .filter((e) => e.source.component === 'statefulset-controller')
    .map((e) => `${e.reason}: ${e.message}`);
const pods = (c: Cluster) =>
  c
    .list('pods', 'default')
    .filter((p) => p.metadata.labels?.app === 'nginx')
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
const ready = (p: KObject) => p.status?.conditions?.find((x: KObject) => x.type === 'Ready')?.lastTransitionTime;

describe('StatefulSetController (real cluster)', () => {
  it('OrderedReady: web-0, web-1, web-2 in order, each created only after the previous is Running and Ready', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(sts(3));
    expect(c.settle(5 * 60_000)).toBe(true);
    const ps = pods(c);
    expect(ps.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    for (let i = 1; i < 3; i++) expect(Date.parse(ps[i].metadata.creationTimestamp!)).toBeGreaterThanOrEqual(Date.parse(ready(ps[i - 1])));
    expect(stsEvents(c)).toEqual(['web-0', 'web-1', 'web-2'].map((n) => `SuccessfulCreate: create Pod ${n} in StatefulSet web successful`));
    const rev = c.list('controllerrevisions.apps', 'default');
    expect(rev).toHaveLength(1);
    expect(rev[0].revision).toBe(1);
    for (const [i, p] of ps.entries()) {
      expect(p.metadata.labels).toMatchObject({
        'statefulset.kubernetes.io/pod-name': `web-${i}`,
        'apps.kubernetes.io/pod-index': String(i),
        'controller-revision-hash': rev[0].metadata.name,
      });
      expect(p.spec).toMatchObject({ hostname: `web-${i}`, subdomain: 'nginx' });
    }
    expect(c.get('statefulsets.apps', 'default', 'web')!.status).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      collisionCount: 0,
      currentRevision: rev[0].metadata.name,
      updateRevision: rev[0].metadata.name,
    });
  });

  it('scale down removes web-2 first, then web-1, one at a time', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(sts(3));
    c.settle(5 * 60_000);
    c.apply(sts(1));
    c.settle(5 * 60_000);
    expect(pods(c).map((p) => p.metadata.name)).toEqual(['web-0']);
    expect(stsEvents(c).filter((e) => e.startsWith('SuccessfulDelete'))).toEqual([
      'SuccessfulDelete: delete Pod web-2 in StatefulSet web successful',
      'SuccessfulDelete: delete Pod web-1 in StatefulSet web successful',
    ]);
  });

  it('Parallel creates every Pod at once', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(sts(3, { podManagementPolicy: 'Parallel' }));
    c.advance(100);
    expect(pods(c).map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(pods(c).every((p) => p.metadata.creationTimestamp === '2026-01-01T00:00:00Z')).toBe(true);
  });

  it('volumeClaimTemplates: the claim www-web-0 is created before web-0; OrderedReady waits while it is unbound', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(
      sts(2, {
        volumeClaimTemplates: [
          { metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
        ],
      }),
    );
    c.advance(60_000);
    expect(stsEvents(c).slice(0, 2)).toEqual([
      'SuccessfulCreate: create Claim www-web-0 Pod web-0 in StatefulSet web success',
      'SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
    ]);
    const pvc = c.get('persistentvolumeclaims', 'default', 'www-web-0')!;
    expect(pvc.metadata.labels).toEqual({ app: 'nginx' });
    expect(pvc.metadata.ownerReferences).toBeUndefined();
    const web0 = pods(c)[0];
    expect(web0.spec.volumes.find((v: KObject) => v.name === 'www')).toEqual({
      name: 'www',
      persistentVolumeClaim: { claimName: 'www-web-0' },
    });
    if (web0.status.phase !== 'Running') expect(pods(c).map((p) => p.metadata.name)).toEqual(['web-0']);
  });

  it('RollingUpdate: reverse ordinal order, respecting the partition', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(sts(3));
    c.settle(5 * 60_000);
    const oldRev = pods(c)[0].metadata.labels?.['controller-revision-hash'];
    c.apply(sts(3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } }, 'nginx:1.26'));
    c.settle(10 * 60_000);
    const ps = pods(c);
    expect(ps.map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.25', 'nginx:1.26', 'nginx:1.26']);
    expect(stsEvents(c).filter((e) => e.startsWith('SuccessfulDelete'))).toEqual([
      'SuccessfulDelete: delete Pod web-2 in StatefulSet web successful',
      'SuccessfulDelete: delete Pod web-1 in StatefulSet web successful',
    ]);
    const st = c.get('statefulsets.apps', 'default', 'web')!.status;
    expect(st).toMatchObject({ currentRevision: oldRev, currentReplicas: 1, updatedReplicas: 2 });
    expect(st.updateRevision).not.toBe(oldRev);
    expect(
      c
        .list('controllerrevisions.apps', 'default')
        .map((r) => r.revision)
        .sort(),
    ).toEqual([1, 2]);
    expect(Date.parse(ps[1].metadata.creationTimestamp!) - T0 > 0).toBe(true);
  });
});
