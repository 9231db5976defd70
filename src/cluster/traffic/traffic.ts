/**
 * The traffic generator (issue 5 §5): `curl URL` sent `count` times, from outside the cluster
 * or from inside a Pod, through the data plane the cluster has built — cluster DNS, the source
 * node's kube-proxy rules (proxy/route.ts), ingress-nginx (controllers/ingress-nginx.ts) — to
 * one Pod, whose simulated container answers or refuses.
 *
 * One request:
 * 1. The URL is parsed (`http://` assumed); port 80 (443 for https) unless given.
 * 2. The host name is resolved. From a Pod: through its namespace's resolv.conf search path
 *    (dns/resolver.ts; every query is a relay hop to `coredns`); an ExternalName's CNAME target
 *    and names outside cluster.local do not resolve (no upstream DNS is simulated). From outside:
 *    only the hosts of Ingresses ingress-nginx serves resolve (to its address), or literal IPs.
 *    Unresolvable → `curl: (6) Could not resolve host: NAME`.
 * 3. The ingress controller's address on port 80/443 goes to ingress-nginx (host + path routing,
 *    its own endpoint choice; 404 from its default backend, 503 without a ready endpoint, 502
 *    when the chosen Pod refuses).
 * 4. Otherwise the source node is picked — the Pod's node; for an external client the node
 *    whose InternalIP it is (NodePort), or, for a LoadBalancer IP, a node the simulated cloud
 *    load balancer picks with the seeded RNG among the Ready nodes not labelled
 *    `node.kubernetes.io/exclude-from-external-load-balancers` — and the connection walks that
 *    node's rules: DNAT to an endpoint, REJECT ("has no endpoints") or DROP. An external client
 *    cannot reach ClusterIPs or Pod IPs (not routed), nor a node without a load balancer.
 * 5. The chosen Pod must be Running on a powered node, and one of its running containers must
 *    listen on the endpoint's port. The rule (shared with the kubelet's httpGet/tcpSocket
 *    probes, kubelet/pod-workers.ts `serves`): a known image running its default server
 *    (userland/images/web-servers.ts: nginx, httpd → 80, …) listens on that server's ports and
 *    answers as it does (nginx: 200 on `/` and `/index.html`, 404 elsewhere); another process
 *    the shell does not model (assumed) listens on its declared containerPorts — or, with none
 *    declared, on its probes' ports — and answers 200 on every path. A container running a
 *    script listens on nothing.
 *
 * curl 8's words (lib/connect.c `Failed to connect to %s port %u after %ld ms: %s`, with
 * curl_easy_strerror(CURLE_COULDNT_CONNECT) = "Couldn't connect to server"): a refused connection
 * (REJECT, nothing listening) fails after 0 ms; an unroutable one after the kernel's SYN retries
 * ({@link CONNECT_TIMEOUT_MS}). An assumed server answers HTTP 200 with a one-line body naming the
 * Pod (`Hostname: NAME`, as google-samples/hello-app prints it); a known one its own page.
 *
 * Relay hops (participants beyond docs/architecture.md#relay-participants: `client` for an off-cluster client,
 * `pod/NS/NAME` for a Pod, `ingress-nginx-controller`): source → kube-proxy/NODE (request: the
 * connection), kube-proxy/NODE → kube-proxy/NODE (decision: DNAT via KUBE-SVC-… → KUBE-SEP-…,
 * or REJECT), kube-proxy/NODE → pod/NS/NAME (request), pod → source (response: 200 or refused).
 */
import type { KObject } from '../api/types';
import type { ComponentContext } from '../component-context';
import type { StoredObjects } from '../apiserver/internal';
import type { ClusterDNS } from '../dns/resolver';
import type { KubeProxy } from '../proxy/kube-proxy';
import { route, type RouteResult } from '../proxy/route';
import type { Kubelet } from '../kubelet/kubelet';
import type { IngressNginxController } from '../controllers/ingress-nginx';
import type { TrafficRequest, TrafficResult } from '../userland/traffic-types';
import { podHttpGet } from './serves';
import { serveAPIServerRequest, type TokenAuthenticator } from './apiserver-http';

/** Linux's connect() timeout with tcp_syn_retries=6 (1+2+4+8+16+32+64 s), ms. */
export const CONNECT_TIMEOUT_MS = 127_000;
/** Relay participant of an off-cluster client. */
export const EXTERNAL_CLIENT = 'client';
export { IMAGE_PORTS } from './serves';

/** What the generator needs of the cluster. */
export interface TrafficDeps {
  ctx: ComponentContext;
  /** The stored objects, read as the network finds them (apiserver/internal.ts: no API request, nothing in the relay). */
  objects: StoredObjects;
  dns: ClusterDNS;
  kubelets: ReadonlyMap<string, Kubelet>;
  kubeProxies: ReadonlyMap<string, KubeProxy>;
  ingress: IngressNginxController;
  /** kube-apiserver's bearer-token authenticator (APIServer.authenticateToken): requests to its port 6443 (apiserver-http.ts) */
  authenticateToken?: TokenAuthenticator;
}

/** kube-apiserver's secure port (the `kubernetes` Service's targetPort). */
export const APISERVER_PORT = 6443;
/** curl's error 60 for a server certificate it cannot verify (the cluster CA is not in the image's trust store). */
export const CURL_SSL_CA_ERROR =
  'curl: (60) SSL certificate problem: unable to get local issuer certificate\n' +
  'More details here: https://curl.se/docs/sslcerts.html\n\n' +
  'curl failed to verify the legitimacy of the server and therefore could not\n' +
  'establish a secure connection to it. To learn more about this situation and\n' +
  'how to fix it, please visit the webpage mentioned above.';

const isIPv4 = (s: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(s);
const refused = (ip: string, port: number) => `curl: (7) Failed to connect to ${ip} port ${port} after 0 ms: Couldn't connect to server`;
const timedOut = (ip: string, port: number) =>
  `curl: (7) Failed to connect to ${ip} port ${port} after ${CONNECT_TIMEOUT_MS} ms: Couldn't connect to server`;
const REASONS: Record<number, string> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
};

/** One request's working state. */
interface Ctx {
  from: string;
  res: TrafficResult;
  cause: number | null;
  req: TrafficRequest;
  scheme: 'http' | 'https';
}

export class TrafficGenerator {
  constructor(private readonly d: TrafficDeps) {}

  private list(resource: string, ns?: string): KObject[] {
    return this.d.objects.listObjects(resource, ns);
  }

  private getPod(ns: string, name: string): KObject | undefined {
    return this.d.objects.getObject('pods', ns, name);
  }

  /**
   * Sends `count` (1..100) requests to `url`; one result per request, in order. Throws (with
   * kubectl's words) when the source Pod does not exist, or on a count out of range.
   */
  send(req: TrafficRequest): TrafficResult[] {
    const count = Math.floor(req.count);
    if (!(count >= 1 && count <= 100)) throw new Error(`count must be between 1 and 100, got ${req.count}`);
    let srcPod: KObject | undefined;
    if (req.source.kind === 'pod') {
      srcPod = this.getPod(req.source.namespace, req.source.name);
      if (!srcPod) throw new Error(`Error from server (NotFound): pods "${req.source.name}" not found`);
    }
    const out: TrafficResult[] = [];
    for (let i = 1; i <= count; i++) out.push(this.one(req, i, srcPod));
    return out;
  }

  private one(req: TrafficRequest, index: number, srcPod: KObject | undefined): TrafficResult {
    const res: TrafficResult = {
      index,
      ok: false,
      status: null,
      message: '',
      ingressKey: null,
      serviceKey: null,
      podKey: null,
      viaNode: null,
      endpoint: null,
      chains: [],
      dnsQueries: [],
    };
    const from = srcPod ? `pod/${srcPod.metadata.namespace}/${srcPod.metadata.name}` : EXTERNAL_CLIENT;
    const c: Ctx = { from, res, cause: null, req, scheme: 'http' };
    const u = parseURL(req.url);
    if (typeof u === 'string') return this.fail(c, u);
    c.scheme = u.scheme;
    const { host, port, path } = u;
    c.cause = this.d.ctx.relay.record({
      from,
      to: from,
      kind: 'note',
      summary: `curl ${u.href}${index > 1 ? ` (#${index})` : ''}`,
      cause: null,
    });
    if (srcPod && srcPod.status?.phase !== 'Running') {
      return this.fail(c, `error: unable to upgrade connection: container not found ("${srcPod.spec?.containers?.[0]?.name ?? ''}")`);
    }

    // 2. name resolution
    let ip = host;
    if (!isIPv4(host)) {
      if (srcPod) {
        const r = this.d.ctx.relay.withCause(c.cause, () =>
          this.d.dns.resolve(host, srcPod.metadata.namespace ?? 'default', undefined, { from }),
        );
        res.dnsQueries = r.queries;
        if (r.status !== 'NOERROR' || !r.address) return this.fail(c, `curl: (6) Could not resolve host: ${host}`);
        ip = r.address;
      } else {
        const addr = this.d.ingress.address();
        if (
          !addr ||
          !this.d.ingress
            .hosts()
            .some((h) => h === host || (h.startsWith('*.') && host.endsWith(h.slice(1)) && !host.slice(0, -(h.length - 1)).includes('.')))
        )
          return this.fail(c, `curl: (6) Could not resolve host: ${host}`);
        ip = addr;
      }
    }

    // 3. the ingress controller (hostPort 80/443 on its node)
    if ((port === 80 || port === 443) && ip === this.d.ingress.address()) return this.viaIngress(c, u.hostHeader, host, port, path);

    // 4. the source node and its rules
    const nodes = this.list('nodes');
    const nodeIP = (n: KObject) => n.status?.addresses?.find((a: KObject) => a.type === 'InternalIP')?.address;
    let nodeName: string | undefined;
    let kind: 'pod' | 'external' = 'pod';
    if (srcPod) nodeName = srcPod.spec?.nodeName;
    else {
      kind = 'external';
      nodeName = nodes.find((n) => nodeIP(n) === ip)?.metadata.name;
      if (!nodeName) {
        const lb = this.list('services').find((s) => (s.status?.loadBalancer?.ingress ?? []).some((x: KObject) => x.ip === ip));
        if (!lb) return this.fail(c, timedOut(ip, port), this.serviceKeyFor(ip, port));
        const pool = nodes
          .filter((n) => n.metadata.labels?.['node.kubernetes.io/exclude-from-external-load-balancers'] === undefined && isNodeReady(n))
          .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
        if (!pool.length) return this.fail(c, timedOut(ip, port), `Service/${lb.metadata.namespace}/${lb.metadata.name}`);
        nodeName = pool[this.d.ctx.rng.intn(pool.length)].metadata.name;
        c.cause = this.d.ctx.relay.record({
          from,
          to: 'service-controller',
          kind: 'note',
          summary: `load balancer ${ip}:${port} → node ${nodeName}`,
          cause: c.cause,
        });
      }
    }
    const kp = nodeName ? this.d.kubeProxies.get(nodeName) : undefined;
    res.viaNode = nodeName ?? null;
    if (!kp || !kp.powered) return this.fail(c, timedOut(ip, port), this.serviceKeyFor(ip, port));
    const kpName = `kube-proxy/${nodeName}`;
    c.cause = this.d.ctx.relay.record({
      from,
      to: kpName,
      kind: 'request',
      verb: 'GET',
      summary: `connect ${ip}:${port} (GET ${host}${path})`,
      cause: c.cause,
    });
    const r: RouteResult = route(kp, { ip, port }, this.d.ctx.rng, { kind, ...(srcPod?.status?.podIP ? { ip: srcPod.status.podIP } : {}) });
    res.chains = r.chains;
    if (r.verdict === 'DNAT') {
      const svc = r.service.split(':')[0];
      res.serviceKey = `Service/${svc}`;
      res.endpoint = `${r.endpoint.ip}:${r.endpoint.port}`;
      const svcChain = r.chains.find((x) => x.startsWith('KUBE-SVC-'));
      const sepChain = [...r.chains].reverse().find((x) => x.startsWith('KUBE-SEP-'));
      c.cause = this.d.ctx.relay.record({
        from: kpName,
        to: kpName,
        kind: 'decision',
        summary: `DNAT ${ip}:${port} via ${svcChain ?? 'KUBE-SERVICES'} → ${sepChain ?? '?'} → ${res.endpoint}`,
        cause: c.cause,
      });
      const pod = r.pod ? this.getPod(r.pod.namespace, r.pod.name) : this.podByIP(r.endpoint.ip);
      return this.deliver(c, pod, r.endpoint.ip, r.endpoint.port, host, path, () => refused(ip, port), kpName);
    }
    if (r.verdict === 'REJECT') {
      res.serviceKey = this.serviceKeyFor(ip, port);
      this.d.ctx.relay.record({ from: kpName, to: kpName, kind: 'decision', summary: `REJECT ${ip}:${port}: ${r.reason}`, cause: c.cause });
      return this.fail(c, refused(ip, port));
    }
    if (r.verdict === 'DROP') {
      res.serviceKey = this.serviceKeyFor(ip, port);
      this.d.ctx.relay.record({ from: kpName, to: kpName, kind: 'decision', summary: `DROP ${ip}:${port}: ${r.reason}`, cause: c.cause });
      return this.fail(c, timedOut(ip, port));
    }
    // no rule: routed as addressed — a Pod IP (from inside), a node port nothing listens on, or nowhere
    const pod = kind === 'pod' ? this.podByIP(ip) : undefined;
    if (pod) return this.deliver(c, pod, ip, port, host, path, () => refused(ip, port), kpName);
    if (nodes.some((n) => nodeIP(n) === ip)) return this.fail(c, refused(ip, port));
    return this.fail(c, timedOut(ip, port));
  }

  /** ingress-nginx: route by host and path, connect to the endpoint it picks. */
  private viaIngress(c: Ctx, hostHeader: string, host: string, port: number, path: string): TrafficResult {
    const res = c.res;
    const ing = 'ingress-nginx-controller';
    c.cause = this.d.ctx.relay.record({
      from: c.from,
      to: ing,
      kind: 'request',
      verb: 'GET',
      summary: `GET ${path} Host: ${hostHeader}`,
      cause: c.cause,
    });
    const cpNode = this.list('nodes').find((n) => n.status?.addresses?.some((a: KObject) => a.address === this.d.ingress.address()));
    res.viaNode = cpNode?.metadata.name ?? null;
    if (!cpNode || !this.d.kubelets.get(cpNode.metadata.name)?.powered) {
      // the controller's node is down: nothing answers on its hostPort
      return this.fail(c, timedOut(this.d.ingress.address() ?? host, port));
    }
    const rt = this.d.ingress.route(host, path);
    res.ingressKey = rt.ingressKey;
    if (rt.backend) res.serviceKey = `Service/${rt.backend.namespace}/${rt.backend.service}`;
    if (!rt.endpoint) {
      const why =
        rt.status === 404
          ? 'no rule matches → default backend'
          : `${rt.ingressKey} ${rt.matched} → ${res.serviceKey ?? 'no Service'}: no ready endpoint`;
      this.d.ctx.relay.record({ from: ing, to: ing, kind: 'decision', summary: `${host}${path}: ${why}`, cause: c.cause });
      return this.http(c, ing, rt.status, rt.status === 404 ? 'default backend - 404' : '503 Service Temporarily Unavailable');
    }
    res.endpoint = `${rt.endpoint.ip}:${rt.endpoint.port}`;
    c.cause = this.d.ctx.relay.record({
      from: ing,
      to: ing,
      kind: 'decision',
      summary: `${host}${path} matches ${rt.ingressKey} ${rt.matched} → ${res.serviceKey} → upstream ${res.endpoint}`,
      cause: c.cause,
    });
    const pod = rt.endpoint.pod ? this.getPod(rt.endpoint.pod.namespace, rt.endpoint.pod.name) : this.podByIP(rt.endpoint.ip);
    return this.deliver(c, pod, rt.endpoint.ip, rt.endpoint.port, host, path, null, ing);
  }

  /**
   * The connection reached a Pod's IP: it answers when a running container listens on the port.
   * @param refusedMsg curl's message for a refusal (direct connection); null when ingress-nginx
   *   is the client (it answers 502 Bad Gateway instead)
   */
  private deliver(
    c: Ctx,
    pod: KObject | undefined,
    ip: string,
    port: number,
    host: string,
    path: string,
    refusedMsg: (() => string) | null,
    hopFrom: string,
  ): TrafficResult {
    const res = c.res;
    if (!pod && port === APISERVER_PORT && this.d.authenticateToken && this.apiserverIPs().has(ip))
      return this.toAPIServer(c, ip, port, host, path, hopFrom);
    if (pod) res.podKey = `Pod/${pod.metadata.namespace}/${pod.metadata.name}`;
    const podPart = pod ? `pod/${pod.metadata.namespace}/${pod.metadata.name}` : `pod/${ip}`;
    c.cause = this.d.ctx.relay.record({
      from: hopFrom,
      to: podPart,
      kind: 'request',
      verb: 'GET',
      summary: `GET ${path} Host: ${host} → ${ip}:${port}`,
      cause: c.cause,
    });
    const kubelet = pod?.spec?.nodeName ? this.d.kubelets.get(pod.spec.nodeName) : undefined;
    const reachable = !!pod && !!kubelet?.powered;
    const answer = reachable && pod.status?.phase === 'Running' ? podHttpGet(kubelet!, pod, port, path) : null;
    if (!answer) {
      const why = !pod ? 'no such Pod' : !reachable ? `node ${pod.spec?.nodeName ?? '?'} is down` : `nothing listens on port ${port}`;
      this.d.ctx.relay.record({
        from: podPart,
        to: hopFrom,
        kind: 'response',
        summary: `${reachable ? 'RST (connection refused)' : 'no answer'}: ${why}`,
        cause: c.cause,
      });
      if (!refusedMsg) return this.http(c, hopFrom, 502, '502 Bad Gateway');
      return this.fail(c, reachable ? refusedMsg() : refusedMsg().replace(' after 0 ms', ` after ${CONNECT_TIMEOUT_MS} ms`));
    }
    // behind ingress-nginx an upstream's 404 passes through as is
    return this.http(c, podPart, answer.status, answer.body, answer.summary);
  }

  /** The addresses kube-apiserver listens on: those of the `kubernetes` Endpoints (the endpoint reconciler's), on a powered node. */
  private apiserverIPs(): Set<string> {
    const out = new Set<string>();
    const ep = this.d.objects.getObject('endpoints', 'default', 'kubernetes');
    const nodes = this.list('nodes');
    for (const s of ep?.subsets ?? [])
      for (const a of s.addresses ?? []) {
        const n = nodes.find((x) => (x.status?.addresses ?? []).some((y: KObject) => y.address === a.ip));
        if (n && this.d.kubelets.get(n.metadata.name)?.powered) out.add(a.ip);
      }
    return out;
  }

  /**
   * The connection reached kube-apiserver's port: TLS (curl refuses the cluster CA's certificate
   * without `-k` or `--cacert`; plain HTTP gets Go's 400), then the request (apiserver-http.ts).
   */
  private toAPIServer(c: Ctx, ip: string, port: number, host: string, path: string, hopFrom: string): TrafficResult {
    const to = 'kube-apiserver';
    c.cause = this.d.ctx.relay.record({
      from: hopFrom,
      to,
      kind: 'request',
      verb: 'GET',
      summary: `${c.scheme === 'https' ? 'HTTPS' : 'HTTP'} GET ${path} Host: ${host} → ${ip}:${port}`,
      cause: c.cause,
    });
    if (c.scheme === 'http') return this.http(c, to, 400, 'Client sent an HTTP request to an HTTPS server.\n', undefined, true);
    const tls = c.req.tls ?? {};
    if (!tls.insecure && !tls.cacert) {
      this.d.ctx.relay.record({
        from: to,
        to: c.from,
        kind: 'response',
        summary: 'TLS: certificate signed by an unknown authority',
        cause: c.cause,
      });
      return this.fail(c, CURL_SSL_CA_ERROR);
    }
    const answer = this.d.ctx.relay.withCause(c.cause, () =>
      serveAPIServerRequest(this.d.ctx, this.d.authenticateToken!, {
        method: 'GET',
        path,
        headers: c.req.headers ?? [],
        serverAddress: `${ip}:${port}`,
      }),
    );
    return this.http(c, to, answer.status, answer.body, answer.summary, true);
  }

  /** An HTTP answer from `by`; ok for 2xx. `summary` stands for an HTML body in the message. */
  private http(c: Ctx, by: string, status: number, body: string, summary?: string, exactBody = false): TrafficResult {
    const res = c.res;
    res.status = status;
    res.ok = status >= 200 && status < 300;
    res.body = body;
    if (exactBody) res.exactBody = true;
    const line = `HTTP/1.1 ${status} ${REASONS[status] ?? ''}`.trimEnd();
    const shown = summary ?? body;
    res.message = shown.endsWith(REASONS[status] ?? '\u0000') ? line : `${line} · ${shown}`;
    this.d.ctx.relay.record({ from: by, to: c.from, kind: 'response', verb: 'GET', summary: res.message, cause: c.cause });
    return res;
  }

  private fail(c: Ctx, message: string, serviceKey?: string | null): TrafficResult {
    c.res.ok = false;
    c.res.message = message;
    if (serviceKey !== undefined && c.res.serviceKey === null) c.res.serviceKey = serviceKey;
    this.d.ctx.relay.record({ from: c.from, to: c.from, kind: 'note', summary: message, cause: c.cause });
    return c.res;
  }

  private podByIP(ip: string): KObject | undefined {
    return this.list('pods').find((p) => p.status?.podIP === ip && !['Succeeded', 'Failed'].includes(p.status?.phase));
  }

  /** The Service an IP:port addresses (ClusterIP, load-balancer IP, or a node IP + NodePort), as "Service/NS/NAME". */
  private serviceKeyFor(ip: string, port: number): string | null {
    const nodeIPs = new Set(this.list('nodes').map((n) => n.status?.addresses?.find((a: KObject) => a.type === 'InternalIP')?.address));
    for (const s of this.list('services')) {
      const ports: KObject[] = s.spec?.ports ?? [];
      const hit =
        (s.spec?.clusterIP === ip && ports.some((p) => p.port === port)) ||
        ((s.status?.loadBalancer?.ingress ?? []).some((x: KObject) => x.ip === ip) && ports.some((p) => p.port === port)) ||
        (nodeIPs.has(ip) && ports.some((p) => p.nodePort === port));
      if (hit) return `Service/${s.metadata.namespace}/${s.metadata.name}`;
    }
    return null;
  }
}

/** A parsed request URL. */
export interface ParsedURL {
  href: string;
  scheme: 'http' | 'https';
  /** lower-cased host name or IPv4 address */
  host: string;
  /** "host[:port]" as the Host header carries it */
  hostHeader: string;
  port: number;
  /** path and query, "/" at least */
  path: string;
}

/**
 * Parses a URL as curl does for the cases the generator supports (`http://` assumed when no
 * scheme is given); returns curl's error message for what it rejects.
 */
export function parseURL(raw: string): ParsedURL | string {
  const s = raw.trim();
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?([^/?#:]*)(?::(\d*))?([^#]*)/.exec(s);
  if (!s || !m) return 'curl: (3) URL rejected: Malformed input to a URL function';
  const scheme = (m[1] ?? 'http').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return `curl: (1) Protocol "${m[1]}" not supported`;
  const host = m[2].toLowerCase();
  if (!host || !/^[a-z0-9.-]+$/.test(host))
    return host ? `curl: (3) URL rejected: Bad hostname` : 'curl: (3) URL rejected: No host part in the URL';
  const port = m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80;
  if (!(port >= 1 && port <= 65535)) return 'curl: (3) URL rejected: Port number was not a decimal number between 0 and 65535';
  let path = m[4] || '/';
  if (!path.startsWith('/')) path = `/${path}`;
  const hostHeader = m[3] ? `${host}:${port}` : host;
  return { href: `${scheme}://${hostHeader}${path}`, scheme, host, hostHeader, port, path };
}

function isNodeReady(n: KObject): boolean {
  return (n.status?.conditions ?? []).some((c: KObject) => c.type === 'Ready' && c.status === 'True');
}
