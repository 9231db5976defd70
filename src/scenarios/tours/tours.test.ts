/**
 * Every guided tour plays headless (as `npm run scenario` does) and reaches its key outcome;
 * every narration exists in English and Korean.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../cluster/scenario/scenario';
import { runScenario, type ScenarioResult, type Snapshot } from '../../cluster/scenario/runner';
import type { KObject } from '../../cluster/api/types';
import { vmSandboxFactory } from '../../cli/controller-vm';
import { compileController } from '../../cli/controller-compile';

const DIR = __dirname;
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.tour.yaml'))
  .sort();

type State = Pick<Snapshot, 'objects' | 'standaloneContainers'>;
const live = (s: State, kind: string, prefix = '') =>
  s.objects.filter((o) => o.kind === kind && o.metadata.name.startsWith(prefix) && !o.metadata.deletionTimestamp);
const running = (s: State, prefix: string) => live(s, 'Pod', prefix).filter((p) => p.status?.phase === 'Running');
const snap = (r: ScenarioResult, name: string) => r.snapshots.find((s) => s.name === name)!;
const ready = (n: KObject | undefined) =>
  ((n?.status?.conditions ?? []) as { type: string; status: string }[]).find((c) => c.type === 'Ready')?.status;
const byName = (s: State, kind: string, name: string) => s.objects.find((o) => o.kind === kind && o.metadata.name === name);

const OUTCOMES: Record<string, (r: ScenarioResult) => void> = {
  '1-declarative-vs-imperative.tour.yaml': (r) => {
    const killed = snap(r, 'after-kill');
    const pods = running(killed, 'peekcart-');
    expect(pods).toHaveLength(3);
    expect(pods.map((p) => p.spec?.nodeName)).not.toContain('node-1');
    expect(killed.standaloneContainers?.map((c) => [c.name, c.node, c.state])).toEqual([['peekcart-docker', 'node-1', 'lost']]);
    expect(r.final.standaloneContainers?.map((c) => [c.state, c.restartCount])).toEqual([['running', 1]]);
  },
  '2-relay.tour.yaml': (r) => {
    // the second narration ("kubectl is done, yet no Pod runs … 3 Pods with no node") is what the cluster shows then
    const created = live(snap(r, 'pods-created'), 'Pod', 'peekcart-');
    expect(created.map((p) => [p.status?.phase, p.spec?.nodeName ?? null])).toEqual([
      ['Pending', null],
      ['Pending', null],
      ['Pending', null],
    ]);
    expect(live(snap(r, 'pods-created'), 'ReplicaSet', 'peekcart-')).toHaveLength(1);
    const deleted = r.steps.find((s) => s.step === 'deletePod')!.target!.split('/')[1];
    const pods = running(r.final, 'peekcart-');
    expect(pods).toHaveLength(3);
    expect(pods.map((p) => p.metadata.name)).not.toContain(deleted);
    const first = (from: string, to?: string) => r.relay.findIndex((h) => h.from.startsWith(from) && (!to || h.to === to));
    const order = [
      first('kubectl', 'kube-apiserver'),
      first('kube-apiserver', 'etcd'),
      first('deployment-controller'),
      first('replicaset-controller'),
      first('kube-scheduler'),
      first('kubelet/'),
    ];
    expect(order.every((x) => x >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  },
  '3-self-healing.tour.yaml': (r) => {
    const node = r.steps.find((s) => s.step === 'killNode')!.target!;
    expect(ready(byName(snap(r, 'not-ready'), 'Node', node))).toBe('Unknown');
    const pods = running(r.final, 'peekcart-');
    expect(pods).toHaveLength(3);
    expect(pods.map((p) => p.spec?.nodeName)).not.toContain(node);
    expect(
      r.final.events.some(
        (e) => e.reason === 'TaintManagerEviction' && String(e.message).startsWith('Marking for deletion Pod default/peekcart-'),
      ),
    ).toBe(true);
  },
  '4-rolling-update.tour.yaml': (r) => {
    const d = byName(r.final, 'Deployment', 'web')!;
    expect(d.spec?.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(
      live(r.final, 'ReplicaSet', 'web-')
        .map((rs) => rs.spec?.replicas)
        .sort(),
    ).toEqual([0, 3]);
    expect(r.steps.at(-2)!.output).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n');
  },
  '5-services-dns.tour.yaml': (r) => {
    const svc = byName(r.final, 'Service', 'peekcart')!;
    // inside kubeadm's service CIDR 10.96.0.0/12
    expect(Number(String(svc.spec?.clusterIP).split('.')[1])).toBeGreaterThanOrEqual(96);
    expect(Number(String(svc.spec?.clusterIP).split('.')[1])).toBeLessThanOrEqual(111);
    const slice = r.final.objects.find(
      (o) => o.kind === 'EndpointSlice' && o.metadata.labels?.['kubernetes.io/service-name'] === 'peekcart',
    )!;
    const ips = (slice.endpoints as { addresses: string[]; conditions: { ready: boolean } }[])
      .filter((e) => e.conditions.ready)
      .flatMap((e) => e.addresses)
      .sort();
    expect(ips).toEqual(
      running(r.final, 'peekcart-')
        .map((p) => p.status?.podIP)
        .sort(),
    );
    const kubectlOut = r.steps.filter((s) => s.step === 'kubectl').map((s) => s.output);
    expect(kubectlOut[0]).not.toBe(kubectlOut[1]);
  },
  '6-storage.tour.yaml': (r) => {
    const pvc = byName(r.final, 'PersistentVolumeClaim', 'data')!;
    expect(pvc.status?.phase).toBe('Bound');
    const pv = byName(r.final, 'PersistentVolume', pvc.spec?.volumeName)!;
    expect([pv.status?.phase, pv.spec?.storageClassName]).toEqual(['Bound', 'standard']);
    const db = byName(r.final, 'Pod', 'db')!;
    expect(db.status?.phase).toBe('Running');
    expect(pv.spec?.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values).toEqual([db.spec?.nodeName]);
  },
  '7-probes-hpa.tour.yaml': (r) => {
    const pod = byName(snap(r, 'after-liveness'), 'Pod', 'liveness-exec')!;
    expect(pod.status?.containerStatuses[0].restartCount).toBe(1);
    expect(
      r.final.events.some(
        (e) => e.reason === 'Unhealthy' && String(e.message).startsWith("Liveness probe failed: cat: can't open '/tmp/healthy'"),
      ),
    ).toBe(true);
    expect(byName(r.final, 'Deployment', 'web')!.spec?.replicas).toBe(2);
    expect(running(r.final, 'web-')).toHaveLength(2);
  },
  '8-website-operator.tour.yaml': (r) => {
    const site = byName(snap(r, 'running'), 'Website', 'blog')!;
    expect(site.status?.readyReplicas).toBe(2);
    for (const kind of ['Deployment', 'Service'])
      expect(byName(snap(r, 'running'), kind, 'blog')!.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'demo.kube-relay.dev/v1',
          kind: 'Website',
          name: 'blog',
          uid: site.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    expect(r.relay.some((h) => h.from === 'website-controller' && h.verb === 'update' && h.resource === 'deployments')).toBe(true);
    expect(['Website', 'Deployment', 'ReplicaSet', 'Pod'].flatMap((k) => live(r.final, k, 'blog'))).toEqual([]);
    expect(byName(r.final, 'Service', 'blog')).toBeUndefined();
  },
  '9-backup-operator.tour.yaml': (r) => {
    const inProgress = byName(snap(r, 'in-progress'), 'Backup', 'nightly')!;
    expect([inProgress.metadata.finalizers, inProgress.status?.phase]).toEqual([['demo.kube-relay.dev/bucket-cleanup'], 'InProgress']);
    const done = byName(snap(r, 'completed'), 'Backup', 'nightly')!;
    expect(Date.parse(done.status?.completedAt) - Date.parse(done.status?.startedAt)).toBe(10_000);
    expect(byName(snap(r, 'completed'), 'ConfigMap', 'bucket-nightly')).toBeDefined();
    expect([byName(r.final, 'Backup', 'nightly'), byName(r.final, 'ConfigMap', 'bucket-nightly')]).toEqual([undefined, undefined]);
  },
};

/** The tours' controllers are the gallery's: the same source (the Website's compiled from its TypeScript). */
describe("the operator tours run the gallery's controllers", () => {
  const ops = join(DIR, '../../examples/operators');
  it.each([
    ['8-website-operator.tour.yaml', compileController(readFileSync(join(ops, 'website.controller.ts'), 'utf8'), 'website.controller.ts')],
    ['9-backup-operator.tour.yaml', readFileSync(join(ops, 'backup.controller.js'), 'utf8')],
  ])('%s', (file, source) => {
    const sc = parseScenario(parse(readFileSync(join(DIR, file), 'utf8')));
    expect(sc.steps.find((s) => s.kind === 'controller')).toMatchObject({ source });
  });
});

describe('guided tours (src/scenarios/tours)', () => {
  it('there are the nine tours, each with an outcome check', () => {
    expect(FILES).toEqual(Object.keys(OUTCOMES));
  });

  for (const file of FILES) {
    it(`${file} plays headless and reaches its key outcome`, () => {
      const doc = parse(readFileSync(join(DIR, file), 'utf8'));
      expect(Object.keys(doc.title).sort()).toEqual(['en', 'ko']);
      const sc = parseScenario(doc);
      const notes = sc.steps.filter((s) => s.kind === 'note');
      expect(notes.length).toBeGreaterThanOrEqual(2);
      for (const n of notes) expect(n.kind === 'note' && Object.keys(n.text).sort()).toEqual(['en', 'ko']);
      const r = runScenario(sc, { readFile: () => '', controllerSandbox: vmSandboxFactory() });
      expect(r.steps.filter((s) => s.error).map((s) => `${s.step}: ${s.error}`)).toEqual([]);
      expect(r.steps.filter((s) => s.settled === false).map((s) => s.index)).toEqual([]);
      OUTCOMES[file](r);
    });
  }
});
