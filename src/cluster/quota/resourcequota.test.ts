/**
 * ResourceQuota end to end: the admission plugin's 403s with upstream's texts
 * (quota/admission.ts), the controller's status (controllers/resourcequota.ts) as
 * `kubectl describe quota` prints it, replenishment, dry runs not charged.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { StatusError } from '../api/errors';
import { canonicalResourceQuantity } from '../api/quantity';
import { parse } from 'yaml';
import { users } from '../client/clientset';

function cluster(): Cluster {
  const c = new Cluster();
  c.kubectl('create namespace q');
  c.apply(`apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: q}
spec: {hard: {pods: "2", requests.cpu: "1", limits.memory: 1Gi, services: "5"}}
`);
  c.settle(5_000);
  return c;
}

const pod = (name: string, cpu = '400m', mem = '256Mi') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: q}
spec:
  containers: [{name: app, image: "nginx:1.27", resources: {requests: {cpu: ${cpu}}, limits: {memory: ${mem}}}}]
`;

/** Creates `yaml` as kubectl's user; the StatusError's code, reason and message, or undefined when created. */
function createError(
  c: Cluster,
  yaml: string,
  opts: { dryRun?: boolean } = {},
): { code: number; reason: string; message: string } | undefined {
  const o = parse(yaml);
  const info = c.api.registry.forKind(o.apiVersion, o.kind)!;
  try {
    c.api.create(users.kubectl(), info, 'q', o, opts);
    return undefined;
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, reason: e.reason, message: e.message };
    throw e;
  }
}

describe('ResourceQuota admission', () => {
  it('charges each admitted Pod and refuses the one that would exceed requests.cpu', () => {
    const c = cluster();
    expect(createError(c, pod('a'))).toBeUndefined();
    expect(createError(c, pod('b', '500m'))).toBeUndefined();
    expect(createError(c, pod('c'))).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "c" is forbidden: exceeded quota: compute, requested: pods=1,requests.cpu=400m, used: pods=2,requests.cpu=900m, limited: pods=2,requests.cpu=1',
    });
    expect(createError(c, pod('d', '50m'))).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "d" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2',
    });
  });

  it('a container without what a compute quota tracks: failed quota, names sorted', () => {
    const c = cluster();
    const r = c.kubectl('run web -n q --image=nginx:1.27');
    expect(r.exitCode).toBe(1);
    expect(r.error).toBe(
      'Error from server (Forbidden): pods "web" is forbidden: failed quota: compute: must specify limits.memory for: web; requests.cpu for: web\n',
    );
  });

  it('a quota whose status.hard names a resource without a used value: status unknown', () => {
    const c = cluster();
    const q = structuredClone(c.api.getObject('resourcequotas', 'q', 'compute')!);
    q.status = { hard: { pods: '2' }, used: {} };
    c.api.update(users.system('test'), c.api.registry.forResource('', 'resourcequotas')!, 'q', q, { subresource: 'status' });
    expect(createError(c, pod('a'))).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "a" is forbidden: status unknown for quota: compute, resources: pods',
    });
  });

  it('a dry run is checked but not charged', () => {
    const c = cluster();
    expect(createError(c, pod('dry'), { dryRun: true })).toBeUndefined();
    expect(c.api.getObject('resourcequotas', 'q', 'compute')!.status.used).toEqual({
      'limits.memory': '0',
      pods: '0',
      'requests.cpu': '0',
      services: '0',
    });
    expect(createError(c, pod('real'))).toBeUndefined();
    expect(c.api.getObject('resourcequotas', 'q', 'compute')!.status.used).toEqual({
      'limits.memory': '256Mi',
      pods: '1',
      'requests.cpu': '400m',
      services: '0',
    });
  });
});

describe('resourcequota controller', () => {
  it('status.hard from spec.hard and Used rows in describe; replenished when a Pod goes', () => {
    const c = cluster();
    c.apply(pod('a'));
    c.apply(pod('b', '250m', '128Mi'));
    c.settle(30_000);
    expect(c.kubectl('describe quota compute -n q').output).toBe(`Name:          compute
Namespace:     q
Resource       Used   Hard
--------       ----   ----
limits.memory  384Mi  1Gi
pods           2      2
requests.cpu   650m   1
services       0      5
`);
    c.kubectl('delete pod a -n q');
    c.settle(60_000);
    expect(c.api.getObject('resourcequotas', 'q', 'compute')!.status).toEqual({
      hard: { 'limits.memory': '1Gi', pods: '2', 'requests.cpu': '1', services: '5' },
      used: { 'limits.memory': '128Mi', pods: '1', 'requests.cpu': '250m', services: '0' },
    });
  });

  it('a spec.hard change is copied to status.hard', () => {
    const c = cluster();
    c.apply(`apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: q}
spec: {hard: {pods: "3", count/deployments.apps: "1"}}
`);
    c.kubectl('create deployment web -n q --image=nginx:1.27 --replicas=0');
    c.settle(30_000);
    expect(c.api.getObject('resourcequotas', 'q', 'compute')!.status).toEqual({
      hard: { 'count/deployments.apps': '1', pods: '3' },
      used: { 'count/deployments.apps': '1', pods: '0' },
    });
    expect(
      createError(
        c,
        `{apiVersion: apps/v1, kind: Deployment, metadata: {name: two, namespace: q}, spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: "nginx:1.27"}]}}}}`,
      ),
    ).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'deployments.apps "two" is forbidden: exceeded quota: compute, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    });
  });
});

describe('canonicalResourceQuantity (Quantity.RoundUp(-3) + CanonicalizeBytes)', () => {
  it.each([
    ['0.5', '500m'],
    ['1000m', '1'],
    ['2000', '2k'],
    ['1.5Gi', '1536Mi'],
    ['1e3', '1e3'],
    ['12e2', '1200'],
    ['0.0001', '1m'],
    ['1n', '1m'],
    ['0Gi', '0'],
    ['1024', '1024'],
    ['1024Ki', '1Mi'],
    ['1023Ki', '1023Ki'],
    ['0.5Ki', '512'],
    ['0.1Gi', '107374182400m'],
    ['-0.5', '-500m'],
    [2, '2'],
    ['100M', '100M'],
    ['bad', 'bad'],
  ] as [string | number, string][])('%s → %s', (input, want) => {
    expect(canonicalResourceQuantity(input)).toBe(want);
  });
});
