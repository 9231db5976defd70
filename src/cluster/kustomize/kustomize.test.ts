/**
 * Golden tests: every case folder under testdata/ (regen.py ran the oracle `kubectl kustomize`
 * v1.32 / kustomize v5.5 on it) renders byte for byte the same stdout and stderr.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { kustomizeOutput, type KustomizeFS } from './index';

const ROOT = fileURLToPath(new URL('./testdata', import.meta.url));

const fs: KustomizeFS = {
  readFile: (p) => (existsSync(p) && statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined),
  isDir: (p) => existsSync(p) && statSync(p).isDirectory(),
};

function cases(dir: string, rel = ''): string[] {
  const out: string[] = [];
  if (existsSync(`${dir}/expected.yaml`)) out.push(rel);
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) out.push(...cases(`${dir}/${e.name}`, rel ? `${rel}/${e.name}` : e.name));
  return out;
}

describe('kubectl kustomize goldens', () => {
  const all = cases(ROOT).sort();
  it('has cases', () => expect(all.length).toBeGreaterThan(8));
  it.each(all)('%s', (c) => {
    const dir = `${ROOT}/${c}`;
    const out = kustomizeOutput(fs, dir);
    const want = readFileSync(`${dir}/expected.yaml`, 'utf8');
    const wantErr = readFileSync(`${dir}/expected.stderr`, 'utf8').replaceAll('<ROOT>', ROOT);
    expect(out.stdout).toBe(want);
    expect(out.stderr).toBe(wantErr);
    expect(out.code).toBe(wantErr.includes('error: ') ? 1 : 0);
  });
});
