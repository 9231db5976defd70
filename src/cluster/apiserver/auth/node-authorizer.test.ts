import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { users } from '../../client/clientset';
import { StatusError } from '../../api/errors';
import { kubeProxyUser } from '../../proxy/kube-proxy';
import type { RequestUser } from '../apiserver';

// node_authorizer.go authorizeNode / authorizePod (AuthorizeNodeWithSelectors, beta and on in v1.33)
const c = new Cluster({ seed: 1, nodes: 2 });
c.settle(30_000);
const api = c.api;
const info = (g: string, r: string) => api.registry.forResource(g, r)!;
const nodes = info('', 'nodes');
const pods = info('', 'pods');
const node1 = users.node('node-1');

/** "allowed" or the 403's code and message. */
function attempt(fn: () => unknown): string {
  try {
    fn();
    return 'allowed';
  } catch (e) {
    if (e instanceof StatusError) return `${e.code} ${e.message}`;
    throw e;
  }
}
const denied = (what: string, reason: string) => `403 ${what} is forbidden: User "system:node:node-1" cannot ${reason}`;

describe('a kubelet reads only its own Node', () => {
  const watchOnce = (u: RequestUser, fieldSelector?: string) => () => api.watch(u, nodes, undefined, { fieldSelector }, () => {})();
  it.each<[string, () => unknown, string]>([
    ['get its own Node', () => api.get(node1, nodes, '', 'node-1', { quiet: true }), 'allowed'],
    [
      'get node-2',
      () => api.get(node1, nodes, '', 'node-2', { quiet: true }),
      denied(
        'nodes "node-2"',
        `get resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object`,
      ),
    ],
    [
      'list every Node (no selector)',
      () => api.list(node1, nodes, undefined, { quiet: true }),
      denied(
        'nodes',
        `list resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read all nodes, only its own Node object`,
      ),
    ],
    [
      'list with metadata.name=node-1',
      () => api.list(node1, nodes, undefined, { quiet: true, fieldSelector: 'metadata.name=node-1' }),
      'allowed',
    ],
    [
      'list with metadata.name==node-1',
      () => api.list(node1, nodes, undefined, { quiet: true, fieldSelector: 'metadata.name==node-1' }),
      'allowed',
    ],
    [
      'list with metadata.name=node-2',
      () => api.list(node1, nodes, undefined, { quiet: true, fieldSelector: 'metadata.name=node-2' }),
      denied(
        'nodes "node-2"',
        `list resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object`,
      ),
    ],
    [
      'list with metadata.name!=node-2 (pins no name)',
      () => api.list(node1, nodes, undefined, { quiet: true, fieldSelector: 'metadata.name!=node-2' }),
      denied(
        'nodes',
        `list resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read all nodes, only its own Node object`,
      ),
    ],
    ['watch with metadata.name=node-1', watchOnce(node1, 'metadata.name=node-1'), 'allowed'],
    [
      'watch every Node',
      watchOnce(node1),
      denied(
        'nodes',
        `watch resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read all nodes, only its own Node object`,
      ),
    ],
    [
      'watch with metadata.name=node-2',
      watchOnce(node1, 'metadata.name=node-2'),
      denied(
        'nodes "node-2"',
        `watch resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object`,
      ),
    ],
    [
      'delete its own Node (no verb of authorizeNode, no reason)',
      () => api.delete(node1, nodes, '', 'node-1'),
      denied('nodes "node-1"', `delete resource "nodes" in API group "" at the cluster scope`),
    ],
    [
      'list Pods of node-2',
      () => api.list(node1, pods, undefined, { quiet: true, fieldSelector: 'spec.nodeName=node-2' }),
      denied(
        'pods',
        `list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector`,
      ),
    ],
    ['list its Pods', () => api.list(node1, pods, undefined, { quiet: true, fieldSelector: 'spec.nodeName=node-1' }), 'allowed'],
    [
      'get a Pod log (authorizePod has no opinion, no reason)',
      () => api.authorizeRequest(node1, 'get', pods, 'kube-system', 'etcd-control-plane', 'log'),
      denied('pods "etcd-control-plane"', `get resource "pods/log" in API group "" in the namespace "kube-system"`),
    ],
    // kubeadm's kube-proxy is the ServiceAccount kube-system:kube-proxy (system:node-proxier), not a node
    ['kube-proxy on node-1 gets node-2', () => api.get(kubeProxyUser('node-1'), nodes, '', 'node-2', { quiet: true }), 'allowed'],
  ])('%s', (_n, fn, want) => {
    expect(attempt(fn)).toBe(want);
  });

  it('the kubelets still register, heartbeat and run their Pods', () => {
    c.kubectl('create deployment web --image=nginx --replicas=2');
    c.settle(60_000);
    expect(c.kubectl('get nodes --no-headers -o custom-columns=N:.metadata.name,R:.status.conditions[-1].status').output).toBe(
      'control-plane   True\nnode-1          True\nnode-2          True\n',
    );
    expect(c.objects().filter((o) => o.kind === 'Pod' && o.metadata.name.startsWith('web-') && o.status?.phase === 'Running').length).toBe(
      2,
    );
  });
});

describe('kubectl auth can-i as a kubelet (a SelfSubjectAccessReview: no selector, only the name)', () => {
  const as = '--as system:node:node-1 --as-group system:nodes';
  it.each([
    ['get its own Node', `auth can-i get nodes/node-1 ${as}`, 'yes\n', 0],
    ['get node-2', `auth can-i get nodes/node-2 ${as}`, "no - node 'node-1' cannot read 'node-2', only its own Node object\n", 1],
    ['list Nodes', `auth can-i list nodes ${as}`, "no - node 'node-1' cannot read all nodes, only its own Node object\n", 1],
    ['watch its own Node by name', `auth can-i watch nodes/node-1 ${as}`, 'yes\n', 0],
    [
      'list Pods (no spec.nodeName selector in a can-i)',
      `auth can-i list pods -A ${as}`,
      'no - can only list/watch pods with spec.nodeName field selector\n',
      1,
    ],
  ])('%s', (_n, line, out, code) => {
    const r = c.kubectl(line);
    expect([r.output, r.exitCode]).toEqual([out, code]);
  });
});

describe('a SelfSubjectAccessReview with resourceAttributes.fieldSelector', () => {
  const review = (resource: string, fieldSelector: unknown) =>
    api.review(node1, 'selfsubjectaccessreviews.authorization.k8s.io', '', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { verb: 'list', resource, fieldSelector } },
    } as never).status;
  it.each<[string, string, unknown, unknown]>([
    ['pods, rawSelector spec.nodeName=node-1', 'pods', { rawSelector: 'spec.nodeName=node-1' }, { allowed: true }],
    [
      'pods, requirements In [node-1]',
      'pods',
      { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['node-1'] }] },
      { allowed: true },
    ],
    [
      'pods, requirements In [node-1, node-2] (dropped)',
      'pods',
      { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['node-1', 'node-2'] }] },
      {
        allowed: false,
        reason: 'can only list/watch pods with spec.nodeName field selector',
        evaluationError: 'spec.resourceAttributes.fieldSelector ignored due to parse error',
      },
    ],
    [
      // the review's name is spec.resourceAttributes.name: a selector does not set it
      'nodes, rawSelector metadata.name=node-1',
      'nodes',
      { rawSelector: 'metadata.name=node-1' },
      { allowed: false, reason: "node 'node-1' cannot read all nodes, only its own Node object" },
    ],
  ])('%s', (_n, resource, fs, want) => {
    expect(review(resource, fs)).toEqual(want);
  });
});

describe('SelfSubjectAccessReview fieldSelector validation (validateFieldSelectorAttributes)', () => {
  const review = (fieldSelector: unknown) => () =>
    api.review(node1, 'selfsubjectaccessreviews.authorization.k8s.io', '', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { verb: 'list', resource: 'pods', fieldSelector } },
    } as never);
  const invalid = (detail: string) => `422 SelfSubjectAccessReview.authorization.k8s.io "" is invalid: ${detail}`;
  it.each<[string, unknown, string]>([
    [
      'both rawSelector and requirements',
      { rawSelector: 'foo', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] },
      invalid(
        'spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "foo": may not specified at the same time as requirements',
      ),
    ],
    [
      'neither',
      {},
      invalid(
        'spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
      ),
    ],
    [
      'a requirement without key or values',
      { requirements: [{ operator: 'In' }] },
      invalid(
        "[spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified, spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn']",
      ),
    ],
    [
      'Exists with values',
      { requirements: [{ key: 'a', operator: 'Exists', values: ['b'] }] },
      invalid(
        "spec.resourceAttributes.fieldSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ),
    ],
    ['an unknown operator (allowed, then ignored)', { requirements: [{ key: 'a', operator: 'Near', values: ['b'] }] }, 'allowed'],
  ])('%s', (_n, fs, want) => {
    expect(attempt(review(fs))).toBe(want);
  });
});
