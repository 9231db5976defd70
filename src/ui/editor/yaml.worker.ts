// monaco-yaml's language worker, bundled by Vite as its own worker (TOOLCHAIN.md §3).
import 'monaco-yaml/yaml.worker.js';
