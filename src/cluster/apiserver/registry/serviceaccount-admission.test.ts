/**
 * ServiceAccount admission's projected token volume (plugin/pkg/admission/serviceaccount:
 * mountServiceAccountToken, TokenVolumeSource, shouldAutomount), the root-ca-cert-publisher's
 * `kube-root-ca.crt` ConfigMap in every namespace, and the files a container reads from
 * /var/run/secrets/kubernetes.io/serviceaccount.
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../../cluster';
import type { KObject } from '../../api/types';
import { Description } from '../../controllers/root-ca-cert-publisher';

const MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';
const NAME = /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

function pod(c: Cluster, yaml: string): KObject {
  const [r] = c.apply(yaml);
  expect(r.action).toBe('created');
  return c.get('pods', 'default', r.object.split('/')[1])!;
}

describe('ServiceAccount admission: the kube-api-access-<5> volume', () => {
  test('every init container and container mounts it read-only; the volume is TokenVolumeSource', () => {
    const c = new Cluster({ seed: 1 });
    const p = pod(
      c,
      `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers: [{name: init, image: busybox:1.36, command: ["true"]}]
  containers:
  - {name: a, image: nginx:1.27}
  - {name: b, image: nginx:1.27, volumeMounts: [{name: own, mountPath: ${MOUNT}}]}
  volumes: [{name: own, emptyDir: {}}]
`,
    );
    const vol = p.spec.volumes.find((v: KObject) => v.name.startsWith('kube-api-access-'));
    expect(vol.name).toMatch(NAME);
    expect(vol.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    const mount = { name: vol.name, readOnly: true, mountPath: MOUNT };
    expect(p.spec.initContainers[0].volumeMounts).toEqual([mount]);
    expect(p.spec.containers[0].volumeMounts).toEqual([mount]);
    // an existing mount at the default path prevents mounting the token there
    expect(p.spec.containers[1].volumeMounts).toEqual([{ name: 'own', mountPath: MOUNT }]);
    expect(p.spec.volumes.map((v: KObject) => v.name)).toEqual(['own', vol.name]);
  });

  test.each([
    { name: 'Pod automountServiceAccountToken: false', pod: 'false', sa: undefined, mounted: false },
    { name: 'ServiceAccount automountServiceAccountToken: false', pod: undefined, sa: 'false', mounted: false },
    { name: "the Pod's true wins over the ServiceAccount's false", pod: 'true', sa: 'false', mounted: true },
    { name: 'neither says: mounted', pod: undefined, sa: undefined, mounted: true },
  ])('$name', ({ pod: podAuto, sa, mounted }) => {
    const c = new Cluster({ seed: 1 });
    c.apply(`apiVersion: v1
kind: ServiceAccount
metadata: {name: robot}
${sa ? `automountServiceAccountToken: ${sa}` : ''}
`);
    const p = pod(
      c,
      `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  serviceAccountName: robot
  ${podAuto ? `automountServiceAccountToken: ${podAuto}` : ''}
  containers: [{name: a, image: nginx:1.27}]
`,
    );
    expect((p.spec.volumes ?? []).some((v: KObject) => NAME.test(v.name))).toBe(mounted);
    expect(p.spec.containers[0].volumeMounts?.[0]?.mountPath === MOUNT).toBe(mounted);
  });

  test('kubectl exec reads namespace, token and ca.crt; ca.crt is the kube-root-ca.crt ConfigMap', () => {
    const c = new Cluster({ seed: 1 });
    c.kubectl('create namespace shop');
    c.kubectl('run web -n shop --image=nginx:1.27');
    c.settle(60_000);
    expect(c.kubectl(`exec -n shop web -- cat ${MOUNT}/namespace`)).toMatchObject({ output: 'shop', exitCode: 0 });
    expect(c.kubectl(`exec -n shop web -- ls ${MOUNT}`).output).toBe('ca.crt\nnamespace\ntoken\n');
    const ca = c.kubectl(`exec -n shop web -- cat ${MOUNT}/ca.crt`).output;
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/);
    expect(c.get('configmaps', 'shop', 'kube-root-ca.crt')!.data['ca.crt']).toBe(ca);
    expect(c.kubectl(`exec -n shop web -- cat ${MOUNT}/token`).exitCode).toBe(0);
    expect(c.kubectl('describe pod web -n shop').output).toMatch(
      /Mounts:\n {6}\/var\/run\/secrets\/kubernetes\.io\/serviceaccount from kube-api-access-\w{5} \(ro\)\n/,
    );
  });
});

describe('root-ca-cert-publisher: kube-root-ca.crt in every namespace', () => {
  test('at boot, in a new namespace, recreated when deleted, restored when edited', () => {
    const c = new Cluster({ seed: 1 });
    c.settle(10_000);
    const namespaces = () =>
      c
        .list('configmaps')
        .filter((m) => m.metadata.name === 'kube-root-ca.crt')
        .map((m) => m.metadata.namespace)
        .sort();
    expect(namespaces()).toEqual(
      c
        .list('namespaces')
        .map((n) => n.metadata.name)
        .sort(),
    );
    const cm = c.get('configmaps', 'default', 'kube-root-ca.crt')!;
    expect(cm.metadata.annotations).toEqual({ 'kubernetes.io/description': Description });
    expect(Object.keys(cm.data)).toEqual(['ca.crt']);
    expect(c.kubectl('create namespace team-a').output).toBe('namespace/team-a created\n');
    c.settle(1_000);
    expect(c.get('configmaps', 'team-a', 'kube-root-ca.crt')!.data).toEqual(cm.data);
    expect(c.kubectl('delete configmap kube-root-ca.crt -n team-a').output).toBe('configmap "kube-root-ca.crt" deleted\n');
    c.settle(1_000);
    expect(c.get('configmaps', 'team-a', 'kube-root-ca.crt')!.data).toEqual(cm.data);
    c.kubectl('patch configmap kube-root-ca.crt -n team-a -p {"data":{"ca.crt":"x"}}');
    c.settle(1_000);
    expect(c.get('configmaps', 'team-a', 'kube-root-ca.crt')!.data).toEqual(cm.data);
  });
});
