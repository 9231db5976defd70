/**
 * The simulated ingress-nginx: which Ingresses it owns (class / default class), the address it
 * publishes, its events, and host + path routing (Exact, Prefix by path element,
 * ImplementationSpecific as Prefix, longest match, wildcard hosts, merged Ingresses,
 * defaultBackend, the 404 default backend).
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';

const be = (svc: string, port = 80) => `{service: {name: ${svc}, port: {number: ${port}}}}`;
const INGRESSES = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: other}
spec: {controller: example.com/other}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: a}
spec:
  ingressClassName: nginx
  rules:
  - host: foo.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: ${be('root')}}
      - {path: /app, pathType: Prefix, backend: ${be('app')}}
      - {path: /app/admin, pathType: Exact, backend: ${be('admin')}}
      - {path: /static, pathType: ImplementationSpecific, backend: ${be('static')}}
      - {path: /docs/, pathType: Prefix, backend: ${be('docs')}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: b}
spec:
  rules:
  - host: foo.com
    http:
      paths: [{path: /api, pathType: Prefix, backend: ${be('api', 8080)}}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: w}
spec:
  rules:
  - host: "*.bar.com"
    http:
      paths: [{path: /, pathType: Prefix, backend: ${be('wild')}}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: o}
spec:
  ingressClassName: other
  rules:
  - host: other.com
    http:
      paths: [{path: /, pathType: Prefix, backend: ${be('nope')}}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: d}
spec:
  defaultBackend: ${be('d-default')}
  rules:
  - host: d.com
    http:
      paths: [{path: /x, pathType: Exact, backend: ${be('x')}}]
`;

describe('ingress-nginx (simulated)', () => {
  const c = new Cluster({ seed: 1 });
  const results = c.apply(INGRESSES);
  c.settle(60_000);
  const ctl = c.controllerManager.ingressNginx;

  it('installs IngressClass nginx as the default class at bootstrap', () => {
    const cls = c.get('ingressclasses.networking.k8s.io', '', 'nginx')!;
    expect(cls.spec.controller).toBe('k8s.io/ingress-nginx');
    expect(cls.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class']).toBe('true');
    expect(results.every((r) => r.action === 'created')).toBe(true);
  });

  it('owns its class and class-less Ingresses (default class); publishes the control-plane address; Sync events', () => {
    const status = (n: string) => c.get('ingresses.networking.k8s.io', 'default', n)!.status?.loadBalancer?.ingress ?? [];
    for (const n of ['a', 'b', 'w', 'd']) expect(status(n)).toEqual([{ ip: '172.18.0.2' }]);
    expect(status('o')).toEqual([]);
    const ev = c
      .events()
      .filter((e) => e.involvedObject.kind === 'Ingress')
      .map((e) => `${e.involvedObject.name} ${e.reason} ${e.message} x${e.count} ${e.source.component}`);
    expect(ev).toEqual(['a', 'b', 'w', 'd'].map((n) => `${n} Sync Scheduled for sync x2 nginx-ingress-controller`));
    expect(ctl.hosts()).toEqual(['*.bar.com', 'd.com', 'foo.com']);
    expect(ctl.address()).toBe('172.18.0.2');
  });

  it.each([
    { host: 'foo.com', path: '/', ing: 'a', matched: '/ (Prefix)', svc: 'root' },
    { host: 'foo.com', path: '/app', ing: 'a', matched: '/app (Prefix)', svc: 'app' },
    { host: 'foo.com', path: '/app/', ing: 'a', matched: '/app (Prefix)', svc: 'app' },
    { host: 'foo.com', path: '/application', ing: 'a', matched: '/ (Prefix)', svc: 'root' },
    { host: 'foo.com', path: '/app/admin', ing: 'a', matched: '/app/admin (Exact)', svc: 'admin' },
    { host: 'foo.com', path: '/app/admin/x', ing: 'a', matched: '/app (Prefix)', svc: 'app' },
    { host: 'foo.com', path: '/static/js/app.js', ing: 'a', matched: '/static (ImplementationSpecific)', svc: 'static' },
    { host: 'foo.com', path: '/docs', ing: 'a', matched: '/docs/ (Prefix)', svc: 'docs' },
    { host: 'foo.com', path: '/api/v1', ing: 'b', matched: '/api (Prefix)', svc: 'api', port: 8080 },
    { host: 'FOO.com:80', path: '/app', ing: 'a', matched: '/app (Prefix)', svc: 'app' },
    { host: 'x.bar.com', path: '/', ing: 'w', matched: '/ (Prefix)', svc: 'wild' },
    { host: 'a.b.bar.com', path: '/', status: 404 },
    { host: 'bar.com', path: '/', status: 404 },
    { host: 'other.com', path: '/', status: 404 },
    { host: 'd.com', path: '/x', ing: 'd', matched: '/x (Exact)', svc: 'x' },
    { host: 'd.com', path: '/y', ing: 'd', matched: 'defaultBackend', svc: 'd-default' },
  ])('$host$path → $svc', ({ host, path, ing, matched, svc, port, status }) => {
    const r = ctl.route(host, path);
    if (status) {
      expect(r).toEqual({ ingressKey: null, matched: null, backend: null, status, endpoint: null });
      return;
    }
    expect(r.ingressKey).toBe(`Ingress/default/${ing}`);
    expect(r.matched).toBe(matched);
    expect(r.backend).toEqual({ namespace: 'default', service: svc, port: port ?? 80 });
    // no such Service: ingress-nginx answers 503
    expect(r.status).toBe(503);
    expect(r.endpoint).toBeNull();
  });

  it('deleting an Ingress records DELETE "Ingress NS/NAME"', () => {
    c.kubectl('delete ingress w');
    c.advance(1_000);
    const ev = c.events().find((e) => e.involvedObject.name === 'w' && e.reason === 'DELETE')!;
    expect(ev.message).toBe('Ingress default/w');
    expect(ctl.route('x.bar.com', '/').status).toBe(404);
  });
});
