import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster';

const T0 = Date.UTC(2026, 0, 1);
const LEASES = 'leases.coordination.k8s.io';
const ID = /^(control-plane\d?)_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const web = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: nginx:1.27}]}
`;

describe('control plane leader election (control-plane.ts)', () => {
  it('one control-plane node: its kube-controller-manager and kube-scheduler lead from boot; their Leases renew every 2 s, the apiserver identity Lease every 10 s', () => {
    const c = new Cluster({ seed: 1 });
    const names = c.list(LEASES, 'kube-system').map((l) => l.metadata.name);
    expect(names).toEqual(['apiserver-s2bgmziuyb2qrwpoihfaumwpf4', 'kube-controller-manager', 'kube-scheduler']);
    const kcm = c.get(LEASES, 'kube-system', 'kube-controller-manager')!.spec;
    expect(kcm.holderIdentity).toMatch(ID);
    expect(kcm).toMatchObject({
      leaseDurationSeconds: 15,
      acquireTime: '2025-12-31T23:59:30.000000Z',
      renewTime: '2026-01-01T00:00:00.000000Z',
      leaseTransitions: 0,
    });
    const api = c.get(LEASES, 'kube-system', 'apiserver-s2bgmziuyb2qrwpoihfaumwpf4')!;
    expect(api.metadata.labels).toEqual({
      'apiserver.kubernetes.io/identity': 'kube-apiserver',
      'kubernetes.io/hostname': 'control-plane',
    });
    expect(api.spec.holderIdentity).toMatch(/^apiserver-s2bgmziuyb2qrwpoihfaumwpf4_[0-9a-f-]{36}$/);
    expect(api.spec.leaseDurationSeconds).toBe(3600);
    expect(
      c
        .events()
        .filter((e) => e.reason === 'LeaderElection')
        .map((e) => [
          e.metadata.namespace,
          e.involvedObject.kind,
          e.involvedObject.name,
          e.source.component,
          e.message.replace(/_[0-9a-f-]{36}/, '_<uuid>'),
        ]),
    ).toEqual([
      ['kube-system', 'Lease', 'kube-controller-manager', 'kube-controller-manager', 'control-plane_<uuid> became leader'],
      ['kube-system', 'Lease', 'kube-scheduler', 'default-scheduler', 'control-plane_<uuid> became leader'],
    ]);
    c.advance(10_000);
    const writes = c.relay
      .all()
      .filter((h) => h.kind === 'request' && h.to === 'kube-apiserver' && h.resource === 'leases' && h.namespace === 'kube-system');
    expect(
      writes.map((h) => `${h.time - T0} ${h.from} ${h.summary.replace(/\(control-plane_[0-9a-f-]+\)/, '(<id>)')} ${h.category}`),
    ).toEqual([
      ...[2_000, 4_000, 6_000, 8_000, 10_000].flatMap((t) => [
        ...(t === 10_000 ? [`${t} kube-apiserver renew Lease kube-system/apiserver-s2bgmziuyb2qrwpoihfaumwpf4 heartbeat`] : []),
        `${t} kube-controller-manager renew Lease kube-system/kube-controller-manager (<id>) heartbeat`,
        `${t} kube-scheduler renew Lease kube-system/kube-scheduler (<id>) heartbeat`,
      ]),
    ]);
    expect(c.controlPlane.view().map((v) => `${v.participant}:${v.role}`)).toEqual([
      'kube-apiserver:active',
      'kube-controller-manager:leader',
      'kube-scheduler:leader',
    ]);
  });

  it('`kubectl get lease -n kube-system` lists the three Leases with their holders (uuids from the seeded stream)', () => {
    const c = new Cluster({ seed: 1 });
    expect(c.kubectl('get lease -n kube-system').output).toBe(
      'NAME                                   HOLDER                                                                      AGE\n' +
        'apiserver-s2bgmziuyb2qrwpoihfaumwpf4   apiserver-s2bgmziuyb2qrwpoihfaumwpf4_e1478c6c-ef92-4119-8a6c-a7d273f0bb82   30s\n' +
        'kube-controller-manager                control-plane_1d56a5cb-e37c-4242-ae4f-488c824d7529                          30s\n' +
        'kube-scheduler                         control-plane_8f991b9d-77bf-4225-abcb-69c9e8bc0897                          30s\n',
    );
  });

  it('HA (controlPlane.replicas 3): three control-plane nodes, one leader each, standbys waiting', () => {
    const c = new Cluster({ seed: 1, controlPlane: { replicas: 3 } });
    expect(c.list('nodes').map((n) => n.metadata.name)).toEqual([
      'control-plane',
      'control-plane2',
      'control-plane3',
      'node-1',
      'node-2',
      'node-3',
    ]);
    expect(
      c.list('nodes').filter((n) => n.spec.taints?.some((t: { key: string }) => t.key === 'node-role.kubernetes.io/control-plane')).length,
    ).toBe(3);
    expect(
      c.list(LEASES, 'kube-system').map((l) => `${l.metadata.name} ${l.spec.holderIdentity.replace(/_[0-9a-f-]{36}$/, '_<uuid>')}`),
    ).toEqual([
      'apiserver-36o72s2joff5juzhzqohjnfm4y apiserver-36o72s2joff5juzhzqohjnfm4y_<uuid>',
      'apiserver-s2bgmziuyb2qrwpoihfaumwpf4 apiserver-s2bgmziuyb2qrwpoihfaumwpf4_<uuid>',
      'apiserver-s6u7mo4jp4t3ycve7hlgbfdqau apiserver-s6u7mo4jp4t3ycve7hlgbfdqau_<uuid>',
      'kube-controller-manager control-plane_<uuid>',
      'kube-scheduler control-plane_<uuid>',
    ]);
    expect(c.controlPlane.view().map((v) => `${v.participant}:${v.role}`)).toEqual([
      'kube-apiserver (control-plane):active',
      'kube-controller-manager (control-plane):leader',
      'kube-scheduler (control-plane):leader',
      'kube-apiserver (control-plane2):active',
      'kube-controller-manager (control-plane2):standby',
      'kube-scheduler (control-plane2):standby',
      'kube-apiserver (control-plane3):active',
      'kube-controller-manager (control-plane3):standby',
      'kube-scheduler (control-plane3):standby',
    ]);
  });

  it("HA failover: the leaders' node dies; a Deployment applied meanwhile waits for the new kube-controller-manager leader, its Pods for the new kube-scheduler leader (level-triggered catch-up)", () => {
    const c = new Cluster({ seed: 1, controlPlane: { replicas: 3 } });
    c.killNode('control-plane');
    c.advance(100);
    c.apply(web);
    let rsAt = 0;
    let boundAt = 0;
    for (let t = 0; t < 40_000; t += 100) {
      c.advance(100);
      if (!rsAt && c.list('replicasets.apps', 'default').length) rsAt = c.now() - T0;
      if (!boundAt && c.list('pods', 'default').filter((p) => p.spec.nodeName).length === 3) boundAt = c.now() - T0;
    }
    const kcm = c.get(LEASES, 'kube-system', 'kube-controller-manager')!.spec;
    const sched = c.get(LEASES, 'kube-system', 'kube-scheduler')!.spec;
    expect([kcm.holderIdentity, kcm.acquireTime, kcm.leaseTransitions]).toEqual([
      'control-plane3_55630d6e-8d2b-4725-af6b-c2fe03399b24',
      '2026-01-01T00:00:18.372000Z',
      1,
    ]);
    expect([sched.holderIdentity, sched.acquireTime, sched.leaseTransitions]).toEqual([
      'control-plane2_bd72637d-5b94-47fb-a581-c537fff3ea20',
      '2026-01-01T00:00:18.935000Z',
      1,
    ]);
    // the last renewal was at 00:00:00; takeover within leaseDuration + 2 jittered retry periods
    expect(18_372).toBeLessThan(15_000 + 2 * 4_400);
    // nothing happened to the Deployment until the new leader acquired (at 18.372 s), then its ReplicaSet came
    expect(rsAt).toBe(18_400);
    expect(boundAt).toBe(19_000);
    expect(
      c.relay
        .all()
        .filter((h) => h.kind === 'note' && /became leader|down with/.test(h.summary))
        .map((h) => `${h.time - T0} ${h.from}: ${h.summary}`),
    ).toEqual([
      '1 kube-controller-manager (control-plane): kube-controller-manager (control-plane) down with node control-plane: it stops acting; Lease kube-system/kube-controller-manager is left to expire',
      '1 kube-scheduler (control-plane): kube-scheduler (control-plane) down with node control-plane: it stops acting; Lease kube-system/kube-scheduler is left to expire',
      '18372 kube-controller-manager (control-plane3): kube-controller-manager (control-plane3) became leader: relist and resync — level-triggered loops catch up on what no one did meanwhile',
      '18935 kube-scheduler (control-plane2): kube-scheduler (control-plane2) became leader: relist and resync — level-triggered loops catch up on what no one did meanwhile',
    ]);
    const rsCreate = c.relay.all().find((h) => h.kind === 'request' && h.verb === 'create' && h.resource === 'replicasets');
    expect([rsCreate?.from, rsCreate && rsCreate.time - T0]).toEqual(['deployment-controller', 18_372]);
    expect(c.kubectl('get events -n kube-system --field-selector reason=LeaderElection').output).toBe(
      'LAST SEEN   TYPE     REASON           OBJECT                          MESSAGE\n' +
        '70s         Normal   LeaderElection   lease/kube-controller-manager   control-plane_1d56a5cb-e37c-4242-ae4f-488c824d7529 became leader\n' +
        '22s         Normal   LeaderElection   lease/kube-controller-manager   control-plane3_55630d6e-8d2b-4725-af6b-c2fe03399b24 became leader\n' +
        '70s         Normal   LeaderElection   lease/kube-scheduler            control-plane_8f991b9d-77bf-4225-abcb-69c9e8bc0897 became leader\n' +
        '22s         Normal   LeaderElection   lease/kube-scheduler            control-plane2_bd72637d-5b94-47fb-a581-c537fff3ea20 became leader\n',
    );
    expect(
      c.controlPlane
        .view()
        .filter((v) => v.role !== 'standby')
        .map((v) => `${v.participant}:${v.role}`),
    ).toEqual([
      'kube-apiserver (control-plane):down',
      'kube-controller-manager (control-plane):down',
      'kube-scheduler (control-plane):down',
      'kube-apiserver (control-plane2):active',
      'kube-scheduler (control-plane2):leader',
      'kube-apiserver (control-plane3):active',
      'kube-controller-manager (control-plane3):leader',
    ]);
  });

  it('a control-plane node powered on again boots new candidates (new identities) that stand by', () => {
    const c = new Cluster({ seed: 1, controlPlane: { replicas: 3 } });
    c.killNode('control-plane');
    c.advance(30_000);
    c.restoreNode('control-plane');
    c.advance(10_000);
    const v = c.controlPlane.view().filter((x) => x.node === 'control-plane');
    expect(v.map((x) => `${x.component}:${x.role}`)).toEqual([
      'kube-apiserver:active',
      'kube-controller-manager:standby',
      'kube-scheduler:standby',
    ]);
    expect(v[1].identity).toMatch(ID);
    expect(v[1].identity).not.toBe('control-plane_1d56a5cb-e37c-4242-ae4f-488c824d7529');
  });

  it('one control-plane node killed: nothing reconciles until it is back (its instances are the only candidates)', () => {
    const c = new Cluster({ seed: 1 });
    c.killNode('control-plane');
    c.advance(100);
    c.apply(web);
    c.advance(60_000);
    expect(c.list('replicasets.apps', 'default')).toEqual([]);
    c.restoreNode('control-plane');
    c.advance(30_000);
    expect(c.list('replicasets.apps', 'default').map((r) => r.metadata.name)).toHaveLength(1);
    expect(c.get(LEASES, 'kube-system', 'kube-controller-manager')!.spec.leaseTransitions).toBe(1);
  });
});
