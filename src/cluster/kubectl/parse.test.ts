/**
 * Replays testdata/golden/kubectl-decode.json (real kubectl; see the README there): duplicate
 * YAML keys are accepted with the last one winning, and the "resource mapping not found" error
 * has kubectl's `error: ` prefix exactly when it is the only error printed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freshCluster } from './apply.fixture';
import { runApply } from './apply';
import { parseManifest } from './parse';

interface Golden {
  name: string;
  command: string;
  stdin: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

const goldens = JSON.parse(readFileSync(new URL('./testdata/golden/kubectl-decode.json', import.meta.url), 'utf8')) as Golden[];
const byName = (n: string): Golden => {
  const g = goldens.find((x) => x.name === n);
  if (!g) throw new Error(`no golden ${n}`);
  return g;
};

describe('kubectl goldens: apply', () => {
  const applyCases = goldens.filter((g) => g.command.startsWith('kubectl apply'));
  it('covers the recorded apply transcripts', () => {
    expect(applyCases.map((g) => g.name)).toEqual([
      'duplicate-keys-apply',
      'crd-not-installed',
      'crd-not-installed-with-configmap',
      'crd-not-installed-and-server-error',
    ]);
  });
  it.each(applyCases.map((g) => [g.name, g]))('%s: same stdout, stderr and exit code', (_n, g) => {
    const { kubectl } = freshCluster();
    const m = g.command.match(/--dry-run=(client|server)/);
    const run = runApply(kubectl, g.stdin, { dryRun: m ? (m[1] as 'client' | 'server') : false });
    expect(run.stdout).toBe(g.stdout);
    expect(run.stderr).toBe(g.stderr);
    expect(run.stderr && run.results.some((r) => r.action === 'error') ? 1 : 0).toBe(g.exitCode);
  });
});

describe('parseManifest: duplicate mapping keys', () => {
  it('the last value wins, as in the JSON kubectl create sends', () => {
    const g = byName('duplicate-keys-create');
    const [chunk] = parseManifest(g.stdin);
    expect(chunk.error).toBeUndefined();
    const sent = JSON.parse(g.stdout) as { metadata: Record<string, unknown> };
    delete sent.metadata.namespace; // kubectl fills the namespace before printing
    expect(chunk.value).toEqual(sent);
  });

  it.each([
    ['nested map', 'a:\n  b: 1\n  b: 2\n', { a: { b: 2 } }],
    ['top level', 'a: 1\nb: 2\na: 3\n', { a: 3, b: 2 }],
    ['flow mapping', '{a: 1, a: 2}\n', { a: 2 }],
  ])('%s', (_n, text, want) => {
    const [chunk] = parseManifest(text);
    expect(chunk.error).toBeUndefined();
    expect(chunk.value).toEqual(want);
  });
});
