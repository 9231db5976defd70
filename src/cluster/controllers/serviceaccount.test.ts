/**
 * The serviceaccount controller (serviceaccount.ts) and ServiceAccount admission's lookup of
 * `default` (apiserver/registry/pods.ts): every namespace gets `default`, a deleted one comes
 * back, and a Pod whose ServiceAccount is missing is refused with upstream's 403.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

function boot(): Cluster {
  const c = new Cluster({ seed: 1, nodes: 1 });
  c.settle(10_000);
  return c;
}

describe('serviceaccount-controller', () => {
  it('ensures default in every boot namespace', () => {
    const c = boot();
    expect(c.kubectl('get sa -A').output).toBe(
      [
        'NAMESPACE         NAME      SECRETS   AGE',
        'default           default   0         40s',
        'kube-node-lease   default   0         40s',
        'kube-public       default   0         40s',
        'kube-system       coredns   0         40s',
        'kube-system       default   0         40s',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['a namespace created later', ['create ns demo']],
    ['after its default is deleted', ['create ns demo', 'delete sa default -n demo']],
  ])('creates default %s', (_name, lines) => {
    const c = boot();
    for (const l of lines) {
      expect(c.kubectl(l).exitCode).toBe(0);
      c.settle(5_000);
    }
    expect(c.kubectl('get sa -n demo -o name').output).toBe('serviceaccount/default\n');
    const hops = c.relay.all().filter((e) => e.from === 'serviceaccount-controller' && e.kind === 'request' && e.namespace === 'demo');
    expect(hops.map((e) => e.summary)).toEqual(lines.map(() => 'create ServiceAccount demo/default'));
  });
});

describe('ServiceAccount admission', () => {
  const pod = (sa: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {serviceAccountName: ${sa}, containers: [{name: c, image: nginx}]}\n`;
  it.each([
    ['a named account that does not exist', 'robot'],
    ['default, deleted while kube-controller-manager is paused', 'default'],
  ])('refuses a Pod with %s', (_name, sa) => {
    const c = boot();
    c.controllerManager.pause();
    c.kubectl('delete sa default');
    c.settle(5_000);
    expect(c.kubectl('apply -f -', pod(sa)).error).toBe(
      `Error from server (Forbidden): error when creating "STDIN": pods "web" is forbidden: error looking up service account default/${sa}: serviceaccount "${sa}" not found\n`,
    );
  });

  it('admits a Pod created with its namespace, before the controller made default', () => {
    const c = boot();
    const r = c.kubectl(
      'apply -f -',
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: fresh}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: fresh}\nspec: {containers: [{name: c, image: nginx}]}\n',
    );
    expect(r.output).toBe('namespace/fresh created\npod/p created\n');
  });
});
