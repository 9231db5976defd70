import { describe, expect, it } from 'vitest';
import { APIServer } from '../apiserver/apiserver';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { users } from '../client/clientset';
import { SharedInformerFactory } from '../client/informer';
import { ComponentContext } from '../component-context';
import { KUBERNETES_DEFAULTS } from '../timings';
import { ImageRegistry } from '../sim/image-registry';
import { EndpointSliceController, findPort } from './endpointslice';
import { deepCopy, type KObject } from '../api/types';

function setup() {
  const clock = new SimClock();
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, new Rng(1), relay, {});
  const ctx = new ComponentContext(api, clock, new Rng(2), relay, KUBERNETES_DEFAULTS, new ImageRegistry());
  const factory = new SharedInformerFactory(ctx.client(users.controller('kube-controller-manager')));
  new EndpointSliceController(ctx, factory);
  factory.start();
  const u = users.kubectl();
  api.create(u, api.registry.forResource('', 'namespaces')!, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const res = (r: string, g = '') => api.registry.forResource(g, r)!;
  const svc = (spec: Record<string, unknown>) =>
    api.create(u, res('services'), 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'peekcart' }, spec });
  const pod = (name: string, ip: string, ready: boolean, labels = { app: 'peekcart' }, ports = [{ name: 'http', containerPort: 8080 }]) =>
    api.create(u, res('pods'), 'default', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'x', ports }] },
      status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    }).object;
  const slices = () => api.list(u, res('endpointslices', 'discovery.k8s.io'), 'default', { quiet: true }).items;
  return { clock, api, u, res, svc, pod, slices };
}

describe('EndpointSliceController', () => {
  it('lists the selected Pods: ready, not-ready, and follows readiness changes', () => {
    const { clock, api, u, res, svc, pod, slices } = setup();
    pod('peekcart-a', '10.244.1.5', true);
    const b = pod('peekcart-b', '10.244.2.7', false);
    pod('other', '10.244.3.9', true, { app: 'other' } as never);
    svc({ selector: { app: 'peekcart' }, clusterIP: '10.96.0.50', ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] });
    clock.advance(10);
    const [s] = slices();
    expect(s.metadata.name).toMatch(/^peekcart-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(s.metadata.labels).toEqual({
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      'kubernetes.io/service-name': 'peekcart',
    });
    expect(s.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Service', name: 'peekcart', controller: true });
    expect(s.addressType).toBe('IPv4');
    expect(s.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
    expect(s.endpoints.map((e: { addresses: string[]; conditions: object }) => [e.addresses[0], e.conditions])).toEqual([
      ['10.244.1.5', { ready: true, serving: true, terminating: false }],
      ['10.244.2.7', { ready: false, serving: false, terminating: false }],
    ]);
    // readiness flips → slice updated
    const nb = deepCopy(b) as KObject;
    nb.status.conditions = [{ type: 'Ready', status: 'True' }];
    api.update(u, res('pods'), 'default', nb);
    clock.advance(10);
    expect(slices()[0].endpoints[1].conditions).toEqual({ ready: true, serving: true, terminating: false });
  });

  it("a headless Service's slices carry service.kubernetes.io/headless", () => {
    const { clock, svc, pod, slices } = setup();
    pod('peekcart-a', '10.244.1.5', true);
    svc({ selector: { app: 'peekcart' }, clusterIP: 'None', ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] });
    clock.advance(10);
    expect(slices()[0].metadata.labels).toEqual({
      'service.kubernetes.io/headless': '',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      'kubernetes.io/service-name': 'peekcart',
    });
  });

  it('a Service selecting nothing gets one placeholder slice with no ports or endpoints', () => {
    const { clock, svc, slices } = setup();
    svc({ selector: { app: 'nothing' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] });
    clock.advance(10);
    const all = slices();
    expect(all).toHaveLength(1);
    expect(all[0].ports).toEqual([]);
    expect(all[0].endpoints).toBeNull();
  });

  it('a named targetPort the Pod does not declare: the endpoint has no ports (no backend for that port)', () => {
    const { clock, svc, pod, slices } = setup();
    pod('peekcart-a', '10.244.1.5', true, { app: 'peekcart' }, [{ name: 'web', containerPort: 8080 }]);
    svc({ selector: { app: 'peekcart' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] });
    clock.advance(10);
    const all = slices();
    expect(all).toHaveLength(1);
    expect(all[0].ports).toEqual([]);
    expect(all[0].endpoints.map((e: { addresses: string[] }) => e.addresses[0])).toEqual(['10.244.1.5']);
    expect(
      findPort(
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'x' },
          spec: { containers: [{ name: 'app', ports: [{ name: 'http', containerPort: 9090 }] }] },
        },
        { port: 80, targetPort: 'http' },
      ),
    ).toBe(9090);
  });

  it('more than 100 endpoints are split into slices of at most 100', () => {
    const { clock, svc, pod, slices } = setup();
    for (let i = 0; i < 150; i++) pod(`p-${String(i).padStart(3, '0')}`, `10.244.${Math.floor(i / 200)}.${(i % 200) + 2}`, true);
    svc({ selector: { app: 'peekcart' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] });
    clock.advance(10);
    expect(
      slices()
        .map((s) => s.endpoints.length)
        .sort(),
    ).toEqual([100, 50]);
  });
});
