/**
 * The scale subresource over HTTP is authorized as kube-apiserver authorizes it: a PATCH of
 * …/deployments/NAME/scale needs `patch` on `deployments/scale` (what `kubectl scale` sends), a
 * PUT needs `update`, and neither needs any verb on the Deployment itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';

let srv: RunningServer;
const req = async (method: string, path: string, body: unknown, contentType: string) => {
  const r = await globalThis.fetch(srv.url + path, {
    method,
    headers: { Authorization: `Bearer ${srv.token}`, 'Impersonate-User': 'jane', 'Content-Type': contentType },
    body: JSON.stringify(body),
  });
  return { code: r.status, body: (await r.json()) as any };
};

beforeAll(async () => {
  const c = new Cluster({ nodes: 1 });
  c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.27}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: scaler, namespace: default}
rules: [{apiGroups: [apps], resources: [deployments/scale], verbs: [patch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane-scaler, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: scaler}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}]
`);
  srv = await startServer(c, { port: 0, speed: 50 });
});
afterAll(async () => srv.close());

const SCALE = '/apis/apps/v1/namespaces/default/deployments/web/scale';

describe('deployments/scale over HTTP with only patch on deployments/scale', () => {
  it('a merge PATCH of /scale (kubectl scale) is allowed', async () => {
    const r = await req('PATCH', SCALE, { spec: { replicas: 3 } }, 'application/merge-patch+json');
    expect(r.code).toBe(200);
    expect(r.body.kind).toBe('Scale');
    expect(r.body.spec.replicas).toBe(3);
  });

  it('a PUT of /scale is forbidden: it needs update', async () => {
    const r = await req(
      'PUT',
      SCALE,
      { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2 } },
      'application/json',
    );
    expect(r.code).toBe(403);
    expect(r.body.message).toBe(
      'deployments.apps "web" is forbidden: User "jane" cannot update resource "deployments/scale" in API group "apps" in the namespace "default"',
    );
  });
});
