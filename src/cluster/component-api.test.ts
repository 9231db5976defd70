/**
 * Guard rail of issue 17 §3: components receive a client with their identity and build their
 * informers from it (component-context.ts, client/listwatch.ts); they never reach the
 * APIServer. This test scans the component folders' source (comments and string literals
 * removed; tests and fixtures, which assemble an apiserver, exempt) for:
 *
 * - `ctx.api` (the context has no apiserver),
 * - `client.api` or any `.api.` reach through a client to the apiserver,
 * - a value import of `APIServer` or `new APIServer` (a type import is fine: code that runs
 *   inside kube-apiserver, controlplane/rbac-bootstrap.ts, takes it as a parameter).
 *
 * Code that belongs to the apiserver or the assembly gets a narrow interface of its own
 * (apiserver/internal.ts) instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

/** The component folders (relative to src/), walked with their subfolders. */
const COMPONENT_DIRS = [
  'cluster/controllers',
  'cluster/scheduler',
  'cluster/kubelet',
  'cluster/proxy',
  'cluster/dns',
  'cluster/controlplane',
  'cluster/user-controller',
];

const PATTERNS: RegExp[] = [
  /\bctx\s*\.\s*api\b/,
  /\bclient\s*\.\s*api\b/,
  /\.api\s*\./,
  /\bnew\s+APIServer\b/,
  /^import\s+\{[^}]*\bAPIServer\b[^}]*\}/,
];

/** Source without comments and string contents (a regex literal may keep noise; none of the patterns occurs in one). */
function stripped(src: string): string {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}

/** Lines of `src` with a forbidden use of the apiserver. */
export function apiserverUses(src: string): string[] {
  const out: string[] = [];
  stripped(src)
    .split('\n')
    .forEach((line, i) => {
      // a type-only import names the type, not the value
      const l = line.replace(/^import\s+type\b.*$/, '').replace(/\btype\s+APIServer\b/g, '');
      if (PATTERNS.some((p) => p.test(l))) out.push(`${i + 1}: ${line.trim()}`);
    });
  return out;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(SRC, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...files(rel));
    else if (/\.tsx?$/.test(e.name) && !/\.(test|fixture)\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

describe('apiserverUses finds what it must', () => {
  const cases: [string, string, boolean][] = [
    ['ctx.api', 'const info = this.ctx.api.registry.forResource(group, resource);', true],
    ['client.api', 'return this.client.api.list(this.client.user, info, ns).items;', true],
    ['a value import', "import { APIServer } from '../apiserver/apiserver';", true],
    ['a mixed import naming the value', "import { APIServer, type RequestUser } from '../apiserver/apiserver';", true],
    ['construction', 'const api = new APIServer(clock, rng, relay, {});', true],
    ['a type import', "import type { APIServer } from '../apiserver/apiserver';", false],
    ['an inline type import', "import { type APIServer, users } from '../apiserver/apiserver';", false],
    ['the client and its mapper', "const info = this.client.restMapper.forResource('', 'pods');", false],
    ['a comment', '// the old code read ctx.api.store here', false],
    ['a string', "throw new Error('ctx.api is gone');", false],
  ];
  for (const [name, line, found] of cases) it(name, () => expect(apiserverUses(line).length > 0).toBe(found));
});

describe('components reach the apiserver only through a client', () => {
  const all = COMPONENT_DIRS.flatMap(files);
  it('scans every component folder', () => expect(all.length).toBeGreaterThan(80));
  for (const file of all) it(file, () => expect(apiserverUses(readFileSync(join(SRC, file), 'utf8'))).toEqual([]));
});
