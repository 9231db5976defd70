import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

describe('ServiceLoadBalancerController (simulated cloud)', () => {
  it('a LoadBalancer Service gets an external IP after the cloud provisions it; kubectl shows it', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(`apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: LoadBalancer
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
`);
    c.advance(100);
    expect(c.kubectl('get svc web').output).toMatch(/LoadBalancer\s+10\.\d+\.\d+\.\d+\s+<pending>\s+80:3\d{4}\/TCP/);
    c.advance(2_000);
    const svc = c.get('services', 'default', 'web')!;
    expect(svc.status.loadBalancer.ingress).toEqual([{ ip: '172.18.255.200', ipMode: 'VIP' }]);
    expect(c.kubectl('get svc web').output).toMatch(/LoadBalancer\s+10\.\d+\.\d+\.\d+\s+172\.18\.255\.200\s+80:3\d{4}\/TCP/);
    const ev = c
      .events()
      .filter((e) => e.involvedObject.name === 'web')
      .map((e) => `${e.reason}: ${e.message}`);
    expect(ev).toEqual(['EnsuringLoadBalancer: Ensuring load balancer', 'EnsuredLoadBalancer: Ensured load balancer']);
    expect(svc.metadata.finalizers).toEqual(['service.kubernetes.io/load-balancer-cleanup']);
    // deleting it waits for the cleanup finalizer; the IP goes back to the pool
    c.kubectl(`delete svc web`);
    c.advance(1_000);
    expect(c.get('services', 'default', 'web')).toBeUndefined();
    expect(
      c
        .events()
        .filter((e) => e.involvedObject.name === 'web')
        .map((e) => e.reason),
    ).toEqual(['EnsuringLoadBalancer', 'EnsuredLoadBalancer', 'DeletingLoadBalancer', 'DeletedLoadBalancer']);
    c.apply(`apiVersion: v1
kind: Service
metadata: {name: web2}
spec:
  type: LoadBalancer
  selector: {app: web}
  ports: [{port: 80}]
`);
    c.advance(3_000);
    expect(c.get('services', 'default', 'web2')!.status.loadBalancer.ingress[0].ip).toBe('172.18.255.200');
  });

  it('a type change away from LoadBalancer deletes the load balancer and drops the finalizer', () => {
    const c = new Cluster({ seed: 1 });
    const svc = (type: string) => `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: ${type}
  selector: {app: web}
  ports: [{port: 80}]
`;
    c.apply(svc('LoadBalancer'));
    c.advance(3_000);
    expect(c.kubectl('apply -f -', svc('ClusterIP')).output).toBe('service/web configured\n');
    c.advance(1_000);
    const s = c.get('services', 'default', 'web')!;
    expect([s.metadata.finalizers, s.status.loadBalancer, s.spec.ports[0].nodePort]).toEqual([undefined, {}, undefined]);
    expect(
      c
        .events()
        .filter((e) => e.involvedObject.name === 'web')
        .map((e) => `${e.reason}: ${e.message}`),
    ).toEqual([
      'EnsuringLoadBalancer: Ensuring load balancer',
      'EnsuredLoadBalancer: Ensured load balancer',
      'Type: LoadBalancer -> ClusterIP',
      'DeletingLoadBalancer: Deleting load balancer',
      'DeletedLoadBalancer: Deleted load balancer',
    ]);
  });
});
