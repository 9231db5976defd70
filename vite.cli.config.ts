/**
 * The command-line bundle (README "Headless scenarios", docs/benchmarks.md): the entry points
 * of src/cli built for plain Node into dist-cli/NAME.mjs, so `npm run scenario|apiserver|bench|
 * soak|kustomize|load` start without tsx's loader hooks and TypeScript transpiling on every run
 * (src/cli/run.mjs builds it when missing or older than a source, then runs it).
 *
 * Packages stay external (Node loads them from node_modules, as under tsx). Every module of src/
 * keeps its own `import.meta.url` / `dirname` / `filename`: they are rewritten to the module's
 * source path relative to the bundle, so files read next to a source (the OpenAPI schema, the
 * repository root of load.ts) are found as under tsx, and `isMainModule` (src/cli/args.ts) tells
 * the entry from a module an entry imports (kustomize.ts is both).
 */
import { defineConfig, type Plugin } from 'vite';
import { dirname, relative, resolve } from 'node:path';

const ROOT = import.meta.dirname;
export const CLI_OUT_DIR = 'dist-cli';
/** Entry name → source; dist-cli/NAME.mjs runs src/cli/NAME.ts. */
export const CLI_ENTRIES = ['scenario', 'apiserver', 'bench', 'soak', 'kustomize', 'load'] as const;

/** Rewrites import.meta.url / dirname / filename in src/ modules to their source locations. */
function sourceImportMeta(outDir: string): Plugin {
  const src = resolve(ROOT, 'src') + '/';
  return {
    name: 'kube-relay-source-import-meta',
    transform(code, id) {
      if (!id.startsWith(src) || !code.includes('import.meta.')) return null;
      const rel = relative(outDir, id);
      const relDir = relative(outDir, dirname(id));
      const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
      const path = (p: string) => `decodeURIComponent(new URL(${JSON.stringify(p)}, import.meta.url).pathname)`;
      const out = code
        .replace(/\bimport\.meta\.url\b/g, url)
        .replace(/\bimport\.meta\.filename\b/g, path(rel))
        .replace(/\bimport\.meta\.dirname\b/g, path(relDir));
      return { code: out, map: null };
    },
  };
}

export default defineConfig(({ mode }) => {
  const outDir = resolve(ROOT, process.env.KUBE_RELAY_CLI_OUT ?? CLI_OUT_DIR);
  return {
    root: ROOT,
    publicDir: false,
    logLevel: mode === 'verbose' ? 'info' : 'warn',
    plugins: [sourceImportMeta(outDir)],
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: Object.fromEntries(CLI_ENTRIES.map((n) => [n, resolve(ROOT, `src/cli/${n}.ts`)])),
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
      },
    },
  };
});
