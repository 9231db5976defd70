/**
 * `npm run kustomize -- DIR`: prints what `kubectl kustomize DIR` prints (docs/scenario-format.md#kustomize):
 * the rendered documents on stdout, deprecation warnings and errors on stderr (exit 1 on error).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { kustomizeOutput, type KustomizeFS } from '../cluster/kustomize';

/** The kustomize virtual file system over the real disk. */
export const diskFS: KustomizeFS = {
  readFile(p) {
    try {
      return statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  },
  isDir(p) {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  },
};

/** Renders a kustomization folder; throws with kustomize's message on failure. */
export function kustomizeDir(dir: string): string {
  const out = kustomizeOutput(diskFS, resolve(dir));
  if (out.code !== 0) throw new Error(out.stderr.replace(/^error: /m, '').trim());
  if (out.stderr) process.stderr.write(out.stderr);
  return out.stdout;
}

const isMain = process.argv[1] && resolve(process.argv[1]).replace(/\.ts$/, '') === resolve(import.meta.dirname ?? '.', 'kustomize');
if (isMain) {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.length !== 1) {
    process.stderr.write('usage: npm run kustomize -- DIR\n');
    process.exit(1);
  }
  const out = kustomizeOutput(diskFS, resolve(args[0]));
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exit(out.code);
}
