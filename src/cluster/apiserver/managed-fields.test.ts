/**
 * managedFields of Update operations written by the apiserver on every create/update/patch
 * (patch.ts managedFieldsOnWrite), after the seed Deployment is client-side applied and settles.
 *
 * Compared with real dumps (`kubectl get -o yaml --show-managed-fields`):
 * - kubernetes/kubernetes#127508 (v1.30): a Pod's entries are `kubectl-run` (Update: labels,
 *   containers[name] with defaulted fields, dnsPolicy, enableServiceLinks, restartPolicy,
 *   schedulerName, securityContext, terminationGracePeriodSeconds — no admission-added
 *   serviceAccountName/tolerations/volumes) and `kubelet` (Update, subresource status:
 *   conditions keyed by type, containerStatuses, hostIP(s), phase, podIP(s), startTime); the
 *   binding's PodScheduled condition and spec.nodeName have no manager (the binding subresource
 *   bypasses the field manager; PR #128961 to change that was closed).
 * - A Deployment dump (andreaskaris/reconciler-operator write-up, v1.33): `kube-controller-manager`
 *   Update subresource status owns f:metadata.f:annotations.f:deployment.kubernetes.io/revision
 *   and f:status (conditions keyed by type, observedGeneration, replicas, readyReplicas, …);
 *   the creator's Update does not own the template's `creationTimestamp: null`.
 * Not modelled (see patch-managed-fields.ts): the `.: {}` entries of maps and optional structs,
 * multi-field list keys, atomic LabelSelectors (`f:selector: {}`).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';
import type { KObject } from '../api/types';

const PEEKCART = readFileSync(new URL('../../scenarios/peekcart.yaml', import.meta.url), 'utf8');
type Entry = {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1: Record<string, any>;
  time: string;
  apiVersion: string;
  fieldsType: string;
};
const entries = (o: KObject): Entry[] => (o.metadata.managedFields ?? []) as Entry[];
const who = (o: KObject): string[] => entries(o).map((e) => `${e.manager} ${e.operation}${e.subresource ? ` ${e.subresource}` : ''}`);
const top = (e: Entry): string[] => Object.keys(e.fieldsV1).sort();

describe('managedFields of Update operations (seed Deployment, client-side applied, settled)', () => {
  const c = new Cluster({ seed: 1 });
  c.kubectl('apply -f -', PEEKCART);
  c.settle(120_000);
  const d = c.get('deployments.apps', 'default', 'peekcart')!;
  const rs = c.list('replicasets.apps', 'default')[0];
  const pod = c.list('pods', 'default')[0];
  const svc = c.get('services', 'default', 'peekcart')!;

  const table: { name: string; obj: () => KObject; managers: string[]; fields: Record<string, string[]> }[] = [
    {
      name: 'Deployment',
      obj: () => d,
      managers: ['kubectl-client-side-apply Update', 'kube-controller-manager Update status'],
      fields: { 'kubectl-client-side-apply': ['f:metadata', 'f:spec'], 'kube-controller-manager': ['f:metadata', 'f:status'] },
    },
    {
      name: 'ReplicaSet',
      obj: () => rs,
      managers: ['kube-controller-manager Update', 'kube-controller-manager Update status'],
      fields: { 'kube-controller-manager': ['f:metadata', 'f:spec'] },
    },
    {
      name: 'Pod',
      obj: () => pod,
      managers: ['kube-controller-manager Update', 'kubelet Update status'],
      fields: { 'kube-controller-manager': ['f:metadata', 'f:spec'], kubelet: ['f:status'] },
    },
    {
      name: 'Service',
      obj: () => svc,
      managers: ['kubectl-client-side-apply Update'],
      fields: { 'kubectl-client-side-apply': ['f:metadata', 'f:spec'] },
    },
  ];
  for (const tc of table) {
    it(`${tc.name}: ${tc.managers.join(', ')}`, () => {
      const o = tc.obj();
      expect(who(o)).toEqual(tc.managers);
      for (const [m, keys] of Object.entries(tc.fields)) expect(top(entries(o).find((e) => e.manager === m)!)).toEqual(keys);
      for (const e of entries(o))
        expect([e.apiVersion, e.fieldsType, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(e.time)]).toEqual([o.apiVersion, 'FieldsV1', true]);
    });
  }

  it('the Deployment status entry owns the revision annotation and keyed conditions', () => {
    const e = entries(d).find((x) => x.subresource === 'status')!;
    expect(Object.keys(e.fieldsV1['f:metadata']['f:annotations'])).toEqual(['f:deployment.kubernetes.io/revision']);
    expect(Object.keys(e.fieldsV1['f:status']['f:conditions']).sort()).toEqual(['k:{"type":"Available"}', 'k:{"type":"Progressing"}']);
    expect(Object.keys(e.fieldsV1['f:status']).sort()).toEqual([
      'f:availableReplicas',
      'f:conditions',
      'f:observedGeneration',
      'f:readyReplicas',
      'f:replicas',
      'f:updatedReplicas',
    ]);
  });

  it('the creator does not own the template creationTimestamp: null', () => {
    const e = entries(d).find((x) => x.manager === 'kubectl-client-side-apply')!;
    expect(Object.keys(e.fieldsV1['f:spec']['f:template']['f:metadata'])).toEqual(['f:labels']);
  });

  it('Pod: admission-added fields and the binding are unowned; kubelet owns status but not PodScheduled', () => {
    const kcm = entries(pod).find((x) => x.manager === 'kube-controller-manager')!;
    expect(Object.keys(kcm.fieldsV1['f:spec']).sort()).toEqual([
      'f:containers',
      'f:dnsPolicy',
      'f:enableServiceLinks',
      'f:restartPolicy',
      'f:schedulerName',
      'f:securityContext',
      'f:terminationGracePeriodSeconds',
    ]);
    expect(Object.keys(kcm.fieldsV1['f:metadata']).sort()).toEqual(['f:generateName', 'f:labels', 'f:ownerReferences']);
    expect(Object.keys(kcm.fieldsV1['f:metadata']['f:ownerReferences'])).toEqual([`k:{"uid":"${rs.metadata.uid}"}`]);
    const kubelet = entries(pod).find((x) => x.manager === 'kubelet')!;
    expect(Object.keys(kubelet.fieldsV1['f:status']['f:conditions']).sort()).toEqual([
      'k:{"type":"ContainersReady"}',
      'k:{"type":"Initialized"}',
      'k:{"type":"PodReadyToStartContainers"}',
      'k:{"type":"Ready"}',
    ]);
    expect(Object.keys(kubelet.fieldsV1['f:status']).sort()).toEqual([
      'f:conditions',
      'f:containerStatuses',
      'f:hostIP',
      'f:hostIPs',
      'f:phase',
      'f:podIP',
      'f:podIPs',
      'f:startTime',
    ]);
  });

  it("Service: the allocated ClusterIP and IP families are not the creator's", () => {
    const e = entries(svc).find((x) => x.manager === 'kubectl-client-side-apply')!;
    expect(Object.keys(e.fieldsV1['f:spec']).sort()).toEqual([
      'f:internalTrafficPolicy',
      'f:ports',
      'f:selector',
      'f:sessionAffinity',
      'f:type',
    ]);
  });

  it('kubectl get -o yaml hides managedFields unless --show-managed-fields', () => {
    expect(c.kubectl('get deploy peekcart -o yaml').output).not.toContain('managedFields');
    expect(c.kubectl('get deploy peekcart -o yaml --show-managed-fields').output).toContain('manager: kube-controller-manager');
  });

  it('an Update takes the fields it changes from other managers (kubectl scale → spec.replicas)', () => {
    const c2 = new Cluster({ seed: 2 });
    c2.kubectl('apply -f -', PEEKCART);
    c2.settle(60_000);
    c2.kubectl('scale deploy peekcart --replicas=4');
    const d2 = c2.get('deployments.apps', 'default', 'peekcart')!;
    const owners = entries(d2)
      .filter((e) => e.fieldsV1['f:spec']?.['f:replicas'])
      .map((e) => [e.manager, e.operation, e.subresource]);
    // through the scale subresource, as kubectl's scaler PATCHes …/scale
    expect(owners).toEqual([['kubectl', 'Update', 'scale']]);
    // a server-side apply of another replicas value then conflicts with that entry
    const r = c2.kubectl('apply --server-side -f -', PEEKCART.replace(/replicas: \d+/, 'replicas: 5'));
    expect(r.error).toContain('conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas');
  });
});
