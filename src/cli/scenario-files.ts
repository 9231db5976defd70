/**
 * The disk side of a scenario: reading the scenario file and the files its `applyFile`
 * steps name (regular files only, at most MAX_FILE_BYTES, so `/dev/zero`, a FIFO or a
 * 10 GB file is a clear error instead of a process that grows until it dies), checking
 * `applyFile`/`applyKustomize` paths before anything runs, and the RunnerIO over the disk.
 * Used by `npm run scenario`; `npm run apiserver --scenario` can use the same.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RunnerIO } from '../cluster/scenario/runner';
import type { Scenario } from '../cluster/scenario/scenario';
import { ScenarioError } from '../cluster/scenario/fields';
import { MAX_FILE_BYTES } from '../cluster/scenario/limits';
import { formatBytes } from '../cluster/scenario/text';
import { diskFS, kustomizeDir } from './kustomize';
import { kustomizeOutput } from '../cluster/kustomize';
import { vmSandboxFactory } from './controller-vm';
import { compileController } from './controller-compile';

/** A file that cannot be read as asked; the message names the path and why. */
export class FileError extends Error {}

function errno(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

/**
 * Reads a regular file of at most `limit` bytes as UTF-8. Opens without blocking (a FIFO
 * with no writer does not hang) and checks the opened file, not the path, so nothing can be
 * swapped in between. `shown` is the path as the user wrote it.
 * @throws FileError `the path "x" does not exist` (kubectl's words), `"x" is a folder, not a
 * file`, `"/dev/zero" is not a regular file`, `"x" is N bytes; the limit is 3 MiB (3145728 bytes)`,
 * `cannot read "x": permission denied`.
 */
export function readRegularFile(path: string, shown = path, limit = MAX_FILE_BYTES): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw openError(e, shown);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new FileError(`${JSON.stringify(shown)} is a folder, not a file`);
    if (!st.isFile()) throw new FileError(`${JSON.stringify(shown)} is not a regular file`);
    if (st.size > limit) throw new FileError(`${JSON.stringify(shown)} is ${st.size} bytes; the limit is ${formatBytes(limit)}`);
    const buf = Buffer.alloc(limit + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > limit) throw new FileError(`${JSON.stringify(shown)} is more than ${limit} bytes; the limit is ${formatBytes(limit)}`);
    }
    return buf.toString('utf8', 0, n);
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw openError(e, shown);
  } finally {
    closeSync(fd);
  }
}

function openError(e: unknown, shown: string): FileError {
  switch (errno(e)) {
    case 'ENOENT':
      return new FileError(`the path ${JSON.stringify(shown)} does not exist`);
    case 'ENOTDIR':
      return new FileError(`the path ${JSON.stringify(shown)} does not exist (a part of it is not a folder)`);
    case 'EACCES':
    case 'EPERM':
      return new FileError(`cannot read ${JSON.stringify(shown)}: permission denied`);
    case 'EISDIR':
      return new FileError(`${JSON.stringify(shown)} is a folder, not a file`);
    default:
      return new FileError(`cannot read ${JSON.stringify(shown)}: ${(e as Error).message}`);
  }
}

/**
 * Checks the paths of `applyFile` (a regular file within the limit) and `applyKustomize`
 * (a folder that kustomize renders without error) steps, relative to `base` (the scenario file's folder), before anything runs.
 * @throws ScenarioError `steps[3] (applyFile): the path "app.yaml" does not exist`
 */
export function checkScenarioFiles(sc: Scenario, base: string): void {
  sc.steps.forEach((s, i) => {
    const where = `steps[${i}] (${s.kind})`;
    if (s.kind === 'applyFile' || (s.kind === 'controller' && s.file !== undefined)) {
      const path = s.kind === 'applyFile' ? s.path : s.file!;
      try {
        const p = resolve(base, path);
        const st = statSync(p);
        if (st.isDirectory())
          throw new FileError(
            `${JSON.stringify(path)} is a folder, not a file${s.kind === 'applyFile' ? ' (use applyKustomize for a kustomization)' : ''}`,
          );
        if (!st.isFile()) throw new FileError(`${JSON.stringify(path)} is not a regular file`);
        if (st.size > MAX_FILE_BYTES)
          throw new FileError(`${JSON.stringify(path)} is ${st.size} bytes; the limit is ${formatBytes(MAX_FILE_BYTES)}`);
      } catch (e) {
        throw new ScenarioError(`${where}: ${(e instanceof FileError ? e : openError(e, path)).message}`);
      }
    } else if (s.kind === 'applyKustomize') {
      let st;
      try {
        st = statSync(resolve(base, s.path));
      } catch (e) {
        throw new ScenarioError(`${where}: ${openError(e, s.path).message}`);
      }
      if (!st.isDirectory())
        throw new ScenarioError(
          `${where}: ${JSON.stringify(s.path)} is not a folder (applyKustomize takes a kustomization folder, as kubectl apply -k)`,
        );
      // render it once now, so a broken kustomization is a file error (kustomize's message)
      const out = kustomizeOutput(diskFS, resolve(base, s.path));
      if (out.code !== 0)
        throw new ScenarioError(
          `${where}: ${out.stderr
            .trim()
            .split('\n')
            .pop()!
            .replace(/^error: /, '')}`,
        );
    }
  });
}

/**
 * The runner's file access for a scenario file: applyFile (and a `controller` step's file)
 * through {@link readRegularFile} and applyKustomize through kustomizeDir, all relative to the
 * scenario file's folder. A file that changed after {@link checkScenarioFiles} is a recorded
 * step error. User controllers run in node's vm (controller-vm.ts); `.ts` files are compiled
 * first (controller-compile.ts).
 */
export function runnerIO(scenarioFile: string): RunnerIO {
  const base = dirname(resolve(scenarioFile));
  return {
    readFile: (p) => readRegularFile(resolve(base, p), p),
    kustomize: (p) => kustomizeDir(resolve(base, p)),
    controllerSandbox: vmSandboxFactory(),
    compileController,
  };
}
