/**
 * The command-line bundle (vite.cli.config.ts, run by src/cli/run.mjs as `npm run scenario` and
 * the other entry points do) gives byte for byte what the same entry gives under tsx: the seed
 * scenario's JSON and Mermaid files, kustomize's YAML, and the error lines of bad command lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'cli-bundle-'));

function run(how: 'tsx' | 'bundle', script: string, args: string[]) {
  const argv =
    how === 'tsx' ? ['--import', 'tsx', join(ROOT, `src/cli/${script}.ts`), ...args] : [join(ROOT, 'src/cli/run.mjs'), script, ...args];
  const r = spawnSync(process.execPath, argv, { cwd: ROOT, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('dist-cli bundle = tsx', () => {
  beforeAll(() => {
    const r = spawnSync(process.execPath, [join(ROOT, 'src/cli/run.mjs'), 'build'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the seed scenario: stdout JSON and the --mermaid file', () => {
    const files = (how: 'tsx' | 'bundle') => {
      const mmd = join(dir, `${how}.mmd`);
      const r = run(how, 'scenario', ['src/scenarios/seed-relay.scenario.yaml', '--mermaid', mmd]);
      return { ...r, mermaid: readFileSync(mmd, 'utf8') };
    };
    const a = files('tsx');
    const b = files('bundle');
    expect(a.status).toBe(0);
    expect(JSON.parse(a.stdout).steps.length).toBeGreaterThan(0);
    expect(b.stdout === a.stdout).toBe(true);
    expect(b.mermaid === a.mermaid).toBe(true);
    expect({ status: b.status, stderr: b.stderr }).toEqual({ status: a.status, stderr: a.stderr });
  }, 300_000);

  it.each([
    ['kustomize: a folder', 'kustomize', ['src/cluster/kustomize/testdata/helloworld/base']],
    ['kustomize: an unknown flag', 'kustomize', ['--load-restrictor', 'none', '.']],
    ['scenario: no file', 'scenario', []],
    ['scenario: --help', 'scenario', ['--help']],
    ['bench: an unknown case', 'bench', ['--only', 'nope']],
    ['soak: --runs Infinity', 'soak', ['--runs', 'Infinity']],
  ])(
    '%s',
    (_name, script, args) => {
      const a = run('tsx', script, args);
      expect(a.stdout + a.stderr).not.toBe('');
      expect(run('bundle', script, args)).toEqual(a);
    },
    120_000,
  );
});
