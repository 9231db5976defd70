// monaco-yaml's language worker, bundled by Vite as its own worker (imported with `?worker` in monaco-setup.ts).
import 'monaco-yaml/yaml.worker.js';
