import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const monacoEsm = fileURLToPath(new URL('./node_modules/monaco-editor/esm/vs/', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      // monaco-editor ≥ 0.56 has an exports map, so monaco-worker-manager's (monaco-yaml's)
      // deep import `monaco-editor/esm/vs/editor/editor.worker.js` no longer resolves
      // (TOOLCHAIN.md §3, pitfall A).
      { find: /^monaco-editor\/esm\/vs\/(.*?)(\.js)?$/, replacement: `${monacoEsm}$1.js` },
    ],
  },
  worker: { format: 'es' },
  // worker-only dependencies discovered late make the dev server reload the page (TOOLCHAIN.md §6)
  optimizeDeps: { include: ['monaco-yaml/yaml.worker.js', 'yaml', 'comlink'] },
  build: {
    target: 'es2022',
    // Monaco (≈ 4 MB) and mermaid's diagram chunks are lazy and expected to be large
    chunkSizeWarningLimit: 5000,
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // scenario tests simulate hours on a 2-core machine; give them room under a full parallel run
    testTimeout: 60_000,
  },
});
