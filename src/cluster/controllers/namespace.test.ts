import { describe, expect, it } from 'vitest';
import { APIServer } from '../apiserver/apiserver';
import { SimClock } from '../sim/clock';
import { Rng } from '../sim/rng';
import { RelayRecorder } from '../relay/recorder';
import { users } from '../client/clientset';
import { SharedInformerFactory } from '../client/informer';
import { ComponentContext } from '../component-context';
import { KUBERNETES_DEFAULTS } from '../timings';
import { ImageRegistry } from '../sim/image-registry';
import { NamespaceController } from './namespace';
import { hasStatusCause, NamespaceTerminatingCause, type StatusError } from '../api/errors';

function setup() {
  const clock = new SimClock();
  const relay = new RelayRecorder(() => clock.now());
  const api = new APIServer(clock, new Rng(1), relay, {});
  const ctx = new ComponentContext(api, clock, new Rng(2), relay, KUBERNETES_DEFAULTS, new ImageRegistry());
  const factory = new SharedInformerFactory(ctx.client(users.controller('kube-controller-manager')));
  const ctrl = new NamespaceController(ctx, factory);
  factory.start();
  const u = users.kubectl();
  const nsInfo = api.registry.forResource('', 'namespaces')!;
  api.create(u, nsInfo, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' }, spec: { finalizers: ['kubernetes'] } });
  const cm = api.registry.forResource('', 'configmaps')!;
  const pods = api.registry.forResource('', 'pods')!;
  return { clock, api, u, nsInfo, cm, pods, ctrl };
}

describe('NamespaceController', () => {
  it('deletes the content, then finalizes and removes the namespace', () => {
    const { clock, api, u, nsInfo, cm } = setup();
    api.create(u, cm, 'team', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    api.create(u, cm, 'team', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } });
    const left = api.delete(u, nsInfo, '', 'team');
    expect(left.status.phase).toBe('Terminating');
    expect(left.metadata.deletionTimestamp).toBe('2026-01-01T00:00:00Z');
    // creating in a terminating namespace is forbidden
    expect(() => api.create(u, cm, 'team', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).toThrow(
      'configmaps "c" is forbidden: unable to create new content in namespace team because it is being terminated',
    );
    // …with the lifecycle admission's status cause, which the controllers test for
    let err: unknown;
    try {
      api.create(u, cm, 'team', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    } catch (e) {
      err = e;
    }
    expect((err as StatusError).status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      details: {
        name: 'c',
        kind: 'configmaps',
        causes: [{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }],
      },
    });
    expect(hasStatusCause(err, NamespaceTerminatingCause)).toBe(true);
    clock.advance(100);
    expect(api.store.count('configmaps')).toBe(0);
    expect(api.getObject('namespaces', '', 'team')).toBeUndefined();
  });

  it('waits for terminating Pods, then finishes', () => {
    const { clock, api, u, nsInfo, pods } = setup();
    api.create(u, pods, 'team', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { nodeName: 'node-1', terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'nginx' }] },
      status: { phase: 'Running' },
    });
    api.delete(u, nsInfo, '', 'team');
    clock.advance(100);
    const ns = api.getObject('namespaces', '', 'team')!;
    expect(ns.status.conditions.find((c: { type: string }) => c.type === 'NamespaceContentRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: 1 objects',
    });
    // the kubelet finishes the pod
    api.delete(u, pods, 'team', 'p', { gracePeriodSeconds: 0 });
    clock.advance(31_000);
    expect(api.getObject('namespaces', '', 'team')).toBeUndefined();
  });
});
