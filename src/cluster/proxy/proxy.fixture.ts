/**
 * Test fixture for kube-proxy and DNS: a bare apiserver on a simulated clock, with helpers
 * that write Nodes, Services and EndpointSlices the way the kubelet and the endpointslice
 * controller would (test-only; mirrors controllers/endpointslice.test.ts's setup).
 */
import { APIServer } from '../apiserver/apiserver';
import { STRATEGIES } from '../apiserver/registry';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { users } from '../client/clientset';
import { ComponentContext } from '../component-context';
import { KUBERNETES_DEFAULTS } from '../timings';
import { ImageRegistry } from '../sim/image-registry';
import type { KObject } from '../api/types';

/** An endpoint as the endpointslice controller writes it. */
export interface TestEndpoint {
  ip: string;
  pod: string;
  node?: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
  hostname?: string;
}

export function proxyTestEnv() {
  const clock = new SimClock();
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, new Rng(1), relay, STRATEGIES);
  const ctx = new ComponentContext(api, clock, new Rng(2), relay, KUBERNETES_DEFAULTS, new ImageRegistry());
  const u = users.kubectl();
  const res = (r: string, g = '') => api.registry.forResource(g, r)!;
  for (const name of ['default', 'kube-system'])
    api.create(u, res('namespaces'), '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const node = (name: string, ip: string) =>
    api.create(u, res('nodes'), '', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      status: {
        addresses: [
          { type: 'InternalIP', address: ip },
          { type: 'Hostname', address: name },
        ],
      },
    });
  const service = (name: string, spec: Record<string, unknown>, namespace = 'default'): KObject =>
    api.create(u, res('services'), namespace, { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec }).object;
  const sliceObj = (
    svc: string,
    ports: { name?: string; port: number; protocol?: string }[],
    eps: TestEndpoint[],
    namespace = 'default',
  ): KObject =>
    ({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: `${svc}-abcde`,
        namespace,
        labels: { 'kubernetes.io/service-name': svc, 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' },
      },
      addressType: 'IPv4',
      ports: ports.map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP' })),
      endpoints: eps.map((e) => ({
        addresses: [e.ip],
        conditions: { ready: e.ready ?? true, serving: e.serving ?? e.ready ?? true, terminating: e.terminating ?? false },
        ...(e.hostname ? { hostname: e.hostname } : {}),
        ...(e.node ? { nodeName: e.node } : {}),
        targetRef: { kind: 'Pod', namespace, name: e.pod, uid: `uid-${e.pod}` },
      })),
    }) as unknown as KObject;
  const slice = (
    svc: string,
    ports: { name?: string; port: number; protocol?: string }[],
    eps: TestEndpoint[],
    namespace = 'default',
  ): KObject => api.create(u, res('endpointslices', 'discovery.k8s.io'), namespace, sliceObj(svc, ports, eps, namespace)).object;
  const updateSlice = (cur: KObject, ports: { name?: string; port: number; protocol?: string }[], eps: TestEndpoint[]): KObject => {
    const next = sliceObj(cur.metadata.labels!['kubernetes.io/service-name'], ports, eps, cur.metadata.namespace);
    next.metadata = { ...cur.metadata };
    return api.update(u, res('endpointslices', 'discovery.k8s.io'), cur.metadata.namespace ?? '', next).object;
  };
  const pod = (
    name: string,
    spec: Record<string, unknown>,
    status: Record<string, unknown>,
    namespace = 'default',
    labels: Record<string, string> = {},
  ): KObject =>
    api.create(u, res('pods'), namespace, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace, labels },
      spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
      status,
    }).object;
  return { clock, relay, api, ctx, u, res, node, service, slice, updateSlice, pod };
}
