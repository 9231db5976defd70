/**
 * Shapes of the traffic generator (issue 5 §5): a client sends HTTP requests to a Service —
 * from outside the cluster (a node IP + NodePort, a LoadBalancer IP, or an Ingress host) or
 * from inside a Pod (by DNS name or ClusterIP) — and each request is resolved by cluster DNS,
 * routed by the source node's kube-proxy rules (proxy/route.ts) to one endpoint, and answered
 * by that Pod's simulated container, or fails the way a real client would see it.
 */

/** Who sends the requests. */
export type TrafficSource =
  /** an off-cluster client (curl on a laptop) */
  | { kind: 'external' }
  /** a process inside a running Pod (resolves names through the Pod's resolv.conf) */
  | { kind: 'pod'; namespace: string; name: string };

/** One batch of requests, as `curl` would send them. */
export interface TrafficRequest {
  source: TrafficSource;
  /**
   * The URL: `http://peekcart`, `http://peekcart.default.svc.cluster.local:80/`,
   * `http://10.96.0.12`, `http://172.18.255.200/` (LoadBalancer), `http://192.168.49.3:30080/`
   * (NodePort), or `http://shop.example.com/cart` (an Ingress host; resolved to the ingress
   * controller's address when the source is external).
   */
  url: string;
  /** number of requests, 1..100 */
  count: number;
  /** request headers (`curl -H "Name: value"`), e.g. `["Authorization", "Bearer eyJ…"]` */
  headers?: [string, string][];
  /** TLS: `-k`/`--insecure` skips verifying the server's certificate; `cacert` is `--cacert FILE` */
  tls?: { insecure?: boolean; cacert?: string };
}

/** What one request did. */
export interface TrafficResult {
  /** 1-based within the batch */
  index: number;
  ok: boolean;
  /** HTTP status when a server answered (200, 404 from the ingress controller, 503 …) */
  status: number | null;
  /** what curl prints on failure or a one-line summary on success, e.g. `curl: (7) Failed to connect to 10.96.0.12 port 80: Connection refused` */
  message: string;
  /** "Ingress/NS/NAME" when an Ingress routed it */
  ingressKey: string | null;
  /** "Service/NS/NAME" the request reached, null when none */
  serviceKey: string | null;
  /** "Pod/NS/NAME" that answered (or refused), null when no Pod was chosen */
  podKey: string | null;
  /** node whose kube-proxy rules routed the connection */
  viaNode: string | null;
  /** the endpoint chosen, "10.244.1.5:8080" */
  endpoint: string | null;
  /** iptables chains entered, in order */
  chains: string[];
  /** DNS queries sent (search-path expansion), empty for IP URLs */
  dnsQueries: string[];
  /** the response body when a server answered (`Hostname: web-7d4b9c-x2x9z`, `default backend - 404`) */
  body?: string;
  /** the body is exactly what the server sent (kube-apiserver's JSON ends without a newline): printed as is */
  exactBody?: boolean;
}

/** A DNS lookup as `nslookup NAME` run inside a Pod of `fromNamespace` prints it. */
export interface DnsLookupResult {
  name: string;
  status: 'NOERROR' | 'NXDOMAIN' | 'TIMEOUT';
  /** fully-qualified name that answered */
  fqdn: string | null;
  /** A records (several for a headless Service), CNAME target for ExternalName */
  records: { name: string; type: 'A' | 'CNAME'; ttl: number; data: string }[];
  /** every query sent, in order */
  queries: string[];
  /** nslookup's output, exactly as busybox/bind nslookup prints it */
  output: string;
}

/** The simulated load on one workload, fed to metrics-server (metrics/metrics-server.ts). */
export interface WorkloadLoad {
  namespace: string;
  /** "deployment/web", "statefulset/db" or a selector "app=web" */
  workload: string;
  /** total CPU the workload's Pods use together, millicores (spread over its running Pods) */
  totalCpuMillicores: number;
}

/** What one command run in a container returned (kubectl exec; traffic/pod-exec.ts runs it). */
export interface PodExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}
