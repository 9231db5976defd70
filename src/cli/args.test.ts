/**
 * Flags of every entry point but `npm run apiserver` (issue 21): each bad command line is one
 * `error: …` line naming the flag and the problem, then the usage line, exit 1.
 */
import { describe, expect, it } from 'vitest';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_FILE_BYTES } from '../cluster/scenario/limits';
import { mainCode, type CliIO } from './args';
import { BENCH_USAGE, parseBenchArgs } from './bench-args';
import { SOAK_USAGE, parseSoakArgs } from './soak-args';
import { KUSTOMIZE_USAGE, kustomizeMain } from './kustomize';

async function run(usage: string, main: (io: CliIO) => number) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) };
  const code = await mainCode(usage, () => main(io), io);
  return { code, stdout, stderr };
}

const INT = (flag: string, v: string, lo: number, hi: number) =>
  `error: invalid argument "${v}" for "--${flag}" flag: must be an integer from ${lo} to ${hi}`;

describe('npm run soak flags', () => {
  it.each([
    ['unknown flag', ['--run', '5'], 'error: unknown flag: --run'],
    ['unknown shorthand', ['-r', '5'], "error: unknown shorthand flag: 'r' in -r"],
    ['a positional argument', ['5'], 'error: unexpected argument "5"'],
    ['--runs without a value', ['--runs'], 'error: flag needs an argument: --runs'],
    ['--runs not a number', ['--runs', 'many'], INT('runs', 'many', 1, 10_000_000)],
    ['--runs zero', ['--runs', '0'], INT('runs', '0', 1, 10_000_000)],
    ['--runs negative', ['--runs=-5'], INT('runs', '-5', 1, 10_000_000)],
    ['--runs Infinity', ['--runs', 'Infinity'], INT('runs', 'Infinity', 1, 10_000_000)],
    ['--runs in exponent form', ['--runs', '1e3'], INT('runs', '1e3', 1, 10_000_000)],
    ['--runs too many', ['--runs', '10000001'], INT('runs', '10000001', 1, 10_000_000)],
    ['--seed a fraction', ['--seed', '1.5'], INT('seed', '1.5', -2147483648, 2147483647)],
    ['--seed beyond 32 bits', ['--seed', '4294967296'], INT('seed', '4294967296', -2147483648, 2147483647)],
    ['--seed empty', ['--seed='], INT('seed', '', -2147483648, 2147483647)],
    ['--max-actions NaN', ['--max-actions', 'NaN'], INT('max-actions', 'NaN', 1, 1000)],
  ])('%s', async (_name, argv, want) => {
    expect(await run(SOAK_USAGE, () => (parseSoakArgs(argv), 0))).toEqual({ code: 1, stdout: '', stderr: `${want}\n${SOAK_USAGE}\n` });
  });

  it('takes the defaults and valid values', () => {
    expect(parseSoakArgs([])).toEqual({ runs: 10_000, seed: 1, maxActions: 30, help: false });
    expect(parseSoakArgs(['--runs', '5', '--seed=-7', '--max-actions', '3'])).toEqual({ runs: 5, seed: -7, maxActions: 3, help: false });
    expect(parseSoakArgs(['--runs', '5', '--', '--seed', '2'])).toEqual({ runs: 5, seed: 2, maxActions: 30, help: false });
  });
});

describe('npm run bench flags', () => {
  it.each([
    ['unknown flag', ['--bigger'], 'error: unknown flag: --bigger'],
    ['--only without a value', ['--only'], 'error: flag needs an argument: --only'],
    [
      '--only an unknown case',
      ['--only', 'pods-1m'],
      'error: invalid argument "pods-1m" for "--only" flag: no such case (cases: seed-3-replicas, pods-1k-nodes-100, pods-10k-nodes-1k, scheduler-nodes-5k, idle-nodes-5k-1h, pods-30-nodes-30, pods-300-nodes-30, node-kill-pods-1k, pods-150k-nodes-5k, scenario-json-300, webernetes, webernetes-seed-3-replicas, webernetes-pods-30-nodes-30, webernetes-pods-300-nodes-30)',
    ],
    [
      'a bool flag with a value',
      ['--big=yes'],
      'error: invalid argument "yes" for "--big" flag: strconv.ParseBool: parsing "yes": invalid syntax',
    ],
    ['a positional argument', ['seed-3-replicas'], 'error: unexpected argument "seed-3-replicas"'],
  ])('%s', async (_name, argv, want) => {
    expect(await run(BENCH_USAGE, () => (parseBenchArgs(argv), 0))).toEqual({ code: 1, stdout: '', stderr: `${want}\n${BENCH_USAGE}\n` });
  });

  it.each([
    [[], { big: false, only: undefined, peer: true, help: false }],
    [['--big', '--no-peer'], { big: true, only: undefined, peer: false, help: false }],
    [['--only', 'seed-3-replicas'], { big: false, only: 'seed-3-replicas', peer: false, help: false }],
    [['--only=pods-150k-nodes-5k'], { big: true, only: 'pods-150k-nodes-5k', peer: false, help: false }],
    [['--only', 'webernetes-seed-3-replicas'], { big: false, only: 'webernetes-seed-3-replicas', peer: true, help: false }],
    [['--only', 'webernetes'], { big: false, only: 'webernetes', peer: true, help: false }],
    [['--big', '--', '--only', 'seed-3-replicas'], { big: true, only: 'seed-3-replicas', peer: false, help: false }],
  ])('%j', (argv, want) => expect(parseBenchArgs(argv)).toEqual(want));
});

describe('npm run kustomize arguments (as kubectl kustomize)', () => {
  it.each([
    ['unknown flag', ['--enable-helm', 'dir'], 'error: unknown flag: --enable-helm'],
    ['unknown shorthand', ['-o', 'yaml'], "error: unknown shorthand flag: 'o' in -o"],
    ['two folders', ['a', 'b'], 'error: specify one path to kustomization.yaml'],
  ])('%s', async (_name, argv, want) => {
    expect(await run(KUSTOMIZE_USAGE, (io) => kustomizeMain(argv, io))).toEqual({
      code: 1,
      stdout: '',
      stderr: `${want}\n${KUSTOMIZE_USAGE}\n`,
    });
  });

  it("a missing folder is kustomize's own error, exit 1", async () => {
    expect(await run(KUSTOMIZE_USAGE, (io) => kustomizeMain(['/nonexistent/overlay'], io))).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: must build at directory: not a valid directory: evalsymlink failure on '/nonexistent/overlay' : lstat /nonexistent/overlay: no such file or directory\n",
    });
  });

  it('a resource over 3 MiB is an error naming the file, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kustomize-big-'));
    try {
      writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [big.yaml]\n');
      const fd = openSync(join(dir, 'big.yaml'), 'w');
      ftruncateSync(fd, MAX_FILE_BYTES + 1);
      closeSync(fd);
      const r = await run(KUSTOMIZE_USAGE, (io) => kustomizeMain([dir], io));
      expect({ ...r, stderr: r.stderr.split(dir).join('DIR') }).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: accumulating resources: file "DIR/big.yaml" is ${MAX_FILE_BYTES + 1} bytes; the limit is 3 MiB (3145728 bytes)\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
