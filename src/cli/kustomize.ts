/**
 * `npm run kustomize -- DIR`: prints what `kubectl kustomize DIR` prints (docs/scenario-format.md#kustomize):
 * the rendered documents on stdout, deprecation warnings and errors on stderr (exit 1 on error).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { kustomizeOutput, type KustomizeFS } from '../cluster/kustomize';
import { KustomizeError } from '../cluster/kustomize/types';
import { MAX_FILE_BYTES } from '../cluster/scenario/limits';
import { formatBytes } from '../cluster/scenario/text';
import { UsageError, isMainModule, parseArgs, processIO, runMain, type CliIO } from './args';

/** The kustomize virtual file system over the real disk: regular files only, each at most MAX_FILE_BYTES (else a KustomizeError). */
export const diskFS: KustomizeFS = {
  readFile(p) {
    let st;
    try {
      st = statSync(p);
    } catch {
      return undefined;
    }
    if (!st.isFile()) return undefined;
    if (st.size > MAX_FILE_BYTES)
      throw new KustomizeError(`file ${JSON.stringify(p)} is ${st.size} bytes; the limit is ${formatBytes(MAX_FILE_BYTES)}`);
    try {
      return readFileSync(p, 'utf8');
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

export const KUSTOMIZE_USAGE = 'usage: npm run kustomize -- [DIR]   (DIR defaults to ".", as kubectl kustomize)';

/**
 * The entry point with injected argv and output; returns the exit code. Arguments as
 * `kubectl kustomize`: at most one DIR (default "."), more is `specify one path to
 * kustomization.yaml`; no flags are supported.
 * @throws UsageError for an unknown flag
 */
export function kustomizeMain(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, {});
  if (args.flags.has('help')) {
    io.stdout(`${KUSTOMIZE_USAGE}\n`);
    return 0;
  }
  if (args.positional.length > 1) throw new UsageError('specify one path to kustomization.yaml');
  const out = kustomizeOutput(diskFS, resolve(args.positional[0] ?? '.'));
  io.stdout(out.stdout);
  io.stderr(out.stderr);
  return out.code;
}

if (isMainModule(import.meta.url)) void runMain(KUSTOMIZE_USAGE, () => kustomizeMain(process.argv.slice(2), processIO));
