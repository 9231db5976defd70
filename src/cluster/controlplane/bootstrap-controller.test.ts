/**
 * kube-apiserver's bootstrap controllers: a deleted `kubernetes` Service (and its Endpoints and
 * EndpointSlice) is recreated at the next 10 s EndpointInterval tick after the apiserver's start,
 * with its ClusterIP 10.96.0.1; NamespaceLifecycle refuses to delete default, kube-system and
 * kube-public.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

describe('the kubernetes Service is kept', () => {
  it('comes back at the next EndpointInterval tick, same ClusterIP and ports', () => {
    const c = new Cluster();
    c.advance(3_500); // boot ends at a whole tick; delete 3.5 s into a period
    const t0 = c.clock.now();
    const r = c.kubectl('delete service kubernetes');
    expect(r.output).toBe('service "kubernetes" deleted\n');
    expect(c.get('services', 'default', 'kubernetes')).toBeUndefined();
    c.advance(6_400);
    expect(c.get('services', 'default', 'kubernetes')).toBeUndefined();
    c.advance(200);
    const svc = c.get('services', 'default', 'kubernetes')!;
    expect(svc).toBeDefined();
    expect(c.clock.now() - t0).toBe(6_600);
    expect({ ip: svc.spec.clusterIP, ports: svc.spec.ports, labels: svc.metadata.labels }).toEqual({
      ip: '10.96.0.1',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      labels: { component: 'apiserver', provider: 'kubernetes' },
    });
    c.settle(30_000);
    expect(c.get('endpoints', 'default', 'kubernetes')?.subsets?.[0]?.ports?.[0]?.port).toBe(6443);
    expect(c.get('endpointslices.discovery.k8s.io', 'default', 'kubernetes')).toBeDefined();
    expect(c.kubectl('get svc kubernetes -o jsonpath={.spec.clusterIP}').output).toBe('10.96.0.1');
  });

  it('its EndpointSlice alone is recreated too', () => {
    const c = new Cluster();
    c.kubectl('delete endpointslice kubernetes');
    c.advance(10_000);
    expect(c.get('endpointslices.discovery.k8s.io', 'default', 'kubernetes')?.endpoints?.[0]?.addresses).toEqual(['172.18.0.2']);
  });

  it('a deleted kube-node-lease comes back at the next one-minute tick after it is gone', () => {
    const c = new Cluster();
    const bootEnd = c.clock.now(); // the apiserver started 30 s before (the boot settles 30 s)
    c.advance(15_000);
    expect(c.kubectl('delete namespace kube-node-lease').output).toBe('namespace "kube-node-lease" deleted\n');
    let goneAt = -1;
    for (let t = 0; t < 120_000 && goneAt < 0; t += 500) {
      c.advance(500);
      if (!c.get('namespaces', '', 'kube-node-lease')) goneAt = c.clock.now();
    }
    expect(goneAt).toBeGreaterThan(0);
    let backAt = -1;
    for (let t = 0; t < 61_000 && backAt < 0; t += 500) {
      c.advance(500);
      if (c.get('namespaces', '', 'kube-node-lease')) backAt = c.clock.now();
    }
    expect(backAt).toBeGreaterThan(goneAt);
    expect(backAt - goneAt).toBeLessThanOrEqual(60_500);
    // the controller's ticks: apiserver start + k·60 s = boot end + 30 s + k·60 s
    expect((backAt - bootEnd) % 60_000).toBe(30_000);
    expect(c.get('namespaces', '', 'kube-node-lease')!.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'kube-node-lease' });
  });

  it.each(['default', 'kube-system', 'kube-public'])('namespace %s may not be deleted', (ns) => {
    const c = new Cluster();
    expect(c.kubectl(`delete namespace ${ns}`).error).toBe(
      `Error from server (Forbidden): namespaces "${ns}" is forbidden: this namespace may not be deleted\n`,
    );
  });
});
