import { describe, expect, it } from 'vitest';
import { createRelayInference, type ObservedChange } from './infer-relay';
import type { KObject } from '../store/types';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');
const mf = (manager: string, s: number, subresource?: string, operation = 'Update') => ({
  manager,
  operation,
  time: at(s),
  ...(subresource ? { subresource } : {}),
});

const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c', uid: 'u1', controller: true };
function pod(over: { rv: string; node?: string; phase?: string; managed?: object[]; deleting?: number }): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-7d4b9c-x2x9z',
      namespace: 'default',
      resourceVersion: over.rv,
      creationTimestamp: at(1),
      ownerReferences: [rs],
      ...(over.managed ? { managedFields: over.managed } : {}),
      ...(over.deleting !== undefined ? { deletionTimestamp: at(over.deleting) } : {}),
    },
    spec: { containers: [{ name: 'web', image: 'nginx' }], ...(over.node ? { nodeName: over.node } : {}) },
    status: { phase: over.phase ?? 'Pending' },
  } as KObject;
}

/** Plays watch events in order, giving each its previous object as the attach client does. */
function play(events: { type: ObservedChange['type']; resource: string; object: KObject }[]): string[] {
  const inf = createRelayInference();
  const known = new Map<string, KObject>();
  const out: string[] = [];
  for (const e of events) {
    const key = `${e.object.kind}/${e.object.metadata.namespace}/${e.object.metadata.name}`;
    for (const h of inf.observe({ ...e, prev: known.get(key) }, T0 + 999_000)) {
      expect(h.inferred).toBe(true);
      out.push(
        `${h.seq} ${(h.time - T0) / 1000}s ${h.from} → ${h.to} ${h.verb} ${h.resource}${h.category ? ` [${h.category}]` : ''}: ${h.summary}`,
      );
    }
    if (e.type === 'DELETED') known.delete(key);
    else known.set(key, e.object);
  }
  return out;
}

const cases: { name: string; events: { type: ObservedChange['type']; resource: string; object: KObject }[]; hops: string[] }[] = [
  {
    name: 'real cluster: a ReplicaSet Pod is created, bound, started by the kubelet',
    events: [
      { type: 'ADDED', resource: 'pods', object: pod({ rv: '10', managed: [mf('kube-controller-manager', 1)] }) },
      {
        type: 'MODIFIED',
        resource: 'pods',
        object: pod({ rv: '11', node: 'node-2', managed: [mf('kube-controller-manager', 1), mf('kube-scheduler', 2, 'status')] }),
      },
      {
        type: 'MODIFIED',
        resource: 'pods',
        object: pod({
          rv: '12',
          node: 'node-2',
          phase: 'Running',
          managed: [mf('kube-controller-manager', 1), mf('kube-scheduler', 2, 'status'), mf('kubelet', 9, 'status')],
        }),
      },
    ],
    hops: [
      '1 1s replicaset-controller → kube-apiserver create pods: create Pod default/web-7d4b9c-x2x9z (inferred)',
      '2 2s kube-scheduler → kube-apiserver create pods/binding: bind Pod default/web-7d4b9c-x2x9z to node-2 (inferred)',
      '3 9s kubelet/node-2 → kube-apiserver update pods/status: update Pod default/web-7d4b9c-x2x9z status: Running (inferred)',
    ],
  },
  {
    name: 'kube-relay apiserver (no managedFields on controller writes): owner and node decide',
    events: [
      { type: 'ADDED', resource: 'pods', object: pod({ rv: '10' }) },
      { type: 'MODIFIED', resource: 'pods', object: pod({ rv: '11', node: 'node-1' }) },
      { type: 'MODIFIED', resource: 'pods', object: pod({ rv: '12', node: 'node-1', phase: 'Running' }) },
      { type: 'MODIFIED', resource: 'pods', object: pod({ rv: '13', node: 'node-1', phase: 'Running', deleting: 30 }) },
      { type: 'DELETED', resource: 'pods', object: pod({ rv: '14', node: 'node-1', phase: 'Running', deleting: 30 }) },
    ],
    hops: [
      '1 1s replicaset-controller → kube-apiserver create pods: create Pod default/web-7d4b9c-x2x9z (inferred)',
      '2 999s kube-scheduler → kube-apiserver create pods/binding: bind Pod default/web-7d4b9c-x2x9z to node-1 (inferred)',
      '3 999s kubelet/node-1 → kube-apiserver update pods/status: update Pod default/web-7d4b9c-x2x9z status: Running (inferred)',
      '4 30s replicaset-controller → kube-apiserver delete pods: delete Pod default/web-7d4b9c-x2x9z (inferred)',
      '5 30s kubelet/node-1 → kube-apiserver delete pods: delete Pod default/web-7d4b9c-x2x9z (inferred)',
    ],
  },
  {
    name: 'kubectl apply creates a Deployment; kubectl scale updates it; the controller updates its status',
    events: [
      {
        type: 'ADDED',
        resource: 'deployments',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {
            name: 'web',
            namespace: 'default',
            resourceVersion: '5',
            creationTimestamp: at(0),
            managedFields: [mf('kubectl-client-side-apply', 0)],
          },
          spec: { replicas: 3 },
        } as KObject,
      },
      {
        type: 'MODIFIED',
        resource: 'deployments',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {
            name: 'web',
            namespace: 'default',
            resourceVersion: '6',
            creationTimestamp: at(0),
            managedFields: [mf('kubectl-client-side-apply', 0), mf('kube-controller-manager', 1, 'status')],
          },
          spec: { replicas: 3 },
          status: { replicas: 3 },
        } as KObject,
      },
      {
        type: 'MODIFIED',
        resource: 'deployments',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {
            name: 'web',
            namespace: 'default',
            resourceVersion: '7',
            creationTimestamp: at(0),
            managedFields: [mf('kubectl-client-side-apply', 0), mf('kube-controller-manager', 1, 'status'), mf('kubectl', 4)],
          },
          spec: { replicas: 5 },
          status: { replicas: 3 },
        } as KObject,
      },
    ],
    hops: [
      '1 0s kubectl → kube-apiserver create deployments: create Deployment default/web (inferred)',
      '2 1s deployment-controller → kube-apiserver update deployments/status: update Deployment default/web status (inferred)',
      '3 4s kubectl → kube-apiserver update deployments: update Deployment default/web (inferred)',
    ],
  },
  {
    name: 'Events are written by their source component',
    events: [
      {
        type: 'ADDED',
        resource: 'events',
        object: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'web.1', namespace: 'default', resourceVersion: '20' },
          reason: 'Scheduled',
          source: { component: 'default-scheduler' },
          lastTimestamp: at(2),
        } as KObject,
      },
      {
        type: 'ADDED',
        resource: 'events',
        object: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'web.2', namespace: 'default', resourceVersion: '21' },
          reason: 'Pulled',
          source: { component: 'kubelet', host: 'node-2' },
          lastTimestamp: at(5),
        } as KObject,
      },
      {
        type: 'ADDED',
        resource: 'events',
        object: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'node-2.3', namespace: 'default', resourceVersion: '22' },
          reason: 'NodeNotReady',
          source: { component: 'node-controller' },
          lastTimestamp: at(60),
        } as KObject,
      },
    ],
    hops: [
      '1 2s kube-scheduler → kube-apiserver create events [event]: create Event default/web.1: Scheduled (inferred)',
      '2 5s kubelet/node-2 → kube-apiserver create events [event]: create Event default/web.2: Pulled (inferred)',
      '3 60s node-lifecycle-controller → kube-apiserver create events [event]: create Event default/node-2.3: NodeNotReady (inferred)',
    ],
  },
  {
    name: 'a new ReplicaSet owned by a Deployment comes from deployment-controller',
    events: [
      {
        type: 'ADDED',
        resource: 'replicasets',
        object: {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: 'web-7d4b9c',
            namespace: 'default',
            resourceVersion: '8',
            creationTimestamp: at(1),
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u0', controller: true }],
            managedFields: [mf('kube-controller-manager', 1)],
          },
          spec: { replicas: 3 },
        } as KObject,
      },
    ],
    hops: ['1 1s deployment-controller → kube-apiserver create replicasets: create ReplicaSet default/web-7d4b9c (inferred)'],
  },
];

describe('relay inference', () => {
  for (const c of cases) it(c.name, () => expect(play(c.events)).toEqual(c.hops));
});
