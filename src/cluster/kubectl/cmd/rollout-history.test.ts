/**
 * `kubectl rollout history|undo` of a StatefulSet and a DaemonSet: the ControllerRevisions
 * carry the object's annotations (CHANGE-CAUSE), `undo --to-revision=N` renumbers revision N
 * to the newest, and a later plain `undo` goes back the other way (controllers' history
 * handling: statefulset getStatefulSetRevisions, daemonset constructHistory).
 */
import { describe, expect, test } from 'vitest';
import { Cluster } from '../../cluster';

const sts = (image: string, cause: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  annotations: {kubernetes.io/change-cause: "${cause}"}
spec:
  serviceName: web
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "${image}"}]
`;
const ds = (image: string, cause: string) =>
  sts(image, cause).replace('kind: StatefulSet', 'kind: DaemonSet').replace('  serviceName: web\n  replicas: 1\n', '');

const images = (c: Cluster) =>
  c
    .list('controllerrevisions.apps', 'default')
    .sort((a, b) => a.revision - b.revision)
    .map((h) => [h.revision, h.data.spec.template.spec.containers[0].image, h.metadata.annotations?.['kubernetes.io/change-cause']]);

describe.each([
  { kind: 'StatefulSet', id: 'statefulset.apps/web', manifest: sts, label: 'controller.kubernetes.io/hash' },
  { kind: 'DaemonSet', id: 'daemonset.apps/web', manifest: ds, label: 'controller-revision-hash' },
])('$kind', ({ kind, id, manifest, label }) => {
  const c = new Cluster({ seed: 1 });
  const res = kind === 'StatefulSet' ? 'statefulset' : 'daemonset';
  c.apply(manifest('nginx:1.26', 'v1.26'));
  c.advance(20_000);
  c.apply(manifest('nginx:1.27', 'v1.27'));
  c.advance(60_000);

  test('history lists each revision with the CHANGE-CAUSE the object carried', () => {
    expect(c.kubectl(`rollout history ${res} web`).output).toBe(`${id} \nREVISION  CHANGE-CAUSE\n1         v1.26\n2         v1.27\n\n`);
    const h = c.list('controllerrevisions.apps', 'default')[0];
    expect(Object.keys(h.metadata.labels ?? {}).sort()).toEqual(['app', label]);
  });

  test('undo --to-revision=1 renumbers revision 1 to 3; a plain undo then goes back to 1.27 (revision 4)', () => {
    expect(c.kubectl(`rollout undo ${res} web --to-revision=1`).output).toBe(`${id} rolled back\n`);
    c.advance(60_000);
    expect(images(c)).toEqual([
      [2, 'nginx:1.27', 'v1.27'],
      [3, 'nginx:1.26', 'v1.26'],
    ]);
    expect(c.kubectl(`rollout history ${res} web`).output).toBe(`${id} \nREVISION  CHANGE-CAUSE\n2         v1.27\n3         v1.26\n\n`);
    expect(c.kubectl(`rollout undo ${res} web --to-revision=3`).output).toBe(
      `${id} skipped rollback (current template already matches revision 3)\n`,
    );
    expect(c.kubectl(`rollout undo ${res} web`).output).toBe(`${id} rolled back\n`);
    c.advance(60_000);
    expect(images(c)).toEqual([
      [3, 'nginx:1.26', 'v1.26'],
      [4, 'nginx:1.27', 'v1.27'],
    ]);
    expect(c.get(`${res}s.apps`, 'default', 'web')!.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(c.kubectl(`rollout undo ${res} web --to-revision=9`).error).toBe('error: unable to find specified revision 9 in history\n');
    expect(c.kubectl(`rollout history ${res} web --revision=7`).error).toBe('error: unable to find the specified revision\n');
  });
});
