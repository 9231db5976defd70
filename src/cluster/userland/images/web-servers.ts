/**
 * What well-known server images serve when they run their own entrypoint (no `command`, no
 * `args`) with their default configuration: the TCP ports they listen on (their Dockerfiles'
 * EXPOSE and default config) and, for the HTTP servers whose content is known, the answer to
 * a GET of a path:
 *   nginx (and nginxinc/nginx-unprivileged on 8080): /etc/nginx/conf.d/default.conf serves
 *     /usr/share/nginx/html — `/`, `/index.html` ("Welcome to nginx!") and `/50x.html` answer
 *     200; any other path 404 with nginx's error page.
 *   httpd: htdocs holds index.html only — `/` and `/index.html` 200 ("It works!"), else 404.
 *   caddy: /usr/share/caddy/index.html on `/`, else 404.
 *   podinfo: its API routes (/, /healthz, /readyz, /version, /env, /headers, /metrics, …),
 *     else 404 "404 page not found" (Go's net/http).
 *   google-samples/hello-app, e2e-test-images/echoserver: every path 200.
 * A server whose configuration directory has a volume mounted over it (an nginx ConfigMap in
 * /etc/nginx/conf.d …), or that is started with a command or args, is not the image's default:
 * kube-relay then *assumes* it listens on its declared containerPorts and answers 200 on
 * every path (the Pod inspector says so).
 */

/** A GET's answer: status code and body. */
export interface HttpAnswer {
  status: number;
  body: string;
  /** one line for the relay and the traffic panel (the page's title) */
  summary?: string;
}

/** One known image's default server. */
export interface ImageServer {
  /** TCP ports it listens on */
  ports: readonly number[];
  /** directories whose contents configure it: a volume mounted at or under one makes it assumed */
  configDirs: readonly string[];
  /** GET `path` (path and query) on one of `ports`; undefined: the server is not HTTP (or its pages are not known) */
  get?(path: string, podName: string, version: string): HttpAnswer;
}

/** Go net/http's NotFound handler: 404 "404 page not found\n". */
const GO_NOT_FOUND: HttpAnswer = { status: 404, body: '404 page not found\n', summary: '404 page not found' };

/** nginx's /usr/share/nginx/html/index.html (1.27). */
export const NGINX_INDEX = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

/** nginx's built-in error page (ngx_http_special_response.c) for 404, server_tokens on. */
export function nginxNotFound(version: string): HttpAnswer {
  const server = /^\d+\.\d+\.\d+$/.test(version) ? `nginx/${version}` : 'nginx';
  return {
    status: 404,
    body: `<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>${server}</center>\r\n</body>\r\n</html>\r\n`,
    summary: '404 Not Found',
  };
}

/** The path part of a request target, without query or fragment. */
function pathOnly(path: string): string {
  const p = path.split(/[?#]/)[0];
  return p.startsWith('/') ? p : '/' + p;
}

const nginxGet = (path: string, _pod: string, version: string): HttpAnswer => {
  const p = pathOnly(path);
  if (p === '/' || p === '/index.html') return { status: 200, body: NGINX_INDEX, summary: 'Welcome to nginx!' };
  if (p === '/50x.html') return { status: 200, body: '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n', summary: 'Error' };
  return nginxNotFound(version);
};

const NGINX: ImageServer = { ports: [80], configDirs: ['/etc/nginx', '/usr/share/nginx/html'], get: nginxGet };

const HTTPD: ImageServer = {
  ports: [80],
  configDirs: ['/usr/local/apache2/conf', '/usr/local/apache2/htdocs'],
  get: (path) => {
    const p = pathOnly(path);
    if (p === '/' || p === '/index.html')
      return { status: 200, body: '<html><body><h1>It works!</h1></body></html>\n', summary: 'It works!' };
    return {
      status: 404,
      body: '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n',
      summary: '404 Not Found',
    };
  },
};

/** podinfo 6's HTTP routes (pkg/api/http/server.go registerHandlers), exact paths. */
const PODINFO_ROUTES = new Set([
  '/',
  '/version',
  '/metrics',
  '/healthz',
  '/readyz',
  '/env',
  '/headers',
  '/echo',
  '/configs',
  '/token',
  '/api/info',
  '/api/echo',
  '/swagger.json',
  '/chunked',
  '/panic',
]);
const PODINFO_PREFIXES = ['/status/', '/delay/', '/store', '/cache/', '/ws/', '/chunked/', '/swagger/'];

const PODINFO: ImageServer = {
  ports: [9898, 9797, 9999],
  configDirs: [],
  get: (path, pod, version) => {
    const p = pathOnly(path);
    if (p.startsWith('/status/')) {
      const code = Number(p.slice('/status/'.length));
      if (Number.isInteger(code) && code >= 100 && code <= 599)
        return { status: code, body: JSON.stringify({ status: String(code) }, null, 2) + '\n' };
    }
    if (PODINFO_ROUTES.has(p) || PODINFO_PREFIXES.some((x) => p.startsWith(x))) {
      if (p === '/healthz' || p === '/readyz') return { status: 200, body: '{\n  "status": "OK"\n}\n', summary: '{"status": "OK"}' };
      return { status: 200, body: `{\n  "hostname": "${pod}",\n  "version": "${version}"\n}\n`, summary: `Hostname: ${pod}` };
    }
    return GO_NOT_FOUND;
  },
};

const everyPath200 = (_path: string, pod: string): HttpAnswer => ({ status: 200, body: `Hostname: ${pod}` });

/**
 * Known images by repository name (last path element, no tag). Ports only (no `get`): a
 * non-HTTP server, or one whose pages kube-relay does not model.
 */
const SERVERS: ReadonlyMap<string, ImageServer> = new Map<string, ImageServer>([
  ['nginx', NGINX],
  ['nginx-unprivileged', { ...NGINX, ports: [8080] }],
  ['httpd', HTTPD],
  [
    'caddy',
    {
      ports: [80, 443, 2019],
      configDirs: ['/etc/caddy', '/usr/share/caddy'],
      get: (path) =>
        pathOnly(path) === '/' || pathOnly(path) === '/index.html'
          ? { status: 200, body: 'Caddy works!\n', summary: 'Caddy works!' }
          : { status: 404, body: '', summary: '404 Not Found' },
    },
  ],
  ['traefik', { ports: [80], configDirs: ['/etc/traefik'] }],
  ['hello-app', { ports: [8080], configDirs: [], get: everyPath200 }],
  ['echoserver', { ports: [8080], configDirs: [], get: everyPath200 }],
  ['podinfo', PODINFO],
  ['http-echo', { ports: [5678], configDirs: [] }],
  ['agnhost', { ports: [80], configDirs: [] }],
  ['redis', { ports: [6379], configDirs: [] }],
  ['mysql', { ports: [3306, 33060], configDirs: ['/etc/mysql'] }],
  ['postgres', { ports: [5432], configDirs: [] }],
  ['mongo', { ports: [27017], configDirs: [] }],
  ['memcached', { ports: [11211], configDirs: [] }],
]);

/** Default listen ports of the known server images (repository name → ports). */
export const IMAGE_PORTS: Readonly<Record<string, readonly number[]>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, readonly number[]>, Object.fromEntries([...SERVERS].map(([k, v]) => [k, v.ports]))),
);

/** The repository's last path element of an image reference: "docker.io/library/nginx:1.27" → "nginx". */
export function imageRepoName(image: string): string {
  const noDigest = image.split('@')[0];
  const last = noDigest.split('/').pop() ?? '';
  return last.split(':')[0];
}

/** The tag of an image reference ("" when none). */
export function imageTag(image: string): string {
  const last = image.split('@')[0].split('/').pop() ?? '';
  const i = last.indexOf(':');
  return i < 0 ? '' : last.slice(i + 1);
}

/** Container fields that decide whether the image's default server runs. */
export interface ServerContainer {
  image?: string;
  command?: string[];
  args?: string[];
  volumeMounts?: { mountPath?: string }[];
}

/**
 * The image's default server when `c` runs it unchanged (no command/args, no volume over its
 * configuration), else undefined (what it serves is assumed).
 */
export function defaultServer(c: ServerContainer): ImageServer | undefined {
  if (c.command?.length || c.args?.length) return undefined;
  const s = SERVERS.get(imageRepoName(c.image ?? ''));
  if (!s) return undefined;
  const under = (m: string, d: string) =>
    m === d || m.startsWith(d.endsWith('/') ? d : d + '/') || d.startsWith(m.endsWith('/') ? m : m + '/');
  if ((c.volumeMounts ?? []).some((v) => s.configDirs.some((d) => under((v.mountPath ?? '').replace(/\/+$/, '') || '/', d))))
    return undefined;
  return s;
}

/** The answer of `c`'s server to GET `path`: the known page, or (assumed) 200 naming the Pod. */
export function httpAnswer(c: ServerContainer, path: string, podName: string): HttpAnswer & { assumed: boolean } {
  const s = defaultServer(c);
  if (s?.get) return { ...s.get(path, podName, imageTag(c.image ?? '')), assumed: false };
  return { ...everyPath200(path, podName), assumed: true };
}
