/**
 * TypeScript → JavaScript for user controllers run headless (a scenario's `controller` step
 * with a `.ts` file): the types are stripped by TypeScript's own `transpileModule`, from the
 * TypeScript build monaco-editor ships (the browser's editor compiles a tab with the same
 * compiler in Monaco's TypeScript worker). That build is an ES module of ~9 MB; it is loaded
 * once, synchronously, the first time a `.ts` controller is compiled (≈ 2 s).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';

interface TranspileApi {
  transpileModule(
    input: string,
    opts: { compilerOptions: Record<string, unknown>; fileName?: string; reportDiagnostics?: boolean },
  ): { outputText: string; diagnostics?: { messageText: unknown }[] };
  ScriptTarget: { ES2022: number };
  ModuleKind: { ESNext: number };
}

let ts: TranspileApi | null = null;

function typescript(): TranspileApi {
  if (ts) return ts;
  // the package's exports map hides the file: find the package folder from its main entry
  const main = createRequire(import.meta.url).resolve('monaco-editor');
  const root = main.slice(0, main.lastIndexOf('/monaco-editor/') + '/monaco-editor/'.length);
  const path = `${root}esm/vs/languages/features/typescript/lib/typescriptServices.js`;
  // the module's body, without its closing `export {…}`, evaluates to its `typescript` namespace
  const text = readFileSync(path, 'utf8').replace(/\nexport \{[^}]*\};?\s*$/, '\n');
  ts = vm.runInThisContext(`(function () { ${text}\n; return typescript; })()`, { filename: path }) as TranspileApi;
  return ts;
}

/** The JavaScript of a controller's source: `.ts` files are transpiled, anything else is returned as is. */
export function compileController(source: string, file: string): string {
  if (!/\.m?ts$/.test(file)) return source;
  const t = typescript();
  return t.transpileModule(source, { fileName: file, compilerOptions: { target: t.ScriptTarget.ES2022, module: t.ModuleKind.ESNext } })
    .outputText;
}
