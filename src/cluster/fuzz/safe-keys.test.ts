/**
 * Guard rail of issue 14 §1: the walkers of user-controlled keys (patches, managedFields,
 * labels, ConfigMap/Secret data, kustomize, jsonpath, schemas) must not come back to plain
 * `obj[key] = value`, `key in obj` or Object.assign, which treat `__proto__` and inherited
 * names (`constructor`, `toString`) as special. They use api/safe-object.ts (setOwn, getOwn,
 * hasOwn) or a Map. oxlint has no rule for this, so this test scans the files' source (comments
 * and string literals removed). A line that writes an array element says so with
 * `// array index` at its end.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files that walk user-controlled keys, relative to src/. */
const GUARDED = [
  'cluster/api/types.ts',
  'cluster/api/labels.ts',
  'cluster/api/selector-parser.ts',
  'cluster/apiserver/patch.ts',
  'cluster/apiserver/patch-json.ts',
  'cluster/apiserver/patch-managed-fields.ts',
  'cluster/apiserver/managed-fields-diff.ts',
  'cluster/apiserver/body-limits.ts',
  'cluster/apiserver/crd.ts',
  'cluster/apiserver/openapi-schema.ts',
  'cluster/apiserver/fields.ts',
  'cluster/apiserver/scale.ts',
  'cluster/apiserver/registry/core.ts',
  'cluster/apimachinery/strategic-merge.ts',
  'cluster/kubectl/jsonpath.ts',
  'cluster/kubectl/cmd/create.ts',
  'cluster/kubectl/cmd/mutate.ts',
  'cluster/kubectl/cmd/apply-server-side.ts',
  'cluster/kubectl/cmd/rollout.ts',
  'cluster/kustomize/patches.ts',
  'cluster/kustomize/transform.ts',
  'cluster/kustomize/generators.ts',
  'cluster/kubelet/env.ts',
  'cluster/kubelet/volumes.ts',
  'cluster/userland/container-process.ts',
  'worker/diff.ts',
];

/** Source with comments and string/template literals blanked (line structure kept). */
function code(src: string): string[] {
  const out = src.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|\/(?![*/])(?:\\.|\[[^\]\n]*\]|[^/\\\n[])+\/[dgimsuy]*(?=\s*[.,;)\]}])/g,
    (m) => m.replace(/[^\n]/g, ' '),
  );
  return out.split('\n');
}

/** Findings in one file: `line: text` of each raw keyed write, `in` test or Object.assign. */
export function unsafeKeyUses(src: string): string[] {
  const raw = src.split('\n');
  const found: string[] = [];
  code(src).forEach((line, i) => {
    if (/\/\/ array index\s*$/.test(raw[i])) return;
    const bad =
      /[\w\])]\[[^\][]*[A-Za-z_$][^\][]*\]\s*(?:=(?![=>])|\?\?=|\|\|=)/.test(line) ||
      /(?:^|[^\w.$])(?!const\b|let\b|var\b)[A-Za-z_$][\w$]*\s+in\s+(?!keyof\b)[A-Za-z_$(]/.test(
        line.replace(/for\s*\(\s*(?:const|let|var)\s+[\w$]+\s+in\b/g, ''),
      ) ||
      /\bObject\.assign\s*\(/.test(line);
    if (bad) found.push(`${i + 1}: ${raw[i].trim()}`);
  });
  return found;
}

describe('user-keyed walkers use own-property helpers (issue 14 §1)', () => {
  it.each(GUARDED)('%s', (file) => {
    const src = readFileSync(join(__dirname, '..', '..', file), 'utf8');
    expect(unsafeKeyUses(src)).toEqual([]);
  });

  it.each([
    ['out[k] = v;', true],
    ['cur = (cur[s] ??= {}) as Obj;', true],
    ['if (!(last in parent)) throw e;', true],
    ['Object.assign(out, patch);', true],
    ['out[i] = v; // array index', false],
    ['setOwn(out, k, v);', false],
    ['if (hasOwn(parent, last)) x();', false],
    ['for (const k in b) if (hasOwn(b, k)) n++;', false],
    ["const s = 'a[k] = b';", false],
    ['// out[k] = v', false],
    ['if (a[k] === b[k]) n++;', false],
  ])('the scanner: %j is flagged: %s', (line, flagged) => {
    expect(unsafeKeyUses(line).length > 0).toBe(flagged);
  });
});
