/**
 * The line-by-line audit of v1.33's defaulters (pkg/apis/<group>/v1/defaults.go and
 * zz_generated.defaults.go) for what earlier tables did not pin: one table per upstream
 * function, input → the exact stored object (metadata aside).
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Cluster } from '../../cluster';
import { users } from '../../client/clientset';

const c = new Cluster();
const user = users.kubectl();
let n = 0;

/** Creates `yaml` (named uniquely) and returns what was stored, without metadata/apiVersion/kind. */
function stored(yaml: string): Record<string, any> {
  const o = parse(yaml);
  o.metadata = { name: `o${++n}` };
  const info = c.api.registry.forKind(o.apiVersion, o.kind)!;
  const r = c.api.create(user, info, info.namespaced ? 'default' : '', o);
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = r.object;
  return rest;
}

describe('SetDefaults_ResourceList (milli round-up, canonical Quantity text)', () => {
  it.each([
    [
      'ResourceQuota spec.hard',
      `{apiVersion: v1, kind: ResourceQuota, spec: {hard: {pods: 2, cpu: "0.0001", memory: 1.5Gi, requests.storage: "2000", limits.cpu: "1000m"}}}`,
      (o: any) => o.spec.hard,
      { pods: '2', cpu: '1m', memory: '1536Mi', 'requests.storage': '2k', 'limits.cpu': '1' },
    ],
    [
      'Pod container limits and the requests copied from them',
      `{apiVersion: v1, kind: Pod, spec: {containers: [{name: c, image: "nginx:1.27", resources: {limits: {cpu: "0.5", memory: 1Gi, ephemeral-storage: "1e9"}}}]}}`,
      (o: any) => o.spec.containers[0].resources,
      {
        limits: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1e9' },
        requests: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1e9' },
      },
    ],
    [
      'Deployment template container requests',
      `{apiVersion: apps/v1, kind: Deployment, spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: "nginx:1.27", resources: {requests: {cpu: "1.5", memory: "1048576"}}}]}}}}`,
      (o: any) => o.spec.template.spec.containers[0].resources,
      { requests: { cpu: '1500m', memory: '1048576' } },
    ],
    [
      'LimitRange items (and the defaults computed from them)',
      `{apiVersion: v1, kind: LimitRange, spec: {limits: [{type: Container, max: {cpu: "2000m"}, min: {memory: 0.5Gi}}]}}`,
      (o: any) => o.spec.limits[0],
      {
        type: 'Container',
        max: { cpu: '2' },
        min: { memory: '512Mi' },
        default: { cpu: '2' },
        defaultRequest: { cpu: '2', memory: '512Mi' },
      },
    ],
    [
      'PersistentVolume capacity',
      `{apiVersion: v1, kind: PersistentVolume, spec: {capacity: {storage: 1024Mi}, accessModes: [ReadWriteOnce], hostPath: {path: /d}}}`,
      (o: any) => o.spec.capacity,
      { storage: '1Gi' },
    ],
    [
      'PersistentVolumeClaim requests',
      `{apiVersion: v1, kind: PersistentVolumeClaim, spec: {accessModes: [ReadWriteOnce], storageClassName: "", resources: {requests: {storage: 0.5Gi}}}}`,
      (o: any) => o.spec.resources,
      { requests: { storage: '512Mi' } },
    ],
    [
      'StatefulSet volumeClaimTemplates',
      `{apiVersion: apps/v1, kind: StatefulSet, spec: {serviceName: s, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: "nginx:1.27"}]}}, volumeClaimTemplates: [{metadata: {name: d}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: "1000Mi"}}}}]}}`,
      (o: any) => o.spec.volumeClaimTemplates[0].spec.resources,
      { requests: { storage: '1000Mi' } },
    ],
  ])('%s', (_n, yaml, pick, want) => {
    expect(pick(stored(yaml))).toEqual(want);
  });
});

describe('SetDefaults_NetworkPolicy (by length: an empty policyTypes or egress counts as none)', () => {
  it.each([
    ['nothing given', `{apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, spec: {podSelector: {}}}`, ['Ingress']],
    [
      'policyTypes [] and egress []',
      `{apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, spec: {podSelector: {}, policyTypes: [], egress: []}}`,
      ['Ingress'],
    ],
    [
      'an egress rule',
      `{apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, spec: {podSelector: {}, egress: [{}]}}`,
      ['Ingress', 'Egress'],
    ],
    [
      'policyTypes given',
      `{apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, spec: {podSelector: {}, policyTypes: [Egress], egress: [{}]}}`,
      ['Egress'],
    ],
  ])('%s', (_n, yaml, want) => {
    expect(stored(yaml).spec.policyTypes).toEqual(want);
  });
});

describe('SetDefaults_DownwardAPIVolumeSource / ObjectFieldSelector (a file\'s resourceFieldRef divisor "0")', () => {
  it('downwardAPI and projected downwardAPI files', () => {
    const o =
      stored(`{apiVersion: v1, kind: Pod, spec: {automountServiceAccountToken: false, containers: [{name: c, image: "nginx:1.27"}], volumes: [
      {name: d, downwardAPI: {items: [{path: cpu, resourceFieldRef: {containerName: c, resource: limits.cpu}}, {path: ns, fieldRef: {fieldPath: metadata.namespace}}]}},
      {name: p, projected: {sources: [{downwardAPI: {items: [{path: mem, resourceFieldRef: {containerName: c, resource: limits.memory, divisor: 1Mi}}]}}]}}]}}`);
    expect(o.spec.volumes).toEqual([
      {
        name: 'd',
        downwardAPI: {
          items: [
            { path: 'cpu', resourceFieldRef: { containerName: 'c', resource: 'limits.cpu', divisor: '0' } },
            { path: 'ns', fieldRef: { fieldPath: 'metadata.namespace', apiVersion: 'v1' } },
          ],
          defaultMode: 420,
        },
      },
      {
        name: 'p',
        projected: {
          sources: [
            {
              downwardAPI: {
                items: [{ path: 'mem', resourceFieldRef: { containerName: 'c', resource: 'limits.memory', divisor: '1Mi' } }],
              },
            },
          ],
          defaultMode: 420,
        },
      },
    ]);
  });
});

describe('PrepareForCreate status resets (what a new object prints)', () => {
  it.each([
    ['ResourceQuota: status {}', `{apiVersion: v1, kind: ResourceQuota, spec: {hard: {pods: "1"}}, status: {hard: {pods: "9"}}}`, {}],
    [
      'VolumeAttachment: status {attached: false}',
      `{apiVersion: storage.k8s.io/v1, kind: VolumeAttachment, spec: {attacher: csi.example.com, nodeName: node-1, source: {persistentVolumeName: pv}}, status: {attached: true}}`,
      { attached: false },
    ],
    [
      'CertificateSigningRequest: status {}',
      `{apiVersion: certificates.k8s.io/v1, kind: CertificateSigningRequest, spec: {request: "", signerName: example.com/s, usages: [digital signature]}, status: {conditions: [{type: Approved, status: "True"}]}}`,
      {},
    ],
  ])('%s', (_n, yaml, want) => {
    expect(stored(yaml).status).toEqual(want);
  });
});

describe('zz_generated.defaults.go volume source defaults (Pods and PersistentVolumes)', () => {
  it("a Pod's iscsi, rbd, azureDisk and scaleIO volumes", () => {
    const o =
      stored(`{apiVersion: v1, kind: Pod, spec: {automountServiceAccountToken: false, containers: [{name: c, image: "nginx:1.27"}], volumes: [
      {name: i, iscsi: {targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage", lun: 0}},
      {name: r, rbd: {monitors: ["10.0.0.2:6789"], image: foo}},
      {name: a, azureDisk: {diskName: d, diskURI: "https://example/d.vhd"}},
      {name: s, scaleIO: {gateway: "https://gw", system: sys, secretRef: {name: sio}}}]}}`);
    expect(o.spec.volumes).toEqual([
      { name: 'i', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0, iscsiInterface: 'default' } },
      { name: 'r', rbd: { monitors: ['10.0.0.2:6789'], image: 'foo', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } },
      {
        name: 'a',
        azureDisk: {
          diskName: 'd',
          diskURI: 'https://example/d.vhd',
          cachingMode: 'ReadWrite',
          kind: 'Shared',
          fsType: 'ext4',
          readOnly: false,
        },
      },
      {
        name: 's',
        scaleIO: { gateway: 'https://gw', system: 'sys', secretRef: { name: 'sio' }, storageMode: 'ThinProvisioned', fsType: 'xfs' },
      },
    ]);
  });
  it("a PersistentVolume's rbd source", () => {
    const o = stored(
      `{apiVersion: v1, kind: PersistentVolume, spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], rbd: {monitors: ["10.0.0.2:6789"], image: foo, pool: kube}}}`,
    );
    expect(o.spec.rbd).toEqual({ monitors: ['10.0.0.2:6789'], image: 'foo', pool: 'kube', user: 'admin', keyring: '/etc/ceph/keyring' });
  });
});
