/**
 * Every real manifest of src/examples/real (see SOURCES.md there) applied with `kubectl apply -f -`
 * semantics against a fresh kube-apiserver: no exceptions, and what SOURCES.md says happens.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { freshCluster } from './apply.fixture';
import { runApply, type ApplyResult } from './apply';

const dir = new URL('../../examples/real/', import.meta.url);
const read = (f: string) => readFileSync(new URL(f, dir), 'utf8');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const summary = (rs: ApplyResult[]) => rs.map((r) => `${r.object} ${r.action}`);

describe('real manifests', () => {
  it.each(files)('%s applies without exceptions, every document accounted for', (f) => {
    const { kubectl } = freshCluster();
    const run = runApply(kubectl, read(f));
    expect(run.results.length).toBeGreaterThan(0);
    for (const r of run.results) {
      if (r.action === 'error') expect(r.message).toBeTruthy();
      else expect(r.message).toBeUndefined();
    }
  });

  it('vllm-servicemonitor: no matches for kind "ServiceMonitor"', () => {
    const { kubectl } = freshCluster();
    const run = runApply(kubectl, read('vllm-servicemonitor.yaml'));
    expect(run.results).toHaveLength(1);
    expect(run.results[0]).toMatchObject({
      object: 'servicemonitor.monitoring.coreos.com/vllm-gemma-servicemonitor',
      action: 'error',
      namespace: 'monitoring',
      line: 8,
    });
    expect(run.stderr).toBe(
      'error: resource mapping not found for name: "vllm-gemma-servicemonitor" namespace: "monitoring" from "STDIN": no matches for kind "ServiceMonitor" in version "monitoring.coreos.com/v1"\nensure CRDs are installed first\n',
    );
  });

  it('hpa-php-apache-legacy: extensions/v1beta1 is gone', () => {
    const { kubectl } = freshCluster();
    const run = runApply(kubectl, read('hpa-php-apache-legacy.yaml'));
    expect(run.results[0].message).toBe(
      'error: resource mapping not found for name: "php-apache" namespace: "default" from "STDIN": no matches for kind "HorizontalPodAutoscaler" in version "extensions/v1beta1"\nensure CRDs are installed first',
    );
  });

  it('metrics-server kustomize base: selector required', () => {
    const { kubectl } = freshCluster();
    const run = runApply(kubectl, read('metrics-server-kustomize-base-deployment.yaml'));
    expect(run.results[0].message).toBe(
      'The Deployment "metrics-server" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
    );
  });

  it('node-exporter: namespace monitoring does not exist; the ServiceMonitor has no mapping', () => {
    const { kubectl } = freshCluster();
    const run = runApply(kubectl, read('node-exporter-daemonset.yaml'));
    expect(summary(run.results)).toEqual([
      'daemonset.apps/node-exporter error',
      'service/node-exporter error',
      'servicemonitor.monitoring.coreos.com/node-exporter error',
    ]);
    expect(run.results[0].message).toBe('Error from server (NotFound): error when creating "STDIN": namespaces "monitoring" not found');
    expect(run.results[2].message).toBe(
      'resource mapping not found for name: "node-exporter" namespace: "monitoring" from "STDIN": no matches for kind "ServiceMonitor" in version "monitoring.coreos.com/v1"\nensure CRDs are installed first',
    );
  });

  it('node-exporter in an existing monitoring namespace: DaemonSet and headless Service are created', () => {
    const { kubectl } = freshCluster();
    kubectl.resource('', 'namespaces').create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'monitoring' } });
    const run = runApply(kubectl, read('node-exporter-daemonset.yaml'));
    expect(summary(run.results).slice(0, 2)).toEqual(['daemonset.apps/node-exporter created', 'service/node-exporter created']);
  });

  it('deployment-selector-change: v1 then v2 (stale resourceVersion) → Conflict; without it → immutable selector', () => {
    const { kubectl, api } = freshCluster();
    expect(runApply(kubectl, read('deployment-selector-change-v1.yaml')).stdout).toBe('deployment.apps/nginx created\n');
    const v2 = runApply(kubectl, read('deployment-selector-change-v2.yaml'));
    const msg = v2.results[0].message!;
    expect(
      msg.startsWith(
        'Error from server (Conflict): error when applying patch:\n{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"apps/v1\\"',
      ),
    ).toBe(true);
    expect(msg).toContain(
      '"resourceVersion":"99"},"spec":{"selector":{"matchLabels":{"name":"nginx2"}},"template":{"metadata":{"labels":{"name":"nginx2"}},"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"image":"registry.k8s.io/nginx:test-cmd","name":"nginx"}]}}}}\nto:\nResource: "apps/v1, Resource=deployments", GroupVersionKind: "apps/v1, Kind=Deployment"\nName: "nginx", Namespace: "default"\nfor: "STDIN": Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(api.getObject('deployments.apps', 'default', 'nginx')!.spec.selector).toEqual({ matchLabels: { name: 'nginx1' } });
    const noRV = read('deployment-selector-change-v2.yaml').replace('  resourceVersion: "99"\n', '');
    expect(runApply(kubectl, noRV).results[0].message).toBe(
      'The Deployment "nginx" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"name":"nginx2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });

  it('mysql-statefulset-e2e: policy/v1beta1 PDB has no mapping; the rest is created', () => {
    const { kubectl } = freshCluster();
    const run = runApply(kubectl, read('mysql-statefulset-e2e.yaml'));
    expect(summary(run.results)).toEqual([
      'service/mysql created',
      'service/mysql-read created',
      'statefulset.apps/mysql created',
      'poddisruptionbudget.policy/mysql-pdb error',
    ]);
    expect(run.results[3].message).toBe(
      'error: resource mapping not found for name: "mysql-pdb" namespace: "" from "STDIN": no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"\nensure CRDs are installed first',
    );
  });

  it('crd-example-with-instance: the CRD is created, the instance has no mapping yet', () => {
    const { kubectl } = freshCluster();
    const run = runApply(kubectl, read('crd-example-with-instance.yaml'));
    expect(summary(run.results)).toEqual([
      'customresourcedefinition.apiextensions.k8s.io/examples.test.com created',
      'example.test.com/test error',
    ]);
  });

  it('tf-serving: the default StorageClass is stamped on the class-less PVC', () => {
    const { kubectl, api } = freshCluster();
    kubectl.resource('storage.k8s.io', 'storageclasses').create('', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    const run = runApply(kubectl, read('tf-serving-pv-pvc-ingress.yaml'));
    expect(run.results.every((r) => r.action === 'created')).toBe(true);
    const pvc = api.listObjects('persistentvolumeclaims')[0];
    expect(pvc.spec.storageClassName).toBe('standard');
    expect(pvc.spec.volumeName).toBeTruthy();
    expect(api.listObjects('persistentvolumes')[0].spec.storageClassName).toBeUndefined();
  });

  it('online-boutique: 35 documents created, then all unchanged', () => {
    const { kubectl } = freshCluster();
    const first = runApply(kubectl, read('online-boutique.yaml'));
    expect(first.results).toHaveLength(35);
    expect(first.results.every((r) => r.action === 'created')).toBe(true);
    const again = runApply(kubectl, read('online-boutique.yaml'));
    expect(again.results.every((r) => r.action === 'unchanged')).toBe(true);
    expect(first.results.find((r) => r.object === 'service/frontend-external')).toBeTruthy();
  });

  it('every file that applied cleanly is unchanged on a second apply (StatefulSets with volumeClaimTemplates excepted)', () => {
    // volumeClaimTemplates has no patch strategy (replaced whole) and the server defaults its
    // items, so the three-way patch is never empty: kubectl says "configured" every time.
    // Also "configured" every time, as with kubectl: a manifest with `creationTimestamp: null`
    // (the patch nulls it), and Pods with tolerations (the list is replaced, admission re-adds
    // the default ones), and a ValidatingWebhookConfiguration whose rules lack `scope` (rules are
    // replaced whole and the server defaults scope "*"; real kubectl sends the rules again).
    // Quantities the server stores in canonical form ("1000m" → "1", "0.5" → "500m":
    // SetDefaults_ResourceList) differ from the manifest's text, so the patch is never empty
    // either and kubectl says "configured" (kwok-hpa-fake-app, kwok-priority-preemption, podinfo).
    // deployment-selector-change-v2 carries resourceVersion "99": Conflict.
    const configured = new Set([
      'cassandra-statefulset.yaml: statefulset.apps/cassandra',
      'mysql-statefulset-e2e.yaml: statefulset.apps/mysql',
      'kustomize-mysql.yaml: secret/mysql-pass',
      'kwok-node-affinity-pod.yaml: pod/pod-1',
      'kwok-requests-and-limits.yaml: pod/pod-1',
      'kwok-requests-and-limits.yaml: pod/pod-2',
      'kwok-taints-tolerations.yaml: pod/with-toleration-pod',
      'ingress-nginx-kind-rendered.yaml: validatingwebhookconfiguration.admissionregistration.k8s.io/ingress-nginx-admission',
      'kwok-hpa-fake-app.yaml: deployment.apps/fake-app',
      'kwok-priority-preemption.yaml: pod/low-priority-pod',
      'kwok-priority-preemption.yaml: pod/high-priority-pod',
      'podinfo-database-statefulset.yaml: statefulset.apps/database-primary',
      'podinfo.yaml: deployment.apps/podinfo',
    ]);
    const conflict = new Set(['deployment-selector-change-v2.yaml: deployment.apps/nginx']);
    const got: string[] = [];
    const want: string[] = [];
    for (const f of files) {
      const { kubectl } = freshCluster();
      const first = runApply(kubectl, read(f)).results;
      const second = runApply(kubectl, read(f)).results;
      first.forEach((r, i) => {
        if (r.action !== 'created') return;
        got.push(`${f}: ${second[i].object} ${second[i].action}`);
        const k = `${f}: ${r.object}`;
        want.push(`${k} ${configured.has(k) ? 'configured' : conflict.has(k) ? 'error' : 'unchanged'}`);
      });
    }
    expect(got).toEqual(want);
  });

  it('kwok-priority-preemption: pods get their PriorityClass value', () => {
    const { kubectl, api } = freshCluster();
    runApply(kubectl, read('kwok-priority-preemption.yaml'));
    const prio = api.listObjects('pods', 'default').map((p) => [p.metadata.name, p.spec.priority]);
    expect(prio.length).toBe(2);
    for (const [, p] of prio) expect(typeof p).toBe('number');
  });

  it('pi-job and podinfo-cronjob-backup: batch objects are created with upstream defaults', () => {
    const { kubectl, api } = freshCluster();
    expect(summary(runApply(kubectl, read('pi-job.yaml')).results)).toEqual(['job.batch/pi created']);
    expect(api.getObject('jobs.batch', 'default', 'pi')!.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      completionMode: 'NonIndexed',
      suspend: false,
    });
    expect(summary(runApply(kubectl, read('podinfo-cronjob-backup.yaml')).results)).toEqual(['cronjob.batch/backup-daily created']);
  });

  it('local-path-storage: StorageClass local-path with WaitForFirstConsumer', () => {
    const { kubectl, api } = freshCluster();
    const run = runApply(kubectl, read('local-path-storage.yaml'));
    expect(run.results.every((r) => r.action === 'created')).toBe(true);
    expect(api.getObject('storageclasses.storage.k8s.io', '', 'local-path')).toMatchObject({
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
  });
});
