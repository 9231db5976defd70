/**
 * Issue 5: traffic to an Ingress host and path through the simulated ingress-nginx — the
 * IngressClass `nginx`, the published address, the Sync events, host/path routing (Prefix by
 * path element, Exact, longest match), 503 without endpoints, 404 from the default backend, a
 * catch-all defaultBackend, and Ingresses without paths. Played from src/scenarios/ingress.scenario.yaml.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runScenario } from './runner';

const here = dirname(fileURLToPath(import.meta.url));
const scenarios = resolve(here, '../../scenarios');

describe('traffic to an Ingress host and path', () => {
  const sc = parseScenario(parse(readFileSync(resolve(scenarios, 'ingress.scenario.yaml'), 'utf8')));
  const result = runScenario(sc, { readFile: (p) => readFileSync(resolve(scenarios, p), 'utf8') });
  const steps = result.steps;
  const shop = ['shop-5468b47755-v9lql', 'shop-5468b47755-lr5fs'];

  it('an Ingress with neither rules nor defaultBackend is rejected; the others are created', () => {
    expect(steps[0].results!.filter((r) => r.kind === 'Ingress').map((r) => [r.object, r.action])).toEqual([
      ['ingress.networking.k8s.io/shop', 'created'],
      ['ingress.networking.k8s.io/bare', 'error'],
      ['ingress.networking.k8s.io/no-paths', 'created'],
    ]);
  });

  it('kubectl get ingress: the control-plane node address (ingress-nginx hostPort there)', () => {
    expect(steps[2].output).toBe(
      'NAME       CLASS    HOSTS                 ADDRESS      PORTS   AGE\n' +
        'no-paths   <none>   nopaths.example.com   172.18.0.2   80      40s\n' +
        'shop       nginx    shop.example.com      172.18.0.2   80      40s\n',
    );
  });

  // ingress-nginx passes the path through (no rewrite): nginx:1.27 answers its welcome page on
  // `/` and 404 on paths it has no file for (userland/images/web-servers.ts)
  const ok = 'HTTP/1.1 200 OK · Welcome to nginx!';
  const nf = 'HTTP/1.1 404 Not Found';
  it.each([
    {
      step: 3,
      url: 'http://shop.example.com/',
      want: [
        [200, ok, 'Service/default/shop', `Pod/default/${shop[0]}`],
        [200, ok, 'Service/default/shop', `Pod/default/${shop[1]}`],
      ],
    },
    {
      step: 4,
      url: '/cart/items: Prefix /cart (longest match); nginx has no /cart/items',
      want: [[404, nf, 'Service/default/cart', 'Pod/default/cart-6697db476f-9hjlb']],
    },
    {
      step: 5,
      url: '/cartoon: not under /cart (element-wise Prefix) → /',
      want: [[404, nf, 'Service/default/shop', `Pod/default/${shop[0]}`]],
    },
    {
      step: 6,
      url: '/status: Exact → a Service without endpoints',
      want: [[503, 'HTTP/1.1 503 Service Temporarily Unavailable', 'Service/default/empty', null]],
    },
    { step: 7, url: '/status/x: Exact does not match → /', want: [[404, nf, 'Service/default/shop', `Pod/default/${shop[1]}`]] },
    { step: 8, url: 'a host without paths → default backend', want: [[404, 'HTTP/1.1 404 Not Found · default backend - 404', null, null]] },
    {
      step: 9,
      url: 'the address without a matching host → default backend',
      want: [[404, 'HTTP/1.1 404 Not Found · default backend - 404', null, null]],
    },
    { step: 13, url: 'after a catch-all defaultBackend Ingress', want: [[404, nf, 'Service/default/shop', `Pod/default/${shop[0]}`]] },
  ])('$url', ({ step, want }) => {
    const rs = steps[step].requests!;
    expect(rs.map((r) => [r.status, r.message, r.serviceKey, r.podKey])).toEqual(want);
    expect(rs.every((r) => r.viaNode === 'control-plane' && r.ok === (r.status === 200))).toBe(true);
  });

  it("the body is nginx's own page: index.html on /, the 404 page naming nginx/1.27 elsewhere", () => {
    expect(steps[3].requests![0].body).toContain('<title>Welcome to nginx!</title>');
    expect(steps[4].requests![0].body).toBe(
      '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
    );
  });

  it('routes name the Ingress that matched; the round robin alternates the shop Pods', () => {
    expect(steps[3].requests!.map((r) => r.ingressKey)).toEqual(['Ingress/default/shop', 'Ingress/default/shop']);
    expect(steps[8].requests![0].ingressKey).toBeNull();
    expect(steps[13].requests![0].ingressKey).toBe('Ingress/default/fallback');
    expect(steps[6].requests![0].message).toBe('HTTP/1.1 503 Service Temporarily Unavailable');
    expect(steps[3].requests![0].message).toBe(ok);
  });

  it('a host no Ingress serves does not resolve from outside', () => {
    expect(steps[10].requests![0]).toMatchObject({
      ok: false,
      status: null,
      message: 'curl: (6) Could not resolve host: blog.example.com',
      viaNode: null,
    });
  });

  it('ingress-nginx events: Sync "Scheduled for sync" on create and on its own status write (x2)', () => {
    const ev = result.final.events
      .filter((e) => e.involvedObject.kind === 'Ingress')
      .map((e) => [e.involvedObject.name, e.type, e.reason, e.message, e.count, e.source.component, e.lastTimestamp]);
    expect(ev).toEqual([
      ['shop', 'Normal', 'Sync', 'Scheduled for sync', 2, 'nginx-ingress-controller', '2026-01-01T00:00:00Z'],
      ['no-paths', 'Normal', 'Sync', 'Scheduled for sync', 2, 'nginx-ingress-controller', '2026-01-01T00:00:00Z'],
      ['fallback', 'Normal', 'Sync', 'Scheduled for sync', 2, 'nginx-ingress-controller', '2026-01-01T00:00:40Z'],
    ]);
    expect(steps[14].output).toContain('  Normal  Sync    70s (x2 over 70s)  nginx-ingress-controller  Scheduled for sync\n');
  });

  it('the relay shows client → ingress-nginx-controller → the Pod', () => {
    const hops = result.relay.filter(
      (h) =>
        h.time.startsWith('2026-01-01T00:00:40') && (h.from === 'client' || h.from === 'ingress-nginx-controller' || h.to === 'client'),
    );
    expect(hops.slice(0, 5).map((h) => `${h.from} → ${h.to} ${h.kind}: ${h.summary}`)).toEqual([
      'client → client note: curl http://shop.example.com/',
      'client → ingress-nginx-controller request: GET / Host: shop.example.com',
      `ingress-nginx-controller → ingress-nginx-controller decision: shop.example.com/ matches Ingress/default/shop / (Prefix) → Service/default/shop → upstream 10.244.2.3:80`,
      `ingress-nginx-controller → pod/default/${shop[0]} request: GET / Host: shop.example.com → 10.244.2.3:80`,
      `pod/default/${shop[0]} → client response: ${ok}`,
    ]);
  });
});
