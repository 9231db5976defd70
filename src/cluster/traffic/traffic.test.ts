/**
 * The traffic generator against a live cluster: DNS through the search path, kube-proxy's DNAT,
 * NodePort and LoadBalancer entry, and the ways a request fails as curl 8 prints it.
 */
import { NGINX_INDEX } from '../userland/images/web-servers';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { parseURL } from './traffic';

const APP = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.27, ports: [{containerPort: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{port: 80, targetPort: 80, nodePort: 30080}]
---
apiVersion: v1
kind: Service
metadata: {name: web-lb}
spec:
  type: LoadBalancer
  selector: {app: web}
  ports: [{port: 8080, targetPort: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: nothing}
spec:
  selector: {app: nope}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: wrong-port}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Pod
metadata: {name: client}
spec:
  containers: [{name: sh, image: busybox:1.36, command: [sleep, "3600"]}]
`;

describe('traffic generator', () => {
  const c = new Cluster({ seed: 7 });
  c.apply(APP);
  c.settle(180_000);
  const pods = c
    .list('pods', 'default')
    .filter((p) => p.metadata.labels?.app === 'web')
    .map((p) => p.metadata.name)
    .sort();
  const clusterIP = (n: string) => c.get('services', 'default', n)!.spec.clusterIP as string;
  const fromPod = { kind: 'pod' as const, namespace: 'default', name: 'client' };

  it('setup: three web Pods running', () => {
    expect(pods).toHaveLength(3);
  });

  it.each([
    { name: 'short name from a Pod walks the search path once', url: 'http://web', queries: ['web.default.svc.cluster.local'] },
    {
      name: 'namespace-qualified name',
      url: 'web.default/',
      queries: ['web.default.default.svc.cluster.local', 'web.default.svc.cluster.local'],
    },
    { name: 'absolute FQDN (trailing dot)', url: 'http://web.default.svc.cluster.local./', queries: ['web.default.svc.cluster.local'] },
  ])('$name', ({ url, queries }) => {
    const [r] = c.sendRequests({ source: fromPod, url, count: 1 });
    expect(r.dnsQueries).toEqual(queries);
    expect(r.ok).toBe(true);
    expect(r.status).toBe(200);
    expect(r.serviceKey).toBe('Service/default/web');
    expect(pods.map((p) => `Pod/default/${p}`)).toContain(r.podKey);
    expect(r.body).toBe(NGINX_INDEX);
    expect(r.chains.slice(0, 2)).toEqual(['PREROUTING', 'KUBE-SERVICES']);
    expect(r.chains.some((x) => x.startsWith('KUBE-SEP-'))).toBe(true);
  });

  it('100 requests spread over all three endpoints (statistic random, seeded)', () => {
    const rs = c.sendRequests({ source: fromPod, url: 'http://web', count: 100 });
    const by = new Map<string, number>();
    for (const r of rs) by.set(r.podKey!, (by.get(r.podKey!) ?? 0) + 1);
    expect(rs.every((r) => r.ok)).toBe(true);
    expect([...by.keys()].sort()).toEqual(pods.map((p) => `Pod/default/${p}`));
    for (const n of by.values()) expect(n).toBeGreaterThan(15);
  });

  it.each([
    { name: 'unknown name', url: 'http://nope', message: 'curl: (6) Could not resolve host: nope' },
    {
      name: 'Service selecting nothing: REJECT',
      url: 'http://nothing',
      message: () => `curl: (7) Failed to connect to ${clusterIP('nothing')} port 80 after 0 ms: Couldn't connect to server`,
      service: 'Service/default/nothing',
    },
    {
      name: 'wrong targetPort: endpoints exist, nothing listens on 8080',
      url: 'http://wrong-port',
      message: () => `curl: (7) Failed to connect to ${clusterIP('wrong-port')} port 80 after 0 ms: Couldn't connect to server`,
      service: 'Service/default/wrong-port',
      pod: true,
    },
  ])('$name', ({ url, message, service, pod }) => {
    const [r] = c.sendRequests({ source: fromPod, url, count: 1 });
    expect(r.ok).toBe(false);
    expect(r.message).toBe(typeof message === 'function' ? message() : message);
    expect(r.serviceKey).toBe(service ?? null);
    if (pod) expect(r.endpoint).toMatch(/^10\.244\.\d+\.\d+:8080$/);
    else expect(r.podKey).toBeNull();
  });

  it('external client through a NodePort on node-2 (172.18.0.4:30080)', () => {
    const [r] = c.sendRequests({ source: { kind: 'external' }, url: 'http://172.18.0.4:30080/', count: 1 });
    expect(r).toMatchObject({ ok: true, status: 200, viaNode: 'node-2', serviceKey: 'Service/default/web', dnsQueries: [] });
    expect(r.chains).toContain('KUBE-NODEPORTS');
  });

  it('external client through the LoadBalancer IP: a worker picked by the load balancer', () => {
    const lb = c.get('services', 'default', 'web-lb')!.status.loadBalancer.ingress[0].ip;
    expect(lb).toBe('172.18.255.200');
    const rs = c.sendRequests({ source: { kind: 'external' }, url: `http://${lb}:8080/`, count: 20 });
    expect(rs.every((r) => r.ok && r.serviceKey === 'Service/default/web-lb')).toBe(true);
    expect(new Set(rs.map((r) => r.viaNode))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
  });

  it('an external client cannot reach a ClusterIP; an unknown host does not resolve outside', () => {
    const [r] = c.sendRequests({ source: { kind: 'external' }, url: `http://${clusterIP('web')}/`, count: 1 });
    expect(r.message).toBe(`curl: (7) Failed to connect to ${clusterIP('web')} port 80 after 127000 ms: Couldn't connect to server`);
    const [n] = c.sendRequests({ source: { kind: 'external' }, url: 'http://web', count: 1 });
    expect(n.message).toBe('curl: (6) Could not resolve host: web');
  });

  it('records the relay: client → coredns, → kube-proxy (DNAT) → the Pod → back', () => {
    const before = c.relay.lastSeq;
    const [r] = c.sendRequests({ source: fromPod, url: 'http://web', count: 1 });
    const hops = c.relay.since(before).map((h) => `${h.from} → ${h.to} ${h.kind}`);
    const node = c.get('pods', 'default', 'client')!.spec.nodeName;
    const pod = `pod/default/${r.podKey!.split('/')[2]}`;
    expect(hops).toEqual([
      'pod/default/client → pod/default/client note',
      'pod/default/client → coredns request',
      'coredns → pod/default/client response',
      `pod/default/client → kube-proxy/${node} request`,
      `kube-proxy/${node} → kube-proxy/${node} decision`,
      `kube-proxy/${node} → ${pod} request`,
      `${pod} → pod/default/client response`,
    ]);
  });

  it('rejects a count out of range and an unknown source Pod', () => {
    expect(() => c.sendRequests({ source: fromPod, url: 'http://web', count: 0 })).toThrow('count must be between 1 and 100, got 0');
    expect(() => c.sendRequests({ source: { kind: 'pod', namespace: 'default', name: 'ghost' }, url: 'http://web', count: 1 })).toThrow(
      'Error from server (NotFound): pods "ghost" not found',
    );
  });
});

describe('parseURL', () => {
  it.each([
    { raw: 'web', want: { host: 'web', port: 80, path: '/', href: 'http://web/' } },
    { raw: 'https://Shop.Example.com/cart?x=1', want: { host: 'shop.example.com', port: 443, path: '/cart?x=1' } },
    { raw: 'http://10.96.0.12:8080/a', want: { host: '10.96.0.12', port: 8080, path: '/a', hostHeader: '10.96.0.12:8080' } },
  ])('$raw', ({ raw, want }) => {
    expect(parseURL(raw)).toMatchObject(want);
  });
  it.each([
    { raw: 'ftp://x', msg: 'curl: (1) Protocol "ftp" not supported' },
    { raw: 'http://x:99999', msg: 'curl: (3) URL rejected: Port number was not a decimal number between 0 and 65535' },
    { raw: 'http:///path', msg: 'curl: (3) URL rejected: No host part in the URL' },
  ])('rejects $raw', ({ raw, msg }) => {
    expect(parseURL(raw)).toBe(msg);
  });
});

describe('traffic through ingress-nginx', () => {
  const c = new Cluster({ seed: 2 });
  c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.27}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: ok, port: 80, targetPort: 80}, {name: bad, port: 81, targetPort: 9999}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - host: web.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      - {path: /broken, pathType: Prefix, backend: {service: {name: web, port: {name: bad}}}}
`);
  c.settle(120_000);
  const pod = c.list('pods', 'default')[0].metadata.name;

  it.each([
    { name: 'a path to a serving Pod', url: 'http://web.example.com/', status: 200, message: 'HTTP/1.1 200 OK · Welcome to nginx!' },
    {
      name: 'a path whose Pod refuses the port: 502 from nginx',
      url: 'http://web.example.com/broken',
      status: 502,
      message: 'HTTP/1.1 502 Bad Gateway',
    },
    {
      name: 'from a Pod the Ingress host does not resolve (no upstream DNS)',
      url: 'http://web.example.com/',
      from: pod,
      status: null,
      message: 'curl: (6) Could not resolve host: web.example.com',
    },
  ])('$name', ({ url, status, message, from }) => {
    const [r] = c.sendRequests({ source: from ? { kind: 'pod', namespace: 'default', name: from } : { kind: 'external' }, url, count: 1 });
    expect([r.status, r.message]).toEqual([status, message]);
    if (!from) expect([r.ingressKey, r.viaNode]).toEqual(['Ingress/default/web', 'control-plane']);
  });

  it('with the control-plane node (where the controller listens) down, the connection times out', () => {
    c.killNode('control-plane');
    c.advance(1_000);
    const [r] = c.sendRequests({ source: { kind: 'external' }, url: 'http://web.example.com/', count: 1 });
    expect(r).toMatchObject({
      ok: false,
      status: null,
      ingressKey: null,
      viaNode: 'control-plane',
      message: "curl: (7) Failed to connect to 172.18.0.2 port 80 after 127000 ms: Couldn't connect to server",
    });
  });
});
