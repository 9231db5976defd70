/**
 * Monaco, configured once, offline: the slim 0.57 entry points (API + editor features + YAML
 * highlighting), Monaco's own workers, and monaco-yaml for YAML syntax errors and the
 * Kubernetes schema (completion, hover docs, validation; generated from kubernetes-types 1.30).
 *
 * The createWebWorker shim: since monaco-editor 0.55 `editor.createWebWorker` needs
 * `opts.worker` and no longer sends `createData`; monaco-yaml (through monaco-worker-manager
 * 2.0.1) still passes `{ moduleId, label, createData }`. Without the shim, YAML validation
 * silently never runs (no markers; console: "Missing requestHandler or method: doValidation";
 * monaco-editor issue 5310, monaco-yaml issues 272/275).
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/languages/definitions/typescript/register';
import 'monaco-editor/languages/definitions/javascript/register';
import * as ts from 'monaco-editor/languages/features/typescript/register';
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';
// the user controllers' API (docs/user-controllers.md): completion in controller tabs
import controllerApi from '../../examples/operators/controller-api.d.ts?raw';
import { configureMonacoYaml } from 'monaco-yaml';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import YamlWorker from './yaml.worker?worker';
// Kubernetes 1.30 API types (kubernetes-types 1.30.0, `npm run gen:k8s`); the engine is v1.33
import k8sSchema from './k8s-schema.json';

function getWorker(_moduleId: string, label: string): Worker {
  if (label === 'typescript' || label === 'javascript') return new TsWorker();
  return label === 'yaml' ? new YamlWorker() : new EditorWorker();
}

self.MonacoEnvironment = { getWorker };

type CreateOpts = Parameters<typeof monaco.editor.createWebWorker>[0] & {
  moduleId?: string;
  label?: string;
  createData?: unknown;
};

const createWebWorker = ((opts: CreateOpts) => {
  if (opts.worker) return monaco.editor.createWebWorker(opts);
  const worker = getWorker(opts.moduleId ?? '', opts.label ?? '');
  worker.postMessage('init'); // eaten by monaco-worker-manager's worker-side onmessage
  worker.postMessage(opts.createData); // read by Monaco's worker initialize
  return monaco.editor.createWebWorker({ ...opts, worker });
}) as typeof monaco.editor.createWebWorker;

configureMonacoYaml({ ...monaco, editor: { ...monaco.editor, createWebWorker } } as typeof monaco, {
  enableSchemaRequest: false,
  isKubernetes: true,
  validate: true,
  completion: true,
  hover: true,
  schemas: [{ uri: 'inmemory://schemas/k8s-manifest.json', fileMatch: ['**/*.k8s.yaml'], schema: k8sSchema as never }],
});

// Controller tabs (`*.controller.ts` / `*.controller.js`): TypeScript's language service with the
// sandbox's globals only (ES2022, no DOM: the sandbox has none) and the client API as an extra lib
for (const d of [ts.typescriptDefaults, ts.javascriptDefaults]) {
  d.setCompilerOptions({
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.NodeJs,
    lib: ['es2022'],
    allowNonTsExtensions: true,
    strict: false,
    checkJs: true,
    allowJs: true,
    noEmit: false,
  });
  d.addExtraLib(controllerApi, 'file:///kube-relay/lib/controller-api.d.ts');
}

/** The kinds' fields: kubernetes-types' definitions (1.30, ≈ 1 MB), loaded with the first controller tab. */
const kubernetesTypes = import.meta.glob<string>('/node_modules/kubernetes-types/**/*.d.ts', { query: '?raw', import: 'default' });
let kubernetesTypesLoaded: Promise<void> | null = null;

/**
 * Makes `import type { Deployment } from 'kubernetes-types/apps/v1'` resolve in controller tabs
 * (once; later calls return the same promise). The sandbox never sees these imports: TypeScript
 * drops type-only imports when it compiles a tab.
 */
export function loadKubernetesTypes(): Promise<void> {
  kubernetesTypesLoaded ??= Promise.all(
    Object.entries(kubernetesTypes).map(async ([path, load]) => {
      const text = await load();
      for (const d of [ts.typescriptDefaults, ts.javascriptDefaults]) d.addExtraLib(text, `file://${path}`);
    }),
  ).then(() => undefined);
  return kubernetesTypesLoaded;
}

/**
 * The JavaScript of a controller tab's TypeScript (Monaco's TypeScript worker emits it; a
 * `.js` model is returned as it is). The sandbox runs the result (docs/user-controllers.md).
 */
export async function compileControllerModel(model: monaco.editor.ITextModel): Promise<string> {
  const text = model.getValue(monaco.editor.EndOfLinePreference.LF);
  if (model.getLanguageId() !== 'typescript') return text;
  const worker = await (await ts.getTypeScriptWorker())(model.uri);
  const out = await worker.getEmitOutput(model.uri.toString());
  const js = out.outputFiles.find((f) => f.name.endsWith('.js'));
  if (!js) throw new Error('TypeScript emitted no JavaScript for this tab');
  return js.text;
}

export { monaco };
