/**
 * The ReplicationController manager (replication.ts): the ReplicaSet controller run over
 * conversion adapters, as pkg/controller/replication does — Pods `<rc>-xxxxx` owned by the RC,
 * Events from `replication-controller`, the RC's status, `kubectl scale rc`, `kubectl get rc`,
 * and the garbage collector's cascade.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';
import { convertRCtoRS, convertRStoRC } from './replication';
import type { ReplicationController } from '../api/objects';

const RC = (replicas: number) => `apiVersion: v1
kind: ReplicationController
metadata:
  name: nginx
spec:
  replicas: ${replicas}
  selector:
    app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
`;

function boot(): Cluster {
  const c = new Cluster({ seed: 1, nodes: 1 });
  c.settle(10_000);
  c.apply(RC(3));
  c.settle(60_000);
  return c;
}

const rcEvents = (c: Cluster) =>
  c
    .events()
    .filter((e) => e.involvedObject.kind === 'ReplicationController')
    .map((e: KObject) => `${e.source.component} ${e.type} ${e.reason}: ${e.message}`);
const podNames = (c: Cluster) =>
  c
    .list('pods', 'default')
    .map((p) => p.metadata.name)
    .sort();

describe('replication-controller', () => {
  it('creates 3 Pods <rc>-xxxxx owned by the RC, with its Events and status', () => {
    const c = boot();
    const rc = c.get('replicationcontrollers', 'default', 'nginx')!;
    expect(podNames(c)).toEqual(['nginx-hm9n7', 'nginx-hx8v7', 'nginx-xsnmq']);
    for (const p of c.list('pods', 'default')) {
      expect(p.metadata.generateName).toBe('nginx-');
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          name: 'nginx',
          uid: rc.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect(rcEvents(c)).toEqual([
      'replication-controller Normal SuccessfulCreate: Created pod: nginx-hx8v7',
      'replication-controller Normal SuccessfulCreate: Created pod: nginx-hm9n7',
      'replication-controller Normal SuccessfulCreate: Created pod: nginx-xsnmq',
    ]);
    expect(rc.status).toEqual({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    expect(c.kubectl('get rc').output).toBe(
      ['NAME    DESIRED   CURRENT   READY   AGE', 'nginx   3         3         3       40s', ''].join('\n'),
    );
    expect(c.kubectl('get rc -o wide').output).toBe(
      [
        'NAME    DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES         SELECTOR',
        'nginx   3         3         3       40s   nginx        nginx:1.14.2   app=nginx',
        '',
      ].join('\n'),
    );
    // the work is the replication-controller's, under its own identity; the ReplicaSet controller does nothing
    const creates = c.relay.all().filter((h) => h.kind === 'request' && h.summary.startsWith('create Pod default/nginx-'));
    expect(creates.map((h) => h.from)).toEqual(['replication-controller', 'replication-controller', 'replication-controller']);
    expect(c.relay.all().some((h) => h.from === 'replicaset-controller' && h.summary.includes('nginx'))).toBe(false);
  });

  it('kubectl scale rc --replicas=1 deletes 2 Pods', () => {
    const c = boot();
    expect(c.kubectl('scale rc nginx --replicas=1').output).toBe('replicationcontroller/nginx scaled\n');
    c.settle(60_000);
    expect(podNames(c)).toEqual(['nginx-hx8v7']);
    expect(rcEvents(c).slice(3)).toEqual([
      'replication-controller Normal SuccessfulDelete: Deleted pod: nginx-hm9n7',
      'replication-controller Normal SuccessfulDelete: Deleted pod: nginx-xsnmq',
    ]);
    const rc = c.get('replicationcontrollers', 'default', 'nginx')!;
    expect(rc.status).toEqual({ replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 2 });
    expect(c.kubectl('get rc').output).toBe(
      ['NAME    DESIRED   CURRENT   READY   AGE', 'nginx   1         1         1       70s', ''].join('\n'),
    );
  });

  it.each([
    ['background (the default)', 'delete rc nginx'],
    ['foreground', 'delete rc nginx --cascade=foreground'],
  ])('the garbage collector deletes the Pods of a deleted RC: %s', (_name, line) => {
    const c = boot();
    expect(c.kubectl(line).output).toBe('replicationcontroller "nginx" deleted\n');
    c.settle(120_000);
    expect(c.get('replicationcontrollers', 'default', 'nginx')).toBeUndefined();
    expect(podNames(c)).toEqual([]);
  });

  it('orphan cascade keeps the Pods, without owner references', () => {
    const c = boot();
    expect(c.kubectl('delete rc nginx --cascade=orphan').output).toBe('replicationcontroller "nginx" deleted\n');
    c.settle(60_000);
    expect(podNames(c)).toEqual(['nginx-hm9n7', 'nginx-hx8v7', 'nginx-xsnmq']);
    expect(c.list('pods', 'default').map((p) => p.metadata.ownerReferences)).toEqual([undefined, undefined, undefined]);
  });
});

describe('replication-controller and other Pods', () => {
  const RS = (replicas: number) => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: nginx
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
`;
  it.each([
    ['ReplicationController', 'replicationcontrollers', 'v1', RC(2), 'replication-controller'],
    ['ReplicaSet', 'replicasets.apps', 'apps/v1', RS(2), 'replicaset-controller'],
  ])(
    '%s: adopts an orphan its selector matches and releases it when its labels stop matching (strategic-merge PATCHes)',
    (kind, resource, apiVersion, manifest, controller) => {
      const c = new Cluster({ seed: 1, nodes: 1 });
      c.settle(10_000);
      expect(c.kubectl('run lone --image=nginx:1.14.2 --labels=app=nginx').exitCode).toBe(0);
      c.settle(30_000);
      c.apply(manifest);
      c.settle(60_000);
      const owner = c.get(resource, 'default', 'nginx')!;
      expect(c.get('pods', 'default', 'lone')!.metadata.ownerReferences).toEqual([
        { apiVersion, kind, name: 'nginx', uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
      expect(c.list('pods', 'default')).toHaveLength(2); // one Pod created, the orphan counted
      const adopt = c.relay.all().find((h) => h.summary.startsWith('adopt Pod default/lone'))!;
      expect([adopt.from, adopt.summary]).toEqual([controller, `adopt Pod default/lone (ownerReferences += ${kind} nginx)`]);
      expect(c.kubectl('label pod lone app=other --overwrite').exitCode).toBe(0);
      c.settle(60_000);
      expect(c.get('pods', 'default', 'lone')!.metadata.ownerReferences).toBeUndefined();
      expect(c.list('pods', 'default')).toHaveLength(3); // released, and replaced
    },
  );

  it("sees no other workload's Pods: no watch hop to replication-controller for a Deployment's Pods", () => {
    const c = new Cluster({ seed: 1, nodes: 1 });
    c.settle(10_000);
    expect(c.kubectl('create deployment web --image=nginx:1.14.2 --replicas=2').exitCode).toBe(0);
    c.settle(60_000);
    expect(c.list('pods', 'default')).toHaveLength(2);
    expect(c.relay.all().filter((h) => h.to === 'replication-controller' || h.from === 'replication-controller')).toEqual([]);
  });
});

describe('conversion (conversion.go)', () => {
  const rc: ReplicationController = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'a', namespace: 'default', uid: 'u1' },
    spec: { replicas: 2, minReadySeconds: 5, selector: { app: 'a' }, template: { metadata: { labels: { app: 'a' } } } },
    status: { replicas: 1, readyReplicas: 1, observedGeneration: 3 },
  };

  it('RC → RS: the selector map becomes matchLabels, the rest is carried', () => {
    expect(convertRCtoRS(rc)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: rc.metadata,
      spec: { replicas: 2, minReadySeconds: 5, selector: { matchLabels: { app: 'a' } }, template: rc.spec!.template },
      status: rc.status,
    });
  });

  it('RS → RC round-trips, and refuses matchExpressions', () => {
    expect(convertRStoRC(convertRCtoRS(rc))).toEqual(rc);
    const rs = convertRCtoRS(rc);
    rs.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Exists' }] };
    expect(() => convertRStoRC(rs)).toThrow("can't convert ReplicaSet to ReplicationController default/a: matchExpressions not supported");
  });
});
