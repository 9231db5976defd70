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
    const ev = c.events().filter((e) => e.involvedObject.name === 'web').map((e) => `${e.reason}: ${e.message}`);
    expect(ev).toEqual(['EnsuringLoadBalancer: Ensuring load balancer', 'EnsuredLoadBalancer: Ensured load balancer']);
    // type change releases it
    c.kubectl(`delete svc web`);
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
});
