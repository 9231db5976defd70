/**
 * `node src/cli/run.mjs NAME [ARGS…]`: what `npm run scenario|apiserver|bench|soak|kustomize|load`
 * start. Runs the bundle dist-cli/NAME.mjs (vite.cli.config.ts) with plain node, in this process,
 * with the arguments unchanged; builds the bundle first when it is missing or older than any
 * file of src/, vite.cli.config.ts or package-lock.json (`npm run build` builds it too). The build
 * goes to a folder of its own and replaces dist-cli whole, so two runs starting at once do not
 * see half a bundle; its messages go to stderr (stdout is the command's own output).
 * Plain JavaScript: it must start without tsx.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = join(ROOT, 'dist-cli');
const STAMP = join(OUT, '.built');

/** The newest modification time (ms) of the files under `dir`, recursively; tests (*.test.ts) are not in the bundle. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p));
    else if (e.isFile() && !/\.test\.tsx?$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

function stale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  const inputs = [join(ROOT, 'vite.cli.config.ts'), join(ROOT, 'package-lock.json')].filter(existsSync).map((p) => statSync(p).mtimeMs);
  return Math.max(newest(join(ROOT, 'src')), ...inputs) > built;
}

function build() {
  const tmp = `${OUT}.tmp-${process.pid}`;
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '-c', 'vite.cli.config.ts', '--logLevel', 'error'], {
    cwd: ROOT,
    env: { ...process.env, KUBE_RELAY_CLI_OUT: tmp },
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    process.stderr.write(`error: building the command-line bundle failed (npx vite build -c vite.cli.config.ts)\n`);
    process.exit(1);
  }
  writeFileSync(join(tmp, '.built'), `${new Date().toISOString()}\n`);
  const old = `${OUT}.old-${process.pid}`;
  if (existsSync(OUT)) renameSync(OUT, old);
  renameSync(tmp, OUT);
  rmSync(old, { recursive: true, force: true });
}

const [name, ...rest] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name)) {
  process.stderr.write('usage: node src/cli/run.mjs NAME [ARGS…] (NAME: scenario, apiserver, bench, soak, kustomize, load)\n');
  process.exit(1);
}
if (name === 'build' || stale()) build();
if (name === 'build') process.exit(0);
const bundle = join(OUT, `${name}.mjs`);
if (!existsSync(bundle)) {
  process.stderr.write(`error: no command-line entry point "${name}" (dist-cli/${name}.mjs)\n`);
  process.exit(1);
}
// the bundle sees the command line it would see when started directly: node dist-cli/NAME.mjs ARGS…
process.argv = [process.argv[0], bundle, ...rest];
await import(pathToFileURL(bundle).href);
