/**
 * Client-side → server-side apply (KEP-3517): kube-apiserver's lastAppliedManager lets
 * `kubectl apply --server-side` (manager "kubectl") take over the fields client-side apply set
 * (its last-applied-configuration, where the live value is unchanged) without a 409, and
 * lastAppliedUpdater keeps that annotation in step, so a later client-side apply works too.
 * A field someone else changed since still conflicts. Recorded against real kubectl in
 * src/server/testdata/fidelity.txt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { users } from '../client/clientset';
import { allowedConflictsFromLastApplied } from './patch';

const dir = join(__dirname, '../kubectl/testdata/fidelity');
const pod = (v: string) => readFileSync(join(dir, `pod-${v}.yaml`), 'utf8');
const labels = (c: Cluster) => c.get('pods', 'default', 'csa')!.metadata.labels;
const managers = (c: Cluster) =>
  (c.get('pods', 'default', 'csa')!.metadata.managedFields as { manager: string; operation: string }[]).map(
    (e) => `${e.manager}/${e.operation}`,
  );

describe('CSA → SSA migration', () => {
  it('client-side, then server-side with a change, then client-side again, then server-side back', () => {
    const c = new Cluster();
    expect(c.kubectl('apply -f -', pod('v1')).output).toBe('pod/csa created\n');
    const ssa = c.kubectl('apply --server-side -f -', pod('v2'));
    expect({ out: ssa.output, err: ssa.error }).toEqual({ out: 'pod/csa serverside-applied\n', err: null });
    expect(labels(c)).toEqual({ app: 'csa', tier: 'api' });
    expect(managers(c)).toEqual(['kubectl-last-applied/Apply', 'kubectl/Apply']);
    expect(
      JSON.parse(c.get('pods', 'default', 'csa')!.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration']).metadata
        .labels,
    ).toEqual({ app: 'csa', tier: 'api' });
    expect(c.kubectl('apply -f -', pod('v3')).output).toBe('pod/csa configured\n');
    expect(labels(c)).toEqual({ app: 'csa', tier: 'db' });
    const back = c.kubectl('apply --server-side -f -', pod('v1'));
    expect({ out: back.output, err: back.error }).toEqual({ out: 'pod/csa serverside-applied\n', err: null });
    expect(labels(c)).toEqual({ app: 'csa', tier: 'web' });
  });

  it('a field another manager changed since the client-side apply still conflicts', () => {
    const c = new Cluster();
    c.kubectl('apply -f -', pod('v1'));
    const info = c.api.registry.forKind('v1', 'Pod')!;
    c.api.patch(
      users.kubectl(),
      info,
      'default',
      'csa',
      'merge',
      { metadata: { labels: { tier: 'edited' } } },
      { fieldManager: 'kubectl-label' },
    );
    const r = c.kubectl('apply --server-side -f -', pod('v2'));
    expect(r.exitCode).toBe(1);
    expect(r.error).toMatch(/^error: Apply failed with 1 conflict: conflict with "kubectl-label" using v1: \.metadata\.labels\.tier\n/);
  });

  it('another field manager gets no upgrade', () => {
    const c = new Cluster();
    c.kubectl('apply -f -', pod('v1'));
    expect(c.kubectl('apply --server-side --field-manager=other -f -', pod('v2')).error).toMatch(
      /^error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: \.metadata\.labels\.tier/,
    );
  });

  it('allowedConflictsFromLastApplied: only fields still as applied', () => {
    const live = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"a":"1","b":"2"}}' } },
      data: { a: '1', b: 'changed' },
    };
    const allowed = [...(allowedConflictsFromLastApplied(live as never) ?? [])];
    expect(allowed.some((p) => p.includes('a'))).toBe(true);
    expect(allowed.some((p) => p.includes('b'))).toBe(false);
    expect(allowedConflictsFromLastApplied({ ...live, metadata: { name: 'x' } } as never)).toBeUndefined();
  });
});
