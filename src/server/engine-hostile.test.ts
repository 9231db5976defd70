/**
 * Issue 14 §1, §5, §6 over HTTP (the engine's answers, as real kubectl and client libraries
 * see them): prototype pollution through patches, undecodable bodies, malformed label
 * selectors and immortal namespaces answer kube-apiserver's status code, reason and message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { startServer, type RunningServer } from './server';

/** Every request carries the server's bearer token (auth.ts). */
const fetch = (url: string, init: RequestInit = {}) =>
  globalThis.fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${srv.token}`, ...((init.headers as Record<string, string> | undefined) ?? {}) },
  });

let srv: RunningServer;
const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
const req = async (method: string, path: string, body?: string, type = 'application/json') => {
  const r = await fetch(srv.url + path, { method, headers: body === undefined ? {} : { 'Content-Type': type }, body });
  const b = (await r.json()) as { code?: number; reason?: string; message?: string; kind?: string };
  return `${r.status} ${b.kind === 'Status' ? `${b.reason ?? b.kind}: ${b.message ?? ''}` : b.kind}`;
};

beforeAll(async () => {
  srv = await startServer(new Cluster(), { port: 0, speed: 50 });
  await req(
    'POST',
    '/api/v1/namespaces/default/configmaps',
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pc' }, data: { a: 'b' } }),
  );
  const web = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
  await req('POST', '/apis/apps/v1/namespaces/default/deployments', JSON.stringify(web));
});
afterAll(async () => srv.close());

describe('hostile requests over HTTP (issue 14)', () => {
  it.each([
    [
      'DELETE namespaces/default',
      'DELETE',
      '/api/v1/namespaces/default',
      undefined,
      undefined,
      '403 Forbidden: namespaces "default" is forbidden: this namespace may not be deleted',
    ],
    [
      'DELETE namespaces/kube-system',
      'DELETE',
      '/api/v1/namespaces/kube-system',
      undefined,
      undefined,
      '403 Forbidden: namespaces "kube-system" is forbidden: this namespace may not be deleted',
    ],
    [
      'DELETE namespaces/kube-public',
      'DELETE',
      '/api/v1/namespaces/kube-public',
      undefined,
      undefined,
      '403 Forbidden: namespaces "kube-public" is forbidden: this namespace may not be deleted',
    ],
    [
      'JSON patch through __proto__',
      'PATCH',
      '/api/v1/namespaces/default/configmaps/pc',
      '[{"op":"add","path":"/__proto__/deletionTimestamp","value":"2026-01-01T00:00:00Z"}]',
      'application/json-patch+json',
      '422 Invalid: the server rejected our request due to an error in our request',
    ],
    [
      'merge patch with __proto__ keys',
      'PATCH',
      '/api/v1/namespaces/default/configmaps/pc',
      '{"__proto__":{"polluted":"yes"},"data":{"__proto__":"x","constructor":"y"}}',
      'application/merge-patch+json',
      '200 ConfigMap',
    ],
    [
      'metadata as a string',
      'POST',
      '/api/v1/namespaces/default/configmaps',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":"x"}',
      undefined,
      '400 BadRequest: ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
    ],
    [
      'PUT with metadata as a string',
      'PUT',
      '/api/v1/namespaces/default/configmaps/pc',
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":"x"}',
      undefined,
      '400 BadRequest: ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
    ],
    [
      'JSON patch of /scale on a missing path',
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/web/scale',
      '[{"op":"replace","path":"/spec/nope/x","value":1}]',
      'application/json-patch+json',
      '422 Invalid: the server rejected our request due to an error in our request',
    ],
    [
      'Service ports: [null]',
      'POST',
      '/api/v1/namespaces/default/services',
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[null]}}',
      undefined,
      '422 Invalid: Service "s" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ],
    [
      'a 100,000-deep value',
      'POST',
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep' } }).slice(0, -1) +
        ',"data":{"x":' +
        '['.repeat(100_000) +
        ']'.repeat(100_000) +
        '}}',
      undefined,
      '400 BadRequest: the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: exceeded max depth ({"apiVersion":"v1","kind":"Con ...)',
    ],
    [
      'a malformed labelSelector',
      'GET',
      '/api/v1/namespaces/default/pods?labelSelector=a%20b',
      undefined,
      undefined,
      "400 BadRequest: unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
    ],
  ])('%s', async (_name, method, path, body, type, want) => {
    expect(await req(method, path, body, type)).toBe(want);
    expect(Object.getOwnPropertyNames(Object.prototype).sort().join(',')).toBe(PROTO_KEYS);
  });

  it('after them, the ConfigMap holds __proto__ and constructor as data keys and nothing is terminating', async () => {
    const cm = (await (await fetch(`${srv.url}/api/v1/namespaces/default/configmaps/pc`)).json()) as { data: Record<string, string> };
    expect(Object.entries(cm.data)).toEqual([
      ['a', 'b'],
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
    const ns = (await (await fetch(`${srv.url}/api/v1/namespaces`)).json()) as {
      items: { metadata: { name: string; deletionTimestamp?: string } }[];
    };
    expect(ns.items.filter((n) => n.metadata.deletionTimestamp)).toEqual([]);
  });
});
