/**
 * PUT without a precondition (store.go Update): a resourceVersion "" / absent / "0" is an
 * unconditional update where the strategy's AllowUnconditionalUpdate() is true, also as a dry
 * run; elsewhere 422 with upstream's text. A stale one is 409 everywhere.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { users } from '../client/clientset';
import { StatusError } from '../api/errors';
import type { KObject } from '../api/types';

const cluster = new Cluster();
const api = cluster.api;
const user = users.kubectl();
const info = (apiVersion: string, kind: string) => api.registry.forKind(apiVersion, kind)!;

const objects: Record<string, KObject> = {
  ConfigMap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'uu' }, data: { a: '1' } } as KObject,
  Lease: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'uu' }, spec: { holderIdentity: 'a' } } as KObject,
  Deployment: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'uu' },
    spec: {
      selector: { matchLabels: { app: 'uu' } },
      template: { metadata: { labels: { app: 'uu' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  } as KObject,
  RuntimeClass: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'uu' }, handler: 'runc' } as KObject,
};
for (const o of Object.values(objects)) {
  const i = info(o.apiVersion, o.kind);
  api.create(user, i, i.namespaced ? 'default' : '', o);
}

/** An edit of the stored object with the given resourceVersion (undefined: none sent). */
function edited(kind: string, rv: string | undefined): KObject {
  const o = structuredClone(objects[kind]);
  o.metadata.resourceVersion = rv;
  o.metadata.labels = { edited: String(rv) };
  return o;
}

function put(kind: string, rv: string | undefined, dryRun = false): { code: number; message: string; labels?: Record<string, string> } {
  const o = objects[kind];
  const i = info(o.apiVersion, o.kind);
  try {
    const r = api.update(user, i, i.namespaced ? 'default' : '', edited(kind, rv), { dryRun });
    return { code: 200, message: '', labels: r.object.metadata.labels };
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { code: e.code, message: e.message };
  }
}

describe('update without a resourceVersion', () => {
  it.each([
    ['ConfigMap, "0"', 'ConfigMap', '0'],
    ['ConfigMap, empty', 'ConfigMap', ''],
    ['ConfigMap, absent', 'ConfigMap', undefined],
    ['Deployment, "0"', 'Deployment', '0'],
  ])('%s: unconditional (200, stored)', (_n, kind, rv) => {
    const r = put(kind, rv);
    expect(r).toEqual({ code: 200, message: '', labels: { edited: String(rv) } });
  });

  it('a dry run with "0" succeeds and stores nothing', () => {
    const before = api.getObject('configmaps', 'default', 'uu')!.metadata.resourceVersion;
    expect(put('ConfigMap', '0', true).code).toBe(200);
    expect(api.getObject('configmaps', 'default', 'uu')!.metadata.resourceVersion).toBe(before);
  });

  it.each([
    ['Lease', 'leases.coordination.k8s.io'],
    ['RuntimeClass', 'runtimeclasses.node.k8s.io'],
  ])('%s refuses it: 422 naming the resource', (kind, gr) => {
    for (const rv of ['0', '', undefined]) {
      expect(put(kind, rv)).toEqual({
        code: 422,
        message: `${gr} "uu" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`,
      });
      expect(put(kind, rv, true).code).toBe(422);
    }
  });

  it('a stale resourceVersion is 409 for both kinds', () => {
    expect(put('ConfigMap', '1')).toEqual({
      code: 409,
      message:
        'Operation cannot be fulfilled on configmaps "uu": the object has been modified; please apply your changes to the latest version and try again',
    });
    expect(put('Lease', '1').code).toBe(409);
  });
});
