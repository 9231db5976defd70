import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

const APP = (probeFails: boolean) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{name: http, containerPort: 80}]
        readinessProbe:
          tcpSocket: {port: ${probeFails ? 81 : 80}}
          periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata: {name: web, labels: {tier: front}}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: v1
kind: Service
metadata: {name: web-headless}
spec:
  clusterIP: None
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`;

describe('EndpointsController (v1 Endpoints)', () => {
  it('ready Pods are addresses with their node and Pod; labels copy the Service plus managed-by', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(APP(false));
    c.settle(120_000);
    const ep = c.get('endpoints', 'default', 'web')!;
    expect(ep.metadata.labels).toEqual({ tier: 'front', 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' });
    expect(ep.subsets).toHaveLength(1);
    expect(ep.subsets[0].ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }]);
    expect(ep.subsets[0].addresses.map((a: { targetRef: { name: string } }) => a.targetRef.name).sort()).toEqual(
      c
        .list('pods', 'default')
        .map((p) => p.metadata.name)
        .sort(),
    );
    expect(ep.subsets[0].notReadyAddresses).toBeUndefined();
    expect(c.get('endpoints', 'default', 'web-headless')!.metadata.labels).toEqual({
      'service.kubernetes.io/headless': '',
      'endpoints.kubernetes.io/managed-by': 'endpoint-controller',
    });
  });

  it('Pods failing readiness are notReadyAddresses; deleting the Service deletes its Endpoints', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(APP(true));
    c.settle(120_000);
    const ep = c.get('endpoints', 'default', 'web')!;
    expect(ep.subsets[0].addresses).toBeUndefined();
    expect(ep.subsets[0].notReadyAddresses).toHaveLength(2);
    c.kubectl('delete svc web');
    c.advance(1_000);
    expect(c.get('endpoints', 'default', 'web')).toBeUndefined();
  });
});
