import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import type { Connect, Plugin, ProxyOptions } from 'vite';
import { fileURLToPath } from 'node:url';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';

const monacoEsm = fileURLToPath(new URL('./node_modules/monaco-editor/esm/vs/', import.meta.url));

// The browser attaches to an API server through the app's own server (src/ui/attach):
// `/k8s/…` → KUBE_RELAY_API (default `kubectl proxy`'s http://127.0.0.1:8001), which sends no
// CORS headers. Watches stream through; the target is echoed as x-kube-relay-upstream.
// `npm run apiserver` wants its bearer token: KUBE_RELAY_API_TOKEN, or KUBE_RELAY_KUBECONFIG
// naming the kubeconfig it wrote; requests other sites' pages make through the proxy are
// refused (403), since it holds that credential (src/server/app-proxy.test.ts).

/**
 * The proxy's bearer token: `token`, else the `token:` line of the kubeconfig at `kubeconfig`
 * (re-read when the file changes, so a restarted `npm run apiserver` is followed); undefined
 * when neither gives one.
 */
export function proxyToken(src: { token?: string; kubeconfig?: string }): () => string | undefined {
  let cached: { mtimeMs: number; token: string | undefined } | undefined;
  return () => {
    if (src.token) return src.token;
    if (!src.kubeconfig) return undefined;
    try {
      const { mtimeMs } = statSync(src.kubeconfig);
      if (cached?.mtimeMs !== mtimeMs)
        cached = { mtimeMs, token: /^\s+token:\s*(\S+)\s*$/m.exec(readFileSync(src.kubeconfig, 'utf8'))?.[1] };
      return cached.token;
    } catch {
      return undefined;
    }
  };
}

/**
 * Whether a request comes from another site's page: `Sec-Fetch-Site` other than same-origin /
 * none, or an `Origin` whose host is not the request's own Host (browsers send Origin on every
 * cross-origin fetch and form post).
 */
export function isCrossSite(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host !== (req.headers.host ?? '');
  } catch {
    return true;
  }
}

const CROSS_SITE_STATUS = JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: "forbidden: the /k8s proxy serves this app's own pages only (cross-site request refused)",
  reason: 'Forbidden',
  code: 403,
});

const kubeRelayApi = process.env.KUBE_RELAY_API ?? 'http://127.0.0.1:8001';
const tokenFor = proxyToken({ token: process.env.KUBE_RELAY_API_TOKEN, kubeconfig: process.env.KUBE_RELAY_KUBECONFIG });
const sameSiteOnly: Connect.NextHandleFunction = (req, res, next) => {
  if (!req.url?.startsWith('/k8s') || !isCrossSite(req)) return next();
  res.writeHead(403, { 'Content-Type': 'application/json' });
  res.end(CROSS_SITE_STATUS);
};
const k8sGuard: Plugin = {
  name: 'kube-relay-k8s-proxy-guard',
  configureServer: (server) => void server.middlewares.use(sameSiteOnly),
  configurePreviewServer: (server) => void server.middlewares.use(sameSiteOnly),
};
const k8sProxy: Record<string, ProxyOptions> = {
  '/k8s': {
    target: kubeRelayApi,
    changeOrigin: true,
    rewrite: (p) => p.replace(/^\/k8s/, '') || '/',
    configure: (proxy) => {
      proxy.on('proxyReq', (req) => {
        req.removeHeader('origin');
        const token = tokenFor();
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
      });
      proxy.on('proxyRes', (res) => {
        res.headers['x-kube-relay-upstream'] = kubeRelayApi;
      });
    },
  },
};

/**
 * The Content-Security-Policy of a user controller's sandbox worker
 * (src/worker/controller-sandbox.worker.ts, docs/user-controllers.md#in-the-browser): no
 * connection (fetch, XHR, WebSocket, EventSource), no script from another origin (so no
 * `import()` of one), `eval`/`new Function` allowed (the learner's code is compiled so).
 */
export const SANDBOX_CSP = "default-src 'none'; script-src 'self' 'unsafe-eval'";
const sandboxCsp: Connect.NextHandleFunction = (req, res, next) => {
  if (req.url?.includes('controller-sandbox')) res.setHeader('Content-Security-Policy', SANDBOX_CSP);
  next();
};
const sandboxHeaders: Plugin = {
  name: 'kube-relay-controller-sandbox-csp',
  configureServer: (server) => void server.middlewares.use(sandboxCsp),
  configurePreviewServer: (server) => void server.middlewares.use(sandboxCsp),
};

export default defineConfig({
  plugins: [react(), k8sGuard, sandboxHeaders],
  resolve: {
    alias: [
      // monaco-editor ≥ 0.56 has an exports map, so monaco-worker-manager's (monaco-yaml's)
      // deep import `monaco-editor/esm/vs/editor/editor.worker.js` no longer resolves
      // (`Rolldown failed to resolve import`); this alias points it at the file.
      { find: /^monaco-editor\/esm\/vs\/(.*?)(\.js)?$/, replacement: `${monacoEsm}$1.js` },
    ],
  },
  worker: { format: 'es' },
  // worker-only dependencies discovered late make the dev server reload the page, so they are pre-bundled
  optimizeDeps: { include: ['monaco-yaml/yaml.worker.js', 'yaml', 'comlink'] },
  build: {
    target: 'es2022',
    // Monaco (≈ 4 MB) and mermaid's diagram chunks are lazy and expected to be large
    chunkSizeWarningLimit: 5000,
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, proxy: k8sProxy },
  server: { host: '127.0.0.1', proxy: k8sProxy },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // scenario tests simulate hours on a 2-core machine; give them room under a full parallel run
    testTimeout: 60_000,
  },
});
