/**
 * dropTypeDependentFields (pkg/registry/core/service/strategy.go): `kubectl apply` of a
 * different `type` over a Service wipes the fields the server allocated or defaulted for the
 * old type (nodePorts, healthCheckNodePort, clusterIP for ExternalName, externalTrafficPolicy,
 * allocateLoadBalancerNodePorts, the load-balancer status) and returns them to their pools; a
 * nodePort the user asks for explicitly is still refused by validation.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

const svc = (type: string, extra = '') => `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: ${type}
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080${extra}}]
`;

describe('Service type changes (dropTypeDependentFields)', () => {
  const cases: { name: string; from: string; to: string; want: Record<string, unknown>; clusterIPKept: boolean }[] = [
    {
      name: 'NodePort → ClusterIP',
      from: 'NodePort',
      to: 'ClusterIP',
      want: { type: 'ClusterIP', externalTrafficPolicy: undefined, internalTrafficPolicy: 'Cluster' },
      clusterIPKept: true,
    },
    {
      name: 'LoadBalancer → ClusterIP',
      from: 'LoadBalancer',
      to: 'ClusterIP',
      want: { type: 'ClusterIP', allocateLoadBalancerNodePorts: undefined, externalTrafficPolicy: undefined },
      clusterIPKept: true,
    },
    {
      name: 'LoadBalancer → NodePort keeps the nodePort',
      from: 'LoadBalancer',
      to: 'NodePort',
      want: { type: 'NodePort', allocateLoadBalancerNodePorts: undefined, externalTrafficPolicy: 'Cluster' },
      clusterIPKept: true,
    },
  ];
  it.each(cases)('$name', ({ from, to, want, clusterIPKept }) => {
    const c = new Cluster({ seed: 3 });
    c.apply(svc(from));
    c.advance(3_000);
    const before = c.get('services', 'default', 'web')!;
    const nodePort = before.spec.ports[0].nodePort as number;
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    const res = c.kubectl('apply -f -', svc(to));
    expect(res.output).toBe('service/web configured\n');
    const after = c.get('services', 'default', 'web')!;
    for (const [k, v] of Object.entries(want)) expect([k, after.spec[k]]).toEqual([k, v]);
    expect(after.spec.clusterIP === before.spec.clusterIP).toBe(clusterIPKept);
    if (to === 'NodePort') expect(after.spec.ports[0].nodePort).toBe(nodePort);
    else {
      expect(after.spec.ports[0].nodePort).toBeUndefined();
      expect(after.status.loadBalancer).toEqual({});
      // the port went back to the pool: a new NodePort Service may ask for it
      expect(c.kubectl('apply -f -', svc('NodePort', `, nodePort: ${nodePort}`).replace('name: web', 'name: web2')).output).toBe(
        'service/web2 created\n',
      );
    }
  });

  it('a nodePort the user sets with type ClusterIP is still refused', () => {
    const c = new Cluster({ seed: 3 });
    c.apply(svc('NodePort'));
    const nodePort = c.get('services', 'default', 'web')!.spec.ports[0].nodePort as number;
    const other = nodePort === 32000 ? 32001 : 32000;
    const res = c.kubectl('apply -f -', svc('ClusterIP', `, nodePort: ${other}`));
    expect([res.exitCode, res.output]).toEqual([1, '']);
    expect(res.error).toBe(
      `The Service "web" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when \`type\` is 'ClusterIP'\n`,
    );
  });

  it('ClusterIP → ExternalName frees the ClusterIP', () => {
    const c = new Cluster({ seed: 3 });
    c.apply(svc('ClusterIP'));
    const ip = c.get('services', 'default', 'web')!.spec.clusterIP as string;
    const res = c.kubectl(
      'apply -f -',
      `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: ExternalName
  externalName: example.com
`,
    );
    expect(res.output).toBe('service/web configured\n');
    const after = c.get('services', 'default', 'web')!;
    expect([after.spec.clusterIP, after.spec.clusterIPs, after.spec.ipFamilies, after.spec.ipFamilyPolicy]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      c.kubectl('apply -f -', svc('ClusterIP').replace('name: web', 'name: web2').replace('spec:\n', `spec:\n  clusterIP: ${ip}\n`)).output,
    ).toBe('service/web2 created\n');
  });
});
