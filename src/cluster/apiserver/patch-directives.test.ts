/**
 * Strategic merge patch directives as kube-apiserver applies them
 * (staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go: handleDirectiveInMergeMap,
 * mergeSliceWithSpecialElements, mergePatchIntoOriginal, validatePatchWithSetOrderList,
 * normalizeElementOrder, deleteFromSlice) and the status of each failure
 * (endpoints/handlers/patch.go interpretStrategicMergePatchError: only mergepatch's
 * ErrBadPatchFormat* are 400; the other merge errors are not a metav1.Status and reach
 * ErrorToAPIStatus: 500, reason "" (StatusReasonUnknown), the bare text).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { users } from '../client/clientset';
import { StatusError, kubectlErrorMessage } from '../api/errors';
import type { KObject } from '../api/types';

const c = new Cluster();
c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {a: "1", b: "2"}, finalizers: [example.com/x, example.com/y]}
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      securityContext: {runAsUser: 1000}
      containers:
      - {name: a, image: "nginx:1.27"}
      - {name: s, image: "busybox:1.36"}
      - {name: b, image: "httpd:2.4"}
`);
const info = c.api.registry.forKind('apps/v1', 'Deployment')!;

function patch(body: unknown, dryRun = true): KObject {
  return c.api.patch(users.kubectl(), info, 'default', 'web', 'strategic', body, { dryRun }).object;
}

function failure(body: unknown): { code: number; reason: string; message: string; kubectl: string } {
  try {
    patch(body);
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, reason: e.status.reason, message: e.message, kubectl: kubectlErrorMessage(e) };
    throw e;
  }
  throw new Error('patch succeeded');
}

const names = (o: KObject) => o.spec.template.spec.containers.map((x: { name: string }) => x.name);
const tpl = (spec: unknown) => ({ spec: { template: { spec } } });

describe('strategic merge directives that apply', () => {
  it('$patch: replace on a map replaces it with the patch', () => {
    expect(patch({ metadata: { labels: { $patch: 'replace', c: '3' } } }).metadata.labels).toEqual({ c: '3' });
  });
  it('$patch: delete on a map leaves an empty map (securityContext: {})', () => {
    expect(patch(tpl({ securityContext: { $patch: 'delete' } })).spec.template.spec.securityContext).toEqual({});
  });
  it("{$patch: replace} in a list makes the list the patch's other elements", () => {
    const o = patch(tpl({ containers: [{ $patch: 'replace' }, { name: 'only', image: 'nginx:1.28' }] }));
    expect(names(o)).toEqual(['only']);
  });
  it('{$patch: delete, name} removes that element', () => {
    expect(names(patch(tpl({ containers: [{ $patch: 'delete', name: 's' }] })))).toEqual(['a', 'b']);
  });
  it('$deleteFromPrimitiveList/finalizers removes the values from the live list', () => {
    expect(patch({ metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/x'] } }).metadata.finalizers).toEqual([
      'example.com/y',
    ]);
  });
  it.each([
    ['$setElementOrder alone reorders', { '$setElementOrder/containers': [{ name: 'b' }, { name: 's' }, { name: 'a' }] }, ['b', 's', 'a']],
    [
      'a server-only element stays before the patch element that followed it live',
      { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'b', image: 'httpd:2.4.62' }] },
      ['s', 'b', 'a'],
    ],
    [
      "without $setElementOrder the patch list's order wins for its elements",
      {
        containers: [
          { name: 'b', image: 'httpd:2.4.62' },
          { name: 'a', image: 'nginx:1.28' },
        ],
      },
      ['s', 'b', 'a'],
    ],
    [
      'a new element goes after the patch elements before it',
      {
        containers: [
          { name: 'a', image: 'nginx:1.28' },
          { name: 'n', image: 'nginx:1.28' },
        ],
      },
      ['a', 'n', 's', 'b'],
    ],
  ])('%s', (_n, spec, want) => {
    expect(names(patch(tpl(spec)))).toEqual(want);
  });
});

describe('strategic merge directive errors: code, reason, message, what kubectl prints', () => {
  it.each([
    [
      'an unknown $patch in a map',
      { metadata: { labels: { $patch: 'foo', a: 'b' } } },
      'unknown patch type: foo in map: map[$patch:foo a:b]',
    ],
    ['a number as $patch', { metadata: { labels: { $patch: 7 } } }, 'unknown patch type: %!s(int64=7) in map: map[$patch:7]'],
    [
      'an unknown $patch in a list element',
      tpl({ containers: [{ $patch: 'bogus', name: 'a' }] }),
      'unknown patch type: bogus in map: map[$patch:bogus name:a]',
    ],
    [
      '$patch: delete without the merge key',
      tpl({ containers: [{ $patch: 'delete' }] }),
      'map: map[$patch:delete] does not contain declared merge key: name',
    ],
    [
      'a list element without the merge key',
      tpl({ containers: [{ image: 'x' }] }),
      'map: map[image:x] does not contain declared merge key: name',
    ],
    ['$patch: merge in a list', tpl({ containers: [{ $patch: 'merge' }] }), 'merging lists cannot yet be specified in the patch'],
    [
      'a patch list out of its $setElementOrder',
      tpl({
        '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      }),
      "The order in patch list:\n[map[image:x name:a] map[image:y name:b]]\n doesn't match $setElementOrder list:\n[map[name:b] map[name:a]]\n",
    ],
  ])('%s → 500', (_n, body, message) => {
    expect(failure(body)).toEqual({ code: 500, reason: '', message, kubectl: `Error from server: ${message}` });
  });

  it.each([
    ['a $setElementOrder that is not a list', tpl({ '$setElementOrder/containers': 'x' }), 'invalid patch format of setElementOrder list'],
    [
      '$retainKeys not naming a key the patch sets',
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null, x: 1 } } },
      'invalid patch format of retainKeys',
    ],
  ])('%s → 400', (_n, body, message) => {
    expect(failure(body)).toEqual({ code: 400, reason: 'BadRequest', message, kubectl: `Error from server (BadRequest): ${message}` });
  });
});
