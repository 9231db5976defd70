/**
 * The entry points as processes (issue 21): a bad command line or scenario file ends with
 * exit status 1 and one `error:` line (plus the usage line for flags), never a stack trace,
 * before any work (bench and soak run nothing). The messages themselves are pinned in
 * args.test.ts and scenario-cli.test.ts; this checks the wiring of each script.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIO_USAGE } from './scenario';
import { BENCH_USAGE } from './bench-args';
import { SOAK_USAGE } from './soak-args';
import { KUSTOMIZE_USAGE } from './kustomize';

function spawn(script: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, `${script}.ts`), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('entry points exit 1 with one error line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-spawn-'));
  const bad = join(dir, 'bad.yaml');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(bad, 'cluster:\n  nodes:\n    - {name: n1, capacity: {cpu: lots}}\nsteps: []\n');

  it.each([
    [
      'scenario: a bad node capacity',
      'scenario',
      [bad],
      `error: ${bad}: cluster.nodes[0]: capacity.cpu: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (got "lots")\n`,
    ],
    [
      'scenario: --out in a missing folder',
      'scenario',
      [bad, '--out', join(dir, 'no', 'r.json')],
      `error: invalid argument "${join(dir, 'no', 'r.json')}" for "--out" flag: folder "${join(dir, 'no')}" does not exist\n${SCENARIO_USAGE}\n`,
    ],
    [
      'kustomize: an unknown flag',
      'kustomize',
      ['--load-restrictor', 'none', dir],
      `error: unknown flag: --load-restrictor\n${KUSTOMIZE_USAGE}\n`,
    ],
    [
      'bench: an unknown case',
      'bench',
      ['--only', 'nope'],
      `error: invalid argument "nope" for "--only" flag: no such case (cases: seed-3-replicas, pods-1k-nodes-100, pods-10k-nodes-1k, scheduler-nodes-5k, idle-nodes-5k-1h, pods-30-nodes-30, pods-300-nodes-30, node-kill-pods-1k, pods-150k-nodes-5k, scenario-json-300, webernetes, webernetes-seed-3-replicas, webernetes-pods-30-nodes-30, webernetes-pods-300-nodes-30)\n${BENCH_USAGE}\n`,
    ],
    [
      'soak: --runs Infinity',
      'soak',
      ['--runs', 'Infinity'],
      `error: invalid argument "Infinity" for "--runs" flag: must be an integer from 1 to 10000000\n${SOAK_USAGE}\n`,
    ],
  ])(
    '%s',
    (_name, script, args, stderr) => {
      expect(spawn(script, args)).toEqual({ status: 1, stdout: '', stderr });
    },
    60_000,
  );
});
