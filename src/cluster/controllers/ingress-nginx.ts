/**
 * A simulated ingress controller modelled on ingress-nginx (kubernetes/ingress-nginx v1.12,
 * controller name `k8s.io/ingress-nginx`, IngressClass `nginx`). Upstream it is a Deployment in
 * the `ingress-nginx` namespace; here it is a component beside kube-controller-manager (like the
 * cloud load balancer), with the controller's identity
 * (`system:serviceaccount:ingress-nginx:ingress-nginx`, relay participant
 * `ingress-nginx-controller`, Event source component `nginx-ingress-controller`).
 *
 * What it does, after internal/ingress/controller/store/store.go and status/status.go:
 * - watches Ingresses and IngressClasses; an Ingress is its own when spec.ingressClassName names
 *   an IngressClass whose spec.controller is `k8s.io/ingress-nginx`, or when it names no class and
 *   such a class is the default (`ingressclass.kubernetes.io/is-default-class: "true"` — what the
 *   DefaultIngressClass admission plugin would have filled in);
 * - records `Normal Sync "Scheduled for sync"` for every add and update of an Ingress it owns
 *   (so the status write it makes itself shows as `(x2 over …)`), and `Normal DELETE
 *   "Ingress NS/NAME"` when one is deleted;
 * - writes status.loadBalancer.ingress: `[{ip: <control-plane node InternalIP>}]`. kind's
 *   ingress-nginx manifest runs the controller with hostPort 80/443 on the control-plane node
 *   (nodeSelector `ingress-ready=true`), and minikube's ingress addon shows that node's IP in
 *   `kubectl get ingress`; the same here, so `http://HOST/` from outside reaches 172.18.0.2:80.
 *   (Upstream's status sync runs every 60 s on the leader; here it runs in the Ingress's sync.)
 * - routes a request by host and path ({@link IngressNginxController.route}): rules for the exact
 *   host first, then wildcard hosts (`*.example.com`, one label), then rules without a host;
 *   paths across all owned Ingresses for that host are merged; Exact matches the path exactly,
 *   Prefix matches whole `/`-separated elements (`/foo` matches `/foo` and `/foo/bar`, not
 *   `/foobar`), ImplementationSpecific is treated as Prefix; the longest path wins, Exact before
 *   Prefix at the same length, the oldest Ingress on a tie. No matching path → the Ingress's
 *   spec.defaultBackend when it has one, else the controller's default backend: 404.
 *   An Ingress without rules (or rules without http paths) is valid: only its defaultBackend
 *   serves (catch-all), or nothing does.
 * - picks a backend endpoint itself (ingress-nginx's Lua balancer, round_robin over the ready
 *   endpoints of the Service port's EndpointSlices; it does not go through the ClusterIP).
 *   No Service or no ready endpoint → 503 Service Temporarily Unavailable.
 */
import type { ComponentContext } from '../component-context';
import type { SharedInformer, SharedInformerFactory } from '../client/informer';
import { RateLimitingQueue } from '../client/workqueue';
import type { Client } from '../client/clientset';
import type { EventRecorder } from '../client/record';
import { deepCopy, metaNamespaceKey } from '../api/types';
import type { EndpointSlice, Ingress, IngressClass, Node, Service } from '../api/objects';
import type { IngressBackend, IngressRule } from 'kubernetes-types/networking/v1';

/** Relay participant. */
export const INGRESS_NGINX_PARTICIPANT = 'ingress-nginx-controller';
/** IngressClass spec.controller value ingress-nginx serves. */
export const INGRESS_NGINX_CONTROLLER = 'k8s.io/ingress-nginx';
/** Event source component ingress-nginx writes. */
export const INGRESS_NGINX_COMPONENT = 'nginx-ingress-controller';
const DEFAULT_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

/** The IngressClass the ingress-nginx manifest installs (here: at bootstrap), marked default. */
export function ingressNginxBootstrapObjects(): IngressClass[] {
  return [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: {
        name: 'nginx',
        labels: {
          'app.kubernetes.io/component': 'controller',
          'app.kubernetes.io/instance': 'ingress-nginx',
          'app.kubernetes.io/name': 'ingress-nginx',
          'app.kubernetes.io/part-of': 'ingress-nginx',
          'app.kubernetes.io/version': '1.12.1',
        },
        annotations: { [DEFAULT_CLASS_ANNOTATION]: 'true' },
      },
      spec: { controller: INGRESS_NGINX_CONTROLLER },
    },
  ];
}

/** A Service port an Ingress path points at. */
export interface IngressBackendRef {
  namespace: string;
  service: string;
  /** spec…service.port.number or .name */
  port: number | string;
}

/** Where {@link IngressNginxController.route} sends a request. */
export interface IngressRoute {
  /** "Ingress/NS/NAME" whose rule (or defaultBackend) matched; null for the controller's default backend */
  ingressKey: string | null;
  /** the matched path ("/cart", Prefix) or "defaultBackend" */
  matched: string | null;
  backend: IngressBackendRef | null;
  /** 404 (default backend) or 503 (backend without a ready endpoint) when no endpoint was picked; 0 when one was */
  status: number;
  /** the endpoint picked (round robin), its Pod when known */
  endpoint: { ip: string; port: number; pod?: { namespace: string; name: string } } | null;
}

interface Candidate {
  ing: Ingress;
  path: string;
  type: string;
  backend: IngressBackend;
}

export class IngressNginxController {
  readonly name = INGRESS_NGINX_PARTICIPANT;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly queue: RateLimitingQueue;
  private readonly ingresses: SharedInformer<Ingress>;
  private readonly classes: SharedInformer<IngressClass>;
  private readonly services: SharedInformer<Service>;
  private readonly slices: SharedInformer<EndpointSlice>;
  private readonly nodes: SharedInformer<Node>;
  /** round-robin position per upstream ("ns-svc-port") */
  private readonly rr = new Map<string, number>();

  constructor(ctx: ComponentContext, informers: SharedInformerFactory) {
    this.client = ctx.client({
      name: 'system:serviceaccount:ingress-nginx:ingress-nginx',
      participant: INGRESS_NGINX_PARTICIPANT,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ingress-nginx', 'system:authenticated'],
    });
    this.recorder = ctx.recorder(this.client, INGRESS_NGINX_COMPONENT);
    this.queue = new RateLimitingQueue('ingress-nginx', ctx.clock, ctx.relay, (key) => this.syncIngress(key));
    this.ingresses = informers.informerFor<Ingress>('networking.k8s.io', 'ingresses');
    this.classes = informers.informerFor<IngressClass>('networking.k8s.io', 'ingressclasses');
    this.services = informers.informerFor<Service>('', 'services');
    this.slices = informers.informerFor<EndpointSlice>('discovery.k8s.io', 'endpointslices');
    this.nodes = informers.informerFor<Node>('', 'nodes');
    this.ingresses.addEventHandler({
      participant: INGRESS_NGINX_PARTICIPANT,
      filter: (i) => this.owns(i),
      onAdd: (i) => this.onChange(i),
      onUpdate: (_o, i) => this.onChange(i),
      onDelete: (i) => this.recorder.event(i, 'Normal', 'DELETE', `Ingress ${metaNamespaceKey(i)}`),
    });
  }

  run(): void {}
  pause(): void {
    this.queue.paused = true;
  }
  resume(): void {
    this.queue.resume();
  }

  private onChange(ing: Ingress): void {
    // store.go: every add/update of a valid Ingress is "Scheduled for sync"
    this.recorder.event(ing, 'Normal', 'Sync', 'Scheduled for sync');
    this.queue.add(metaNamespaceKey(ing));
  }

  /** True when this controller serves the Ingress (by class, or the default class when it names none). */
  owns(ing: Ingress): boolean {
    const name: string | undefined = ing.spec?.ingressClassName ?? ing.metadata.annotations?.['kubernetes.io/ingress.class'];
    if (name) return this.classes.get(name)?.spec?.controller === INGRESS_NGINX_CONTROLLER;
    return this.classes
      .list()
      .some((c) => c.spec?.controller === INGRESS_NGINX_CONTROLLER && c.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true');
  }

  /** The address it publishes: the control-plane node's InternalIP (hostPort 80/443 there), or the first node's. */
  address(): string | null {
    const nodes = this.nodes.list().sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const cp = nodes.find((n) => n.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined) ?? nodes[0];
    return cp?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? null;
  }

  /** Hosts of the Ingresses it serves (what an outside client's DNS resolves to {@link address}). */
  hosts(): string[] {
    const out = new Set<string>();
    for (const i of this.owned()) for (const r of i.spec?.rules ?? []) if (r?.host) out.add(String(r.host).toLowerCase());
    return [...out].sort();
  }

  /** syncIngress: publish the address in status.loadBalancer.ingress. */
  syncIngress(key: string): void {
    const ing = this.ingresses.get(key);
    if (!ing || ing.metadata.deletionTimestamp || !this.owns(ing)) return;
    const ip = this.address();
    if (!ip) return;
    const cur = ing.status?.loadBalancer?.ingress ?? [];
    if (cur.length === 1 && cur[0].ip === ip) return;
    const next = deepCopy(ing);
    next.status = { ...next.status, loadBalancer: { ingress: [{ ip }] } };
    this.client
      .resource<Ingress>('networking.k8s.io', 'ingresses')
      .updateStatus(next, { summary: `Ingress ${key} status.loadBalancer.ingress=${ip}` });
  }

  private owned(): Ingress[] {
    return this.ingresses
      .list()
      .filter((i) => !i.metadata.deletionTimestamp && this.owns(i))
      .sort(
        (a, b) =>
          (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
          metaNamespaceKey(a).localeCompare(metaNamespaceKey(b)),
      );
  }

  /**
   * Routes one request (Host header `host`, request path `path`): the matching rule's backend and
   * one of its ready endpoints, or the status the controller answers itself (404, 503).
   */
  route(host: string, path: string): IngressRoute {
    const h = host.toLowerCase().replace(/:\d+$/, '');
    const p = path || '/';
    const owned = this.owned();
    const rulesFor = (match: (ruleHost: string | undefined) => boolean): { ing: Ingress; rule: IngressRule }[] =>
      owned.flatMap((ing) => (ing.spec?.rules ?? []).filter((r) => r && match(r.host)).map((rule) => ({ ing, rule })));
    let hits = rulesFor((rh) => !!rh && rh.toLowerCase() === h);
    if (!hits.length) hits = rulesFor((rh) => !!rh && rh.startsWith('*.') && wildcardMatch(rh.toLowerCase(), h));
    if (!hits.length) hits = rulesFor((rh) => !rh);
    const candidates: Candidate[] = [];
    for (const { ing, rule } of hits) {
      for (const hp of rule.http?.paths ?? []) {
        if (!hp?.backend) continue;
        candidates.push({ ing, path: hp.path || '/', type: hp.pathType ?? 'ImplementationSpecific', backend: hp.backend });
      }
    }
    const matching = candidates.filter((c) => pathMatches(c, p));
    matching.sort((a, b) => b.path.length - a.path.length || (a.type === 'Exact' ? 0 : 1) - (b.type === 'Exact' ? 0 : 1));
    const best = matching[0];
    if (best) return this.toBackend(best.ing, `${best.path} (${best.type})`, best.backend);
    // no path matched: the defaultBackend of an Ingress of this host, else a catch-all one
    const withDefault =
      hits.find((x) => x.ing.spec?.defaultBackend)?.ing ?? owned.find((i) => i.spec?.defaultBackend && !(i.spec?.rules ?? []).length);
    if (withDefault) return this.toBackend(withDefault, 'defaultBackend', withDefault.spec!.defaultBackend!); // found by its defaultBackend
    return { ingressKey: null, matched: null, backend: null, status: 404, endpoint: null };
  }

  private toBackend(ing: Ingress, matched: string, backend: IngressBackend): IngressRoute {
    const ns = ing.metadata.namespace ?? 'default';
    const ingressKey = `Ingress/${ns}/${ing.metadata.name}`;
    const svcName: string | undefined = backend.service?.name;
    const port: number | string = backend.service?.port?.number ?? backend.service?.port?.name ?? 80;
    if (!svcName) return { ingressKey, matched, backend: null, status: 503, endpoint: null };
    const ref: IngressBackendRef = { namespace: ns, service: svcName, port };
    const svc = this.services.get(`${ns}/${svcName}`);
    const sp = (svc?.spec?.ports ?? []).find((x) => (typeof port === 'number' ? x.port === port : x.name === port));
    if (!svc || !sp) return { ingressKey, matched, backend: ref, status: 503, endpoint: null };
    const eps: { ip: string; port: number; pod?: { namespace: string; name: string } }[] = [];
    for (const s of this.slices.list(ns)) {
      if (s.metadata.labels?.['kubernetes.io/service-name'] !== svcName) continue;
      const slicePort = (s.ports ?? []).find((x) => (x.name ?? '') === (sp.name ?? ''));
      if (!slicePort?.port) continue;
      for (const e of s.endpoints ?? []) {
        if (e.conditions?.ready === false || !e.addresses?.[0]) continue;
        // not checked: a Pod targetRef without a name (a hand-written slice) passes `name: undefined` on
        const pod = e.targetRef?.kind === 'Pod' ? { namespace: e.targetRef.namespace ?? ns, name: e.targetRef.name as string } : undefined;
        eps.push({ ip: e.addresses[0], port: slicePort.port, ...(pod ? { pod } : {}) });
      }
    }
    eps.sort((a, b) => (`${a.ip}:${a.port}` < `${b.ip}:${b.port}` ? -1 : 1));
    if (!eps.length) return { ingressKey, matched, backend: ref, status: 503, endpoint: null };
    const upstream = `${ns}-${svcName}-${port}`;
    const i = this.rr.get(upstream) ?? 0;
    this.rr.set(upstream, i + 1);
    return { ingressKey, matched, backend: ref, status: 0, endpoint: eps[i % eps.length] };
  }
}

function wildcardMatch(pattern: string, host: string): boolean {
  // "*.example.com" matches exactly one label before ".example.com"
  const suffix = pattern.slice(1);
  if (!host.endsWith(suffix)) return false;
  const label = host.slice(0, -suffix.length);
  return label.length > 0 && !label.includes('.');
}

function pathMatches(c: Candidate, reqPath: string): boolean {
  if (c.type === 'Exact') return reqPath === c.path;
  // Prefix (and ImplementationSpecific, as Prefix): element-wise, trailing "/" ignored
  const rule = c.path.replace(/\/+$/, '');
  if (rule === '') return true;
  return reqPath === rule || reqPath.startsWith(`${rule}/`);
}
