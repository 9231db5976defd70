import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import { vmSandboxFactory } from '../../cli/controller-vm';
import { compileController } from '../../cli/controller-compile';
import type { KObject } from '../api/types';

const ex = (f: string) => readFileSync(new URL(`../../examples/operators/${f}`, import.meta.url), 'utf8');
/** The Website controller as the sandbox runs it: its TypeScript compiled (src/cli/controller-compile.ts). */
const WEBSITE = { source: ex('website.controller.ts'), code: compileController(ex('website.controller.ts'), 'website.controller.ts') };

function cluster(limitMs?: number): Cluster {
  return new Cluster({ seed: 1, nodes: 2, controllerSandbox: vmSandboxFactory(limitMs) });
}

const names = (c: Cluster, resource: string) =>
  c
    .list(resource, 'default')
    .map((o) => o.metadata.name)
    .sort();
const events = (c: Cluster, reason: string) => c.events().filter((e) => e.reason === reason);

describe('user controller: the Website example', () => {
  it('creates a Deployment and a Service with owner references, reports readyReplicas, and the garbage collector removes them with the Website', () => {
    const c = cluster();
    expect(c.apply(ex('website-crd.yaml'))[0].action).toBe('created');
    c.advance(1000);
    c.startController({ name: 'website-controller', ...WEBSITE });
    c.apply(ex('website.yaml'));
    expect(c.settle(5 * 60_000)).toBe(true);
    const site = c.get('websites.demo.kube-relay.dev', 'default', 'blog')!;
    const dep = c.get('deployments.apps', 'default', 'blog')!;
    const svc = c.get('services', 'default', 'blog')!;
    for (const o of [dep, svc]) {
      expect(o.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'demo.kube-relay.dev/v1',
          kind: 'Website',
          name: 'blog',
          uid: site.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect(dep.spec.replicas).toBe(2);
    expect(site.status.readyReplicas).toBe(2);
    expect(site.status.conditions).toMatchObject([
      { type: 'Ready', status: 'True', reason: 'AllReplicasReady', message: '2/2 replicas ready' },
    ]);
    expect(c.list('pods', 'default').filter((p) => p.status?.phase === 'Running')).toHaveLength(2);
    expect(
      events(c, 'Created')
        .filter((e) => e.source.component === 'website-controller')
        .map((e) => [e.source.component, e.message]),
    ).toEqual([['website-controller', 'Created Deployment blog']]);
    // requests went through the apiserver as the controller's ServiceAccount, grouped per reconcile
    const hops = c.relay.all();
    const create = hops.find(
      (h) => h.from === 'website-controller' && h.kind === 'request' && h.verb === 'create' && h.resource === 'deployments',
    )!;
    expect(create.reconcile).toBeDefined();
    const opening = hops.find((h) => h.reconcile === create.reconcile && h.kind === 'decision')!;
    expect(opening.note).toBe('Website default/blog: resourceVersion ' + opening.note!.split('resourceVersion ')[1]);
    expect(opening.from).toBe('website-controller');
    expect(c.userControllers.list()).toMatchObject([
      {
        name: 'website-controller',
        for: 'websites.demo.kube-relay.dev',
        owns: ['deployments.apps', 'services'],
        state: 'running',
        errors: 0,
        lastError: null,
        queueDepth: 0,
      },
    ]);

    // an edit of the spec is reconciled (level-triggered: the desired state, not the event)
    expect(c.kubectl(`patch website blog --type=merge -p '{"spec":{"replicas":3}}'`).output).toBe(
      'website.demo.kube-relay.dev/blog patched\n',
    );
    c.settle(5 * 60_000);
    expect(c.get('deployments.apps', 'default', 'blog')!.spec.replicas).toBe(3);
    expect(c.get('websites.demo.kube-relay.dev', 'default', 'blog')!.status.readyReplicas).toBe(3);

    const del = c.kubectl('delete website blog');
    expect(del.output).toBe('website.demo.kube-relay.dev "blog" deleted\n');
    c.settle(5 * 60_000);
    expect(names(c, 'deployments.apps')).toEqual([]);
    expect(names(c, 'services')).toEqual(['kubernetes']);
    expect(c.list('pods', 'default')).toEqual([]);
    expect(
      c.relay
        .all()
        .some((h) => h.from === 'garbage-collector-controller' && h.verb === 'delete' && h.resource === 'deployments' && h.name === 'blog'),
    ).toBe(true);
  });
});

describe('user controller: the Backup example (finalizer and requeueAfter)', () => {
  it('adds its finalizer, completes after durationSeconds by requeueAfter, and cleans the bucket before the Backup goes', () => {
    const c = cluster();
    c.apply(ex('backup-crd.yaml'));
    c.advance(1000);
    c.startController({ name: 'backup-controller', source: ex('backup.controller.js') });
    c.apply(ex('backup.yaml'));
    const t0 = c.now();
    c.advance(2000);
    let b = c.get('backups.demo.kube-relay.dev', 'default', 'nightly')!;
    expect(b.metadata.finalizers).toEqual(['demo.kube-relay.dev/bucket-cleanup']);
    expect(b.status.phase).toBe('InProgress');
    expect(c.get('configmaps', 'default', 'bucket-nightly')).toBeUndefined();
    c.advance(10_000);
    b = c.get('backups.demo.kube-relay.dev', 'default', 'nightly')!;
    expect(b.status.phase).toBe('Completed');
    // completed by the requeue 10 s after the start, not by a watch event
    expect(Date.parse(b.status.completedAt) - Date.parse(b.status.startedAt)).toBe(10_000);
    expect(Date.parse(b.status.startedAt) - t0).toBeLessThan(1000);
    expect(c.get('configmaps', 'default', 'bucket-nightly')!.data).toEqual({ source: 'peekcart-db', takenAt: b.status.completedAt });
    expect(events(c, 'Completed').map((e) => e.message)).toEqual(['Copied peekcart-db to bucket-nightly']);

    c.kubectl('delete backup nightly --wait=false');
    c.advance(2000);
    expect(c.get('backups.demo.kube-relay.dev', 'default', 'nightly')).toBeUndefined();
    expect(c.get('configmaps', 'default', 'bucket-nightly')).toBeUndefined();
    expect(events(c, 'CleanedUp').map((e) => e.message)).toEqual(['Deleted the copy bucket-nightly from the bucket']);
  });
});

const CRD = ex('website-crd.yaml');
const SITE = ex('website.yaml');
const header =
  '// +kube-relay:for=websites.demo.kube-relay.dev\n// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get\n// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=create\n';

describe('user controller: contained failures', () => {
  it.each([
    { name: 'throws', body: 'throw new Error("boom: no image")', message: 'Reconciler error: boom: no image' },
    {
      name: 'rejects with a client error',
      body: 'await client.get({apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "missing"})',
      message: 'Reconciler error: configmaps "missing" not found',
    },
    {
      name: 'loops forever',
      body: 'for (;;) {}',
      message: 'Reconciler error: reconcile did not finish within the 200 ms CPU limit: the sandbox was stopped and restarted',
    },
    {
      name: 'awaits forever',
      body: 'await new Promise(() => {})',
      message: 'Reconciler error: reconcile did not finish: it awaits something that never settles (the sandbox has no timers or network)',
    },
    {
      name: 'writes an invalid object',
      body: 'await client.create({apiVersion: "apps/v1", kind: "Deployment", metadata: {name: "x", namespace: "default"}, spec: {replicas: "three"}})',
      message:
        'Reconciler error: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    },
  ])('a controller that $name is reported with a Warning Event ReconcileError, and the cluster keeps running', ({ body, message }) => {
    const c = cluster(200);
    c.apply(CRD);
    c.advance(1000);
    c.startController({ name: 'bad-controller', source: `${header}export async function reconcile(request, client) {\n  ${body}\n}` });
    c.apply(SITE);
    c.advance(3000);
    const warn = events(c, 'ReconcileError');
    expect(warn.map((e) => [e.type, e.message, e.involvedObject.kind, e.involvedObject.name, e.source.component])).toEqual([
      ['Warning', message, 'Website', 'blog', 'bad-controller'],
    ]);
    const st = c.userControllers.list()[0];
    expect(st.lastError).toMatchObject({ key: 'default/blog', message });
    expect(st.errors).toBeGreaterThan(0);
    expect(st.state).toBe('running');
    // the rest of the cluster is unaffected
    c.apply(
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n',
    );
    c.advance(30_000);
    expect(c.list('pods', 'default').filter((p) => p.metadata.labels?.app === 'web' && p.status?.phase === 'Running')).toHaveLength(1);
  });

  it('a timed-out reconcile is retried no sooner than 10 s', () => {
    const c = cluster(100);
    c.apply(CRD);
    c.advance(1000);
    c.startController({ name: 'loop-controller', source: `${header}export function reconcile() { for (;;) {} }` });
    c.apply(SITE);
    c.advance(25_000);
    const starts = c.relay
      .all()
      .filter((h) => h.from === 'loop-controller' && h.kind === 'decision')
      .map((h) => h.time);
    expect(starts.length).toBe(3);
    expect(starts[1] - starts[0]).toBe(10_000);
    expect(starts[2] - starts[1]).toBe(10_000);
  });

  it.each([
    {
      name: 'no for marker',
      source: 'export function reconcile() {}',
      error: 'no kind to reconcile: add a `// +kube-relay:for=RESOURCE` line (e.g. websites.demo.kube-relay.dev)',
    },
    {
      name: 'an unknown kind',
      source: '// +kube-relay:for=gizmos.example.com\nexport function reconcile() {}',
      error: 'the server doesn\'t have a resource type "gizmos.example.com"',
    },
    {
      name: 'no reconcile',
      source: '// +kube-relay:for=deployments.apps\nexport function sync() {}',
      error: 'the source defines no `reconcile` function',
    },
  ])('starting with $name fails with a clear message', ({ source, error }) => {
    const c = cluster();
    expect(() => c.startController({ name: 'x', source })).toThrow(error);
    expect(c.userControllers.list()).toMatchObject([{ name: 'x', state: 'failed', startError: error }]);
  });

  it('stopping a controller stops its reconciles; starting it again with an edited source catches up (level-triggered)', () => {
    const c = cluster();
    c.apply(CRD);
    c.advance(1000);
    c.startController({ name: 'website-controller', ...WEBSITE });
    c.stopController('website-controller');
    c.apply(SITE);
    c.advance(5000);
    expect(c.get('deployments.apps', 'default', 'blog')).toBeUndefined();
    expect(c.userControllers.list()).toMatchObject([{ state: 'stopped' }]);
    c.startController({
      name: 'website-controller',
      source: WEBSITE.source.replace("'web', image", "'site', image"),
      code: WEBSITE.code.replace("'web', image", "'site', image"),
    });
    c.advance(5000);
    expect(c.get('deployments.apps', 'default', 'blog')!.spec.template.spec.containers[0].name).toBe('site');
  });
});

describe('user controller: headless sandbox', () => {
  it.each([
    { name: 'require', expr: 'typeof require' },
    { name: 'process', expr: 'typeof process' },
    { name: 'fetch', expr: 'typeof fetch' },
    { name: 'setTimeout', expr: 'typeof setTimeout' },
    { name: 'the engine', expr: 'typeof Cluster' },
  ])('$name is not there', ({ expr }) => {
    const c = cluster();
    c.apply(CRD);
    c.advance(1000);
    c.startController({
      name: 'probe',
      source: `${header}export async function reconcile(request, client) { const site = await client.get({apiVersion: 'demo.kube-relay.dev/v1', kind: 'Website', namespace: 'default', name: request.name}); site.metadata.annotations = {probe: String(${expr})}; await client.update(site); }`,
    });
    c.apply(SITE);
    c.advance(2000);
    const site = c.get('websites.demo.kube-relay.dev', 'default', 'blog') as KObject;
    expect(site.metadata.annotations).toEqual({ probe: 'undefined' });
  });
});
