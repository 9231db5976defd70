import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { Client, users } from '../../client/clientset';
import { runKubectl } from '../../kubectl/command';
import { StatusError } from '../../api/errors';
import type { RequestUser } from '../apiserver';

const c = new Cluster({ seed: 1, nodes: 1 });
const jane: RequestUser = { name: 'jane', participant: 'kubectl', groups: ['system:authenticated'] };
const api = c.api;
const info = (g: string, r: string) => api.registry.forResource(g, r)!;

/** The 403 message a request of `user` gets (or "allowed"). */
function attempt(fn: () => unknown): string {
  try {
    fn();
    return 'allowed';
  } catch (e) {
    if (e instanceof StatusError) return `${e.code} ${e.message}`;
    throw e;
  }
}
const kubectl = (line: string) => c.kubectl(line);
/** A RoleBinding in default granting jane the role. */
const binding = (name: string, kind: string, role: string) =>
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ${name}, namespace: default}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ${kind}, name: ${role}}\nsubjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}]\n`;

describe('the Forbidden messages of kube-apiserver', () => {
  it.each([
    [
      'list pods in a namespace',
      () => api.list(jane, info('', 'pods'), 'default'),
      '403 pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
    ],
    [
      'list nodes (cluster scope)',
      () => api.list(jane, info('', 'nodes'), undefined),
      '403 nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope',
    ],
    [
      'get a named Deployment',
      () => api.get(jane, info('apps', 'deployments'), 'default', 'web'),
      '403 deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments" in API group "apps" in the namespace "default"',
    ],
    [
      'update pods/status',
      () =>
        api.update(
          jane,
          info('', 'pods'),
          'default',
          { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } },
          { subresource: 'status' },
        ),
      '403 pods "p" is forbidden: User "jane" cannot update resource "pods/status" in API group "" in the namespace "default"',
    ],
    [
      'patch (verb patch, not update)',
      () => api.patch(jane, info('', 'configmaps'), 'default', 'x', 'merge', {}),
      '403 configmaps "x" is forbidden: User "jane" cannot patch resource "configmaps" in API group "" in the namespace "default"',
    ],
    [
      'evict (pods/eviction create)',
      () => api.evict(jane, 'default', 'p', {}),
      '403 pods "p" is forbidden: User "jane" cannot create resource "pods/eviction" in API group "" in the namespace "default"',
    ],
  ])('%s', (_n, fn, want) => {
    expect(attempt(fn)).toBe(want);
  });

  it('a RoleBinding to a Role that does not exist: the RBAC reason names it', () => {
    c.apply(binding('ghost', 'Role', 'nope'));
    expect(attempt(() => api.list(jane, info('', 'pods'), 'default'))).toBe(
      '403 pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default": RBAC: role.rbac.authorization.k8s.io "nope" not found',
    );
    expect(kubectl('delete rolebinding ghost -n default').exitCode).toBe(0);
  });

  it('the kubectl bar prints the 403 as kubectl does', () => {
    expect(kubectl('get pods --as=jane')).toMatchObject({
      exitCode: 1,
      error:
        'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    });
  });
});

describe('kubectl auth can-i for the bootstrap roles', () => {
  it.each([
    ['admin (kubeadm:cluster-admins)', 'auth can-i create deployments', 'yes\n', 0],
    ['admin, cluster-wide anything', "auth can-i '*' '*'", 'yes\n', 0],
    ['jane', 'auth can-i list pods --as=jane', 'no\n', 1],
    [
      'jane may create SelfSubjectAccessReviews (system:basic-user)',
      'auth can-i create selfsubjectaccessreviews.authorization.k8s.io --as=jane',
      'yes\n',
      0,
    ],
    ['jane may get /healthz (system:public-info-viewer)', 'auth can-i get /healthz --as=jane', 'yes\n', 0],
    ['jane may not get /metrics', 'auth can-i get /metrics --as=jane', 'no\n', 1],
    ['the scheduler may create pods/binding', 'auth can-i create pods --subresource=binding --as=system:kube-scheduler', 'yes\n', 0],
    ['the scheduler may not delete deployments', 'auth can-i delete deployments --as=system:kube-scheduler', 'no\n', 1],
    [
      'the deployment controller may create replicasets',
      'auth can-i create replicasets.apps -n kube-system --as=system:serviceaccount:kube-system:deployment-controller',
      'yes\n',
      0,
    ],
    [
      'the deployment controller may not create pods',
      'auth can-i create pods --as=system:serviceaccount:kube-system:deployment-controller',
      'no\n',
      1,
    ],
    ['a system:masters member', 'auth can-i delete nodes --as=root --as-group=system:masters', 'yes\n', 0],
  ])('%s', (_n, line, out, code) => {
    const r = kubectl(line);
    expect(r.output).toBe(out);
    expect(r.exitCode).toBe(code);
  });

  it('view through aggregation: get pods/log yes, get secrets no', () => {
    c.apply(binding('jane-view', 'ClusterRole', 'view'));
    expect(kubectl('auth can-i get pods --subresource=log --as=jane').output).toBe('yes\n');
    expect(kubectl('auth can-i get secrets --as=jane').output).toBe('no\n');
    expect(kubectl('auth can-i get pods --as=jane -n kube-system').output).toBe('no\n');
    expect(kubectl('delete rolebinding jane-view -n default').exitCode).toBe(0);
  });

  it('a non-namespaced resource warns, as kubectl does', () => {
    expect(kubectl('auth can-i list nodes --as=jane')).toEqual({
      output: 'no\n',
      error: "Warning: resource 'nodes' is not namespace scoped\n\n",
      exitCode: 1,
    });
  });

  it('--list for jane: the basic-user, discovery and public-info-viewer rules, sorted as kubectl sorts them', () => {
    expect(kubectl('auth can-i --list --as=jane').output).toBe(
      [
        'Resources                                       Non-Resource URLs   Resource Names   Verbs',
        'selfsubjectreviews.authentication.k8s.io        []                  []               [create]',
        'selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]',
        'selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]',
        '                                                [/api/*]            []               [get]',
        '                                                [/api]              []               [get]',
        '                                                [/apis/*]           []               [get]',
        '                                                [/apis]             []               [get]',
        '                                                [/healthz]          []               [get]',
        '                                                [/healthz]          []               [get]',
        '                                                [/livez]            []               [get]',
        '                                                [/livez]            []               [get]',
        '                                                [/openapi/*]        []               [get]',
        '                                                [/openapi]          []               [get]',
        '                                                [/readyz]           []               [get]',
        '                                                [/readyz]           []               [get]',
        '                                                [/version/]         []               [get]',
        '                                                [/version/]         []               [get]',
        '                                                [/version]          []               [get]',
        '                                                [/version]          []               [get]',
        '',
      ].join('\n'),
    );
  });

  it('--list for the admin: everything', () => {
    expect(kubectl('auth can-i --list').output.split('\n').slice(0, 3)).toEqual([
      'Resources                                       Non-Resource URLs   Resource Names   Verbs',
      '*.*                                             []                  []               [*]',
      '                                                [*]                 []               [*]',
    ]);
  });
});

describe('kubectl auth whoami', () => {
  it.each([
    [
      'the admin',
      'auth whoami',
      'ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [kubeadm:cluster-admins system:authenticated]\n',
    ],
    [
      'impersonating a ServiceAccount',
      'auth whoami --as=system:serviceaccount:default:default',
      'ATTRIBUTE   VALUE\nUsername    system:serviceaccount:default:default\nGroups      [system:serviceaccounts system:serviceaccounts:default system:authenticated]\n',
    ],
  ])('%s', (_n, line, out) => {
    expect(kubectl(line).output).toBe(out);
  });
});

describe('impersonation needs the impersonate verb', () => {
  it.each([
    [
      'a user',
      'get pods --as=bob',
      'Error from server (Forbidden): users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope\n',
    ],
    [
      'a ServiceAccount',
      'get pods --as=system:serviceaccount:default:default',
      'Error from server (Forbidden): serviceaccounts "default" is forbidden: User "jane" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"\n',
    ],
  ])('jane may not act as %s', (_n, line, err) => {
    expect(runKubectl(new Client(api, jane), line, c.now()).error).toBe(err);
  });

  it('with edit in default, jane may impersonate ServiceAccounts there (aggregate-to-edit)', () => {
    c.apply(binding('jane-edit', 'ClusterRole', 'edit'));
    expect(runKubectl(new Client(api, jane), 'auth whoami --as=system:serviceaccount:default:default', c.now()).output).toContain(
      'Username    system:serviceaccount:default:default\n',
    );
    expect(kubectl('delete rolebinding jane-edit -n default').exitCode).toBe(0);
  });

  it('--as-group without --as is refused by kubectl', () => {
    expect(kubectl('get pods --as-group=devs').error).toBe(
      'Error in configuration: requesting uid, groups or user-extra for kubectl without impersonating a user\n',
    );
  });
});

describe('the Node authorizer', () => {
  const node = users.node('node-1');
  it.each([
    ['its own Lease', () => api.get(node, info('coordination.k8s.io', 'leases'), 'kube-node-lease', 'node-1', { quiet: true }), 'allowed'],
    [
      "another node's Lease",
      () => api.get(node, info('coordination.k8s.io', 'leases'), 'kube-node-lease', 'control-plane', { quiet: true }),
      '403 leases.coordination.k8s.io "control-plane" is forbidden: User "system:node:node-1" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node',
    ],
    [
      'a Secret no Pod of its node uses',
      () => api.get(node, info('', 'secrets'), 'default', 'db-password', { quiet: true }),
      '403 secrets "db-password" is forbidden: User "system:node:node-1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'node-1\' and this object',
    ],
    [
      'listing Secrets',
      () => api.list(node, info('', 'secrets'), 'default', { quiet: true }),
      '403 secrets is forbidden: User "system:node:node-1" cannot list resource "secrets" in API group "" in the namespace "default": No Object name found',
    ],
    [
      'listing all Pods',
      () => api.list(node, info('', 'pods'), undefined, { quiet: true }),
      '403 pods is forbidden: User "system:node:node-1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
    ],
    [
      'listing its Pods',
      () => api.list(node, info('', 'pods'), undefined, { quiet: true, fieldSelector: 'spec.nodeName=node-1' }),
      'allowed',
    ],
    [
      'deleting a Deployment (not in the node rules)',
      () => api.delete(node, info('apps', 'deployments'), 'default', 'web'),
      '403 deployments.apps "web" is forbidden: User "system:node:node-1" cannot delete resource "deployments" in API group "apps" in the namespace "default"',
    ],
  ])('%s', (_n, fn, want) => {
    expect(attempt(fn)).toBe(want);
  });

  it('NodeRestriction: a kubelet may not modify another Node', () => {
    const other = api.get(users.system('t'), info('', 'nodes'), '', 'control-plane', { quiet: true });
    expect(attempt(() => api.update(node, info('', 'nodes'), '', { ...other, metadata: { ...other.metadata, labels: { x: 'y' } } }))).toBe(
      '403 nodes "control-plane" is forbidden: node "node-1" is not allowed to modify node "control-plane"',
    );
  });

  it("a kubelet reads the kube-root-ca.crt ConfigMap of a Pod on its node, not another node's", () => {
    c.kubectl('run web --image=nginx');
    c.settle(60_000);
    const pod = c.objects().find((o) => o.kind === 'Pod' && o.metadata.name === 'web')!;
    const on = pod.spec.nodeName;
    expect(attempt(() => api.get(users.node(on), info('', 'configmaps'), 'default', 'kube-root-ca.crt', { quiet: true }))).toBe('allowed');
    expect(
      attempt(() => api.get(users.node('control-plane'), info('', 'configmaps'), 'default', 'kube-root-ca.crt', { quiet: true })),
    ).toBe(
      '403 configmaps "kube-root-ca.crt" is forbidden: User "system:node:control-plane" cannot get resource "configmaps" in API group "" in the namespace "default": no relationship found between node \'control-plane\' and this object',
    );
  });
});

describe('the relay names who allowed a write', () => {
  it('kubectl create: the binding and role', () => {
    c.kubectl('create configmap relay-probe --from-literal=a=b');
    const note = c.relay
      .all()
      .filter((h) => h.kind === 'note' && h.resource === 'configmaps' && h.name === 'relay-probe')
      .at(-1);
    expect(note?.summary).toBe(
      'authn kubernetes-admin [kubeadm:cluster-admins system:authenticated] · authz allow create configmaps by ClusterRoleBinding kubeadm:cluster-admins → ClusterRole cluster-admin · admission',
    );
  });
});

describe('the cached decisions', () => {
  const mine = new Cluster({ seed: 1, nodes: 1 });
  const ann: RequestUser = { name: 'ann', participant: 'kubectl', groups: ['system:authenticated'] };
  const cmInfo = mine.api.registry.forResource('', 'configmaps')!;
  const get = (name: string) => attempt(() => mine.api.get(ann, cmInfo, 'default', name));
  const role = (name: string, rules: string) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: ${name}, namespace: default}\nrules: ${rules}\n`;
  const bind = (role: string) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: ${role}, namespace: default}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${role}}\nsubjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ann}]\n`;

  it('a rule with resourceNames still decides name by name, and any RBAC write is seen at once', () => {
    mine.kubectl('create configmap a --from-literal=k=v');
    mine.kubectl('create configmap b --from-literal=k=v');
    expect(get('a')).toMatch(/^403 /);
    mine.apply(role('only-a', '[{apiGroups: [""], resources: [configmaps], verbs: [get], resourceNames: [a]}]'));
    mine.apply(bind('only-a'));
    expect(get('a')).toBe('allowed');
    expect(get('b')).toBe(
      '403 configmaps "b" is forbidden: User "ann" cannot get resource "configmaps" in API group "" in the namespace "default"',
    );
    expect(get('a')).toBe('allowed');
    // a rule for every name: one decision for all names, dropped when the binding goes
    mine.apply(role('all', '[{apiGroups: [""], resources: [configmaps], verbs: [list]}]'));
    mine.apply(bind('all'));
    const list = () => attempt(() => mine.api.list(ann, cmInfo, 'default'));
    expect(list()).toBe('allowed');
    mine.kubectl('delete rolebinding all');
    expect(list()).toMatch(/^403 configmaps is forbidden/);
    // a name-free decision (no resourceNames rule looked at) is shared by every name
    mine.apply(role('get-all', '[{apiGroups: [""], resources: [configmaps], verbs: [get]}]'));
    mine.kubectl('delete rolebinding only-a');
    mine.apply(bind('get-all'));
    expect(get('a')).toBe('allowed');
    expect(get('b')).toBe('allowed');
    mine.kubectl('delete rolebinding get-all');
    expect(get('b')).toMatch(/^403 /);
  });

  it.each([
    ['for another resource', '{apiGroups: [""], resources: [secrets], verbs: [get], resourceNames: [s]}', 1],
    ['for another verb', '{apiGroups: [""], resources: [configmaps], verbs: [update], resourceNames: [a]}', 1],
    ['for this very request', '{apiGroups: [""], resources: [configmaps], verbs: [get], resourceNames: [a]}', 3],
  ])('a resourceNames rule %s looked at first: the rules are visited once per name only if it could match', (_name, named, visits) => {
    const cl = new Cluster({ seed: 1, nodes: 1 });
    const info = cl.api.registry.forResource('', 'configmaps')!;
    for (const n of ['a', 'b', 'c']) cl.kubectl(`create configmap ${n} --from-literal=k=v`);
    cl.apply(role('mixed', `[${named}, {apiGroups: [""], resources: [configmaps], verbs: [get]}]`));
    cl.apply(bind('mixed'));
    const rbac = cl.api.authorizer!.rbac;
    const visit = rbac.visitRulesFor.bind(rbac);
    let n = 0;
    rbac.visitRulesFor = (...args) => {
      n++;
      return visit(...args);
    };
    // every name is allowed by the second rule; only a rule that could match the request
    // but for its name makes the decision one per name
    expect(['a', 'b', 'c'].map((x) => attempt(() => cl.api.get(ann, info, 'default', x)))).toEqual(['allowed', 'allowed', 'allowed']);
    expect(n).toBe(visits);
  });
});
