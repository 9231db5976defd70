/**
 * registry.k8s.io/ingress-nginx/controller: the ports `/nginx-ingress-controller` listens on,
 * from its flags (kubernetes/ingress-nginx pkg/flags/flags.go defaults): `--http-port` 80,
 * `--https-port` 443, `--healthz-port` 10254 (/healthz and /metrics, what the manifests'
 * liveness and readiness probes call — it is not a declared containerPort), `--default-server-port`
 * 8181, `--status-port` 10246, `--stream-port` 10247, `--profiler-port` 10245 (when
 * `--profiling`, the default), and the admission webhook's port from `--validating-webhook=:8443`.
 *
 * The routing itself is the engine component controllers/ingress-nginx.ts; the container only
 * has to be there and answer its probes. The process is a long-running binary the shell does
 * not model ("assumed").
 */

/** Image references of the ingress-nginx controller. */
export const INGRESS_NGINX_CONTROLLER_IMAGE = /(^|\/)ingress-nginx\/controller(-chroot)?(:|@|$)/;

/** The TCP ports the controller listens on for an argv (`/nginx-ingress-controller --flag=value …`). */
export function ingressNginxListenPorts(argv: string[]): number[] {
  const flag = (name: string): string | undefined => {
    for (let i = 0; i < argv.length; i++) {
      if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
      if (argv[i] === `--${name}` && i + 1 < argv.length) return argv[i + 1];
    }
    return undefined;
  };
  const port = (name: string, def: number): number => {
    const v = Number(flag(name));
    return Number.isInteger(v) && v > 0 ? v : def;
  };
  const ports = [
    port('http-port', 80),
    port('https-port', 443),
    port('healthz-port', 10254),
    port('default-server-port', 8181),
    port('status-port', 10246),
    port('stream-port', 10247),
  ];
  if (flag('profiling') !== 'false') ports.push(port('profiler-port', 10245));
  const webhook = flag('validating-webhook');
  const m = webhook ? /:(\d+)$/.exec(webhook) : null;
  if (m) ports.push(Number(m[1]));
  return ports;
}
