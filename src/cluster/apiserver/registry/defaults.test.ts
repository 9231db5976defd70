import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { freshCluster } from '../../kubectl/apply.fixture';
import type { KObject } from '../../api/types';

const golden = (f: string): KObject => JSON.parse(readFileSync(new URL(`../../kubectl/testdata/golden/${f}`, import.meta.url), 'utf8'));

/** Drops the server-set, run-dependent fields. */
function strip(o: KObject): KObject {
  const c = JSON.parse(JSON.stringify(o));
  delete c.metadata.uid;
  delete c.metadata.resourceVersion;
  delete c.metadata.creationTimestamp;
  delete c.metadata.managedFields; // kubectl's printers hide them (--show-managed-fields=false); managed-fields.test.ts checks them
  return c;
}

describe('defaults: what `kubectl create … --dry-run=server -o json` shows (pkg/apis/*/v1/defaults.go)', () => {
  it('Deployment from `kubectl create deployment x --image=nginx`', () => {
    const { kubectl } = freshCluster();
    const out = kubectl.resource('apps', 'deployments').create('default', golden('create-deployment-x.json'));
    expect(strip(out)).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'x', namespace: 'default', generation: 1, labels: { app: 'x' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'x' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'x' } },
          spec: {
            containers: [
              {
                name: 'nginx',
                image: 'nginx',
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'Always',
              },
            ],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {},
    });
  });

  it('Pod (as `kubectl run x --image=nginx` sends it) gets admission and status', () => {
    const { kubectl } = freshCluster();
    const out = kubectl.resource('', 'pods').create('default', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x', labels: { run: 'x' } },
      spec: {
        containers: [
          { name: 'x', image: 'nginx:1.27', resources: {}, ports: [{ containerPort: 80 }], readinessProbe: { httpGet: { port: 80 } } },
        ],
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
      },
    });
    const vol: string = out.spec.volumes[0].name;
    expect(vol).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(strip(out)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x', namespace: 'default', generation: 1, labels: { run: 'x' } },
      spec: {
        containers: [
          {
            name: 'x',
            image: 'nginx:1.27',
            resources: {},
            imagePullPolicy: 'IfNotPresent',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            readinessProbe: {
              httpGet: { port: 80, path: '/', scheme: 'HTTP' },
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            volumeMounts: [{ name: vol, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
          },
        ],
        // ServiceAccount admission's projected token volume (TokenVolumeSource)
        volumes: [
          {
            name: vol,
            projected: {
              defaultMode: 420,
              sources: [
                { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
                { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
                { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
              ],
            },
          },
        ],
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
        enableServiceLinks: true,
        securityContext: {},
        terminationGracePeriodSeconds: 30,
        schedulerName: 'default-scheduler',
        serviceAccountName: 'default',
        serviceAccount: 'default',
        priority: 0,
        preemptionPolicy: 'PreemptLowerPriority',
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    });
  });

  it('Service from `kubectl create service clusterip x --tcp=80:8080` gets a ClusterIP', () => {
    const { kubectl } = freshCluster();
    const out = kubectl.resource('', 'services').create('default', golden('create-service-x.json'));
    const ip = out.spec.clusterIP;
    expect(ip).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(strip(out)).toEqual({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'x', namespace: 'default', generation: 1, labels: { app: 'x' } },
      spec: {
        ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }],
        selector: { app: 'x' },
        type: 'ClusterIP',
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
        clusterIP: ip,
        clusterIPs: [ip],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      },
      status: { loadBalancer: {} },
    });
  });

  it('Job from `kubectl create job pi --image=perl`: selector and labels from generateSelector', () => {
    const { kubectl } = freshCluster();
    const out = kubectl.resource('batch', 'jobs').create('default', golden('create-job-pi.json'));
    const uid = out.metadata.uid!;
    expect(out.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    expect(out.spec.template.metadata.labels).toEqual({
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    });
    expect(out.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      manualSelector: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    expect(out.spec.template.spec.restartPolicy).toBe('Never');
  });

  const podCases: { name: string; containers: unknown[]; want: string }[] = [
    { name: 'best-effort', containers: [{ name: 'a', image: 'x' }], want: 'BestEffort' },
    { name: 'burstable', containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '100m' } } }], want: 'Burstable' },
    {
      name: 'guaranteed-from-limits',
      containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } }],
      want: 'Guaranteed',
    },
    {
      name: 'guaranteed-equal',
      containers: [
        { name: 'a', image: 'x', resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '0.5', memory: '128Mi' } } },
      ],
      want: 'Guaranteed',
    },
    {
      name: 'burstable-unequal',
      containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } } }],
      want: 'Burstable',
    },
  ];
  it.each(podCases)('QoS class $name → $want', ({ containers, want }) => {
    const { kubectl } = freshCluster();
    const out = kubectl
      .resource('', 'pods')
      .create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers } });
    expect(out.status.qosClass).toBe(want);
  });

  const pullCases = [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    ['localhost:5000/app:v1', 'IfNotPresent'],
    ['nginx@sha256:abcd', 'IfNotPresent'],
  ] as const;
  it.each(pullCases)('imagePullPolicy of %s is %s', (image, want) => {
    const { kubectl } = freshCluster();
    const out = kubectl
      .resource('', 'pods')
      .create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image }] } });
    expect(out.spec.containers[0].imagePullPolicy).toBe(want);
  });

  it('NodePort Service gets a nodePort and externalTrafficPolicy Cluster; delete releases the IP', () => {
    const { kubectl } = freshCluster();
    const svc = kubectl.resource('', 'services');
    const out = svc.create('default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'np' },
      spec: { type: 'NodePort', ports: [{ port: 80 }] },
    });
    expect(out.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(out.spec.ports[0].nodePort).toBeLessThanOrEqual(32767);
    expect(out.spec.externalTrafficPolicy).toBe('Cluster');
    expect(out.spec.ports[0].targetPort).toBe(80);
    const taken = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'np2' },
      spec: { clusterIP: out.spec.clusterIP, type: 'NodePort', ports: [{ port: 80, nodePort: out.spec.ports[0].nodePort }] },
    };
    expect(() => svc.create('default', taken)).toThrow(
      `Service "np2" is invalid: [spec.clusterIPs: Invalid value: []string{"${out.spec.clusterIP}"}: failed to allocate IP ${out.spec.clusterIP}: provided IP is already allocated, spec.ports[0].nodePort: Invalid value: ${out.spec.ports[0].nodePort}: provided port is already allocated]`,
    );
    svc.delete('default', 'np');
    const again = svc.create('default', taken);
    expect([again.spec.clusterIP, again.spec.ports[0].nodePort]).toEqual([out.spec.clusterIP, out.spec.ports[0].nodePort]);
  });

  it('headless and ExternalName Services get no ClusterIP', () => {
    const { kubectl } = freshCluster();
    const svc = kubectl.resource('', 'services');
    const h = svc.create('default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'h' },
      spec: { clusterIP: 'None', selector: { app: 'x' } },
    });
    expect(h.spec.clusterIPs).toEqual(['None']);
    const e = svc.create('default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'e' },
      spec: { type: 'ExternalName', externalName: 'example.com' },
    });
    expect(e.spec.clusterIP).toBeUndefined();
  });

  it('PVC gets the default StorageClass; Namespace gets its name label and finalizer', () => {
    const { kubectl } = freshCluster();
    kubectl.resource('storage.k8s.io', 'storageclasses').create('', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
    });
    const pvc = kubectl.resource('', 'persistentvolumeclaims').create('default', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(pvc.spec).toMatchObject({ storageClassName: 'standard', volumeMode: 'Filesystem' });
    expect(pvc.status).toEqual({ phase: 'Pending' });
    const ns = kubectl.resource('', 'namespaces').create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(ns.status).toEqual({ phase: 'Active' });
  });

  it('Secret stringData is merged into data as base64', () => {
    const { kubectl } = freshCluster();
    const s = kubectl.resource('', 'secrets').create('default', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { a: 'eA==' },
      stringData: { b: 'héllo', a: 'y' },
    });
    expect(s.data).toEqual({ a: 'eQ==', b: 'aMOpbGxv' });
    expect(s.stringData).toBeUndefined();
    expect(s.type).toBe('Opaque');
  });

  it('HPA v2 defaults: minReplicas 1, cpu 80% metric, behavior rules filled', () => {
    const { kubectl } = freshCluster();
    const h = kubectl.resource('autoscaling', 'horizontalpodautoscalers').create('default', {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
        maxReplicas: 5,
        behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
      },
    });
    expect(h.spec.minReplicas).toBe(1);
    expect(h.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    expect(h.spec.behavior).toEqual({
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
    });
  });

  it('StatefulSet, DaemonSet and CronJob defaults', () => {
    const { kubectl } = freshCluster();
    const tpl = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } };
    const sts = kubectl.resource('apps', 'statefulsets').create('default', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: { selector: { matchLabels: { app: 'a' } }, serviceName: 's', template: tpl },
    });
    expect(sts.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    const ds = kubectl.resource('apps', 'daemonsets').create('default', {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'a' } }, template: tpl },
    });
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    const cj = kubectl.resource('batch', 'cronjobs').create('default', {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'x:1' }], restartPolicy: 'OnFailure' } } } },
      },
    });
    expect(cj.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
  });
});
