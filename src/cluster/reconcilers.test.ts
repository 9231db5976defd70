import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster';
import { RECONCILERS } from './reconcilers';

describe('RECONCILERS (the inspector\'s "reconciled by")', () => {
  // the relay's participants in a run that exercises most loops: a Deployment, a node failure
  const c = new Cluster({ seed: 1 });
  c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: nginx:1.27}]}
`);
  c.advance(30_000);
  c.killNode('node-2');
  c.advance(400_000);
  const hosted = new Set(
    c.ctx.relay
      .all()
      .flatMap((h) => [h.from, h.to])
      .map((p) => p.replace(/\/.*$/, '')),
  );
  for (const x of c.controllerManager.controllers) if ((x as { name?: string }).name) hosted.add((x as { name: string }).name);
  const outside = new Set(['provisioner', 'coredns', 'kube-proxy', 'kube-apiserver (1h TTL)']);

  it.each(Object.entries(RECONCILERS))('%s: every name is a running component', (_kind, names) => {
    for (const n of names) expect(hosted.has(n) || outside.has(n), n).toBe(true);
  });

  it('a Pod is reconciled by every loop that writes Pods', () => {
    expect(RECONCILERS.Pod).toEqual(
      expect.arrayContaining([
        'replicaset-controller',
        'node-lifecycle-controller',
        'pod-garbage-collector-controller',
        'kube-scheduler',
        'kubelet',
      ]),
    );
  });
});
