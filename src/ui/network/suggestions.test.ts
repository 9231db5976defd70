import { describe, expect, it } from 'vitest';
import type { KObject } from '../store/types';
import { dnsNameSuggestions, namespaceOptions, trafficSources, urlSuggestions, urlSuggestionsFor } from './suggestions';

const node = (name: string, ip: string): KObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: {
    addresses: [
      { type: 'InternalIP', address: ip },
      { type: 'Hostname', address: name },
    ],
  },
});
const svc = (name: string, namespace: string, spec: KObject['spec'], status?: KObject['status']): KObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec,
  status,
});
const pod = (name: string, namespace: string, phase: string, spec: KObject['spec'] = {}, deleting = false): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, ...(deleting ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}) },
  spec,
  status: { phase },
});
const ns = (name: string): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

const cluster: KObject[] = [
  node('node-2', '172.18.0.4'),
  node('control-plane', '172.18.0.2'),
  node('node-1', '172.18.0.3'),
  node('node-3', '172.18.0.5'),
  svc('web', 'default', { type: 'ClusterIP', clusterIP: '10.96.0.20', ports: [{ port: 80, targetPort: 80 }] }),
  svc('api', 'shop', { type: 'NodePort', clusterIP: '10.96.0.30', ports: [{ port: 8080, nodePort: 30080 }] }),
  svc(
    'front',
    'default',
    { type: 'LoadBalancer', clusterIP: '10.96.0.40', ports: [{ port: 80, nodePort: 31000 }] },
    { loadBalancer: { ingress: [{ ip: '172.18.255.200' }] } },
  ),
  svc('db', 'default', { clusterIP: 'None', ports: [{ port: 3306 }] }),
  svc('mail', 'default', { type: 'ExternalName', externalName: 'smtp.example.com' }),
  pod('db-0', 'default', 'Running', { hostname: 'db-0', subdomain: 'db' }),
  pod('lonely', 'default', 'Running', { hostname: 'lonely', subdomain: 'web' }),
  pod('web-abc', 'default', 'Running'),
  pod('web-old', 'default', 'Running', {}, true),
  pod('web-new', 'default', 'Pending'),
  pod('api-xyz', 'shop', 'Running'),
  ns('shop'),
  ns('kube-system'),
  ns('default'),
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'shop', namespace: 'shop' },
    spec: {
      rules: [
        { host: 'shop.example.com', http: { paths: [{ path: '/cart' }, { path: '/' }] } },
        { http: { paths: [{ path: '/api' }] } },
        { host: 'bare.example.com' },
      ],
    },
    status: { loadBalancer: { ingress: [{ ip: '172.18.255.201' }] } },
  },
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'fallback', namespace: 'default' },
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
    status: { loadBalancer: { ingress: [{ ip: '172.18.255.201' }] } },
  },
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'unaddressed', namespace: 'default' },
    spec: { rules: [{ http: { paths: [{ path: '/x' }] } }] },
  },
];

describe('dnsNameSuggestions', () => {
  it.each([
    ['the short name of a Service', 'web'],
    ['name.namespace', 'api.shop'],
    ['the fully-qualified Service name', 'front.default.svc.cluster.local'],
    ['an ExternalName Service', 'mail.default.svc.cluster.local'],
    ['a Pod behind its headless Service', 'db-0.db.default.svc.cluster.local'],
  ])('offers %s', (_case, name) => {
    expect(dnsNameSuggestions(cluster)).toContain(name);
  });

  it('lists Services by namespace and name, three forms each, then headless Pod names; skips Pods whose subdomain is not headless', () => {
    expect(dnsNameSuggestions(cluster)).toEqual([
      'db',
      'db.default',
      'db.default.svc.cluster.local',
      'front',
      'front.default',
      'front.default.svc.cluster.local',
      'mail',
      'mail.default',
      'mail.default.svc.cluster.local',
      'web',
      'web.default',
      'web.default.svc.cluster.local',
      'api',
      'api.shop',
      'api.shop.svc.cluster.local',
      'db-0.db.default.svc.cluster.local',
    ]);
  });
});

describe('namespaceOptions and trafficSources', () => {
  it('puts default first, then namespaces by name', () => {
    expect(namespaceOptions(cluster)).toEqual(['default', 'kube-system', 'shop']);
    expect(namespaceOptions([])).toEqual(['default']);
  });

  it('offers external and the running Pods that are not being deleted', () => {
    expect(trafficSources(cluster)).toEqual(['external', 'default/db-0', 'default/lonely', 'default/web-abc', 'shop/api-xyz']);
  });
});

describe('urlSuggestions', () => {
  const urls = urlSuggestions(cluster);
  const find = (url: string) => urls.find((u) => u.url === url);

  it.each([
    ['a ClusterIP Service by DNS name (port 80 left out)', 'http://web.default', 'pod', 'Service default/web (ClusterIP)'],
    ['a ClusterIP Service by its ClusterIP', 'http://10.96.0.20', 'pod', 'Service default/web (ClusterIP)'],
    ['a port other than 80 in the DNS URL', 'http://api.shop:8080', 'pod', 'Service shop/api (NodePort)'],
    ['a port other than 80 on the ClusterIP', 'http://10.96.0.30:8080', 'pod', 'Service shop/api (NodePort)'],
    ['a NodePort on the first node by name', 'http://172.18.0.2:30080', 'external', 'Service shop/api (NodePort) via control-plane'],
    ['a NodePort on the third node by name', 'http://172.18.0.4:30080', 'external', 'Service shop/api (NodePort) via node-2'],
    ['a LoadBalancer ingress IP', 'http://172.18.255.200', 'external', 'Service default/front (LoadBalancer)'],
    ['a LoadBalancer Service also by NodePort', 'http://172.18.0.3:31000', 'external', 'Service default/front (LoadBalancer) via node-1'],
    ['a headless Service by name only', 'http://db.default:3306', 'pod', 'Service default/db (headless)'],
    ['an ExternalName Service by name', 'http://mail.default', 'pod', 'Service default/mail (ExternalName)'],
    ['an Ingress host and path', 'http://shop.example.com/cart', 'external', 'Ingress shop/shop'],
    ['an Ingress rule without a host, at the Ingress address', 'http://172.18.255.201/api', 'external', 'Ingress shop/shop'],
    ['an Ingress rule without paths, at /', 'http://bare.example.com/', 'external', 'Ingress shop/shop'],
    ['an Ingress default backend', 'http://172.18.255.201/', 'external', 'Ingress default/fallback (default backend)'],
  ])('offers %s: %s', (_case, url, from, via) => {
    expect(find(url)).toEqual({ url, from, via });
  });

  it.each([
    ['a NodePort beyond the first three nodes', 'http://172.18.0.5:30080'],
    ['the ClusterIP of a headless Service', 'http://None:3306'],
    ['a host-less rule of an Ingress without an address', 'http://undefined/x'],
  ])('does not offer %s', (_case, url) => {
    expect(find(url)).toBeUndefined();
  });

  it('offers each URL once and nothing for an empty cluster', () => {
    expect(new Set(urls.map((u) => u.url)).size).toBe(urls.length);
    expect(urlSuggestions([])).toEqual([]);
  });

  it('orders external URLs first for an external client, keeps the order for a Pod', () => {
    const ext = urlSuggestionsFor(urls, 'external');
    expect(ext.findIndex((u) => u.from === 'pod')).toBe(ext.filter((u) => u.from === 'external').length);
    expect(urlSuggestionsFor(urls, 'default/web-abc')).toBe(urls);
  });
});
