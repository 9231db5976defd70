/**
 * Issue 9's done-when test: the seed's story driven through @kubernetes/client-node, the
 * client library real controllers and tools use, against the engine served over HTTP
 * (in-process, ephemeral port, simulated clock ×SPEED). Server-side apply of the peekcart
 * Deployment, an informer (list + watch) until 3 Pods are Running, a merge patch of node-2's
 * Machine to `spec.power: Off`, then the informer again until 3 replacement-inclusive Pods
 * run elsewhere while the evicted Pod stays Terminating on the dead node — as the engine's
 * own seed scenario (src/scenarios/seed-relay.scenario.yaml) plays it.
 *
 * Timings in simulated time: node-2 goes NotReady after the node monitor grace period (40 s
 * + a monitor period), the taint-eviction controller evicts after the default
 * not-ready/unreachable toleration of 300 s (DefaultTolerationSeconds admission).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import * as k8s from '@kubernetes/client-node';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';

/** Simulated ms per wall ms: the ~6 simulated minutes of the story take ~2.5 s. */
const SPEED = 150;

let srv: RunningServer;
let cluster: Cluster;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  cluster = new Cluster();
  srv = await startServer(cluster, { port: 0, speed: SPEED });
  kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kube-relay', server: srv.httpsUrl, caData: Buffer.from(srv.caPem).toString('base64') }],
    users: [{ name: 'client-node', token: srv.token }],
    contexts: [{ name: 'kube-relay', cluster: 'kube-relay', user: 'client-node' }],
    currentContext: 'kube-relay',
  });
});
afterAll(async () => srv.close());

type Pod = k8s.V1Pod;
const running = (p: Pod) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp;

/** Resolves once `pred` holds over the informer's cache (checked on every event), or rejects after `ms` wall ms. */
function until(inf: k8s.Informer<Pod> & k8s.ObjectCache<Pod>, pred: (pods: Pod[]) => boolean, ms: number): Promise<Pod[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const pods = [...inf.list('default')];
      if (pred(pods)) {
        clearTimeout(timer);
        for (const v of ['add', 'update', 'delete'] as const) inf.off(v, check);
        resolve(pods);
      }
    };
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `timed out; pods: ${inf
              .list('default')
              .map((p) => `${p.metadata?.name}@${p.spec?.nodeName}:${p.status?.phase}`)
              .join(' ')}`,
          ),
        ),
      ms,
    );
    for (const v of ['add', 'update', 'delete'] as const) inf.on(v, check);
    check();
  });
}

describe('the seed story through @kubernetes/client-node', () => {
  it('applies peekcart, watches 3 Pods Running, powers node-2 off, watches the replacement Running elsewhere', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);

    // 1. server-side apply of the seed manifest (Deployment + Service)
    const docs = parseAllDocuments(readFileSync(new URL('../scenarios/peekcart.yaml', import.meta.url), 'utf8')).map(
      (d) => d.toJSON() as k8s.KubernetesObject,
    );
    const applied: string[] = [];
    for (const d of docs) {
      const r = await objects.patch(
        { ...d, metadata: { ...d.metadata, namespace: 'default' } },
        undefined,
        undefined,
        'client-node',
        true,
        k8s.PatchStrategy.ServerSideApply,
      );
      applied.push(`${r.kind}/${r.metadata?.name} ${r.metadata?.managedFields?.map((m) => `${m.manager}:${m.operation}`).join()}`);
    }
    expect(applied).toEqual(['Deployment/peekcart client-node:Apply', 'Service/peekcart client-node:Apply']);

    // 2. an informer (list, then watch from its resourceVersion) until 3 Pods are Running
    const inf = k8s.makeInformer<Pod>(
      kc,
      '/api/v1/namespaces/default/pods',
      () => core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=peekcart' }),
      'app=peekcart',
    );
    await inf.start();
    try {
      const first = await until(inf, (ps) => ps.filter(running).length === 3, 8000);
      // the pod-template-hash is deterministic; the random suffixes depend on when requests land
      expect(first.every((p) => /^peekcart-57f6cd6664-[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(p.metadata?.name ?? ''))).toBe(true);
      expect(first.map((p) => p.spec?.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
      const onNode2 = first.find((p) => p.spec?.nodeName === 'node-2')!.metadata!.name!;

      // 3. power node-2's machine off with a JSON merge patch, as `kubectl patch machine node-2 --type=merge`
      const m = (await custom.patchClusterCustomObject(
        { group: 'sim.kube-relay.dev', version: 'v1alpha1', plural: 'machines', name: 'node-2', body: { spec: { power: 'Off' } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      )) as { spec: { power: string } };
      expect(m.spec.power).toBe('Off');
      const offAt = cluster.now();

      // 4. watch until 3 Pods run on the other nodes and the evicted one is Terminating on node-2
      const healed = await until(
        inf,
        (ps) => ps.filter((p) => running(p) && p.spec?.nodeName !== 'node-2').length === 3 && ps.some((p) => p.metadata?.deletionTimestamp),
        12_000,
      );
      const healedAt = cluster.now();
      const evicted = healed.find((p) => p.metadata?.deletionTimestamp)!;
      expect(`${evicted.metadata?.name} ${evicted.spec?.nodeName}`).toBe(`${onNode2} node-2`);
      const replacement = healed.filter((p) => running(p) && !first.some((f) => f.metadata?.name === p.metadata?.name));
      expect(replacement).toHaveLength(1);
      expect(replacement[0].spec?.nodeName).not.toBe('node-2');
      // eviction waits for the 300 s toleration after NotReady (≥ 40 s grace): ≥ 340 s of simulated time
      expect(healedAt - offAt).toBeGreaterThanOrEqual(340_000);

      // the node and the eviction as the API tells them
      const node = await core.readNode({ name: 'node-2' });
      expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('Unknown');
      expect(node.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual([
        'node.kubernetes.io/unreachable:NoSchedule',
        'node.kubernetes.io/unreachable:NoExecute',
      ]);
      const events = await core.listNamespacedEvent({
        namespace: 'default',
        fieldSelector: `involvedObject.name=${evicted.metadata?.name}`,
      });
      expect(events.items.map((e) => `${e.type} ${e.reason} ${e.message}`)).toContain(
        `Normal TaintManagerEviction Marking for deletion Pod default/${evicted.metadata?.name}`,
      );
      const rsEvents = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.kind=ReplicaSet' });
      expect(rsEvents.items.map((e) => `${e.reason} ${e.message}`)).toContain(
        `SuccessfulCreate Created pod: ${replacement[0].metadata?.name}`,
      );
    } finally {
      await inf.stop();
    }
  }, 25_000);
});
