/** The etcd keys of every kind the engine serves, against kube-apiserver's prefixes. */
import { describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../api/resources';
import { etcdKey } from './etcd-keys';
import { Cluster } from '../cluster';

const reg = new ResourceRegistry();
const key = (apiVersion: string, kind: string, ns: string, name: string) => etcdKey(reg.forKind(apiVersion, kind)!, ns, name);

describe('etcdKey', () => {
  it.each([
    ['apps/v1', 'Deployment', 'default', 'web', '/registry/deployments/default/web'],
    ['v1', 'Service', 'default', 'web', '/registry/services/specs/default/web'],
    ['v1', 'Endpoints', 'default', 'web', '/registry/services/endpoints/default/web'],
    ['v1', 'Node', '', 'node-1', '/registry/minions/node-1'],
    ['v1', 'Pod', 'default', 'p', '/registry/pods/default/p'],
    ['v1', 'ReplicationController', 'default', 'rc', '/registry/controllers/default/rc'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler', 'default', 'h', '/registry/horizontalpodautoscalers/default/h'],
    ['autoscaling/v1', 'HorizontalPodAutoscaler', 'default', 'h', '/registry/horizontalpodautoscalers/default/h'],
    ['v1', 'Event', 'default', 'e.1', '/registry/events/default/e.1'],
    ['events.k8s.io/v1', 'Event', 'default', 'e.1', '/registry/events/default/e.1'],
    ['coordination.k8s.io/v1', 'Lease', 'kube-node-lease', 'node-1', '/registry/leases/kube-node-lease/node-1'],
    ['networking.k8s.io/v1', 'Ingress', 'default', 'i', '/registry/ingress/default/i'],
    ['networking.k8s.io/v1', 'IngressClass', '', 'nginx', '/registry/ingressclasses/nginx'],
    ['v1', 'Namespace', '', 'default', '/registry/namespaces/default'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole', '', 'admin', '/registry/clusterroles/admin'],
    [
      'apiextensions.k8s.io/v1',
      'CustomResourceDefinition',
      '',
      'widgets.example.com',
      '/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com',
    ],
  ])('%s %s %s/%s → %s', (apiVersion, kind, ns, name, want) => {
    expect(key(apiVersion, kind, ns, name)).toBe(want);
  });

  it('custom resources live under /registry/<group>/<resource>/', () => {
    expect(etcdKey({ group: 'example.com', resource: 'widgets', custom: true, namespaced: true }, 'default', 'w')).toBe(
      '/registry/example.com/widgets/default/w',
    );
    expect(etcdKey({ group: 'sim.kube-relay.dev', resource: 'machines', custom: true, namespaced: false }, '', 'node-1')).toBe(
      '/registry/sim.kube-relay.dev/machines/node-1',
    );
  });

  it('the relay shows those keys for the writes of a Deployment and its Service', () => {
    const c = new Cluster();
    c.settle(30_000);
    const from = c.relay.all().length;
    c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
`);
    c.settle(60_000);
    const keys = new Set(
      c.relay
        .all()
        .slice(from)
        .filter((h) => h.to === 'etcd')
        .map((h) =>
          h.summary
            .replace(/^(put|delete) (\S+).*$/, '$2')
            .replace(/-[a-z0-9]{5,10}(-[a-z0-9]{5})?$/, '-…')
            .replace(/\.[0-9a-f]{16}$/, '.…'),
        ),
    );
    for (const k of [
      '/registry/deployments/default/web',
      '/registry/replicasets/default/web-…',
      '/registry/pods/default/web-…',
      '/registry/services/specs/default/web',
      '/registry/services/endpoints/default/web',
      '/registry/endpointslices/default/web-…',
      '/registry/leases/kube-node-lease/node-1',
    ]) {
      expect(keys).toContain(k);
    }
    expect([...keys].filter((k) => /\.(apps|coordination\.k8s\.io|discovery\.k8s\.io)\//.test(k))).toEqual([]);
  });
});
