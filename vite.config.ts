import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import type { ProxyOptions } from 'vite';
import { fileURLToPath } from 'node:url';

const monacoEsm = fileURLToPath(new URL('./node_modules/monaco-editor/esm/vs/', import.meta.url));

// The browser attaches to an API server through the app's own server (src/ui/attach):
// `/k8s/…` → KUBE_RELAY_API (default `kubectl proxy`'s http://127.0.0.1:8001), which sends no
// CORS headers. Watches stream through; the target is echoed as x-kube-relay-upstream.
const kubeRelayApi = process.env.KUBE_RELAY_API ?? 'http://127.0.0.1:8001';
const k8sProxy: Record<string, ProxyOptions> = {
  '/k8s': {
    target: kubeRelayApi,
    changeOrigin: true,
    rewrite: (p) => p.replace(/^\/k8s/, '') || '/',
    configure: (proxy) => {
      proxy.on('proxyReq', (req) => req.removeHeader('origin'));
      proxy.on('proxyRes', (res) => {
        res.headers['x-kube-relay-upstream'] = kubeRelayApi;
      });
    },
  },
};

export default defineConfig({
  plugins: [react()],
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
