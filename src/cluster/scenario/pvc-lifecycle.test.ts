/**
 * Issue 5: a PVC of a WaitForFirstConsumer class waits until its first Pod is scheduled, is then
 * provisioned (upstream PV name pvc-<claim uid>, the scheduler's volume.kubernetes.io/selected-node)
 * and bound; a file the container writes stays on the volume for the next Pod; deleting the
 * claims releases the volumes per reclaimPolicy (Delete: the PV is deleted; Retain: Released).
 * Played from src/scenarios/pvc-lifecycle.scenario.yaml.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runScenario } from './runner';
import type { KObject } from '../api/types';

const here = dirname(fileURLToPath(import.meta.url));
const scenarios = resolve(here, '../../scenarios');

describe('PVC: WaitForFirstConsumer, data that outlives its Pod, reclaimPolicy', () => {
  const sc = parseScenario(parse(readFileSync(resolve(scenarios, 'pvc-lifecycle.scenario.yaml'), 'utf8')));
  const result = runScenario(sc, { readFile: (p) => readFileSync(resolve(scenarios, p), 'utf8') });
  const snap = (n: string) => result.snapshots.find((s) => s.name === n)!;
  const get = (n: string, kind: string, name: string) => snap(n).objects.find((o) => o.kind === kind && o.metadata.name === name);
  const claim = (n: string, name: string) => get(n, 'PersistentVolumeClaim', name)!;
  const uid = (name: string) => claim('waiting', name).metadata.uid as string;
  const pvcEvents = (name: string) =>
    result.final.events
      .filter((e) => e.involvedObject.kind === 'PersistentVolumeClaim' && e.involvedObject.name === name)
      .map((e) => [e.reason, e.source.component.split('_')[0], e.firstTimestamp]);

  it('before any Pod uses them the claims stay Pending with WaitForFirstConsumer', () => {
    for (const name of ['data', 'archive']) {
      const c = claim('waiting', name);
      expect(c.status.phase).toBe('Pending');
      expect(c.spec.volumeName).toBeUndefined();
      expect(c.metadata.annotations?.['volume.kubernetes.io/selected-node']).toBeUndefined();
      expect(c.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    }
    expect(snap('waiting').objects.filter((o) => o.kind === 'PersistentVolume')).toEqual([]);
  });

  it.each([
    { name: 'data', size: '1Gi', cls: 'standard', policy: 'Delete' },
    { name: 'archive', size: '2Gi', cls: 'keep', policy: 'Retain' },
  ])('$name: provisioned as pvc-<uid> on the node the scheduler picked, then Bound', ({ name, size, cls, policy }) => {
    const c = claim('bound', name);
    const pvName = `pvc-${uid(name)}`;
    expect(c.status.phase).toBe('Bound');
    expect(c.spec.volumeName).toBe(pvName);
    expect(c.metadata.annotations).toMatchObject({
      'volume.kubernetes.io/selected-node': 'node-3',
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    const pv = get('bound', 'PersistentVolume', pvName)!;
    expect(pv.status.phase).toBe('Bound');
    expect(pv.spec).toMatchObject({
      capacity: { storage: size },
      storageClassName: cls,
      persistentVolumeReclaimPolicy: policy,
      claimRef: { namespace: 'default', name, uid: uid(name) },
    });
    expect(pv.metadata.annotations?.['pv.kubernetes.io/provisioned-by']).toBe('rancher.io/local-path');
    expect(pv.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0]).toEqual({
      key: 'kubernetes.io/hostname',
      operator: 'In',
      values: ['node-3'],
    });
    expect(pvcEvents(name)).toEqual([
      ['WaitForFirstConsumer', 'persistentvolume-controller', '2026-01-01T00:00:00Z'],
      ['ExternalProvisioning', 'persistentvolume-controller', '2026-01-01T00:00:30Z'],
      ['Provisioning', 'rancher.io/local-path', '2026-01-01T00:00:30Z'],
      ['ProvisioningSucceeded', 'rancher.io/local-path', '2026-01-01T00:00:32Z'],
    ]);
  });

  it('the Pod is bound to node-3 only after its volumes are (00:00:33), kubectl get pvc shows both Bound', () => {
    const bind = result.relay.find((h) => h.from === 'kube-scheduler' && h.resource === 'pods/binding' && h.name === 'writer')!;
    expect(bind.time).toBe('2026-01-01T00:00:33.003Z');
    expect(bind.summary).toBe('bind Pod default/writer to node-3');
    expect(result.steps[6].output).toBe(
      'NAME      STATUS   VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        `archive   Bound    pvc-${uid('archive')}   2Gi        RWO            keep           <unset>                 70s\n` +
        `data      Bound    pvc-${uid('data')}   1Gi        RWO            standard       <unset>                 70s\n`,
    );
  });

  it('the file the writer wrote is read by the next Pod on the same volume', () => {
    expect(result.steps[7].output).toBe('pod "writer" deleted\n');
    expect(result.steps[11]).toMatchObject({ step: 'kubectl', output: 'hello from writer\n', error: null });
    const bind = result.relay.find((h) => h.from === 'kube-scheduler' && h.resource === 'pods/binding' && h.name === 'reader')!;
    expect(bind.summary).toBe('bind Pod default/reader to node-3');
  });

  it("deleting the claims: Retain → Released at once; Delete → the PV goes 30 s (the reader Pod's grace period) + 2 s later", () => {
    const pvs = snap('released').objects.filter((o) => o.kind === 'PersistentVolume');
    expect(pvs.map((p: KObject) => [p.metadata.name, p.status.phase, p.spec.persistentVolumeReclaimPolicy])).toEqual([
      [`pvc-${uid('archive')}`, 'Released', 'Retain'],
    ]);
    expect(snap('released').objects.filter((o) => o.kind === 'PersistentVolumeClaim')).toEqual([]);
    expect(result.steps[13].output).toBe('persistentvolumeclaim "data" deleted\npersistentvolumeclaim "archive" deleted\n');
    const t0 = Date.parse(result.steps[13].time);
    const after = (h: { time: string }) => Date.parse(h.time) - t0;
    // pvc-protection keeps "data" until the reader Pod (deleted at the same moment, 30 s grace) is gone
    const fin = result.relay.filter((h) => h.from === 'pvc-protection-controller' && h.verb === 'update').map((h) => [h.name, after(h)]);
    expect(fin).toEqual([
      ['archive', 1],
      ['data', 30_002],
    ]);
    const reclaim = result.relay.find(
      (h) => h.from === 'local-path-provisioner' && h.verb === 'delete' && h.name === `pvc-${uid('data')}`,
    )!;
    expect(reclaim.summary).toBe(`delete PersistentVolume pvc-${uid('data')} (reclaim policy Delete)`);
    expect(after(reclaim)).toBe(32_004);
    const gone = result.relay.find(
      (h) =>
        h.from === 'kube-apiserver' &&
        h.verb === 'delete' &&
        h.resource === 'persistentvolumes' &&
        h.name === `pvc-${uid('data')}` &&
        h.summary.includes('finalizers done'),
    )!;
    expect(after(gone)).toBe(32_005);
  });
});
