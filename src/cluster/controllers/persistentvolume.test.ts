import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster } from '../cluster';

const real = (f: string) => readFileSync(`src/examples/real/${f}`, 'utf8');
/** "Reason: message" of the events about one object, in creation order. */
const ev = (c: Cluster, name: string) =>
  c
    .events()
    .filter((e) => e.involvedObject.name === name)
    .map((e) => `${e.reason}: ${e.message}`);
const pvc = (c: Cluster, name: string) => c.get('persistentvolumeclaims', 'default', name);
const pvs = (c: Cluster) => c.list('persistentvolumes');
const EXTERNAL = (p: string) =>
  `ExternalProvisioning: Waiting for a volume to be created either by the external provisioner '${p}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`;
const PREEMPTION = 'preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.';
const claimYaml = (name: string, cls?: string, size = '1Gi') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec:
  accessModes: [ReadWriteOnce]
  ${cls === undefined ? '' : `storageClassName: "${cls}"`}
  resources: {requests: {storage: ${size}}}
`;
const podYaml = (name: string, claim: string) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers: [{name: app, image: nginx:1.25}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: ${claim}}}]
`;
const classYaml = (name: string, provisioner: string, mode: string, reclaim = 'Delete') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}
volumeBindingMode: ${mode}
reclaimPolicy: ${reclaim}
`;

describe('StorageClass standard (kind default)', () => {
  it('exists at boot: default annotation, rancher.io/local-path, Delete, WaitForFirstConsumer', () => {
    const c = new Cluster({ seed: 1 });
    const sc = c.get('storageclasses.storage.k8s.io', '', 'standard')!;
    expect(sc.metadata.annotations).toEqual({ 'storageclass.kubernetes.io/is-default-class': 'true' });
    expect(sc).toMatchObject({ provisioner: 'rancher.io/local-path', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer' });
  });

  it('a claim without storageClassName gets `standard`, the pvc-protection finalizer, and waits alone for its first consumer', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(claimYaml('data'));
    expect(c.settle(10 * 60_000)).toBe(true);
    const cl = pvc(c, 'data')!;
    expect(cl.spec.storageClassName).toBe('standard');
    expect(cl.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(cl.status).toEqual({ phase: 'Pending' });
    expect(ev(c, 'data')).toEqual(['WaitForFirstConsumer: waiting for first consumer to be created before binding']);
    expect(pvs(c)).toEqual([]);
  });
});

describe('WaitForFirstConsumer through the scheduler (local-path-provisioner)', () => {
  it('local-path-storage.yaml + local-path-pvc-pod.yaml: selected node, provisioned PV, bound claim, then the Pod is bound', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(real('local-path-storage.yaml'));
    c.settle(60_000);
    c.advance(1000 - (c.now() % 1000)); // start on a whole second: event times have 1 s resolution
    const t0 = c.now();
    c.apply(real('local-path-pvc-pod.yaml'));
    expect(c.settle(10 * 60_000)).toBe(true);
    const cl = pvc(c, 'local-path-pvc')!;
    const pod = c.get('pods', 'default', 'volume-test')!;
    const node = pod.spec.nodeName;
    const pvName = `pvc-${cl.metadata.uid}`;
    expect(ev(c, 'local-path-pvc')).toEqual([
      'WaitForPodScheduled: waiting for pod volume-test to be scheduled',
      EXTERNAL('rancher.io/local-path'),
      'Provisioning: External provisioner is provisioning volume for claim "default/local-path-pvc"',
      `ProvisioningSucceeded: Successfully provisioned volume ${pvName}`,
    ]);
    const events = c.events().filter((e) => e.involvedObject.name === 'local-path-pvc');
    expect(events[1].count).toBe(2); // ExternalProvisioning (x2): once per claim sync
    expect(events[1].source).toEqual({ component: 'persistentvolume-controller' });
    expect(events[2].source.component).toMatch(/^rancher\.io\/local-path_local-path-provisioner-/);
    // local-path's helper pod takes 2 s; the scheduler polls every second
    expect(Date.parse(events[3].firstTimestamp) - t0).toBe(2_000);
    const scheduled = c.events().find((e) => e.involvedObject.name === 'volume-test' && e.reason === 'Scheduled')!;
    expect(scheduled.message).toBe(`Successfully assigned default/volume-test to ${node}`);
    // an events.k8s.io Event: eventTime (microseconds), no firstTimestamp
    expect(scheduled.firstTimestamp).toBeNull();
    expect(Math.floor((Date.parse(scheduled.eventTime) - t0) / 1000)).toBe(3);
    expect(cl.metadata.annotations).toMatchObject({
      'volume.kubernetes.io/selected-node': node,
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'volume.beta.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    expect(cl.spec.volumeName).toBe(pvName);
    expect(cl.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '128Mi' } });
    const [pv] = pvs(c);
    expect(pv.metadata.name).toBe(pvName);
    expect(pv.metadata.annotations).toEqual({
      'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path',
      'local.path.provisioner/selected-node': node,
    });
    expect(pv.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(pv.spec).toMatchObject({
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '128Mi' },
      claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: 'default', name: 'local-path-pvc', uid: cl.metadata.uid },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'local-path',
      volumeMode: 'Filesystem',
      hostPath: { path: `/var/local-path-provisioner/${pvName}_default_local-path-pvc`, type: 'DirectoryOrCreate' },
      nodeAffinity: {
        required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] },
      },
    });
    expect(pv.status.phase).toBe('Bound');
  });

  it('without local-path-storage.yaml the claim names a missing class: ProvisioningFailed, the Pod waits; the class arriving unblocks both', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(real('local-path-pvc-pod.yaml'));
    expect(c.settle(10 * 60_000)).toBe(true);
    expect(ev(c, 'local-path-pvc')).toEqual(['ProvisioningFailed: storageclass.storage.k8s.io "local-path" not found']);
    expect(ev(c, 'volume-test')).toEqual([
      `FailedScheduling: 0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${PREEMPTION}`,
    ]);
    expect(pvc(c, 'local-path-pvc')!.status.phase).toBe('Pending');
    c.apply(classYaml('local-path', 'rancher.io/local-path', 'WaitForFirstConsumer'));
    expect(c.settle(10 * 60_000)).toBe(true);
    expect(pvc(c, 'local-path-pvc')!.status.phase).toBe('Bound');
    expect(c.get('pods', 'default', 'volume-test')!.spec.nodeName).toBe(
      pvc(c, 'local-path-pvc')!.metadata.annotations!['volume.kubernetes.io/selected-node'],
    );
  });
});

describe('Immediate binding and static volumes', () => {
  it('an Immediate class provisions at once, with no Pod (generic CSI-style provisioner)', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(classYaml('fast', 'example.com/fast', 'Immediate'));
    c.apply(claimYaml('db', 'fast', '5Gi'));
    expect(c.settle(10 * 60_000)).toBe(true);
    const cl = pvc(c, 'db')!;
    expect(ev(c, 'db')).toEqual([
      EXTERNAL('example.com/fast'),
      'Provisioning: External provisioner is provisioning volume for claim "default/db"',
      `ProvisioningSucceeded: Successfully provisioned volume pvc-${cl.metadata.uid}`,
    ]);
    expect(cl.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '5Gi' } });
    expect(cl.metadata.annotations?.['volume.kubernetes.io/selected-node']).toBeUndefined();
    expect(pvs(c)[0].spec.csi).toEqual({ driver: 'example.com/fast', volumeHandle: `pvc-${cl.metadata.uid}`, fsType: 'ext4' });
    expect(pvs(c)[0].spec.nodeAffinity).toBeUndefined();
  });

  it('local-path with Immediate binding fails: no node was specified', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(classYaml('lp-now', 'rancher.io/local-path', 'Immediate'));
    c.apply(claimYaml('x', 'lp-now'));
    c.settle(10 * 60_000);
    expect(ev(c, 'x').slice(-1)).toEqual([
      'ProvisioningFailed: failed to provision volume with StorageClass "lp-now": configuration error, no node was specified',
    ]);
    expect(pvc(c, 'x')!.status.phase).toBe('Pending');
  });

  it('a class-less claim binds the smallest matching Available PV (bound-by-controller on both)', () => {
    const c = new Cluster({ seed: 1 });
    const pv = (name: string, size: string) => `apiVersion: v1
kind: PersistentVolume
metadata: {name: ${name}, labels: {tier: gold}}
spec: {capacity: {storage: ${size}}, accessModes: [ReadWriteOnce, ReadOnlyMany], storageClassName: "", hostPath: {path: /data/${name}}}
`;
    c.apply([pv('big', '10Gi'), pv('small', '2Gi'), pv('tiny', '500Mi')].join('---\n'));
    c.apply(claimYaml('want', '', '1Gi'));
    expect(c.settle(10 * 60_000)).toBe(true);
    const cl = pvc(c, 'want')!;
    expect(cl.spec.volumeName).toBe('small');
    expect(cl.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], capacity: { storage: '2Gi' } });
    const small = c.get('persistentvolumes', '', 'small')!;
    expect(small.metadata.annotations?.['pv.kubernetes.io/bound-by-controller']).toBe('yes');
    expect(small.spec.claimRef).toMatchObject({ kind: 'PersistentVolumeClaim', namespace: 'default', name: 'want', uid: cl.metadata.uid });
    expect(small.status.phase).toBe('Bound');
    expect(c.get('persistentvolumes', '', 'big')!.status.phase).toBe('Available');
  });

  it('tf-serving-pv-pvc-ingress.yaml: `standard` is stamped on the pre-bound claim, so it never binds the class-less PV', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(real('tf-serving-pv-pvc-ingress.yaml'));
    expect(c.settle(10 * 60_000)).toBe(true);
    const cl = pvc(c, 'my-model-pvc')!;
    expect(cl.spec).toMatchObject({ storageClassName: 'standard', volumeName: 'my-model-pv' });
    expect(cl.status).toEqual({ phase: 'Pending' });
    expect(ev(c, 'my-model-pvc')).toEqual([
      'VolumeMismatch: Cannot bind to requested volume "my-model-pv": storageClassName does not match',
    ]);
    const pv = c.get('persistentvolumes', '', 'my-model-pv')!;
    expect(pv.status.phase).toBe('Available');
    expect(pv.spec.claimRef).toBeUndefined();
    const pod = c.list('pods', 'default').find((p) => p.metadata.name.startsWith('tf-serving-'))!;
    expect(pod.spec.nodeName).toBeUndefined();
    expect(ev(c, pod.metadata.name)).toEqual([
      `FailedScheduling: 0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${PREEMPTION}`,
    ]);
  });
});

describe('VolumeBinding filter messages', () => {
  it('missing claim; PV node affinity conflict', () => {
    const c = new Cluster({ seed: 1 });
    c.apply(`apiVersion: v1
kind: PersistentVolume
metadata: {name: local-pv}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  hostPath: {path: /data}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [kind-worker]}]
`);
    c.apply(claimYaml('c1', ''));
    c.settle(60_000);
    expect(pvc(c, 'c1')!.status.phase).toBe('Bound');
    c.apply(podYaml('p1', 'c1'));
    c.apply(podYaml('p2', 'nope'));
    expect(c.settle(10 * 60_000)).toBe(true);
    expect(ev(c, 'p1')).toEqual([
      `FailedScheduling: 0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) had volume node affinity conflict. ${PREEMPTION}`,
    ]);
    expect(ev(c, 'p2')).toEqual([`FailedScheduling: 0/4 nodes are available: persistentvolumeclaim "nope" not found. ${PREEMPTION}`]);
  });
});

describe('WaitForFirstConsumer without a provisioner', () => {
  it("kubernetes.io/no-provisioner and no matching PV: node(s) didn't find available persistent volumes to bind", () => {
    const c = new Cluster({ seed: 1 });
    c.apply(classYaml('local-storage', 'kubernetes.io/no-provisioner', 'WaitForFirstConsumer'));
    c.apply(claimYaml('d', 'local-storage'));
    c.apply(podYaml('p', 'd'));
    expect(c.settle(10 * 60_000)).toBe(true);
    expect(ev(c, 'p')).toEqual([
      `FailedScheduling: 0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) didn't find available persistent volumes to bind. ${PREEMPTION}`,
    ]);
    expect(ev(c, 'd')).toEqual(['WaitForPodScheduled: waiting for pod p to be scheduled']);
  });
});

describe('reclaim and protection', () => {
  function boundClaimWithPod(reclaim: string): Cluster {
    const c = new Cluster({ seed: 1 });
    c.apply(classYaml('lp', 'rancher.io/local-path', 'WaitForFirstConsumer', reclaim));
    c.apply(claimYaml('data', 'lp'));
    c.apply(podYaml('user', 'data'));
    c.settle(10 * 60_000);
    expect(pvc(c, 'data')!.status.phase).toBe('Bound');
    return c;
  }

  it('pvc-protection: a claim in use stays Terminating until its Pod is gone; then Delete removes the PV', () => {
    const c = boundClaimWithPod('Delete');
    const pvName = pvc(c, 'data')!.spec.volumeName;
    c.kubectlClient.resource('', 'persistentvolumeclaims').delete('default', 'data');
    expect(c.settle(10 * 60_000)).toBe(true);
    const terminating = pvc(c, 'data')!;
    expect(terminating.metadata.deletionTimestamp).toBeDefined();
    expect(terminating.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(terminating.status.phase).toBe('Bound');
    expect(c.get('persistentvolumes', '', pvName)!.status.phase).toBe('Bound');
    c.deletePod('default', 'user');
    expect(c.settle(10 * 60_000)).toBe(true);
    expect(c.get('pods', 'default', 'user')).toBeUndefined();
    expect(pvc(c, 'data')).toBeUndefined();
    expect(c.get('persistentvolumes', '', pvName)).toBeUndefined();
  });

  it('Retain: the volume stays, Released, still pointing at the deleted claim', () => {
    const c = boundClaimWithPod('Retain');
    const pvName = pvc(c, 'data')!.spec.volumeName;
    c.deletePod('default', 'user');
    c.settle(10 * 60_000);
    c.kubectlClient.resource('', 'persistentvolumeclaims').delete('default', 'data');
    expect(c.settle(10 * 60_000)).toBe(true);
    expect(pvc(c, 'data')).toBeUndefined();
    const pv = c.get('persistentvolumes', '', pvName)!;
    expect(pv.status.phase).toBe('Released');
    expect(pv.spec.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(pv.spec.claimRef.name).toBe('data');
  });

  it('pv-protection: deleting a Bound PV leaves it Terminating; the claim keeps it', () => {
    const c = boundClaimWithPod('Delete');
    const pvName = pvc(c, 'data')!.spec.volumeName;
    c.kubectlClient.resource('', 'persistentvolumes').delete('', pvName);
    c.settle(60_000);
    const pv = c.get('persistentvolumes', '', pvName)!;
    expect(pv.metadata.deletionTimestamp).toBeDefined();
    expect(pv.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expect(pvc(c, 'data')!.status.phase).toBe('Bound');
  });
});
